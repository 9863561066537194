// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox events: one timeline of what every subsystem reports (lib/events), one line per
 * event, on the live system or a snapshot; --follow goes on with the kernel log, rpmsg
 * uevents and netdev page-pool notifications as they come (lib/events/events_follow.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/suggest.h"
#include "socbox/error.h"
#include "socbox/escape.h"
#include "socbox/events.h"
#include "socbox/json.h"
#include "socbox/macro.h"
#include "socbox/stats.h"

enum { C_TIME, C_SUBSYS, C_KIND, C_OBJECT, C_DETAIL, C_SOURCE, C_INSTANCE };
static const struct sb_col event_cols[] = {
	[C_TIME] = { "TIME_S", SB_T_DBL, 0, SB_COL_RIGHT, "seconds since boot (kernel log clock)",
		     6 },
	[C_SUBSYS] = { "SUBSYSTEM", SB_T_STR, 0, 0,
		       "iommu, remoteproc, rpmsg, netdev, dmabuf or log", 0 },
	[C_KIND] = { "KIND", SB_T_STR, 0, 0,
		     "fault, crash, recovery, up, channel-add, pool-stalled, ...", 0 },
	[C_OBJECT] = { "OBJECT", SB_T_STR, 0, 0,
		       "what it is about: device, remote processor, channel, pool", 0 },
	[C_DETAIL] = { "DETAIL", SB_T_STR, 0.5, SB_COL_TRUNC, "the rest of the record", 0 },
	[C_SOURCE] = { "SOURCE", SB_T_STR, 0, SB_COL_HIDDEN, "kmsg, netdev or uevent", 0 },
	[C_INSTANCE] = { "INSTANCE", SB_T_STR, 0, SB_COL_HIDDEN,
			 "IOMMU faults: the instance that reported it (smmustat NAME)", 0 },
};

/* --format openmetrics/prometheus: records counted per subsystem, kind and object. */
enum { R_SUBSYS, R_KIND, R_OBJECT, R_COUNT, R_LAST };
static const struct sb_col record_cols[] = {
	[R_SUBSYS] = { "SUBSYSTEM", SB_T_STR, 0, SB_COL_LABEL, "subsystem", 0 },
	[R_KIND] = { "KIND", SB_T_STR, 0, SB_COL_LABEL, "kind of event", 0 },
	[R_OBJECT] = { "OBJECT", SB_T_STR, 0, SB_COL_LABEL, "what it is about", 0 },
	[R_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER,
		      "events in the kernel log and the netdev state (remote processor crashes, recoveries, IOMMU faults per device, ...)",
		      0 },
	[R_LAST] = { "LAST_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
		     "time of the last one, seconds since boot", 3 },
};

struct view {
	struct sb_ctx *c;
	unsigned mask;
	double since_s;	   /* events before it are left out (-1: none) */
	long printed, max; /* -c */
	bool headings_done;
	bool metrics;		    /* --format openmetrics/prometheus: counted, not printed */
	struct sb_ev_counts counts; /* what metrics print */
};

static void print_json(const struct sb_event *ev)
{
	struct sb_json j;

	sb_json_init(&j, stdout, false);
	sb_json_obj_begin(&j, NULL);
	if (ev->has_ts)
		sb_json_dbl(&j, "time_s", (double)ev->ts_us / 1e6);
	else
		sb_json_null(&j, "time_s");
	sb_json_str(&j, "subsystem", sb_ev_subsys_name(ev->subsys));
	sb_json_str(&j, "kind", ev->kind);
	if (ev->object[0])
		sb_json_str(&j, "object", ev->object);
	else
		sb_json_null(&j, "object");
	sb_json_str(&j, "detail", ev->detail);
	sb_json_str(&j, "source", ev->source);
	if (ev->instance[0])
		sb_json_str(&j, "instance", ev->instance);
	if (ev->iommu_class)
		sb_json_str(&j, "class", ev->iommu_class);
	sb_json_obj_end(&j);
}

/* One line per event, as dmesg prints; on a terminal wrapped at its width (continuation
 * lines indented), to a pipe one line whatever its length, for grep. */
static void print_line(const struct sb_event *ev)
{
	char line[sizeof(ev->object) * 4 + sizeof(ev->detail) * 4 + 64], *p = line;
	size_t left = sizeof(line);
	int n;

	if (ev->has_ts)
		n = snprintf(p, left, "[%5llu.%06llu] ", (unsigned long long)(ev->ts_us / 1000000),
			     (unsigned long long)(ev->ts_us % 1000000));
	else
		n = snprintf(p, left, "[           -] ");
	p += n, left -= (size_t)n;
	n = snprintf(p, left, "%-10s %-16s ", sb_ev_subsys_name(ev->subsys), ev->kind);
	p += n, left -= (size_t)n;
	sb_escape(p, left, ev->object[0] ? ev->object : "-", 0);
	if (ev->detail[0]) {
		n = (int)strlen(p);
		p += n, left -= (size_t)n;
		snprintf(p, left, "  ");
		sb_escape(p + 2, left - 2, ev->detail, 0);
	}
	sb_err_put_wrapped(stdout, line, sb_err_width(stdout));
}

static void event_row(struct sb_table *t, const struct sb_event *ev)
{
	struct sb_row *r = sb_table_row(t);

	if (ev->has_ts)
		sb_row_dbl(r, C_TIME, (double)ev->ts_us / 1e6);
	sb_row_str(r, C_SUBSYS, sb_ev_subsys_name(ev->subsys));
	sb_row_str(r, C_KIND, ev->kind);
	if (ev->object[0])
		sb_row_str(r, C_OBJECT, ev->object);
	if (ev->detail[0])
		sb_row_str(r, C_DETAIL, ev->detail);
	sb_row_str(r, C_SOURCE, ev->source);
	if (ev->instance[0])
		sb_row_str(r, C_INSTANCE, ev->instance);
}

/* One event as it comes (table and JSON modes print lines; -r/-P/-o go through a table). */
static int emit(struct view *v, const struct sb_event *ev)
{
	/* lost records concern every subsystem: never filtered out */
	if (v->metrics) /* every event of the subsystems asked, whatever --since */
		return (v->mask & (1u << ev->subsys)) ? sb_ev_counts_add(&v->counts, ev) : 0;
	if ((!(v->mask & (1u << ev->subsys)) && ev->subsys != SB_EV_LOG) ||
	    (v->since_s >= 0 && ev->has_ts && (double)ev->ts_us / 1e6 < v->since_s))
		return 0;
	if (v->max && v->printed >= v->max)
		return 0;
	if (v->c->out.mode == SB_OUT_JSON) {
		print_json(ev);
	} else if (v->c->out.mode == SB_OUT_TABLE && !v->c->out.columns) {
		print_line(ev);
	} else {
		struct sb_out_opts oo = v->c->out;
		struct sb_out *o;

		oo.noheadings = oo.noheadings || v->headings_done;
		o = sb_out_new(&oo, stdout);
		event_row(sb_out_table(o, "events", NULL, event_cols, ARRAY_SIZE(event_cols), true),
			  ev);
		sb_out_print(o);
		sb_out_free(o);
		v->headings_done = true;
	}
	v->printed++;
	if (fflush(stdout))
		return -errno;
	return v->max && v->printed >= v->max; /* -c N: enough */
}

static int emit_event(void *arg, const struct sb_event *ev)
{
	return emit(arg, ev);
}

static int print_metrics(struct sb_ctx *c, const struct sb_ev_counts *counts)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	int rc;

	t = sb_out_table(o, "records", NULL, record_cols, ARRAY_SIZE(record_cols), true);
	for (size_t i = 0; i < counts->n; i++) {
		const struct sb_ev_count *n = &counts->v[i];
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, R_SUBSYS, sb_ev_subsys_name(n->subsys));
		sb_row_str(r, R_KIND, n->kind);
		sb_row_str(r, R_OBJECT, n->object);
		sb_row_u64(r, R_COUNT, n->n);
		if (n->last_has_ts)
			sb_row_dbl(r, R_LAST, (double)n->last_ts_us / 1e6);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}

