// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat: IOMMU and Arm SMMUv3 state. The overview (default) shows one row per IOMMU
 * instance; the other commands live in cmd/smmustat_<command>.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "socbox/iommu.h"
#include "socbox/macro.h"
#include "socbox/platform.h"
#include "socbox/stop.h"
#include "smmustat.h"
#include "builtins.h"

enum {
	COL_NAME,
	COL_KIND,
	COL_BASE,
	COL_GROUPS,
	COL_DEVICES,
	COL_DOMAIN,
	COL_INVALIDATION,
	COL_FEATURES,
	COL_FEATURES_RAW,
	COL_UNKNOWN_BITS,
	COL_FEATURE_TABLE,
	COL_IAS_BITS,
	COL_OAS_BITS,
	COL_HWDEV,
	COL_DRIVER,
	COL_ECMDQ,
	COL_VERSION,
	COL_DOMAINS,
};

static const struct sb_col overview_cols[] = {
	[COL_NAME] = { "NAME", SB_T_STR, 0, SB_COL_LABEL, "IOMMU instance (/sys/class/iommu)", 0 },
	[COL_KIND] = { "KIND", SB_T_STR, 0, SB_COL_LABEL,
		       "arm-smmu-v3, arm-smmu, intel-vt-d, amd-vi, virtio-iommu, other", 0 },
	/* BASE and INVALIDATION (a field above the table already) are hidden so that the
	 * overview fits 80 columns; JSON keeps them */
	[COL_BASE] = { "BASE", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON, "MMIO base address", 0 },
	[COL_GROUPS] = { "GROUPS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
			 "IOMMU groups behind the instance", 0 },
	[COL_DEVICES] = { "DEVICES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
			  "devices behind the instance", 0 },
	[COL_DOMAIN] = { "DOMAIN", SB_T_STR, 0, SB_COL_WRAP,
			 "default domain types of its groups (TYPE or TYPE:N,...)", 0 },
	[COL_INVALIDATION] = { "INVALIDATION", SB_T_STR, 0,
			       SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			       "strict, lazy or passthrough", 0 },
	[COL_FEATURES] = { "FEATURES", SB_T_STRV, 0.4, SB_COL_WRAP,
			   "decoded features (SMMUv3 probe line, VT-d cap/ecap, AMD EFR)", 0 },
	[COL_FEATURES_RAW] = { "FEATURES_RAW", SB_T_STR, 0, SB_COL_HIDDEN,
			       "raw feature value(s) as read", 0 },
	[COL_UNKNOWN_BITS] = { "UNKNOWN_BITS", SB_T_STR, 0, SB_COL_HIDDEN,
			       "set bits the feature table has no name for (raw)", 0 },
	[COL_FEATURE_TABLE] = { "FEATURE_TABLE", SB_T_STR, 0, SB_COL_HIDDEN,
				"SMMUv3 feature-bit table used for this kernel", 0 },
	[COL_IAS_BITS] = { "IAS_BITS", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_RIGHT,
			   "SMMUv3 input address size (older kernels log it)", 0 },
	[COL_OAS_BITS] = { "OAS_BITS", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_RIGHT,
			   "SMMUv3 output address size", 0 },
	[COL_HWDEV] = { "HWDEV", SB_T_STR, 0, SB_COL_HIDDEN,
			"hardware device of the instance (as named in the log)", 0 },
	[COL_DRIVER] = { "DRIVER", SB_T_STR, 0, SB_COL_HIDDEN, "driver of the hardware device", 0 },
	[COL_ECMDQ] = { "ECMDQ", SB_T_STR, 0, SB_COL_HIDDEN, "last ECMDQ log line (vendor kernels)",
			0 },
	[COL_VERSION] = { "VERSION", SB_T_STR, 0, SB_COL_HIDDEN, "VT-d architecture version", 0 },
	[COL_DOMAINS] = { "DOMAINS", SB_T_OBJ, 0, SB_COL_HIDDEN | SB_COL_JSON,
			  "groups by default domain type (JSON: {\"dma\": 3, \"identity\": 1})", 0 },
};

static char *feature_table;

