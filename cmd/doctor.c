// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox doctor: the one-screen bring-up overview. */
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/escape.h"
#include "builtins.h"
#include "doctor.h"
#include "socbox/cli.h"
#include "socbox/doctor.h"
#include "socbox/macro.h"
#include "socbox/suggest.h"

/* One row per subsystem. FACTS, LIVE and HINTS do not fit a table row: hidden in the text
 * modes (-o +FACTS shows them), in JSON by default, in the order doctor -J always had. */
enum { COL_SUBSYSTEM, COL_STATUS, COL_SUMMARY, COL_LIVE_ONLY, COL_FACTS, COL_LIVE, COL_HINTS };
static const struct sb_col doctor_cols[] = {
	[COL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL,
			    "rpmsg, dmabuf, iommu or netdev", 0 },
	[COL_STATUS] = { "STATUS", SB_T_STR, 0, SB_COL_METRIC,
			 "ok, degraded, failed, missing, absent (no such hardware) or unknown", 0 },
	[COL_SUMMARY] = { "SUMMARY", SB_T_STR, 0.6, SB_COL_WRAP, "what was found", 0 },
	[COL_LIVE_ONLY] = { "LIVE_ONLY", SB_T_BOOL, 0, SB_COL_HIDDEN | SB_COL_JSON,
			    "the subsystem can only be looked at on the running kernel", 0 },
	[COL_FACTS] = { "FACTS", SB_T_OBJ, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
			"facts read from files (a snapshot gives the same)", 0 },
	[COL_LIVE] = { "LIVE", SB_T_OBJ, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
		       "facts that need the running kernel; null where it could not look or has none",
		       0 },
	[COL_HINTS] = { "HINTS", SB_T_STRV, 0.3, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_WRAP,
			"what to do about what is missing", 0 },
};

enum { FCOL_SUBSYSTEM, FCOL_KEY, FCOL_VALUE, FCOL_LIVE };
static const struct sb_col fact_cols[] = {
	[FCOL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, 0, "subsystem", 0 },
	[FCOL_KEY] = { "KEY", SB_T_STR, 0, 0, "fact", 0 },
	[FCOL_VALUE] = { "VALUE", SB_T_STR, 0, SB_COL_WRAP, "value", 0 },
	[FCOL_LIVE] = { "LIVE", SB_T_BOOL, 0, 0, "needs the running kernel", 0 },
};

/* The causes doctor names, most decisive first. In text a row is the code, the diagnosis
 * (which names the object) and the fix; JSON has every column. */
enum {
	CCOL_CODE,
	CCOL_SUBSYSTEM,
	CCOL_SEVERITY,
	CCOL_OBJECT,
	CCOL_DIAGNOSIS,
	CCOL_EVIDENCE,
	CCOL_VIA,
	CCOL_FIX,
	CCOL_RUN,
	CCOL_FOLLOWS
};
static const struct sb_col cause_cols[] = {
	[CCOL_CODE] = { "CODE", SB_T_STR, 0, SB_COL_LABEL,
			"stable code of the cause ('socbox doctor --explain CODE')", 0 },
	[CCOL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
			     "the subsystem it breaks", 0 },
	[CCOL_SEVERITY] = { "SEVERITY", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
			    "failed, missing, degraded or notice (changes no status)", 0 },
	[CCOL_OBJECT] = { "OBJECT", SB_T_STR, 0, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
			  "the device, remote processor, area or pool", 0 },
	[CCOL_DIAGNOSIS] = { "DIAGNOSIS", SB_T_STR, 0.5, SB_COL_WRAP,
			     "what is wrong, naming the object", 0 },
	[CCOL_EVIDENCE] = { "EVIDENCE", SB_T_STR, 0.3, SB_COL_WRAP | SB_COL_HIDDEN | SB_COL_JSON,
			    "the file and value or the kernel log line that shows it", 0 },
	[CCOL_VIA] = { "VIA", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
		       "the device that serves the object and printed the records quoted, with "
		       "its role (\"mailbox 30aa0000.mailbox\"); null for the object's own",
		       0 },
	[CCOL_FIX] = { "FIX", SB_T_STR, 0.3, SB_COL_WRAP, "what to do on this board", 0 },
	[CCOL_RUN] = { "RUN", SB_T_STRV, 0, SB_COL_WHOLE,
		       "the fix's commands, to paste as they are (in text each whole on a "
		       "line of its own under its cause)",
		       0 },
	[CCOL_FOLLOWS] = { "FOLLOWS", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
			   "the cause (CODE OBJECT) this one follows from, null for a root; a "
			   "chain's causes come together, root first (in text: -> CODE)",
			   0 },
};

