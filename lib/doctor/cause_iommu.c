// SPDX-License-Identifier: GPL-2.0-or-later
/* Why DMA is not translated or faults: an IOMMU the firmware describes that did not
 * register, DMA masters outside every group, faults and lost fault records, passthrough,
 * ATS turned off. What the firmware describes decides between missing and absent. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_sid.h"

/* Whether the firmware describes an IOMMU: a device-tree node of one (a platform device
 * with that role) or an ACPI table of one. */
bool doctor_iommu_described(const struct doctor_board *b, const char **what)
{
	for (size_t i = 0; i < b->npdevs; i++)
		if (b->pdevs[i].role && b->pdevs[i].role->sub == SB_DOCTOR_IOMMU) {
			*what = b->pdevs[i].name;
			return true;
		}
	*what = b->plat.acpi_iort ? "ACPI IORT" : b->plat.acpi_dmar ? "ACPI DMAR" : "ACPI IVRS";
	return b->plat.acpi_iort || b->plat.acpi_dmar || b->plat.acpi_ivrs;
}

static void missing(struct doctor_board *b)
{
	const char *what;
	struct sb_cause *c;

	if (sb_is_dir(b->root, "/sys/class/iommu") &&
	    b->rep->subs[SB_DOCTOR_IOMMU].status != SB_HEALTH_MISSING)
		return;
	if (!doctor_iommu_described(b, &what))
		return;
	/* a device of its own already says why (deferred, failed, no driver) */
	for (size_t i = 0; i < b->rep->ncauses; i++)
		if (b->rep->causes[i].sub == SB_DOCTOR_IOMMU)
			return;
	c = doctor_cause(b, "iommu.missing", SB_DOCTOR_IOMMU, what);
	if (!c)
		return;
	cause_diag(c, "%s describes an IOMMU but no IOMMU registered", what);
	cause_evidence(c, "%s; /sys/class/iommu: empty", what);
	if (b->plat.acpi_dmar)
		cause_fix(c, "build CONFIG_INTEL_IOMMU and boot with intel_iommu=on");
	else if (b->plat.acpi_ivrs)
		cause_fix(c, "build CONFIG_AMD_IOMMU; check amd_iommu= on the command line");
	else
		cause_fix(c, "build CONFIG_ARM_SMMU_V3 (SMMUv3) or CONFIG_ARM_SMMU (MMU-500), and "
			     "check its probe in the kernel log");
}

static void unmapped_masters(struct doctor_board *b)
{
	for (size_t i = 0; i < b->npdevs; i++) {
		const struct doctor_pdev *p = &b->pdevs[i];
		struct sb_cause *c;

		/* an unbound device gets its group when it probes: its probe says more */
		if (!p->iommus || p->grouped || !p->bound)
			continue;
		c = doctor_cause(b, "iommu.unmapped-master", SB_DOCTOR_IOMMU, p->name);
		if (!c)
			continue;
		cause_diag(c,
			   "%s has an iommus property but is in no IOMMU group: its DMA is not "
			   "translated",
			   p->name);
		cause_evidence(c,
			       "/sys/bus/platform/devices/%s/of_node/iommus present, "
			       "iommu_group absent",
			       p->name);
	}
}

static void overflow(struct doctor_board *b)
{
	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text;
		char dev[96];
		struct sb_cause *c;

		if (!strstr(text, "EVTQ overflow detected") &&
		    !strstr(text, "PRIQ overflow detected"))
			continue;
		if (!doctor_log_dev(text, dev, sizeof(dev)))
			snprintf(dev, sizeof(dev), "smmu");
		c = doctor_cause(b, "iommu.evtq-overflow", SB_DOCTOR_IOMMU, dev);
		if (!c)
			continue;
		cause_diag(c, "%s: its %s queue overflowed: fault records were lost", dev,
			   strstr(text, "PRIQ") ? "PRI" : "event");
		cause_evidence(c, "kernel log: %s", text);
	}
}

