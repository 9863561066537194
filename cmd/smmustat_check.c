// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat check: predicates for factory and init scripts. Every predicate given is
 * evaluated and shown; the exit code is 1 when one failed, and stderr names each failure
 * (unless the table shows them on the same terminal). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "socbox/escape.h"
#include "socbox/iommu_sid.h"
#include "socbox/macro.h"
#include "smmustat.h"

enum { K_CHECK, K_RESULT, K_DETAIL };
static const struct sb_col check_cols[] = {
	[K_CHECK] = { "CHECK", SB_T_STR, 0, 0, "predicate as given", 0 },
	[K_RESULT] = { "RESULT", SB_T_STR, 0, 0, "pass or fail", 0 },
	[K_DETAIL] = { "DETAIL", SB_T_STR, 0.5, SB_COL_WRAP, "what was found", 0 },
};

/* the default domain types the kernel's iommu_group type attribute shows */
static const char *const domain_types[] = {
	"DMA", "DMA-FQ", "identity", "blocked", "unmanaged", NULL
};
static struct sb_cli_value opt_instances = SB_CLI_NUMBER_VALUE(NULL, 0, INT_MAX);
static struct sb_cli_value opt_typed = SB_CLI_ENUM_VALUE(NULL, domain_types);
static int opt_no_faults;
static const char *opt_type; /* the --expect-type word, NULL: not given */
static char *opt_table;
static const char **opt_features;