/* metrics: socbox_doctor_cause{code,subsystem,object} 1 for every cause present */
enum { MCC_CODE, MCC_SUBSYSTEM, MCC_OBJECT, MCC_COUNT };
static const struct sb_col cause_metric_cols[] = {
	[MCC_CODE] = { "CODE", SB_T_STR, 0, SB_COL_LABEL, "stable code of the cause", 0 },
	[MCC_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL, "the subsystem it breaks", 0 },
	[MCC_OBJECT] = { "OBJECT", SB_T_STR, 0, SB_COL_LABEL, "the object it names", 0 },
	[MCC_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_METRIC,
			"a cause socbox doctor names (1 while present)", 0 },
};

static const char *severity_name(const struct sb_cause_def *d)
{
	return d->effect == SB_HEALTH_OK ? "notice" : sb_health_name(d->effect);
}

/* The fix in words and its commands: in an aligned table each command stands under the
 * row, whole (RUN), and the words point there; elsewhere the words keep them in place. */
static void fix_cells(struct sb_out *o, const struct sb_table *t, struct sb_row *r,
		      const struct sb_cause *c)
{
	char prose[sizeof(c->fix) + SB_FIX_COMMANDS * SB_FIX_COMMAND_MAX];
	const char *cmds[SB_FIX_COMMANDS];
	size_t n = sb_cause_commands(c, cmds);

	sb_cause_fix_text(c, sb_out_mode(o) == SB_OUT_TABLE && sb_table_shows(t, CCOL_RUN), prose,
			  sizeof(prose));
	sb_row_str(r, CCOL_FIX, prose);
	for (size_t i = 0; i < n; i++)
		sb_row_strv_add(r, CCOL_RUN, cmds[i]);
}

static void causes_table(struct sb_out *o, const struct sb_doctor_report *rep)
{
	bool metrics = sb_out_mode_is_metrics(sb_out_mode(o));
	struct sb_table *t = metrics ? sb_out_table(o, "cause", NULL, cause_metric_cols,
						    ARRAY_SIZE(cause_metric_cols), false)
				     : sb_out_table(o, "causes", "Causes", cause_cols,
						    ARRAY_SIZE(cause_cols), false);

	for (size_t i = 0; i < rep->ncauses; i++) {
		const struct sb_cause *c = &rep->causes[i];
		struct sb_row *r = sb_table_row(t);

		if (metrics) {
			sb_row_str(r, MCC_CODE, c->def->code);
			sb_row_str(r, MCC_SUBSYSTEM, rep->subs[c->sub].name);
			sb_row_str(r, MCC_OBJECT, c->object);
			sb_row_u64(r, MCC_COUNT, 1);
			continue;
		}
		/* a chain in a table: what follows from the cause above it, indented */
		if (c->depth && sb_out_mode(o) == SB_OUT_TABLE)
			sb_row_fmt(r, CCOL_CODE, "%*s-> %s", (int)(c->depth - 1) * 2, "",
				   c->def->code);
		else
			sb_row_str(r, CCOL_CODE, c->def->code);
		if (c->follows[0])
			sb_row_str(r, CCOL_FOLLOWS, c->follows);
		sb_row_str(r, CCOL_SUBSYSTEM, rep->subs[c->sub].name);
		sb_row_str(r, CCOL_SEVERITY, severity_name(c->def));
		sb_row_str(r, CCOL_OBJECT, c->object);
		sb_row_str(r, CCOL_DIAGNOSIS, c->diagnosis);
		sb_row_str(r, CCOL_EVIDENCE, c->evidence);
		if (c->via[0])
			sb_row_str(r, CCOL_VIA, c->via);
		fix_cells(o, t, r, c);
	}
}

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

			if (s->facts[k].type == SB_FACT_STR || s->facts[k].type == SB_FACT_LIST)
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
	else if (f->type == SB_FACT_LIST) {
		sb_row_obj_strv_add(r, col, f->key, NULL);
		for (size_t i = 0; i < f->nitems; i++)
			sb_row_obj_strv_add(r, col, f->key, f->items[i]);
	} else
		sb_row_obj_str(r, col, f->key, f->str);
}

