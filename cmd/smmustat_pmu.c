// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat pmu: SMMUv3 PMCG counters through perf_event_open, no perf binary. All counters
 * of one PMU form one group (enabled and read together); -i/-c give interval deltas and
 * rates. --list (and any sysroot) shows what was discovered instead of counting. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socbox/iommu_pmu.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "smmustat.h"

#define PMCG_PREFIX "smmuv3_pmcg_"
#define MAX_EVENTS 32

enum { D_PMU, D_TYPE, D_CPU, D_IDENTIFIER, D_EVENTS, D_FORMATS };
static const struct sb_col disc_cols[] = {
	[D_PMU] = { "PMU", SB_T_STR, 0, 0, "perf PMU name (smmuv3_pmcg_<base>>12>)", 0 },
	/* TYPE and IDENTIFIER hidden (JSON keeps them): the list fits 80 columns */
	[D_TYPE] = { "TYPE", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		     "perf_event_attr.type", 0 },
	[D_CPU] = { "CPU", SB_T_S64, 0, SB_COL_RIGHT, "CPU the counters are bound to (cpumask)", 0 },
	[D_IDENTIFIER] = { "IDENTIFIER", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON, "PMCG IIDR", 0 },
	[D_EVENTS] = { "EVENTS", SB_T_STRV, 0.35, SB_COL_WRAP, "events the hardware advertises", 0 },
	[D_FORMATS] = { "FORMATS", SB_T_STRV, 0.3, SB_COL_WRAP,
			"format fields (filter_stream_id, filter_span, ...)", 0 },
};

enum { C_PMU, C_EVENT, C_COUNT, C_RATE, C_RUNNING };
static const struct sb_col count_cols[] = {
	[C_PMU] = { "PMU", SB_T_STR, 0, SB_COL_LABEL, "perf PMU name", 0 },
	[C_EVENT] = { "EVENT", SB_T_STR, 0, SB_COL_LABEL, "event name or terms", 0 },
	[C_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER, "count in the interval",
		      0 },
	[C_RATE] = { "RATE_PER_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "count per second",
		     1 },
	[C_RUNNING] = { "RUNNING_PCT", SB_T_DBL, 0, SB_COL_RIGHT,
			"share of the interval the group was on the PMU", 1 },
};

static char *opt_pmu;
static struct sb_cli_value opt_sid = SB_CLI_NUMBER_VALUE(NULL, 0, 0xffffffff);
static struct sb_cli_value opt_cpu = SB_CLI_NUMBER_VALUE(NULL, 0, INT_MAX);
static const char **opt_events;
static int opt_span, opt_list;