static void faults(struct doctor_board *b)
{
	struct sb_iommu_event *ev = NULL;
	struct sb_sid_namer *names = NULL;
	size_t n = 0;

	if (sb_iommu_events(&b->log, &ev, &n, NULL) < 0 || !n)
		goto out;
	if (sb_sid_namer_open(b->root, &names) == 0)
		for (size_t i = 0; i < n; i++)
			sb_sid_namer_name(names, &ev[i]);
	/* a client nobody named is its stream ID */
	for (size_t i = 0; i < n; i++)
		if ((!ev[i].device[0] || !strcmp(ev[i].device, "-")) && ev[i].has_sid)
			snprintf(ev[i].device, sizeof(ev[i].device), "sid 0x%x", ev[i].sid);
		else if (!ev[i].device[0] || !strcmp(ev[i].device, "-"))
			snprintf(ev[i].device, sizeof(ev[i].device), "unknown client of %.64s",
				 ev[i].source);
	for (size_t i = 0; i < n; i++) {
		size_t count = 0, first = i;
		struct sb_cause *c;
		char at[32] = "";

		for (size_t k = 0; k < n; k++)
			if (!strcmp(ev[k].device, ev[i].device)) {
				count++;
				first = k < first ? k : first;
			}
		if (first != i ||
		    !(c = doctor_cause(b, "iommu.faults", SB_DOCTOR_IOMMU, ev[i].device)))
			continue;
		/* the diagnosis names the instance by its one name (as smmustat and socbox
		 * events do) and stays short for the console; the evidence has the kernel log's
		 * device name and the decoded reason */
		cause_diag(c, "%s: %zu DMA fault%s in %s since boot (%s)", ev[i].device, count,
			   count == 1 ? "" : "s", ev[i].instance[0] ? ev[i].instance : ev[i].source,
			   ev[i].kind);
		if (ev[i].has_addr)
			snprintf(at, sizeof(at), " at 0x%llx", (unsigned long long)ev[i].addr);
		cause_evidence(c, "kernel log of %s: %s fault%s by %s%s%s (smmustat events)",
			       ev[i].source, ev[i].kind, at, ev[i].device,
			       ev[i].reason[0] ? ": " : "", ev[i].reason);
		cause_fix(c,
			  "smmustat events shows each fault; check %s's driver's DMA mapping and "
			  "its stream IDs in the firmware",
			  ev[i].device);
	}
out:
	sb_sid_namer_close(names);
	free(ev);
}

static void policy(struct doctor_board *b)
{
	struct sb_iommu_group *g = NULL;
	size_t ng = 0, identity = 0;
	char val[32], object[64] = "";
	struct sb_cause *c;

	if (b->cmdline && sb_cmdline_param(b->cmdline, "iommu.passthrough", val, sizeof(val)) &&
	    (!strcmp(val, "1") || !strcmp(val, "y") || !strcmp(val, "on")))
		snprintf(object, sizeof(object), "iommu.passthrough=%s", val);
	else if (b->cmdline && sb_cmdline_param(b->cmdline, "iommu", val, sizeof(val)) &&
		 sb_cmdline_has_option(val, "pt"))
		snprintf(object, sizeof(object), "iommu=%s", val);
	if (sb_iommu_groups_brief(b->root, &g, &ng, NULL) == 0)
		for (size_t i = 0; i < ng; i++)
			identity += !strcmp(g[i].type, "identity");
	sb_iommu_groups_free(g, ng);
	if (object[0] && (c = doctor_cause(b, "iommu.passthrough", SB_DOCTOR_IOMMU, object))) {
		cause_diag(c, "%s on the command line: %zu of %zu groups bypass the IOMMU", object,
			   identity, ng);
		cause_evidence(c, "/proc/cmdline: %s", object);
	} else if (identity &&
		   (c = doctor_cause(b, "iommu.passthrough", SB_DOCTOR_IOMMU, "identity groups"))) {
		cause_diag(c, "%zu of %zu IOMMU groups are identity (passthrough) domains",
			   identity, ng);
		cause_evidence(c, "/sys/kernel/iommu_groups/N/type: identity in %zu groups",
			       identity);
	}
	if (b->cmdline && sb_cmdline_param(b->cmdline, "pci", val, sizeof(val)) &&
	    sb_cmdline_has_option(val, "noats") &&
	    (c = doctor_cause(b, "iommu.ats-off", SB_DOCTOR_IOMMU, "pci=noats"))) {
		cause_diag(c, "pci=noats: no PCIe device uses ATS or PRI");
		cause_evidence(c, "/proc/cmdline: pci=%s", val);
	}
}

void doctor_causes_iommu(struct doctor_board *b)
{
	missing(b);
	overflow(b);
	faults(b);
	unmapped_masters(b);
	policy(b);
}
