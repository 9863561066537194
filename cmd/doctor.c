// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox doctor: the one-screen bring-up overview. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/escape.h"
#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/doctor.h"
#include "socbox/json.h"

enum { COL_SUBSYSTEM, COL_STATUS, COL_SUMMARY, COL_HINTS };
static const struct sb_col doctor_cols[] = {
	[COL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL, "rpmsg, dmabuf, iommu or netdev", 0 },
	[COL_STATUS] = { "STATUS", SB_T_STR, 0, SB_COL_METRIC, "ok, partial, missing or unknown (needs the live kernel)", 0 },
	[COL_SUMMARY] = { "SUMMARY", SB_T_STR, 0.6, SB_COL_WRAP, "what was found", 0 },
	[COL_HINTS] = { "HINTS", SB_T_STRV, 0.3, SB_COL_HIDDEN | SB_COL_WRAP, "what to do about what is missing", 0 },
};

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
	[MCOL_VALUE] = { "VALUE", SB_T_S64, 0, SB_COL_METRIC, "a fact behind the status that is a number (yes/no as 1/0)", 0 },
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

static void json_fact(struct sb_json *j, const struct sb_fact *f)
{
	if (f->type == SB_FACT_NUM)
		sb_json_s64(j, f->key, f->num);
	else if (f->type == SB_FACT_BOOL)
		sb_json_bool(j, f->key, f->num != 0);
	else
		sb_json_str(j, f->key, f->str);
}

/* Doctor's JSON nests facts per subsystem, which the flat table model does not express. */
static int print_json(const struct sb_ctx *c, const struct sb_doctor_report *rep)
{
	struct sb_json j;

	sb_json_init(&j, stdout, true);
	sb_json_obj_begin(&j, NULL);
	sb_json_str(&j, "kernel", rep->kernel);
	sb_json_str(&j, "sysroot", sb_root_is_live(c->root) ? NULL : sb_root_path(c->root));
	sb_json_arr_begin(&j, "subsystems");
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];
		sb_json_obj_begin(&j, NULL);
		sb_json_str(&j, "subsystem", s->name);
		sb_json_str(&j, "status", sb_health_name(s->status));
		sb_json_str(&j, "summary", s->summary);
		sb_json_bool(&j, "live_only", s->live_only);
		sb_json_obj_begin(&j, "facts");
		for (int k = 0; k < s->nfacts; k++)
			if (!s->facts[k].live)
				json_fact(&j, &s->facts[k]);
		sb_json_obj_end(&j);
		/* facts that need the running kernel: null when the subsystem could not be looked
		 * at (on a sysroot without what it needs); a snapshot with a netdev capture gives
		 * the same live facts as the board did */
		if (!s->live_only) {
			sb_json_obj_begin(&j, "live");
			for (int k = 0; k < s->nfacts; k++)
				if (s->facts[k].live)
					json_fact(&j, &s->facts[k]);
			sb_json_obj_end(&j);
		} else {
			sb_json_null(&j, "live");
		}
		sb_json_arr_begin(&j, "hints");
		for (int k = 0; k < s->nhints; k++)
			sb_json_str(&j, NULL, s->hints[k]);
		sb_json_arr_end(&j);
		sb_json_obj_end(&j);
	}
	sb_json_arr_end(&j);
	sb_json_obj_end(&j);
	return fflush(stdout) ? SB_EXIT_FAIL : 0;
}

static int print_text(const struct sb_ctx *c, const struct sb_doctor_report *rep)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	char value[160];
	int rc;

	if (!o)
		return SB_EXIT_FAIL;
	sb_out_field_str(o, "kernel", rep->kernel);
	sb_out_field_str(o, "source", sb_root_is_live(c->root) ? "live system" : sb_root_path(c->root));
	t = sb_out_table(o, "subsystems", "Subsystems", doctor_cols, 4, true);
	sb_table_states(t, COL_STATUS, sb_health_names);
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];
		struct sb_row *r = sb_table_row(t);
		sb_row_str(r, COL_SUBSYSTEM, s->name);
		sb_row_str(r, COL_STATUS, sb_health_name(s->status));
		sb_row_str(r, COL_SUMMARY, s->summary);
		for (int k = 0; k < s->nhints; k++)
			sb_row_strv_add(r, COL_HINTS, s->hints[k]);
		if (c->out.mode == SB_OUT_TABLE)
			for (int k = 0; k < s->nhints; k++)
				sb_out_note(o, "%s: %s", s->name, s->hints[k]);
	}
	if (sb_out_mode_is_metrics(c->out.mode)) {
		fact_metrics(o, rep);
	} else if (sb_opt.verbose) {
		t = sb_out_table(o, "facts", "Facts", fact_cols, 4, false);
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
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}

/* --require rpmsg,dmabuf: exit 1 naming each required subsystem that is not ok. */
static int check_required(const struct sb_ctx *c, const char *list, const struct sb_doctor_report *rep)
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
		return sb_usage_error(c, "--require needs a comma-separated list (rpmsg, dmabuf, iommu, netdev)");
	copy = strdup(list);
	if (!copy)
		return SB_EXIT_FAIL;
	for (char *name = strtok_r(copy, ",", &save); name && !rc; name = strtok_r(NULL, ",", &save))
		if (sb_doctor_index(name) < 0)
			rc = sb_usage_error(c, "--require: unknown subsystem '%s' (rpmsg, dmabuf, iommu, netdev)", name);
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
	rc = sb_cli_parse(c, opts, NULL, argc, argv, doctor_cols, 4);
	if (rc)
		return rc;
	if (require) {
		rc = validate_required(c, require);
		if (rc)
			return rc;
	}
	sb_doctor_run(c->root, &rep);
	rc = c->out.mode == SB_OUT_JSON ? print_json(c, &rep) : print_text(c, &rep);
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