static struct poptOption pmu_opts[] = {
	{ "pmu", '\0', POPT_ARG_STRING, &opt_pmu, 0,
	  "one PMU by name (default: every smmuv3_pmcg_*; any event_source PMU is accepted)",
	  "NAME" },
	{ "event", 'e', POPT_ARG_ARGV, &opt_events, 0,
	  "event name or terms (repeatable; default: every advertised event)", "EVENT[,TERM=V]" },
	{ "stream-id", '\0', SB_POPT_ARG_VALUE, &opt_sid, 0,
	  "count only this StreamID (filter_enable=1)", "SID" },
	{ "span", '\0', POPT_ARG_NONE, &opt_span, 0,
	  "treat low StreamID bits as wildcard (filter_span=1)", NULL },
	{ "cpu", '\0', SB_POPT_ARG_VALUE, &opt_cpu, 0,
	  "CPU to open the counters on (default: the PMU's cpumask)", "N" },
	{ "list", 'l', POPT_ARG_NONE, &opt_list, 0,
	  "show the PMUs, their events and format fields; do not count", NULL },
	SB_POPT_LIVE,
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

struct pmu_run {
	struct sb_pmu pmu;
	struct sb_perf_group group;
	char names[MAX_EVENTS][64];
	uint64_t cfg[MAX_EVENTS][3];
	size_t n;
	uint64_t last[MAX_EVENTS], last_enabled, last_running;
};

static void discovery_row(struct sb_table *t, const struct sb_pmu *p)
{
	struct sb_row *row = sb_table_row(t);

	sb_row_str(row, D_PMU, p->name);
	sb_row_u64(row, D_TYPE, p->type);
	sb_row_s64(row, D_CPU, p->cpu);
	if (p->identifier[0])
		sb_row_str(row, D_IDENTIFIER, p->identifier);
	for (size_t i = 0; i < p->nevents; i++) {
		char cell[200];

		snprintf(cell, sizeof(cell), "%s(%s)", p->events[i].name, p->events[i].terms);
		sb_row_strv_add(row, D_EVENTS, cell);
	}
	for (size_t i = 0; i < p->nformats; i++)
		sb_row_strv_add(row, D_FORMATS, p->formats[i].name);
}

static bool has_format(const struct sb_pmu *p, const char *name)
{
	for (size_t i = 0; i < p->nformats; i++)
		if (!strcmp(p->formats[i].name, name))
			return true;
	return false;
}

/* Events and filters of one PMU into config words; an exit code on error. */
static int prepare(struct sb_ctx *c, struct pmu_run *r)
{
	char filter[96] = "";
	struct sb_err e;

	if (opt_sid.given) {
		if (!has_format(&r->pmu, "filter_stream_id") ||
		    !has_format(&r->pmu, "filter_enable"))
			return sb_usage_error(c,
					      "%s has no StreamID filter (format/filter_stream_id)",
					      r->pmu.name);
		snprintf(filter, sizeof(filter),
			 ",filter_enable=1,filter_stream_id=0x%llx,filter_span=%d",
			 (unsigned long long)opt_sid.value, opt_span ? 1 : 0);
	}
	for (size_t i = 0; opt_events && opt_events[i]; i++) {
		if (r->n == MAX_EVENTS)
			return sb_usage_error(c, "at most %d events per PMU", MAX_EVENTS);
		snprintf(r->names[r->n++], sizeof(r->names[0]), "%s", opt_events[i]);
	}
	for (size_t i = 0; !opt_events && i < r->pmu.nevents && r->n < MAX_EVENTS; i++)
		snprintf(r->names[r->n++], sizeof(r->names[0]), "%s", r->pmu.events[i].name);
	if (!r->n)
		return sb_usage_error(c,
				      "%s lists no events: name them with -e TERMS (e.g. -e config=0x1)",
				      r->pmu.name);
	for (size_t i = 0; i < r->n; i++) {
		char terms[192];

		snprintf(terms, sizeof(terms), "%s%s", r->names[i], filter);
		sb_err_clear(&e);
		if (sb_perf_encode(&r->pmu, terms, r->cfg[i], &e))
			return sb_report(c->applet, &e);
		sb_verbose(c->applet, "%s %s: config=0x%llx config1=0x%llx", r->pmu.name,
			   r->names[i], (unsigned long long)r->cfg[i][0],
			   (unsigned long long)r->cfg[i][1]);
	}
	return 0;
}

static int count(struct sb_ctx *c, struct pmu_run *runs, size_t nruns)
{
	double interval = sb_opt.interval > 0 ? sb_opt.interval : 1.0;
	int samples = sb_opt.count > 0 ? sb_opt.count : (sb_opt.interval > 0 ? 0 : 1);
	struct sb_out *o;
	struct sb_err e;
	uint64_t t0;
	int rc = 0;

	sb_err_clear(&e);
	for (size_t k = 0; k < nruns; k++) {
		struct pmu_run *r = &runs[k];
		int cpu = opt_cpu.given ? (int)opt_cpu.value : r->pmu.cpu >= 0 ? r->pmu.cpu : 0;

		if (sb_perf_group_open(&r->group, r->pmu.type, (const uint64_t(*)[3])r->cfg, r->n,
				       cpu, -1, &e) ||
		    sb_perf_group_enable(&r->group, &e))
			return sb_report(c->applet, &e);
		sb_verbose(c->applet, "%s: %zu counters as one group on CPU %d", r->pmu.name, r->n,
			   cpu);
	}
	o = sb_out_new(&c->out, stdout);
	sb_catch_stop_signals();
	t0 = sb_now_ns();
	sb_verbose(c->applet, "counting, a sample every %g s", interval);
	/* a stop signal cuts the sample short: it is printed with its real interval_s (as
	 * perf stat does) and a note, then the run ends with 0 */
	for (int s = 0; !samples || s < samples; s++) {
		struct sb_table *t;
		uint64_t now;
		double secs;
		bool cut;

		cut = sb_sleep(interval);
		now = sb_now_ns();
		secs = (double)(now - t0) / 1e9;
		t0 = now;
		sb_out_field_dbl(o, "interval_s", secs);
		t = sb_out_table(o, "counters", NULL, count_cols, ARRAY_SIZE(count_cols), true);
		for (size_t k = 0; k < nruns; k++) {
			struct pmu_run *r = &runs[k];
			uint64_t v[MAX_EVENTS], en, run;
			double running;

			if (sb_perf_group_read(&r->group, v, &en, &run, &e)) {
				sb_out_free(o);
				return sb_report(c->applet, &e);
			}
			running = en > r->last_enabled
					  ? 100.0 * (double)(run - r->last_running) /
						    (double)(en - r->last_enabled)
					  : 0;
			for (size_t i = 0; i < r->n; i++) {
				struct sb_row *row = sb_table_row(t);
				uint64_t d = v[i] - r->last[i];

				sb_row_str(row, C_PMU, r->pmu.name);
				sb_row_str(row, C_EVENT, r->names[i]);
				sb_row_u64(row, C_COUNT, d);
				sb_row_dbl(row, C_RATE, secs > 0 ? (double)d / secs : 0);
				sb_row_dbl(row, C_RUNNING, running);
				r->last[i] = v[i];
			}
			r->last_enabled = en;
			r->last_running = run;
		}
		if (cut)
			smmustat_note_cut(o, secs, interval, "its counts and rates cover that time");
		if (sb_out_print(o)) {
			rc = SB_EXIT_FAIL;
			break;
		}
		fflush(stdout);
		if (sb_stop_signal)
			break;
	}
	sb_out_free(o);
	return sb_stop_status(rc);
}

int smmustat_pmu(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_dirlist names = { 0 };
	struct pmu_run *runs = NULL;
	size_t nruns = 0;
	struct sb_err e;
	int rc;

	opt_pmu = NULL;
	opt_events = NULL;
	opt_span = opt_list = 0;
	rc = sb_cli_parse(c, pmu_opts, NULL, argc, argv, NULL, 0);
	if (rc)
		return rc;
	/* checked before anything is read, so a sysroot does not let a bad value pass */
	if (opt_span && !opt_sid.given)
		return sb_usage_error(c, "--span needs --stream-id");
	if (c->out.list_columns) {
		sb_out_list_columns(&c->out, stdout, opt_list ? disc_cols : count_cols,
				    opt_list ? ARRAY_SIZE(disc_cols) : ARRAY_SIZE(count_cols));
		return SB_CLI_DONE;
	}
	sb_err_clear(&e);
	if (sb_out_check_columns(c->out.columns, opt_list ? disc_cols : count_cols,
				 opt_list ? ARRAY_SIZE(disc_cols) : ARRAY_SIZE(count_cols), &e))
		return sb_usage_columns(c, &e, opt_list ? disc_cols : count_cols,
					opt_list ? ARRAY_SIZE(disc_cols) : ARRAY_SIZE(count_cols));
	if (opt_pmu) {
		names.names = calloc(1, sizeof(char *));
		if (names.names && (names.names[0] = strdup(opt_pmu)))
			names.n = 1;
	} else if (sb_pmu_list(c->root, PMCG_PREFIX, &names) < 0) {
		names.n = 0;
	}
	if (!names.n) {
		sb_dirlist_free(&names);
		sb_err_set(&e, ENODEV, "/sys/bus/event_source/devices", "find an SMMUv3 PMCG",
			   "load arm_smmuv3_pmu (CONFIG_ARM_SMMU_V3_PMU); the firmware must describe the PMCGs (IORT or DT)");
		sb_err_reason(&e, "no smmuv3_pmcg_* PMU");
		return sb_report(c->applet, &e);
	}
	runs = calloc(names.n, sizeof(*runs));
	for (size_t i = 0; runs && i < names.n; i++) {
		if (sb_pmu_read(c->root, names.names[i], &runs[i].pmu, &e)) {
			rc = sb_report(c->applet, &e);
			goto out;
		}
		nruns++;
	}
	/* events and filters are encoded from the PMU's own format files, so a sysroot
	 * checks them too (an unknown -e used to pass unseen) */
	for (size_t i = 0; !opt_list && (opt_events || opt_sid.given) && i < nruns; i++)
		if ((rc = prepare(c, &runs[i])))
			goto out;
	/* sampling asked of a sysroot: the answer of irq -i, not a listing with a note (-e
	 * alone is checked against the PMU's format files above and listed) */
	if (!opt_list && (sb_opt.interval > 0 || sb_opt.count) && (rc = sb_need_live(c, "-i")))
		goto out;
	if (opt_list || !sb_root_is_live(c->root)) {
		struct sb_out *o = sb_out_new(&c->out, stdout);
		struct sb_table *t = sb_out_table(o, "pmus", NULL, disc_cols, ARRAY_SIZE(disc_cols),
						  true);

		for (size_t i = 0; i < nruns; i++)
			discovery_row(t, &runs[i].pmu);
		if (!opt_list)
			sb_out_note(
				o,
				"counting needs the live kernel; this is what the sysroot describes");
		rc = sb_out_print(o) ? SB_EXIT_FAIL : 0;
		sb_out_free(o);
		goto out;
	}
	for (size_t i = 0; !opt_events && !opt_sid.given && i < nruns; i++)
		if ((rc = prepare(c, &runs[i])))
			goto out;
	rc = count(c, runs, nruns);
out:
	for (size_t i = 0; i < nruns; i++) {
		sb_perf_group_close(&runs[i].group);
		sb_pmu_free(&runs[i].pmu);
	}
	free(runs);
	sb_dirlist_free(&names);
	return rc;
}