static struct poptOption overview_opts[] = {
	{ "feature-table", '\0', POPT_ARG_STRING, &feature_table, 0,
	  "SMMUv3 feature-bit table: mainline-6.16, mainline-5.x, openeuler, ecmdq-v3 (default: by kernel)",
	  "NAME" },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

static int check_table_name(struct sb_ctx *c)
{
	if (feature_table && !sb_smmu_feat_table(NULL, 0, false, feature_table))
		return sb_usage_error(c, "unknown feature table '%s'", feature_table);
	return 0;
}

/* DOMAINS: groups per default domain type, keyed by the type in snake_case as JSON keys are
 * ("DMA-FQ" is dma_fq) */
static void domain_counts(struct sb_row *row, const struct sb_iommu *m)
{
	sb_row_obj(row, COL_DOMAINS);
	for (int i = 0; i < SB_IOMMU_NDOMAIN_TYPES; i++) {
		char key[32];
		size_t k;

		if (!m->ntypes[i])
			continue;
		for (k = 0; sb_iommu_group_types[i][k] && k + 1 < sizeof(key); k++) {
			char ch = sb_iommu_group_types[i][k];

			key[k] = ch == '-' ? '_' : (char)tolower((unsigned char)ch);
		}
		key[k] = '\0';
		sb_row_obj_s64(row, COL_DOMAINS, key, m->ntypes[i]);
	}
}

static void fill_row(struct sb_table *t, const struct smmu_state *s, const struct sb_iommu *m)
{
	struct sb_row *row = sb_table_row(t);
	struct smmu_features f;
	char dom[96];

	sb_row_str(row, COL_NAME, m->name);
	sb_row_str(row, COL_KIND, sb_iommu_kind_name(m->kind));
	if (m->has_base)
		sb_row_fmt(row, COL_BASE, "0x%llx", (unsigned long long)m->base);
	sb_row_u64(row, COL_GROUPS, m->ngroups);
	sb_row_u64(row, COL_DEVICES, m->ndevices);
	smmu_domain_summary(m, dom, sizeof(dom));
	sb_row_str(row, COL_DOMAIN, dom);
	domain_counts(row, m);
	if (s->policy.mode[0])
		sb_row_str(row, COL_INVALIDATION, s->policy.mode);
	smmu_features(s, m, &f);
	for (size_t i = 0; i < f.n; i++)
		sb_row_strv_add(row, COL_FEATURES, f.names[i]);
	if (f.raw[0])
		sb_row_str(row, COL_FEATURES_RAW, f.raw);
	if (f.unknown[0])
		sb_row_str(row, COL_UNKNOWN_BITS, f.unknown);
	if (f.table[0])
		sb_row_str(row, COL_FEATURE_TABLE, f.table);
	if (f.ias)
		sb_row_u64(row, COL_IAS_BITS, f.ias);
	if (f.oas)
		sb_row_u64(row, COL_OAS_BITS, f.oas);
	if (m->hwdev[0])
		sb_row_str(row, COL_HWDEV, m->hwdev);
	if (m->driver[0])
		sb_row_str(row, COL_DRIVER, m->driver);
	if (f.ecmdq[0])
		sb_row_str(row, COL_ECMDQ, f.ecmdq);
	if (m->version[0])
		sb_row_str(row, COL_VERSION, m->version);
}

int smmustat_no_iommu(const struct sb_ctx *c)
{
	struct sb_platform plat;
	struct sb_err e;
	char hint[256];

	sb_platform_read(c->root, &plat);
	sb_iommu_missing_hint(&plat, hint, sizeof(hint));
	sb_err_clear(&e);
	sb_err_set(&e, ENODEV, "/sys/class/iommu", "find an IOMMU", "%s", hint);
	sb_err_reason(&e, "no IOMMU instance registered");
	return sb_report(c->applet, &e);
}

int smmustat_overview(struct sb_ctx *c, int argc, const char **argv)
{
	struct smmu_state s;
	struct sb_table *t;
	struct sb_out *o;
	bool missing_features = false;
	int rc;

	feature_table = NULL;
	rc = sb_cli_parse(c, overview_opts, NULL, argc, argv, overview_cols,
			  ARRAY_SIZE(overview_cols));
	if (rc)
		return rc;
	if ((rc = check_table_name(c)))
		return rc;
	if ((rc = smmu_state_load(c, &s, feature_table, false)))
		return rc;
	if (!s.ninst) {
		smmu_state_free(&s);
		return smmustat_no_iommu(c);
	}
	o = sb_out_new(&c->out, stdout);
	if (s.release[0])
		sb_out_field_str(o, "kernel", s.release);
	if (s.policy.mode[0]) {
		sb_out_field_str(o, "invalidation", s.policy.mode);
		sb_out_field_str(o, "invalidation_source", s.policy.source);
	}
	if (s.policy.domain_default[0])
		sb_out_field_str(o, "default_domain", s.policy.domain_default);
	sb_out_field_u64(o, "groups", s.ngroups);
	sb_out_field_str(o, "log_source", s.have_log ? s.log.source : "none");
	t = sb_out_table(o, "instances", NULL, overview_cols, ARRAY_SIZE(overview_cols), true);
	for (size_t i = 0; i < s.ninst; i++) {
		fill_row(t, &s, &s.inst[i]);
		missing_features |= s.inst[i].kind == SB_IOMMU_SMMUV3;
	}
	if (missing_features && !s.have_log) {
		char buf[512];

		sb_err_format(&s.log_err, buf, sizeof(buf));
		sb_out_note(o,
			    "SMMUv3 features come from the kernel log, which could not be read: %s",
			    buf);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	smmu_state_free(&s);
	return rc ? SB_EXIT_FAIL : 0;
}

void smmustat_note_cut(struct sb_out *o, double secs, double interval, const char *covers)
{
	char why[SB_ERR_LINE_MAX];

	sb_out_note(o, "%s",
		    sb_stop_text(why, sizeof(why), "%.2f s into a %g s interval: %s", secs,
				 interval, covers));
}

const struct sb_cmd smmustat_cmds[] = {
	{ "overview", smmustat_overview, NULL, "a row per IOMMU: kind, groups, domains, features",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR | SB_CMD_APPLET_LABEL },
	{ "groups", smmustat_groups, NULL, "IOMMU groups: type, devices, reserved regions",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "irq", smmustat_irq, NULL, "IOMMU interrupt lines per CPU, -i for rates",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "events", smmustat_events, NULL, "IOMMU faults and events from the kernel log",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "pmu", smmustat_pmu, NULL, "SMMUv3 PMCG counters through perf_event_open", SB_CMD_VIEW },
	{ "stress", smmustat_stress, NULL,
	  "per-CPU map/unmap stress (iommufd or dma_map_benchmark)", SB_CMD_LIVE | SB_CMD_ROOT },
	{ "check", smmustat_check, NULL, "predicates for scripts; exit 1 naming the failed one",
	  SB_CMD_VIEW | SB_CMD_TESTS },
	{ NULL, NULL, NULL, NULL, 0 },
};

int smmustat_main(int argc, const char **argv)
{
	return sb_cli_dispatch(SMMUSTAT, applet_summary(SMMUSTAT), smmustat_cmds, "overview", argc,
			       argv);
}
