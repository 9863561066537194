// SPDX-License-Identifier: GPL-2.0-or-later
/* Following the timeline as it happens (events.h): the kernel log (IOMMU records through
 * lib/iommu's assembler), rpmsg uevents and netdev page-pool notifications, read in one
 * poll loop and handed to the caller in time order. */
#define _GNU_SOURCE
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/events.h"
#include "socbox/genl.h"
#include "socbox/iommu_sid.h"
#include "socbox/macro.h"
#include "socbox/nl.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "socbox/udev.h"
#include "socbox/uapi/netdev.h"

/* How long an IOMMU record that more lines may complete (an SMMUv3 raw dump) waits when the
 * log goes quiet (as smmustat events --follow). */
#define FOLLOW_SETTLE_MS 500
/* The sources are read one after the other, so an event may be read after a later one of
 * another source: events are held this long and handed over in time order. */
#define FOLLOW_REORDER_MS 250

struct sb_ev_follow {
	const struct sb_root *r; /* the caller's, open while it follows */
	unsigned mask;
	struct sb_kmsg_follow kf;
	struct sb_devmon *mon;
	struct sb_genl g;
	bool have_genl;
	uint64_t skip_until_us; /* records the caller reported already */
	struct sb_iommu_evasm asm_;
	struct sb_sid_namer *names;
	struct sb_ev_list held; /* read, not handed over yet (FOLLOW_REORDER_MS) */
	uint64_t kmsg_lost;	/* kernel log records lost so far, as reported */
	uint64_t genl_drops;	/* notifications the socket dropped, as reported */
	bool genl_overflowed, genl_drops_unknown;
	uint64_t detached[64]; /* pools announced detached, to report when they go */
	size_t ndetached;
	sb_ev_emit_fn emit;
	void *arg;
	int rc; /* the first non-zero answer of emit, or -ENOMEM */
};

static void hold(struct sb_ev_follow *f, const struct sb_event *ev)
{
	if (!f->rc && sb_ev_add(&f->held, ev))
		f->rc = -ENOMEM;
}

/* Hand over the held events older than the reorder window (all of them with all), in time
 * order. */
static void release(struct sb_ev_follow *f, bool all)
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
			f->rc = f->emit(f->arg, &f->held.v[i]);
	}
	f->held.n = k;
}

static void emit_iommu(struct sb_ev_follow *f, struct sb_iommu_event *ie)
{
	struct sb_event ev;

	sb_sid_namer_name(f->names, ie);
	sb_ev_from_iommu(ie, &ev);
	hold(f, &ev);
}

static void flush_pending(struct sb_ev_follow *f)
{
	struct sb_iommu_event ie;

	while (sb_iommu_evasm_flush(&f->asm_, &ie))
		emit_iommu(f, &ie);
}

/* Records that never reached us: the kernel log overwrote them (its sequence numbers say how
 * many), or the netlink socket overran (ENOBUFS: the socket's drop count says how many where
 * the kernel keeps it). Said in the timeline, where they would have been, so nothing is lost
 * silently. */
static void lost(struct sb_ev_follow *f, uint64_t ts_us, const char *object, const char *detail)
{
	struct sb_event ev;

	memset(&ev, 0, sizeof(ev));
	ev.ts_us = ts_us;
	ev.has_ts = true;
	ev.subsys = SB_EV_LOG;
	ev.source = "socbox";
	snprintf(ev.kind, sizeof(ev.kind), "lost");
	snprintf(ev.object, sizeof(ev.object), "%s", object);
	snprintf(ev.detail, sizeof(ev.detail), "%s", detail);
	hold(f, &ev);
}

/* The netdev socket overran: the kernel drops notifications until the queue has room again,
 * after it said ENOBUFS once, so the drop count is read after every read from then on and
 * each rise is a lost record; together they add up to the socket's count. */
static void pool_drops(struct sb_ev_follow *f, bool enobufs)
{
	struct sb_err e;
	uint64_t drops = 0;
	char detail[160];

	sb_err_clear(&e);
	if (!f->genl_drops_unknown && sb_genl_drops(&f->g, &drops, &e))
		f->genl_drops_unknown = true;
	if (f->genl_drops_unknown ? !enobufs : drops <= f->genl_drops)
		return;
	if (f->genl_drops_unknown)
		snprintf(detail, sizeof(detail),
			 "the socket overflowed (ENOBUFS): page-pool notifications dropped; "
			 "'devmemstat pools' shows the pools now");
	else
		snprintf(detail, sizeof(detail),
			 "%llu page-pool notifications dropped (the socket overflowed); "
			 "'devmemstat pools' shows the pools now",
			 (unsigned long long)(drops - f->genl_drops));
	lost(f, sb_now_ns() / 1000, "netdev notifications", detail);
	f->genl_drops = drops;
}

