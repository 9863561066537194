// SPDX-License-Identifier: GPL-2.0-or-later
/* One name per IOMMU object (socbox/iommu_names.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_dt.h"
#include "socbox/iommu_irq.h"
#include "socbox/iommu_names.h"
#include "socbox/limits.h"
#include "socbox/macro.h"

size_t sb_iommu_instance_index(const struct sb_iommu *inst, size_t n, const char *name)
{
	if (!name || !*name)
		return n;
	for (size_t i = 0; i < n; i++)
		if (!strcmp(inst[i].name, name) ||
		    (inst[i].hwdev[0] && !strcmp(inst[i].hwdev, name)))
			return i;
	return n;
}

static bool hex_run(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isxdigit((unsigned char)s[i]))
			return false;
	return true;
}

bool sb_pci_addr_short(const char *s)
{
	return strlen(s) == 7 && hex_run(s, 2) && s[2] == ':' && hex_run(s + 3, 2) && s[5] == '.' &&
	       s[6] >= '0' && s[6] <= '7';
}

void sb_pci_addr_full(const char *s, const struct sb_iommu_group *g, size_t ng, char *out,
		      size_t len)
{
	const char *found = NULL;
	unsigned matches = 0;

	if (!sb_pci_addr_short(s)) {
		snprintf(out, len, "%s", s);
		return;
	}
	for (size_t k = 0; k < ng; k++)
		for (size_t d = 0; d < g[k].ndevs; d++) {
			const char *name = g[k].devs[d].name;

			if (strlen(name) == 12 && name[4] == ':' && hex_run(name, 4) &&
			    !strcasecmp(name + 5, s)) {
				found = name;
				matches++;
			}
		}
	if (matches == 1)
		snprintf(out, len, "%s", found);
	else
		snprintf(out, len, "0000:%s", s);
}

const char *sb_iommu_of_device(const struct sb_iommu_group *g, size_t ng, const char *dev)
{
	for (size_t k = 0; k < ng; k++)
		for (size_t d = 0; d < g[k].ndevs; d++)
			if (!strcmp(g[k].devs[d].name, dev))
				return g[k].devs[d].iommu[0] ? g[k].devs[d].iommu : NULL;
	return NULL;
}

static enum sb_iommu_kind irq_driver(const char *kind)
{
	if (!strcmp(kind, "dmar"))
		return SB_IOMMU_VTD;
	if (!strcmp(kind, "amd-vi"))
		return SB_IOMMU_AMD;
	if (!strcmp(kind, "context") || !strcmp(kind, "global"))
		return SB_IOMMU_SMMU;
	return SB_IOMMU_SMMUV3;
}

/* The hwirq /proc/interrupts prints after a GIC chip name ("GICv3 132 Level"). */
static bool gic_hwirq(const struct sb_irq_row *row, uint32_t *hwirq)
{
	const char *p = row->desc;
	char *end;
	unsigned long v;

	if (strncmp(row->chip, "GIC", 3) || strncmp(p, row->chip, strlen(row->chip)))
		return false;
	p += strlen(row->chip);
	v = strtoul(p, &end, 10);
	if (end == p || v > 0xffffffffu || (*end && *end != ' '))
		return false;
	*hwirq = (uint32_t)v;
	return true;
}

static bool dt_lists(const struct sb_root *r, const struct sb_iommu *in, uint32_t hwirq)
{
	uint32_t irqs[16];
	char *buf = NULL;
	ssize_t len = sb_read_file(r, &buf, SB_READ_ATTR_MAX,
				   "/sys/class/iommu/%s/device/of_node/interrupts", in->name);
	size_t k = len > 0 ? sb_dt_gic_hwirqs(buf, (size_t)len, irqs, ARRAY_SIZE(irqs)) : 0;

	free(buf);
	while (k--)
		if (irqs[k] == hwirq)
			return true;
	return false;
}

const char *sb_iommu_irq_instance(const struct sb_root *r, const struct sb_iommu *inst, size_t n,
				  const struct sb_irq_row *row, const char *kind)
{
	const char *only = NULL;
	size_t i = sb_iommu_instance_index(inst, n, row->actions);
	uint32_t hwirq;

	if (i < n)
		return inst[i].name;
	if (!kind)
		return NULL;
	if (r && gic_hwirq(row, &hwirq))
		for (i = 0; i < n; i++)
			if (inst[i].hwdev[0] && dt_lists(r, &inst[i], hwirq))
				return inst[i].name;
	for (i = 0; i < n; i++)
		if (inst[i].kind == irq_driver(kind)) {
			if (only)
				return NULL;
			only = inst[i].name;
		}
	return only;
}
