// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat groups: one row per IOMMU group; --group/--device narrow it down and add the
 * reserved regions. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_sid.h"
#include "socbox/macro.h"
#include "smmustat.h"

enum { G_GROUP, G_TYPE, G_IOMMU, G_NDEVS, G_DEVICES, G_DRIVERS, G_SIDS, G_RESERVED, G_NAME };

static const struct sb_col group_cols[] = {
	[G_GROUP] = { "GROUP", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL,
		      "group number (/sys/kernel/iommu_groups/N)", 0 },
	[G_TYPE] = { "TYPE", SB_T_STR, 0, SB_COL_LABEL,
		     "default domain type: DMA, DMA-FQ, identity, blocked, unmanaged, unknown", 0 },
	[G_IOMMU] = { "IOMMU", SB_T_STR, 0, SB_COL_LABEL, "instance serving the group", 0 },
	[G_NDEVS] = { "NDEVS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "number of devices", 0 },
	[G_DEVICES] = { "DEVICES", SB_T_STRV, 0.3, SB_COL_WRAP,
			"member devices (bus address or name)", 0 },
	[G_DRIVERS] = { "DRIVERS", SB_T_STRV, 0.2, SB_COL_WRAP,
			"driver of each device, in the same order (- unbound)", 0 },
	[G_SIDS] = { "STREAM_IDS", SB_T_STRV, 0.2, SB_COL_WRAP | SB_COL_HIDDEN,
		     "stream IDs of each device from the firmware (device tree or IORT), in the same order: 0x10, 0x10+0x11, - unknown; shown when the firmware maps any",
		     0 },
	[G_RESERVED] = { "RESERVED", SB_T_STRV, 0, SB_COL_HIDDEN, "reserved regions START-END:KIND",
			 0 },
	[G_NAME] = { "NAME", SB_T_STR, 0, SB_COL_HIDDEN, "group name, when a driver set one", 0 },
};

enum { R_GROUP, R_START, R_END, R_SIZE, R_KIND };
static const struct sb_col resv_cols[] = {
	[R_GROUP] = { "GROUP", SB_T_U64, 0, SB_COL_RIGHT, "group number", 0 },
	[R_START] = { "START", SB_T_STR, 0, 0, "first address", 0 },
	[R_END] = { "END", SB_T_STR, 0, 0, "last address (inclusive)", 0 },
	[R_SIZE] = { "SIZE_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES, "size of the region",
		     0 },
	[R_KIND] = { "KIND", SB_T_STR, 0, 0, "direct, direct-relaxable, reserved, msi", 0 },
};

static struct sb_cli_value opt_group = SB_CLI_NUMBER_VALUE(NULL, 0, INT_MAX);
static int opt_regions;
static char *opt_device;

static struct poptOption group_opts[] = {
	{ "group", 'g', SB_POPT_ARG_VALUE, &opt_group, 0, "only group N", "N" },
	{ "device", 'd', POPT_ARG_STRING, &opt_device, 0,
	  "the group and IOMMU serving a device (BDF or name)", "DEV" },
	{ "regions", 'R', POPT_ARG_NONE, &opt_regions, 0,
	  "add the reserved-regions table (implied by --group/--device)", NULL },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

/* "0x10", "0x10+0x11" or "-" (the firmware names none). */
static void format_sids(struct sb_sid_fw *fw, const struct sb_iommu_group *g, size_t d, char *buf,
			size_t len)
{
	struct sb_dev_sids s;
	char path[PATH_MAX];
	size_t o = 0;

	snprintf(buf, len, "-");
	snprintf(path, sizeof(path), "/sys/kernel/iommu_groups/%u/devices/%s", g->id,
		 g->devs[d].name);
	if (!fw || sb_sid_device(fw, path, &s))
		return;
	for (size_t i = 0; i < s.n && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s0x%x", i ? "+" : "", s.sids[i]);
}

/* JSON: the device's stream IDs as an array, one ID each ("stream_ids" packs them) */
static void sid_list(struct sb_out *o, struct sb_sid_fw *fw, const struct sb_iommu_group *g,
		     size_t d)
{
	struct sb_dev_sids s;
	char path[PATH_MAX], id[16];

	snprintf(path, sizeof(path), "/sys/kernel/iommu_groups/%u/devices/%s", g->id,
		 g->devs[d].name);
	if (!fw || sb_sid_device(fw, path, &s))
		return;
	for (size_t i = 0; i < s.n; i++) {
		snprintf(id, sizeof(id), "0x%x", s.sids[i]);
		sb_out_field_strv_add(o, "stream_id_list", id);
	}
}

static void group_row(struct sb_table *t, const struct sb_iommu_group *g, struct sb_sid_fw *fw)
{
	struct sb_row *row = sb_table_row(t);
	const char *iommu = "";

	sb_row_u64(row, G_GROUP, g->id);
	sb_row_str(row, G_TYPE, g->type);
	for (size_t d = 0; d < g->ndevs; d++) {
		sb_row_strv_add(row, G_DEVICES, g->devs[d].name);
		sb_row_strv_add(row, G_DRIVERS, g->devs[d].driver[0] ? g->devs[d].driver : "-");
		{
			char sids[SB_SID_MAX * 12];

			format_sids(fw, g, d, sids, sizeof(sids));
			sb_row_strv_add(row, G_SIDS, sids);
		}
		if (!*iommu)
			iommu = g->devs[d].iommu;
	}
	if (*iommu)
		sb_row_str(row, G_IOMMU, iommu);
	sb_row_u64(row, G_NDEVS, g->ndevs);
	for (size_t k = 0; k < g->nresv; k++) {
		char cell[80];

		snprintf(cell, sizeof(cell), "0x%llx-0x%llx:%s",
			 (unsigned long long)g->resv[k].start, (unsigned long long)g->resv[k].end,
			 g->resv[k].kind);
		sb_row_strv_add(row, G_RESERVED, cell);
	}
	if (g->name[0])
		sb_row_str(row, G_NAME, g->name);
}

static void resv_rows(struct sb_table *t, const struct sb_iommu_group *g)
{
	for (size_t k = 0; k < g->nresv; k++) {
		struct sb_row *row = sb_table_row(t);

		sb_row_u64(row, R_GROUP, g->id);
		sb_row_fmt(row, R_START, "0x%016llx", (unsigned long long)g->resv[k].start);
		sb_row_fmt(row, R_END, "0x%016llx", (unsigned long long)g->resv[k].end);
		sb_row_u64(row, R_SIZE, g->resv[k].end - g->resv[k].start + 1);
		sb_row_str(row, R_KIND, g->resv[k].kind);
	}
}

int smmustat_groups(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_col cols[ARRAY_SIZE(group_cols)];
	struct sb_sid_fw *fw = NULL;
	struct sb_iommu *inst = NULL;
	struct sb_iommu_group *g;
	struct sb_table *t, *rt = NULL;
	struct sb_out *o;
	struct sb_err e;
	size_t ng, ninst = 0, gi = 0, di = 0;
	bool found = false;
	int rc;

	opt_regions = 0;
	opt_device = NULL;
	rc = sb_cli_parse(c, group_opts, NULL, argc, argv, group_cols, ARRAY_SIZE(group_cols));
	if (rc)
		return rc;
	if (opt_group.given && opt_device)
		return sb_usage_error(c, "--group and --device exclude each other");
	sb_err_clear(&e);
	if (sb_iommu_groups(c->root, &g, &ng, &e))
		return sb_report(c->applet, &e);
	if (!ng) {
		sb_iommu_groups_free(g, ng);
		sb_err_set(&e, ENODEV, "/sys/kernel/iommu_groups", "list groups",
			   "no IOMMU is active: enable it in firmware and the kernel (see 'smmustat')");
		sb_err_reason(&e, "no IOMMU groups");
		return sb_report(c->applet, &e);
	}
	if (opt_device && sb_iommu_find_device(g, ng, opt_device, &gi, &di)) {
		sb_err_set(&e, ENOENT, opt_device, "find the IOMMU group of the device",
			   "the device is not behind an IOMMU, or the name is wrong (use the bus address)");
		sb_err_reason(&e, "no group has it");
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		sb_iommu_groups_free(g, ng);
		return sb_report(c->applet, &e);
	}
	/* The firmware's stream IDs; a system without a device tree or IORT maps none. */
	if (sb_iommu_list(c->root, &inst, &ninst, &e) == 0 &&
	    sb_sid_fw_open(c->root, inst, ninst, NULL, NULL, &fw) == 0)
		sb_verbose(c->applet, "stream IDs from the firmware: %s", sb_sid_fw_source(fw));
	memcpy(cols, group_cols, sizeof(cols));
	if (sb_sid_fw_any(fw)) /* an SMMU system: show them */
		cols[G_SIDS].flags &= ~(unsigned)SB_COL_HIDDEN;
	o = sb_out_new(&c->out, stdout);
	if (sb_sid_fw_any(fw))
		sb_out_field_str(o, "stream_id_source", sb_sid_fw_source(fw));
	if (opt_device) {
		char sids[SB_SID_MAX * 12];

		sb_out_field_str(o, "device", g[gi].devs[di].name);
		sb_out_field_u64(o, "group", g[gi].id);
		sb_out_field_str(o, "iommu", g[gi].devs[di].iommu[0] ? g[gi].devs[di].iommu : NULL);
		sb_out_field_str(o, "driver",
				 g[gi].devs[di].driver[0] ? g[gi].devs[di].driver : NULL);
		format_sids(fw, &g[gi], di, sids, sizeof(sids));
		sb_out_field_str(o, "stream_ids", strcmp(sids, "-") ? sids : NULL);
		if (c->out.mode == SB_OUT_JSON)
			sid_list(o, fw, &g[gi], di);
	}
	t = sb_out_table(o, "groups",
			 opt_device || opt_group.given || opt_regions ? "Groups" : NULL, cols,
			 ARRAY_SIZE(cols), true);
	if (opt_device || opt_group.given || opt_regions)
		rt = sb_out_table(o, "reserved_regions", "Reserved regions", resv_cols,
				  ARRAY_SIZE(resv_cols), false);
	for (size_t k = 0; k < ng; k++) {
		if ((opt_device && k != gi) || (opt_group.given && g[k].id != opt_group.value))
			continue;
		found = true;
		group_row(t, &g[k], fw);
		if (rt)
			resv_rows(rt, &g[k]);
	}
	if (!found) {
		sb_out_free(o);
		sb_sid_fw_close(fw);
		free(inst);
		sb_iommu_groups_free(g, ng);
		sb_err_set(&e, ENOENT, "/sys/kernel/iommu_groups", "find group", NULL);
		sb_err_reason(&e, "no group %llu", (unsigned long long)opt_group.value);
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(c->applet, &e);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	sb_sid_fw_close(fw);
	free(inst);
	sb_iommu_groups_free(g, ng);
	return rc ? SB_EXIT_FAIL : 0;
}