/* --since SEC (seconds since boot, as printed) or -DURATION (10s, 5m, 2h, 1d) before now:
 * the live clock, or on a snapshot the newest kernel log record. */
static int parse_since(const char *s, double now_s, double *out)
{
	char *end;
	double v = strtod(s, &end), unit = 1;

	if (end == s || !isfinite(v))
		return -EINVAL;
	if (*end) {
		static const struct {
			char c;
			double s;
		} units[] = { { 's', 1 }, { 'm', 60 }, { 'h', 3600 }, { 'd', 86400 } };
		size_t i;

		for (i = 0; i < ARRAY_SIZE(units) && units[i].c != *end; i++)
			;
		if (i == ARRAY_SIZE(units) || end[1] || s[0] != '-')
			return -EINVAL;
		unit = units[i].s;
	}
	*out = s[0] == '-' ? now_s + v * unit : v;
	return 0;
}

static int unknown_subsystem(const struct sb_ctx *c, const char *bad)
{
	static const char *const names[] = {
		"iommu", "remoteproc", "rpmsg", "netdev", "dmabuf", NULL
	};
	const char *meant = sb_suggest_among(bad, names);

	return sb_usage_error(c, "--subsystem: unknown '%s'%s%s%s (%s, %s, %s, %s, %s)", bad,
			      meant ? "; did you mean '" : "", meant ? meant : "",
			      meant ? "'?" : "", names[0], names[1], names[2], names[3], names[4]);
}

