// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox events: one timeline of what every subsystem reports (lib/events), one line per
 * event, on the live system or a snapshot; --follow goes on with the kernel log, rpmsg
 * uevents and netdev page-pool notifications as they come. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <net/if.h>
#include <poll.h>
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
#include "socbox/genl.h"
#include "socbox/iommu_sid.h"
#include "socbox/json.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/udev.h"
#include "socbox/uapi/netdev.h"

enum { C_TIME, C_SUBSYS, C_KIND, C_OBJECT, C_DETAIL, C_SOURCE, C_INSTANCE };
static const struct sb_col event_cols[] = {
	[C_TIME] = { "TIME_S", SB_T_DBL, 0, SB_COL_RIGHT, "seconds since boot (kernel log clock)",
		     6 },
	[C_SUBSYS] = { "SUBSYSTEM", SB_T_STR, 0, 0, "iommu, remoteproc, rpmsg, netdev or dmabuf",
		       0 },
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
	sb_json_str(&j, "object", ev->object);
	sb_json_str(&j, "detail", ev->detail);
	sb_json_str(&j, "source", ev->source);
	if (ev->instance[0])
		sb_json_str(&j, "instance", ev->instance);
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
	sb_escape(p, left, ev->object, 0);
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
	if (!(v->mask & (1u << ev->subsys)) ||
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
	return fflush(stdout) ? -errno : 0;
}

static int print_metrics(struct sb_ctx *c, const struct sb_ev_list *l, const struct view *v)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	bool *done;
	int rc;

	done = calloc(l->n ? l->n : 1, sizeof(*done));
	t = sb_out_table(o, "records", NULL, record_cols, ARRAY_SIZE(record_cols), true);
	for (size_t i = 0; done && i < l->n; i++) {
		const struct sb_event *a = &l->v[i];
		const struct sb_event *last = a;
		uint64_t n = 0;
		struct sb_row *r;

		if (done[i] || !(v->mask & (1u << a->subsys)))
			continue;
		for (size_t k = i; k < l->n; k++) {
			const struct sb_event *b = &l->v[k];

			if (done[k] || b->subsys != a->subsys || strcmp(b->kind, a->kind) ||
			    strcmp(b->object, a->object))
				continue;
			done[k] = true;
			n++;
			last = b;
		}
		r = sb_table_row(t);
		sb_row_str(r, R_SUBSYS, sb_ev_subsys_name(a->subsys));
		sb_row_str(r, R_KIND, a->kind);
		sb_row_str(r, R_OBJECT, a->object);
		sb_row_u64(r, R_COUNT, n);
		if (last->has_ts)
			sb_row_dbl(r, R_LAST, (double)last->ts_us / 1e6);
	}
	free(done);
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

/* How long an IOMMU record that more lines may complete (an SMMUv3 raw dump) waits when the
 * log goes quiet (as smmustat events --follow). */
#define FOLLOW_SETTLE_MS 500
/* The sources are read one after the other, so an event may be read after a later one of
 * another source: events are held this long and printed in time order. */
#define FOLLOW_REORDER_MS 250

/* Following: the kernel log (IOMMU records through lib/iommu's assembler), rpmsg uevents,
 * netdev page-pool notifications. */
struct follow {
	struct view *v;
	struct sb_kmsg_follow kf;
	bool have_kf;
	struct sb_devmon *mon;
	struct sb_genl g;
	bool have_genl;
	uint64_t skip_until_us; /* records the first pass printed already */
	struct sb_iommu_evasm asm_;
	struct sb_sid_namer *names;
	struct sb_ev_list held; /* read, not printed yet (FOLLOW_REORDER_MS) */
	uint64_t detached[64];	/* pools announced detached, to report when they go */
	size_t ndetached;
	int rc;
};

static void hold(struct follow *f, const struct sb_event *ev)
{
	if (!f->rc && sb_ev_add(&f->held, ev))
		f->rc = -ENOMEM;
}

/* Print the held events older than the reorder window (all of them with all), in time order. */
static void release(struct follow *f, bool all)
{
	uint64_t now_us = sb_now_ns() / 1000, cut = now_us - FOLLOW_REORDER_MS * 1000;
	size_t k = 0;

	sb_ev_sort(&f->held);
	for (size_t i = 0; i < f->held.n; i++) {
		if (!all && f->held.v[i].ts_us > cut) {
			f->held.v[k++] = f->held.v[i];
			continue;
		}
		if (!f->rc)
			f->rc = emit(f->v, &f->held.v[i]);
	}
	f->held.n = k;
}

static void emit_iommu(struct follow *f, struct sb_iommu_event *ie)
{
	struct sb_event ev;

	sb_sid_namer_name(f->names, ie);
	sb_ev_from_iommu(ie, &ev);
	hold(f, &ev);
}

static void flush_pending(struct follow *f)
{
	struct sb_iommu_event ie;

	while (sb_iommu_evasm_flush(&f->asm_, &ie))
		emit_iommu(f, &ie);
}

static void kmsg_line(struct follow *f, const struct sb_kmsg_line *l)
{
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	struct sb_event ev;
	size_t n;

	if (l->has_ts && l->ts_us <= f->skip_until_us)
		return;
	n = sb_iommu_evasm_feed(&f->asm_, l, done);
	for (size_t i = 0; i < n; i++)
		emit_iommu(f, &done[i]);
	if (sb_ev_parse_kmsg(l, &ev))
		hold(f, &ev);
}

static int pool_cb(const struct nlmsghdr *nlh, void *data)
{
	struct follow *f = data;
	struct sb_nd_event ne;
	struct sb_event ev;
	char ifname[IF_NAMESIZE];

	if (sb_nd_parse_event(nlh, &ne) || !ne.is_pool)
		return SB_NL_CB_OK;
	if (ne.cmd == SB_NETDEV_CMD_PAGE_POOL_CHANGE_NTF &&
	    sb_ev_from_pool(&ne.pool,
			    ne.pool.ifindex ? if_indextoname(ne.pool.ifindex, ifname) : NULL, &ev)) {
		if (f->ndetached < ARRAY_SIZE(f->detached))
			f->detached[f->ndetached++] = ne.pool.id;
		/* the notification comes as it happens: its arrival is finer than detach-time's
		 * whole seconds */
		ev.ts_us = sb_now_ns() / 1000;
		hold(f, &ev);
	} else if (ne.cmd == SB_NETDEV_CMD_PAGE_POOL_DEL_NTF) {
		for (size_t i = 0; i < f->ndetached; i++) {
			if (f->detached[i] != ne.pool.id)
				continue;
			f->detached[i] = f->detached[--f->ndetached];
			memset(&ev, 0, sizeof(ev));
			ev.ts_us = sb_now_ns() / 1000;
			ev.has_ts = true;
			ev.subsys = SB_EV_NETDEV;
			ev.source = "netdev";
			snprintf(ev.kind, sizeof(ev.kind), "pool-gone");
			snprintf(ev.object, sizeof(ev.object), "pool %llu",
				 (unsigned long long)ne.pool.id);
			snprintf(ev.detail, sizeof(ev.detail),
				 "its pages came back; the kernel freed it");
			hold(f, &ev);
			break;
		}
	}
	return SB_NL_CB_OK;
}

static int follow_open(struct follow *f, struct sb_ctx *c, struct sb_err *e)
{
	int rc = sb_kmsg_follow_open(&f->kf, e);

	if (rc)
		return sb_report(c->applet, e);
	f->have_kf = true;
	sb_iommu_evasm_init(&f->asm_);
	if (sb_sid_namer_open(c->root, &f->names))
		f->names = NULL; /* out of memory: the records keep the log's names */
	if ((f->v->mask & (1u << SB_EV_RPMSG)) && sb_devmon_open(&f->mon, "rpmsg", e)) {
		sb_verbose(c->applet, "events: no rpmsg uevents: %s",
			   e->reason[0] ? e->reason : sb_strerror(e->errnum));
		f->mon = NULL;
	}
	if (f->v->mask & (1u << SB_EV_NETDEV)) {
		sb_err_clear(e);
		if (sb_genl_open(&f->g, SB_NETDEV_FAMILY, e) == 0) {
			f->have_genl = sb_genl_join(&f->g, SB_NETDEV_MCGRP_PAGE_POOL, e) == 0;
			if (!f->have_genl)
				sb_genl_close(&f->g);
		}
		if (!f->have_genl)
			sb_verbose(c->applet,
				   "events: no page-pool notifications (Linux 6.8+): the kernel log only");
	}
	return 0;
}

static void follow_close(struct follow *f)
{
	if (f->have_kf)
		sb_kmsg_follow_close(&f->kf);
	if (f->mon)
		sb_devmon_close(f->mon);
	if (f->have_genl)
		sb_genl_close(&f->g);
	sb_sid_namer_close(f->names);
	sb_ev_list_free(&f->held);
}

static int follow_loop(struct follow *f, double timeout_s)
{
	uint64_t deadline = timeout_s > 0 ? sb_now_ns() + (uint64_t)(timeout_s * 1e9) : 0;
	struct sb_err e;

	while (!sb_stop_signal && !f->rc && (!f->v->max || f->v->printed < f->v->max)) {
		struct pollfd p[3] = { { .fd = f->kf.fd, .events = POLLIN } };
		int np = 1, imon = -1, igenl = -1, r;
		int wait_ms = f->held.n				 ? FOLLOW_REORDER_MS / 2
			      : sb_iommu_evasm_pending(&f->asm_) ? FOLLOW_SETTLE_MS
								 : 1000;

		if (f->mon) {
			imon = np;
			p[np++] = (struct pollfd){ .fd = sb_devmon_fd(f->mon), .events = POLLIN };
		}
		if (f->have_genl) {
			igenl = np;
			p[np++] = (struct pollfd){ .fd = f->g.fd, .events = POLLIN };
		}
		wait_ms = sb_poll_timeout(deadline, wait_ms);
		if (!wait_ms)
			break;
		release(f, false);
		if (f->rc || (f->v->max && f->v->printed >= f->v->max))
			break;
		r = sb_poll(p, (nfds_t)np, wait_ms);
		if (r == -EINTR) /* a stop signal: the loop ends */
			continue;
		if (r < 0)
			return r;
		if (r == 0) { /* quiet: a record waiting for more lines is whole */
			if (sb_iommu_evasm_pending(&f->asm_) && !f->held.n)
				flush_pending(f);
			continue;
		}
		if (p[0].revents || f->kf.more) {
			struct sb_kmsg_line l;

			while (!f->rc && sb_kmsg_follow_next(&f->kf, &l, 0) == 0)
				kmsg_line(f, &l);
		}
		if (imon >= 0 && p[imon].revents) {
			struct sb_devevent de;
			struct sb_event ev;

			while (!f->rc && sb_devmon_next(f->mon, &de, 0) == 0)
				if (sb_ev_from_uevent(de.action, de.devpath, de.devname,
						      sb_now_ns() / 1000, &ev))
					hold(f, &ev);
		}
		if (igenl >= 0 && p[igenl].revents) {
			sb_err_clear(&e);
			sb_genl_recv(&f->g, pool_cb, f, 0, &e);
		}
	}
	flush_pending(f);
	release(f, true);
	return f->rc;
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

static int events_run(struct sb_ctx *c, int argc, const char **argv)
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
		  "with --follow: stop after SEC seconds", "SEC" },
		SB_POPT_COUNT,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	struct view v = { .c = c, .mask = SB_EV_ALL, .since_s = -1 };
	struct follow f = { .v = &v };
	struct sb_ev_list l = { 0 };
	struct sb_err e;
	char bad[64];
	int rc;

	subsys = since = NULL;
	timeout = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, event_cols, ARRAY_SIZE(event_cols));
	if (rc)
		goto out;
	if (c->nargs)
		rc = sb_usage_error(c, "takes no arguments ('%s')", c->args[0]);
	else if (subsys && sb_ev_subsys_mask(subsys, &v.mask, bad, sizeof(bad)))
		rc = unknown_subsystem(c, bad);
	else if (timeout < 0 || !isfinite(timeout) || timeout > SB_INTERVAL_MAX)
		rc = sb_usage_error(c, "--timeout needs seconds between 0 and %d", SB_INTERVAL_MAX);
	else if ((timeout > 0 || sb_opt.count) && !sb_opt.follow)
		rc = sb_usage_error(c, "--timeout and -c go with --follow");
	else if (sb_opt.follow && sb_out_mode_is_metrics(c->out.mode))
		rc = sb_usage_error(c, "--follow prints events; metrics count them once");
	else if (sb_opt.follow)
		rc = sb_need_live(c, "--follow");
	if (rc)
		goto out;
	v.max = sb_opt.count;
	sb_err_clear(&e);
	if (sb_opt.follow) {
		sb_catch_stop_signals();
		rc = follow_open(&f, c, &e);
		if (rc)
			goto out;
	}
	/* everything so far (opened after the follow source, so nothing falls in between) */
	if ((rc = sb_ev_collect(c->root, v.mask, &l, &e))) {
		rc = sb_report(c->applet, &e);
		goto out;
	}
	if (l.netdev_missing)
		sb_verbose(c->applet, "events: no detached page pools: %s",
			   l.netdev_err.reason[0] ? l.netdev_err.reason
						  : sb_strerror(l.netdev_err.errnum));
	if (since) {
		double now_s = sb_root_is_live(c->root) ? (double)sb_now_ns() / 1e9
							: (double)l.last_ts_us / 1e6;

		if (parse_since(since, now_s, &v.since_s)) {
			rc = sb_usage_error(
				c,
				"--since: '%s' is neither seconds since boot nor -DURATION (-90s, -10m, -2h, -1d)",
				since);
			goto out;
		}
	}
	if (sb_out_mode_is_metrics(c->out.mode)) {
		rc = print_metrics(c, &l, &v);
		goto out;
	}
	for (size_t i = 0; i < l.n && !rc; i++) {
		rc = emit(&v, &l.v[i]);
		if (l.v[i].source[0] == 'k' && l.v[i].ts_us > f.skip_until_us)
			f.skip_until_us = l.v[i].ts_us;
	}
	if (rc) {
		rc = SB_EXIT_FAIL;
		goto out;
	}
	if (sb_opt.follow) {
		f.skip_until_us = l.last_ts_us;
		/* scripts wait for this line before they make something happen */
		sb_verbose(c->applet, "events: following the kernel log%s%s",
			   f.mon ? ", rpmsg uevents" : "",
			   f.have_genl ? ", page-pool notifications" : "");
		rc = follow_loop(&f, timeout) ? SB_EXIT_FAIL : 0;
	}
out:
	if (sb_opt.follow)
		follow_close(&f);
	sb_ev_list_free(&l);
	free(subsys);
	free(since);
	return rc;
}

int events_main(int argc, const char **argv)
{
	struct sb_ctx c = {
		.applet = "socbox", .cmd = "events", .out.metrics_ns = "events", .streams = true
	};
	int rc = events_run(&c, argc, argv);

	sb_ctx_done(&c);
	return rc < 0 ? 0 : rc;
}