static struct poptOption check_opts[] = {
	{ "expect-instances", '\0', SB_POPT_ARG_VALUE, &opt_instances, 0,
	  "exactly N IOMMU instances", "N" },
	{ "expect-type", '\0', SB_POPT_ARG_VALUE, &opt_typed, 0,
	  "every group with devices has this default domain type", "TYPE" },
	{ "no-faults", '\0', POPT_ARG_NONE, &opt_no_faults, 0,
	  "no IOMMU fault or event record in the kernel log", NULL },
	{ "require-feature", '\0', POPT_ARG_ARGV, &opt_features, 0,
	  "a decoded feature (SVA, ATS, HA, pasid, ...) on every instance (repeatable)", "NAME" },
	{ "feature-table", '\0', POPT_ARG_STRING, &opt_table, 0,
	  "SMMUv3 feature-bit table (see smmustat --help)", "NAME" },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

struct verdict {
	struct sb_out *o;
	struct sb_table *t;
	unsigned failed;
	const char *applet;
};

static void verdict(struct verdict *v, const char *check, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void verdict(struct verdict *v, const char *check, bool ok, const char *fmt, ...)
{
	struct sb_row *row = sb_table_row(v->t);
	char detail[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	sb_row_str(row, K_CHECK, check);
	sb_row_str(row, K_RESULT, ok ? "pass" : "fail");
	sb_row_str(row, K_DETAIL, detail);
	sb_out_test(v->o, NULL, check, ok ? SB_TEST_PASS : SB_TEST_FAIL, "%s", detail);
	if (!ok) {
		v->failed++;
		/* on a terminal the table says it: once (piped, stderr names each failure) */
		if (!sb_out_seen_with_stderr(v->o))
			sb_eprintf("%s check: %s: %s", v->applet, check, detail);
	}
}

/* "pasid" matches "pasid" and "pss=20" is matched by "pss"; case does not matter. */
static bool has_feature(const struct smmu_features *f, const char *name)
{
	size_t nl = strlen(name);

	for (size_t i = 0; i < f->n; i++)
		if (!strncasecmp(f->names[i], name, nl) &&
		    (f->names[i][nl] == '\0' || f->names[i][nl] == '='))
			return true;
	return false;
}

static void check_type(struct verdict *v, const struct smmu_state *s, const char *check)
{
	unsigned bad = 0, with_devs = 0;
	char first_bad[64] = "";

	for (size_t k = 0; k < s->ngroups; k++) {
		if (!s->groups[k].ndevs)
			continue;
		with_devs++;
		if (strcmp(s->groups[k].type, opt_type)) {
			if (!bad++)
				snprintf(first_bad, sizeof(first_bad), "group %u is %s",
					 s->groups[k].id, s->groups[k].type);
		}
	}
	if (!with_devs)
		verdict(v, check, false, "no IOMMU group with devices");
	else if (bad)
		verdict(v, check, false, "%u of %u groups differ (%s)", bad, with_devs, first_bad);
	else
		verdict(v, check, true, "%u groups are %s", with_devs, opt_type);
}

static void check_faults(struct verdict *v, const struct smmu_state *s, const struct sb_root *r)
{
	struct sb_sid_namer *names;
	struct sb_iommu_event first = s->log.first;

	if (!s->have_log) {
		char buf[512];

		sb_err_format(&s->log_err, buf, sizeof(buf));
		verdict(v, "no-faults", false, "kernel log unreadable: %s", buf);
		return;
	}
	if (s->log.nevents && sb_sid_namer_open(r, &names) == 0) {
		sb_sid_namer_name(names, &first);
		sb_sid_namer_close(names);
	}
	if (s->log.nevents)
		verdict(v, "no-faults", false, "%llu records, first: %s %s on %s",
			(unsigned long long)s->log.nevents, first.source[0] ? first.source : "-",
			first.kind, first.device);
	else
		verdict(v, "no-faults", true, "no records in %llu log lines",
			(unsigned long long)s->log.lines);
}

int smmustat_check(struct sb_ctx *c, int argc, const char **argv)
{
	struct verdict v = { .applet = c->applet };
	struct smmu_state s;
	struct sb_out *o;
	char check[128];
	int rc;

	opt_no_faults = 0;
	opt_table = NULL;
	opt_features = NULL;
	rc = sb_cli_parse(c, check_opts, NULL, argc, argv, check_cols, ARRAY_SIZE(check_cols));
	if (rc)
		return rc;
	opt_type = opt_typed.given ? domain_types[opt_typed.value] : NULL;
	if (!opt_instances.given && !opt_type && !opt_no_faults && !opt_features)
		return sb_usage_error(c, "no predicate given");
	if (opt_table && !sb_smmu_feat_table(NULL, 0, false, opt_table))
		return sb_usage_error(c, "unknown feature table '%s'", opt_table);
	if ((rc = smmu_state_load(c, &s, opt_table, opt_no_faults)))
		return rc;
	o = sb_out_new(&c->out, stdout);
	v.o = o;
	v.t = sb_out_table(o, "checks", NULL, check_cols, ARRAY_SIZE(check_cols), true);
	if (opt_instances.given) {
		snprintf(check, sizeof(check), "expect-instances=%llu",
			 (unsigned long long)opt_instances.value);
		verdict(&v, check, s.ninst == opt_instances.value, "%zu IOMMU instance%s found",
			s.ninst, s.ninst == 1 ? "" : "s");
	}
	if (opt_type) {
		snprintf(check, sizeof(check), "expect-type=%s", opt_type);
		check_type(&v, &s, check);
	}
	if (opt_no_faults)
		check_faults(&v, &s, c->root);
	for (size_t i = 0; opt_features && opt_features[i]; i++) {
		unsigned lacking = 0;
		char first[96] = "";

		snprintf(check, sizeof(check), "require-feature=%.100s", opt_features[i]);
		for (size_t k = 0; k < s.ninst; k++) {
			struct smmu_features f;

			smmu_features(&s, &s.inst[k], &f);
			if (!has_feature(&f, opt_features[i]) && !lacking++)
				snprintf(first, sizeof(first), "%.60s%s", s.inst[k].name,
					 f.raw[0] ? "" : " (features unknown)");
		}
		if (!s.ninst)
			verdict(&v, check, false, "no IOMMU instance");
		else if (lacking)
			verdict(&v, check, false, "%u of %zu instances lack it (%s)", lacking,
				s.ninst, first);
		else
			verdict(&v, check, true, "all %zu instances have it", s.ninst);
	}
	sb_out_field_u64(o, "failed", v.failed);
	rc = sb_out_print(o) ? SB_EXIT_FAIL : v.failed ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	smmu_state_free(&s);
	return rc;
}
