// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"

/* Value of a kernel command-line parameter ("iommu.strict"), or NULL. */
static const char *cmdline_param(const char *cmdline, const char *name, char *buf, size_t len)
{
	size_t nlen = strlen(name);

	for (const char *p = cmdline; p && *p;) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, name, nlen) && (p[nlen] == '=' || p[nlen] == ' ' || !p[nlen])) {
			const char *v = p[nlen] == '=' ? p + nlen + 1 : "";
			size_t vl = strcspn(v, " \n");
			snprintf(buf, len, "%.*s", (int)vl, v);
			return buf;
		}
		p = strchr(p, ' ');
	}
	return NULL;
}

static void boot_policy(const struct sb_root *r, struct sb_doctor_sub *s)
{
	static const char *const params[] = { "iommu.strict", "iommu.passthrough", "iommu", "intel_iommu", "amd_iommu" };
	char *cmdline = NULL, val[64], key[48];

	if (sb_read_file(r, &cmdline, SB_READ_ATTR_MAX, "/proc/cmdline") < 0)
		return;
	for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
		if (!cmdline_param(cmdline, params[i], val, sizeof(val)))
			continue;
		snprintf(key, sizeof(key), "cmdline_%s", params[i]);
		for (char *k = key; *k; k++)
			if (*k == '.')
				*k = '_';
		doctor_str(s, key, val, false);
	}
	free(cmdline);
}

void doctor_probe_iommu(const struct sb_root *r, struct sb_doctor_sub *s)
{
	static const char *const types[] = { "DMA", "DMA-FQ", "identity", "blocked", "unmanaged", "unknown" };
	struct sb_dirlist inst = { 0 }, groups = { 0 };
	size_t count[sizeof(types) / sizeof(types[0])] = { 0 };
	char names[128] = "", type[32], key[48];
	size_t off = 0, best = 0;

	sb_dir_list(r, &inst, "/sys/class/iommu");
	sb_dir_list(r, &groups, "/sys/kernel/iommu_groups");
	for (size_t i = 0; i < inst.n && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "", inst.names[i]);
	for (size_t g = 0; g < groups.n; g++) {
		if (sb_attr_str(r, type, sizeof(type), "/sys/kernel/iommu_groups/%s/type", groups.names[g]) < 0)
			snprintf(type, sizeof(type), "unknown");
		for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++)
			if (!strcmp(type, types[t]))
				count[t]++;
	}
	doctor_num(s, "instances", (int64_t)inst.n, false);
	doctor_str(s, "instance_names", names, false);
	doctor_num(s, "groups", (int64_t)groups.n, false);
	for (size_t t = 0; t < sizeof(types) / sizeof(types[0]); t++) {
		if (!count[t])
			continue;
		snprintf(key, sizeof(key), "groups_%s", types[t]);
		for (char *k = key; *k; k++)
			if (*k == '-')
				*k = '_';
		doctor_num(s, key, (int64_t)count[t], false);
		if (count[t] > count[best])
			best = t;
	}
	if (groups.n)
		doctor_str(s, "default_domain_type", types[best], false);
	boot_policy(r, s);

	if (inst.n && groups.n) {
		s->status = SB_HEALTH_OK;
		doctor_summary(s, "%zu instance%s (%s), %zu group%s, mostly %s%s", inst.n, inst.n == 1 ? "" : "s",
			       names, groups.n, groups.n == 1 ? "" : "s", types[best],
			       !strcmp(types[best], "DMA-FQ") ? " (lazy invalidation)" :
			       !strcmp(types[best], "DMA") ? " (strict invalidation)" :
			       !strcmp(types[best], "identity") ? " (passthrough)" : "");
	} else if (inst.n || groups.n) {
		s->status = SB_HEALTH_PARTIAL;
		doctor_summary(s, "%zu instance%s, %zu group%s", inst.n, inst.n == 1 ? "" : "s", groups.n,
			       groups.n == 1 ? "" : "s");
		if (!groups.n)
			doctor_hint(s, "IOMMU present but no device is attached to it: check the iommus/iommu-map "
				       "properties in the device tree or the DMAR/IORT tables");
	} else {
		s->status = SB_HEALTH_MISSING;
		doctor_summary(s, "no IOMMU instance");
		doctor_hint(s, "no IOMMU: enable it in firmware (VT-d / AMD-Vi) or the device tree, build "
			       "CONFIG_ARM_SMMU_V3, CONFIG_INTEL_IOMMU or CONFIG_AMD_IOMMU, and on x86 boot with intel_iommu=on");
	}
	sb_dirlist_free(&inst);
	sb_dirlist_free(&groups);
}
