// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox doctor: the one-screen bring-up overview. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/escape.h"
#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/doctor.h"

/* One row per subsystem. FACTS, LIVE and HINTS do not fit a table row: hidden in the text
 * modes (-o +FACTS shows them), in JSON by default, in the order doctor -J always had. */
enum { COL_SUBSYSTEM, COL_STATUS, COL_SUMMARY, COL_LIVE_ONLY, COL_FACTS, COL_LIVE, COL_HINTS };
static const struct sb_col doctor_cols[] = {
	[COL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL,
			    "rpmsg, dmabuf, iommu or netdev", 0 },
	[COL_STATUS] = { "STATUS", SB_T_STR, 0, SB_COL_METRIC,
			 "ok, partial, missing or unknown (needs the live kernel)", 0 },
	[COL_SUMMARY] = { "SUMMARY", SB_T_STR, 0.6, SB_COL_WRAP, "what was found", 0 },
	[COL_LIVE_ONLY] = { "LIVE_ONLY", SB_T_BOOL, 0, SB_COL_HIDDEN | SB_COL_JSON,
			    "the subsystem can only be looked at on the running kernel", 0 },
	[COL_FACTS] = { "FACTS", SB_T_OBJ, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
			"facts read from files (a snapshot gives the same)", 0 },
	[COL_LIVE] = { "LIVE", SB_T_OBJ, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
		       "facts that need the running kernel; null where it could not look", 0 },
	[COL_HINTS] = { "HINTS", SB_T_STRV, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
			"what to do about what is missing", 0 },
};
#define NCOLS(a) (sizeof(a) / sizeof((a)[0]))

enum { FCOL_SUBSYSTEM, FCOL_KEY, FCOL_VALUE, FCOL_LIVE };
static const struct sb_col fact_cols[] = {
	[FCOL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, 0, "subsystem", 0 },
	[FCOL_KEY] = { "KEY", SB_T_STR, 0, 0, "fact", 0 },
	[FCOL_VALUE] = { "VALUE", SB_T_STR, 0, 0, "value", 0 },
	[FCOL_LIVE] = { "LIVE", SB_T_BOOL, 0, 0, "needs the running kernel", 0 },
};

/* The facts that are numbers (booleans as 1/0), as metrics. */
enum { MCOL_SUBSYSTEM, MCOL_KEY, MCOL_VALUE };
static const struct sb_col fact_metric_cols[] = {
	[MCOL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL, "subsystem", 0 },
	[MCOL_KEY] = { "KEY", SB_T_STR, 0, SB_COL_LABEL, "fact, named as in 'socbox doctor -J'", 0 },
	[MCOL_VALUE] = { "VALUE", SB_T_S64, 0, SB_COL_METRIC,
			 "a fact behind the status that is a number (yes/no as 1/0)", 0 },
};

static void fact_metrics(struct sb_out *o, const struct sb_doctor_report *rep)
{
	struct sb_table *t = sb_out_table(o, "facts", NULL, fact_metric_cols, 3, false);

	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];

		for (int k = 0; k < s->nfacts; k++) {
			struct sb_row *r;

			if (s->facts[k].type == SB_FACT_STR)
				continue;
			r = sb_table_row(t);
			sb_row_str(r, MCOL_SUBSYSTEM, s->name);
			sb_row_str(r, MCOL_KEY, s->facts[k].key);
			sb_row_s64(r, MCOL_VALUE, s->facts[k].num);
		}
	}
}

static void fact_member(struct sb_row *r, int col, const struct sb_fact *f)
{
	if (f->type == SB_FACT_NUM)
		sb_row_obj_s64(r, col, f->key, f->num);
	else if (f->type == SB_FACT_BOOL)
		sb_row_obj_bool(r, col, f->key, f->num != 0);
	else
		sb_row_obj_str(r, col, f->key, f->str);
}

static void subsystem_row(struct sb_table *t, const struct sb_doctor_sub *s)
{
	struct sb_row *r = sb_table_row(t);

	sb_row_str(r, COL_SUBSYSTEM, s->name);
	sb_row_str(r, COL_STATUS, sb_health_name(s->status));
	sb_row_str(r, COL_SUMMARY, s->summary);
	sb_row_bool(r, COL_LIVE_ONLY, s->live_only);
	if (sb_table_shows(t, COL_FACTS))
		sb_row_obj(r, COL_FACTS);
	/* live facts: null when the subsystem could not be looked at (a sysroot without what
	 * it needs); a snapshot with a netdev capture gives the live facts the board gave */
	if (!s->live_only && sb_table_shows(t, COL_LIVE))
		sb_row_obj(r, COL_LIVE);
	for (int k = 0; k < s->nfacts; k++) {
		int col = s->facts[k].live ? COL_LIVE : COL_FACTS;

		if (sb_table_shows(t, col))
			fact_member(r, col, &s->facts[k]);
	}
	for (int k = 0; k < s->nhints && sb_table_shows(t, COL_HINTS); k++)
		sb_row_strv_add(r, COL_HINTS, s->hints[k]);
}