/* What the command line asks for, checked; --since is read before the events. */
struct events_cmd {
	unsigned mask;
	char *since;
	double timeout;
};

static int events_check(struct sb_ctx *c, const char *subsys, struct events_cmd *cmd)
{
	char bad[64];

	if (c->nargs)
		return sb_usage_error(c, "takes no arguments ('%s')", c->args[0]);
	if (subsys && sb_ev_subsys_mask(subsys, &cmd->mask, bad, sizeof(bad)))
		return unknown_subsystem(c, bad);
	if (cmd->timeout < 0 || !isfinite(cmd->timeout) || cmd->timeout > SB_INTERVAL_MAX)
		return sb_usage_error(c, "--timeout needs seconds between 0 and %d",
				      SB_INTERVAL_MAX);
	if ((cmd->timeout > 0 || sb_opt.count) && !sb_opt.follow)
		return sb_usage_error(c, "--timeout and -c go with --follow");
	if (sb_opt.follow && sb_out_mode_is_metrics(c->out.mode))
		return sb_usage_error(c, "--follow prints events; metrics count them once");
	if (sb_opt.follow)
		return sb_need_live(c, "--follow");
	return 0;
}

/* Fills cmd (its since is the caller's to free); returns an exit code. */
static int events_parse(struct sb_ctx *c, int argc, const char **argv, struct events_cmd *cmd)
{
	static char *subsys, *since;
	static double timeout;
	struct poptOption opts[] = {
		{ "subsystem", 's', POPT_ARG_STRING, &subsys, 0,
		  "only these (iommu,remoteproc,rpmsg,netdev,dmabuf)", "LIST" },
		{ "since", '\0', POPT_ARG_STRING, &since, 0,
		  "from SEC seconds since boot, or -DURATION before now (-10m; s, m, h, d)",
		  "WHEN" },
		SB_POPT_FOLLOW("go on with new events as they come (live; -c N stops after N)"),
		{ "timeout", 't', POPT_ARG_DOUBLE, &timeout, 0,
		  "with --follow: stop after this long", SB_CLI_DURATION },
		SB_POPT_COUNT,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	int rc;

	subsys = since = NULL;
	timeout = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, event_cols, ARRAY_SIZE(event_cols));
	cmd->since = since;
	cmd->timeout = timeout;
	if (!rc)
		rc = events_check(c, subsys, cmd);
	free(subsys);
	return rc;
}

/* --follow: the live sources, opened before the events so far are read so that nothing
 * falls in between. Returns an exit code. */
static int events_follow_open(struct sb_ctx *c, unsigned mask, struct sb_ev_follow **f,
			      struct sb_ev_follow_sources *src)
{
	struct sb_err e;

	sb_err_clear(&e);
	sb_catch_stop_signals();
	if (sb_ev_follow_open(c->root, mask, f, src, &e))
		return sb_report(c->applet, &e);
	if ((mask & (1u << SB_EV_RPMSG)) && !src->uevents)
		sb_verbose(c->applet, "events: no rpmsg uevents: %s",
			   src->no_uevents.reason[0] ? src->no_uevents.reason
						     : sb_strerror(src->no_uevents.errnum));
	if ((mask & (1u << SB_EV_NETDEV)) && !src->pool_ntf)
		sb_verbose(c->applet,
			   "events: no page-pool notifications (Linux 6.8+): the kernel log only");
	return 0;
}