static bool has_live_facts(const struct sb_doctor_sub *s)
{
	for (int k = 0; k < s->nfacts; k++)
		if (s->facts[k].live)
			return true;
	return false;
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
	/* live facts: null when there are none (a sysroot holds no running kernel; a subsystem
	 * may have none to give); a snapshot with a netdev capture gives the live facts the
	 * board gave, so it answers as the live run did */
	if (!s->live_only && sb_table_shows(t, COL_LIVE) && has_live_facts(s))
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
	struct sb_table *t = sb_out_table(o, "facts", "Facts", fact_cols, ARRAY_SIZE(fact_cols),
					  false);
	char value[160];

	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];

		for (int k = 0; k < s->nfacts; k++) {
			const struct sb_fact *f = &s->facts[k];
			struct sb_row *r = sb_table_row(t);

			sb_row_str(r, FCOL_SUBSYSTEM, s->name);
			sb_row_str(r, FCOL_KEY, f->key);
			if (f->type == SB_FACT_LIST) {
				char *list = sb_out_join_list(f->items, f->nitems);

				snprintf(value, sizeof(value), "%s", list ? list : "");
				free(list);
			} else if (f->type == SB_FACT_STR)
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

	/* -q at a console: the causes alone, nothing on a healthy board (as dmesg -l err) */
	if (sb_opt.quiet && c->out.mode == SB_OUT_TABLE) {
		if (rep->ncauses)
			causes_table(o, rep);
		rc = sb_out_print(o);
		sb_out_free(o);
		return rc ? SB_EXIT_FAIL : 0;
	}
	sb_out_field_str(o, "kernel", rep->kernel);
	/* null (text: "-") on the live system */
	sb_out_field_str(o, "sysroot", sb_root_is_live(c->root) ? NULL : sb_root_path(c->root));
	sb_out_field_str(o, "arch", rep->arch);
	sb_out_field_str(o, "firmware", rep->fwdesc);
	sb_out_field_str(o, "board", rep->board[0] ? rep->board : NULL);
	/* causes first: on a broken board they are what the person at the console needs. An
	 * -o list that replaces the columns asks for the subsystems table alone (scripts that
	 * read "SUBSYSTEM STATUS" rows keep getting only those). */
	if ((rep->ncauses || c->out.mode != SB_OUT_TABLE) &&
	    !(c->out.columns && c->out.columns[0] != '+'))
		causes_table(o, rep);
	t = sb_out_table(o, "subsystems", "Subsystems", doctor_cols, ARRAY_SIZE(doctor_cols), true);
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

/* A cause that fails --require: every one but the notices. */
static bool fails_require(const struct sb_cause *c)
{
	return c->def->effect != SB_HEALTH_OK;
}

/* --require rpmsg,dmabuf: exit 1 naming each required subsystem that is not ok or has a
 * cause. */
static int check_required(const struct sb_ctx *c, const char *list,
			  const struct sb_doctor_report *rep)
{
	char *copy = strdup(list), *save = NULL;
	int rc = 0;

	if (!copy)
		return SB_EXIT_FAIL;
	for (char *name = strtok_r(copy, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		int i = sb_doctor_index(name);
		const struct sb_cause *first = NULL;
		size_t ncauses = 0;

		if (i < 0)
			continue;
		for (size_t k = 0; k < rep->ncauses; k++)
			if (rep->causes[k].sub == i && fails_require(&rep->causes[k])) {
				first = first ? first : &rep->causes[k];
				ncauses++;
			}
		if (rep->subs[i].status == SB_HEALTH_OK && !ncauses)
			continue;
		if (first)
			sb_eprintf("%s: %s: required subsystem is %s: %s %s%s", c->applet, name,
				   sb_health_name(rep->subs[i].status), first->def->code,
				   first->object, ncauses > 1 ? " (and more causes)" : "");
		else
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
	     name = strtok_r(NULL, ",", &save)) {
		static const char *const names[] = { "rpmsg", "dmabuf", "iommu", "netdev", NULL };
		const char *meant = sb_suggest_among(name, names);

		if (sb_doctor_index(name) < 0)
			rc = sb_usage_error(
				c,
				"--require: unknown subsystem '%s'%s%s%s (rpmsg, dmabuf, iommu, netdev)",
				name, meant ? "; did you mean '" : "", meant ? meant : "",
				meant ? "'?" : "");
	}
	free(copy);
	return rc;
}

/* --explain CODE: the catalogue's entry. */
enum { ECOL_FIELD, ECOL_VALUE };
static const struct sb_col explain_cols[] = {
	[ECOL_FIELD] = { "FIELD", SB_T_STR, 0, 0, "code, subsystem, status, cause, evidence, fix",
			 0 },
	[ECOL_VALUE] = { "VALUE", SB_T_STR, 0.8, SB_COL_WRAP, "the catalogue's text", 0 },
};

static int explain(const struct sb_ctx *c, const char *code)
{
	const struct sb_cause_def *d = sb_cause_find(code);
	const char *fields[][2] = {
		{ "code", NULL },  { "subsystem", NULL }, { "status", NULL },
		{ "cause", NULL }, { "evidence", NULL },  { "fix", NULL },
	};
	struct sb_out *o;
	int rc;

	if (!d) {
		struct sb_suggest s;
		const char *near;

		sb_suggest_init(&s, code, (size_t)-1);
		for (const struct sb_cause_def *k = sb_cause_catalogue; k->code; k++)
			sb_suggest_add(&s, k->code);
		near = sb_suggest_best(&s);
		/* a typo first, else a code it is part of ("rpmsg.firmware") */
		for (const struct sb_cause_def *k = sb_cause_catalogue; k->code && !near; k++)
			if (strstr(k->code, code) ||
			    !strncmp(k->code, code, strcspn(code, ".") + 1))
				near = k->code;
		sb_eprintf("socbox doctor: --explain: no such cause '%s'%s%s%s (see 'socbox doctor "
			   "--list-causes')",
			   code, near ? "; did you mean '" : "", near ? near : "",
			   near ? "'?" : "");
		return SB_EXIT_USAGE;
	}
	fields[0][1] = d->code;
	fields[1][1] = d->subsystem ? d->subsystem : "the subsystem of the device it names";
	fields[2][1] = d->effect == SB_HEALTH_OK ? "notice (changes no status)"
						 : sb_health_name(d->effect);
	fields[3][1] = d->title;
	fields[4][1] = d->evidence;
	fields[5][1] = d->fix;
	o = sb_out_new(&c->out, stdout);
	if (c->out.mode == SB_OUT_TABLE) {
		struct sb_table *t = sb_out_table(o, "entry", NULL, explain_cols,
						  ARRAY_SIZE(explain_cols), false);

		for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
			struct sb_row *r = sb_table_row(t);

			sb_row_str(r, ECOL_FIELD, fields[i][0]);
			sb_row_str(r, ECOL_VALUE, fields[i][1]);
		}
	} else {
		for (size_t i = 0; i < ARRAY_SIZE(fields); i++)
			sb_out_field_str(o, fields[i][0], fields[i][1]);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}

/* --list-causes: the catalogue, one code a row. */
enum { LCOL_CODE, LCOL_SUBSYSTEM, LCOL_STATUS, LCOL_CAUSE };
static const struct sb_col catalogue_cols[] = {
	[LCOL_CODE] = { "CODE", SB_T_STR, 0, 0, "stable code of the cause", 0 },
	[LCOL_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, 0,
			     "the subsystem it breaks; '-': the one of the device it names", 0 },
	[LCOL_STATUS] = { "STATUS", SB_T_STR, 0, 0,
			  "the status it gives its subsystem (notice: none)", 0 },
	[LCOL_CAUSE] = { "CAUSE", SB_T_STR, 0.5, SB_COL_WRAP, "what it means", 0 },
};

static int list_causes(const struct sb_ctx *c)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	int rc;

	t = sb_out_table(o, "causes", NULL, catalogue_cols, ARRAY_SIZE(catalogue_cols), false);
	for (const struct sb_cause_def *d = sb_cause_catalogue; d->code; d++) {
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, LCOL_CODE, d->code);
		sb_row_str(r, LCOL_SUBSYSTEM, d->subsystem ? d->subsystem : "-");
		sb_row_str(r, LCOL_STATUS, severity_name(d));
		sb_row_str(r, LCOL_CAUSE, d->title);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}

int doctor_run(struct sb_ctx *c, int argc, const char **argv)
{
	static char *require, *explain_code, *devmem;
	static struct sb_cli_value buffer_size = SB_CLI_SIZE_VALUE(NULL, 1, SB_CLI_NO_MAX);
	static int list;
	struct poptOption opts[] = {
		{ "require", '\0', POPT_ARG_STRING, &require, 0,
		  "exit 1 unless these subsystems are ok and have no cause (rpmsg,dmabuf,iommu,netdev)",
		  "LIST" },
		{ "explain", '\0', POPT_ARG_STRING, &explain_code, 0,
		  "print the catalogue's entry for a cause code and exit", "CODE" },
		{ "list-causes", '\0', POPT_ARG_NONE, &list, 0,
		  "list every cause doctor can name and exit", NULL },
		{ "buffer-size", '\0', SB_POPT_ARG_VALUE, &buffer_size, 0,
		  "the largest dma-buf the application allocates (K, M, G): a limit below it is a cause",
		  "SIZE" },
		{ "devmem", '\0', POPT_ARG_STRING, &devmem, 0,
		  "the NIC that must take devmem TCP: what it lacks is a cause (live only)", "IF" },
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	struct sb_doctor_opts dopts = { 0 };
	struct sb_doctor_report rep;
	int rc;

	require = explain_code = devmem = NULL;
	list = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, doctor_cols, ARRAY_SIZE(doctor_cols));
	if (rc)
		return rc;
	if (explain_code)
		return explain(c, explain_code);
	if (list)
		return list_causes(c);
	dopts.buffer_size = buffer_size.value;
	if (devmem) {
		if ((rc = sb_need_live(c, "--devmem")))
			return rc;
		if (!if_nametoindex(devmem)) {
			sb_eprintf("socbox doctor: --devmem: no network interface '%s' (see 'ip link')",
				   devmem);
			return SB_EXIT_UNSUPPORTED;
		}
		dopts.devmem_dev = devmem;
	}
	if (require) {
		rc = validate_required(c, require);
		if (rc)
			return rc;
	}
	sb_doctor_run(c->root, &dopts, &rep);
	if (c->out.mode == SB_OUT_KTAP)
		rc = doctor_print_ktap(c, &rep, &dopts, require);
	else
		rc = print_report(c, &rep);
	if (!rc && require)
		rc = check_required(c, require, &rep);
	sb_doctor_report_free(&rep);
	return rc;
}
