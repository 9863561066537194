// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's IOMMU probe: a view of what lib/iommu reads (instances, groups, the policy). */
#define _GNU_SOURCE
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/macro.h"
#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "socbox/sys.h"

static bool kstrtobool_like(const char *s, bool *v)
{
	switch (s[0]) {
	case 'e':
	case 'E':
	case 'y':
	case 'Y':
	case 't':
	case 'T':
	case '1':
		*v = true;
		return true;
	case 'd':
	case 'D':
	case 'n':
	case 'N':
	case 'f':
	case 'F':
	case '0':
		*v = false;
		return true;
	case 'o':
	case 'O':
		if (s[1] == 'n' || s[1] == 'N' || s[1] == 'f' || s[1] == 'F') {
			*v = s[1] == 'n' || s[1] == 'N';
			return true;
		}
	}
	return false;
}

/* The command-line parameters that set the IOMMU's behaviour, as facts "cmdline_<name>". */
static void boot_params(const char *cmdline, struct sb_doctor_sub *s)
{
	static const char *const params[] = {
		"iommu.strict", "iommu.passthrough", "iommu", "intel_iommu", "amd_iommu"
	};
	char val[64], key[48];

	for (size_t i = 0; cmdline && i < ARRAY_SIZE(params); i++) {
		if (!sb_cmdline_param(cmdline, params[i], val, sizeof(val)))
			continue;
		snprintf(key, sizeof(key), "cmdline_%s", params[i]);
		for (char *k = key; *k; k++)
			if (*k == '.')
				*k = '_';
		doctor_str(s, key, val, false);
	}
	/* the string above ("0") stays for old scripts; the boolean is what the kernel made
	 * of it (kstrtobool(): 1/y/t/e/on true, 0/n/f/d/off false; anything else leaves the
	 * default, and no key) */
	for (size_t i = 0; cmdline && i < 2; i++) {
		static const char *const bools[] = { "iommu.strict", "iommu.passthrough" };
		static const char *const keys[] = {
			"cmdline_iommu_strict_enabled", "cmdline_iommu_passthrough_enabled"
		};
		bool v;

		if (sb_cmdline_param(cmdline, bools[i], val, sizeof(val)) &&
		    kstrtobool_like(val, &v))
			doctor_bool(s, keys[i], v, false);
	}
}

/* "groups_DMA_FQ" was the first spelling (kept: the schema only grows); "groups_dma_fq"
 * is the snake_case one. */
static void group_type_facts(struct sb_doctor_sub *s, const char *type, size_t count)
{
	char key[48];

	snprintf(key, sizeof(key), "groups_%s", type);
	for (char *k = key; *k; k++)
		if (*k == '-')
			*k = '_';
	doctor_num(s, key, (int64_t)count, false);
	for (char *k = key; *k; k++)
		*k = (char)tolower((unsigned char)*k);
	if (strcmp(key + 7, type))
		doctor_num(s, key, (int64_t)count, false);
}

/* A summary reads the least it can: instance names from the class directory, only the type
 * of each group, and the kernel log only when the command line does not decide the policy. */
void doctor_probe_iommu(struct doctor_board *b, struct sb_doctor_sub *s)
{
	const struct sb_root *r = b->root;
	const char *const *types = sb_iommu_group_types;
	struct sb_dirlist inst = { 0 };
	struct sb_iommu_group *g = NULL;
	struct sb_iommu_policy pol;
	size_t ninst = 0, ng = 0, count[SB_IOMMU_NDOMAIN_TYPES] = { 0 }, off = 0, best = 0;
	char names[128] = "";
	const char *cmdline = b->cmdline, *what;

	if (sb_dir_list(r, &inst, "/sys/class/iommu") == 0)
		ninst = inst.n;
	if (sb_iommu_groups_brief(r, &g, &ng, NULL))
		ng = 0;
	for (size_t i = 0; i < ninst && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "",
					inst.names[i]);
	for (size_t k = 0; k < ng; k++)
		count[sb_iommu_type_index(g[k].type)]++;
	b->iommu_groups_read = true;
	b->iommu_groups = ng;
	b->iommu_identity = count[SB_IOMMU_DOMAIN_IDENTITY];
	doctor_num(s, "instances", (int64_t)ninst, false);
	/* instance_names stays for old scripts; instance_list is the array to read */
	doctor_str(s, "instance_names", names, false);
	doctor_list_add(s, "instance_list", NULL, false);
	for (size_t i = 0; i < ninst; i++)
		doctor_list_add(s, "instance_list", inst.names[i], false);
	doctor_num(s, "groups", (int64_t)ng, false);
	for (size_t t = 0; t < SB_IOMMU_NDOMAIN_TYPES; t++) {
		if (!count[t])
			continue;
		group_type_facts(s, types[t], count[t]);
		if (count[t] > count[best])
			best = t;
	}
	if (ng)
		doctor_str(s, "default_domain_type", types[best], false);
	if (cmdline)
		boot_params(cmdline, s);
	/* the same answer as smmustat's: the command line, the kernel log, the group types;
	 * the log is read only when the command line leaves the answer open */
	sb_iommu_policy(cmdline, NULL, g, ng, &pol);
	if (ng && strcmp(pol.source, "cmdline"))
		sb_iommu_policy(cmdline, &b->log, g, ng, &pol);
	if (pol.mode[0]) {
		doctor_str(s, "invalidation", pol.mode, false);
		doctor_str(s, "invalidation_source", pol.source, false);
	}

	if (ninst && ng) {
		s->status = SB_HEALTH_OK;
		doctor_summary(s, "%zu instance%s (%s), %zu group%s, mostly %s%s%s%s", ninst,
			       ninst == 1 ? "" : "s", names, ng, ng == 1 ? "" : "s", types[best],
			       pol.mode[0] ? " (" : "",
			       !strcmp(pol.mode, "passthrough") ? "passthrough"
			       : !strcmp(pol.mode, "lazy")	? "lazy invalidation"
			       : !strcmp(pol.mode, "strict")	? "strict invalidation"
								: "",
			       pol.mode[0] ? ")" : "");
	} else if (ninst || ng) {
		s->status = SB_HEALTH_DEGRADED;
		doctor_summary(s, "%zu instance%s, %zu group%s", ninst, ninst == 1 ? "" : "s", ng,
			       ng == 1 ? "" : "s");
		if (!ng)
			doctor_hint(s,
				    "IOMMU present but no device is attached to it: check the iommus/iommu-map "
				    "properties in the device tree or the DMAR/IORT tables");
	} else if (doctor_iommu_described(b, &what)) {
		/* the causes say why: its probe, its driver, its table */
		s->status = SB_HEALTH_MISSING;
		doctor_summary(s, "no IOMMU instance, although %s describes one", what);
	} else {
		s->status = SB_HEALTH_ABSENT;
		doctor_summary(s, "no IOMMU on this board (%s)",
			       b->plat.fw == SB_FW_DT ? "the device tree describes none"
			       : sb_arch_is_x86(b->plat.arch)
				       ? "no DMAR or IVRS table: VT-d or "
					 "AMD-Vi off in the firmware?"
				       : "the firmware describes none");
	}
	sb_dirlist_free(&inst);
	sb_iommu_groups_free(g, ng);
}