static void kmsg_line(struct sb_ev_follow *f, const struct sb_kmsg_line *l)
{
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	struct sb_event ev;
	size_t n;

	/* a gap before this record: the loss goes where it happened, just before it */
	if (f->kf.lost > f->kmsg_lost) {
		char what[96];

		snprintf(what, sizeof(what), "%llu records overwritten before they were read",
			 (unsigned long long)(f->kf.lost - f->kmsg_lost));
		lost(f, l->has_ts ? l->ts_us : sb_now_ns() / 1000, "kernel log", what);
		f->kmsg_lost = f->kf.lost;
	}
	if (l->has_ts && l->ts_us <= f->skip_until_us)
		return;
	n = sb_iommu_evasm_feed(&f->asm_, l, done);
	for (size_t i = 0; i < n; i++)
		emit_iommu(f, &done[i]);
	if (sb_ev_parse_kmsg(l, &ev)) {
		sb_ev_name_rproc(f->r, &ev);
		hold(f, &ev);
	}
}

/* A detached pool that still held pages, then gone: its pages came back. */
static void pool_gone(struct sb_ev_follow *f, uint64_t id)
{
	struct sb_event ev;

	for (size_t i = 0; i < f->ndetached; i++) {
		if (f->detached[i] != id)
			continue;
		f->detached[i] = f->detached[--f->ndetached];
		memset(&ev, 0, sizeof(ev));
		ev.ts_us = sb_now_ns() / 1000;
		ev.has_ts = true;
		ev.subsys = SB_EV_NETDEV;
		ev.source = "netdev";
		snprintf(ev.kind, sizeof(ev.kind), "pool-gone");
		snprintf(ev.object, sizeof(ev.object), "pool %llu", (unsigned long long)id);
		snprintf(ev.detail, sizeof(ev.detail), "its pages came back; the kernel freed it");
		hold(f, &ev);
		return;
	}
}

static int pool_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sb_ev_follow *f = data;
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
		pool_gone(f, ne.pool.id);
	}
	return SB_NL_CB_OK;
}

int sb_ev_follow_open(const struct sb_root *r, unsigned mask, struct sb_ev_follow **out,
		      struct sb_ev_follow_sources *src, struct sb_err *e)
{
	struct sb_ev_follow *f = calloc(1, sizeof(*f));
	int rc;

	memset(src, 0, sizeof(*src));
	*out = NULL;
	if (!f)
		return sb_err_set(e, ENOMEM, "events", "follow", NULL);
	f->r = r;
	f->mask = mask;
	if ((rc = sb_kmsg_follow_open(&f->kf, e))) {
		free(f);
		return rc;
	}
	sb_iommu_evasm_init(&f->asm_);
	if (sb_sid_namer_open(r, &f->names))
		f->names = NULL; /* out of memory: the records keep the log's names */
	if ((mask & (1u << SB_EV_RPMSG)) && sb_devmon_open(&f->mon, "rpmsg", &src->no_uevents))
		f->mon = NULL;
	src->uevents = f->mon != NULL;
	if (mask & (1u << SB_EV_NETDEV)) {
		if (sb_genl_open(&f->g, SB_NETDEV_FAMILY, &src->no_pool_ntf) == 0) {
			f->have_genl = sb_genl_join(&f->g, SB_NETDEV_MCGRP_PAGE_POOL,
						    &src->no_pool_ntf) == 0;
			if (!f->have_genl)
				sb_genl_close(&f->g);
		}
		src->pool_ntf = f->have_genl;
	}
	*out = f;
	return 0;
}

void sb_ev_follow_skip_until(struct sb_ev_follow *f, uint64_t ts_us)
{
	f->skip_until_us = ts_us;
}

int sb_ev_follow_run(struct sb_ev_follow *f, double timeout_s, sb_ev_emit_fn emit, void *arg)
{
	uint64_t deadline = timeout_s > 0 ? sb_now_ns() + (uint64_t)(timeout_s * 1e9) : 0;
	struct sb_err e;

	f->emit = emit;
	f->arg = arg;
	while (!sb_stop_signal && !f->rc) {
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
		if (f->rc)
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
			bool enobufs = sb_genl_recv(&f->g, pool_cb, f, 0, &e) == -ENOBUFS;

			f->genl_overflowed = f->genl_overflowed || enobufs;
			if (f->genl_overflowed)
				pool_drops(f, enobufs);
		}
	}
	flush_pending(f);
	release(f, true);
	return f->rc < 0 ? f->rc : 0;
}

void sb_ev_follow_close(struct sb_ev_follow *f)
{
	if (!f)
		return;
	sb_kmsg_follow_close(&f->kf);
	if (f->mon)
		sb_devmon_close(f->mon);
	if (f->have_genl)
		sb_genl_close(&f->g);
	sb_sid_namer_close(f->names);
	sb_ev_list_free(&f->held);
	free(f);
}