static int first_line(void *arg, const struct sb_kmsg_line *l)
{
	(void)arg, (void)l;
	return 1;
}

static int no_line(void *arg, const struct sb_kmsg_line *l)
{
	(void)arg, (void)l;
	return 0;
}

/* From when to show the events (--since): on a snapshot, -DURATION counts back from the
 * newest record of its log, which takes a pass over the log before the one that prints.
 * Returns an exit code. */
static int events_since(struct sb_ctx *c, const struct events_cmd *cmd, struct view *v)
{
	struct sb_kmsg_info info;
	struct sb_err e;
	double now_s = 0;
	int rc;

	if (!cmd->since)
		return 0;
	sb_err_clear(&e);
	if (sb_root_is_live(c->root))
		now_s = (double)sb_now_ns() / 1e9;
	else if (cmd->since[0] == '-' && !parse_since(cmd->since, 0, &v->since_s)) {
		if (sb_kmsg_each(c->root, no_line, NULL, &info, &e) < 0)
			return sb_report(c->applet, &e);
		now_s = (double)info.last_ts_us / 1e6;
	}
	if (!parse_since(cmd->since, now_s, &v->since_s))
		return 0;
	/* an unreadable log is said first, as when the log was read before --since */
	rc = sb_kmsg_each(c->root, first_line, NULL, &info, &e);
	if (rc < 0)
		return sb_report(c->applet, &e);
	return sb_usage_error(
		c,
		"--since: '%s' is neither seconds since boot nor -DURATION (-90s, -10m, -2h, -1d)",
		cmd->since);
}

/* The events so far as the log is read, in time order (printed, or counted for metrics).
 * Returns an exit code; *last_ts_us the newest record's time, *enough when -c was met. */
static int events_so_far(struct sb_ctx *c, struct view *v, uint64_t *last_ts_us, bool *enough)
{
	struct sb_ev_each_info info;
	struct sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_ev_each(c->root, v->mask, emit_event, v, &info, &e);
	if (info.netdev_missing)
		sb_verbose(c->applet, "events: no detached page pools: %s",
			   info.netdev_err.reason[0] ? info.netdev_err.reason
						     : sb_strerror(info.netdev_err.errnum));
	*last_ts_us = info.last_ts_us;
	*enough = rc > 0;
	if (rc < 0 && (e.errnum || e.reason[0]))
		return sb_report(c->applet, &e);
	return rc < 0 ? SB_EXIT_FAIL : 0;
}

/* With --follow, the new events until -c, --timeout or a signal. */
static int events_follow(struct sb_ctx *c, const struct events_cmd *cmd, struct view *v,
			 uint64_t last_ts_us, struct sb_ev_follow *f,
			 const struct sb_ev_follow_sources *src)
{
	sb_ev_follow_skip_until(f, last_ts_us);
	/* scripts wait for this line before they make something happen */
	sb_verbose(c->applet, "events: following the kernel log%s%s",
		   src->uevents ? ", rpmsg uevents" : "",
		   src->pool_ntf ? ", page-pool notifications" : "");
	return sb_ev_follow_run(f, cmd->timeout, emit_event, v) ? SB_EXIT_FAIL : 0;
}

int events_run(struct sb_ctx *c, int argc, const char **argv)
{
	struct events_cmd cmd = { .mask = SB_EV_ALL };
	struct view v = { .c = c, .since_s = -1 };
	struct sb_ev_follow_sources src;
	struct sb_ev_follow *f = NULL;
	uint64_t last_ts_us = 0;
	bool enough = false;
	int rc;

	rc = events_parse(c, argc, argv, &cmd);
	if (rc)
		goto out;
	v.mask = cmd.mask;
	v.max = sb_opt.count;
	v.metrics = sb_out_mode_is_metrics(c->out.mode);
	if (sb_opt.follow && (rc = events_follow_open(c, v.mask, &f, &src)))
		goto out;
	if ((rc = events_since(c, &cmd, &v)) || (rc = events_so_far(c, &v, &last_ts_us, &enough)))
		goto out;
	if (v.metrics)
		rc = print_metrics(c, &v.counts);
	else if (sb_opt.follow && !enough)
		rc = events_follow(c, &cmd, &v, last_ts_us, f, &src);
out:
	sb_ev_follow_close(f);
	sb_ev_counts_free(&v.counts);
	free(cmd.since);
	return rc;
}