/* -v: every fact as a row of its own */
static void facts_table(struct sb_out *o, const struct sb_doctor_report *rep)
{
	struct sb_table *t = sb_out_table(o, "facts", "Facts", fact_cols, NCOLS(fact_cols), false);
	char value[160];

	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];

		for (int k = 0; k < s->nfacts; k++) {
			const struct sb_fact *f = &s->facts[k];
			struct sb_row *r = sb_table_row(t);

			sb_row_str(r, FCOL_SUBSYSTEM, s->name);
			sb_row_str(r, FCOL_KEY, f->key);
			if (f->type == SB_FACT_STR)
				snprintf(value, sizeof(value), "%s", f->str);
			else if (f->type == SB_FACT_BOOL)
				snprintf(value, sizeof(value), "%s", f->num ? "yes" : "no");
			else
				snprintf(value, sizeof(value), "%lld", (long long)f->num);
			sb_row_str(r, FCOL_VALUE, value);
			sb_row_bool(r, FCOL_LIVE, f->live);
		}
	}
}

static int print_report(const struct sb_ctx *c, const struct sb_doctor_report *rep)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	int rc;

	if (!o)
		return SB_EXIT_FAIL;
	sb_out_field_str(o, "kernel", rep->kernel);
	/* null (text: "-") on the live system */
	sb_out_field_str(o, "sysroot", sb_root_is_live(c->root) ? NULL : sb_root_path(c->root));
	t = sb_out_table(o, "subsystems", "Subsystems", doctor_cols, NCOLS(doctor_cols), true);
	sb_table_states(t, COL_STATUS, sb_health_names);
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];

		subsystem_row(t, s);
		if (c->out.mode == SB_OUT_TABLE)
			for (int k = 0; k < s->nhints; k++)
				sb_out_note(o, "%s: %s", s->name, s->hints[k]);
	}
	/* JSON has the facts in each subsystem already; metrics take the numeric ones */
	if (sb_out_mode_is_metrics(c->out.mode))
		fact_metrics(o, rep);
	else if (sb_opt.verbose && c->out.mode != SB_OUT_JSON)
		facts_table(o, rep);
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}

/* --require rpmsg,dmabuf: exit 1 naming each required subsystem that is not ok. */
static int check_required(const struct sb_ctx *c, const char *list,
			  const struct sb_doctor_report *rep)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	if (!copy)
		return SB_EXIT_FAIL;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int i = sb_doctor_index(name);
		if (i < 0 || rep->subs[i].status == SB_HEALTH_OK)
			continue;
		sb_eprintf("%s: %s: required subsystem is %s: %s", c->applet, name,
			   sb_health_name(rep->subs[i].status), rep->subs[i].summary);
		rc = SB_EXIT_FAIL;
	}
	free(copy);
	return rc;
}

static int validate_required(const struct sb_ctx *c, const char *list)
{
	char *copy, *save = NULL;
	int rc = 0;

	if (!list[strspn(list, ",")])
		return sb_usage_error(
			c, "--require needs a comma-separated list (rpmsg, dmabuf, iommu, netdev)");
	copy = strdup(list);
	if (!copy)
		return SB_EXIT_FAIL;
	for (char *name = strtok_r(copy, ",", &save); name && !rc;
	     name = strtok_r(NULL, ",", &save))
		if (sb_doctor_index(name) < 0)
			rc = sb_usage_error(
				c,
				"--require: unknown subsystem '%s' (rpmsg, dmabuf, iommu, netdev)",
				name);
	free(copy);
	return rc;
}

static int doctor_run(struct sb_ctx *c, int argc, const char **argv)
{
	static char *require;
	struct poptOption opts[] = {
		{ "require", '\0', POPT_ARG_STRING, &require, 0,
		  "exit 1 unless these subsystems are ok (rpmsg,dmabuf,iommu,netdev)", "LIST" },
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	struct sb_doctor_report rep;
	int rc;

	require = NULL;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, doctor_cols, NCOLS(doctor_cols));
	if (rc)
		return rc;
	if (require) {
		rc = validate_required(c, require);
		if (rc)
			return rc;
	}
	sb_doctor_run(c->root, &rep);
	rc = print_report(c, &rep);
	if (!rc && require)
		rc = check_required(c, require, &rep);
	sb_doctor_report_free(&rep);
	return rc;
}

int doctor_main(int argc, const char **argv)
{
	struct sb_ctx c = { .applet = "socbox", .cmd = "doctor", .out.metrics_ns = "doctor" };
	int rc = doctor_run(&c, argc, argv);

	sb_ctx_done(&c);
	return rc < 0 ? 0 : rc;
}
