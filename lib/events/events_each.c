// SPDX-License-Identifier: GPL-2.0-or-later
/* The events of a root handed over in time order while its kernel log is read a line at a
 * time: neither the log nor its events are held, only those that may still be overtaken.
 *
 * The order is sb_ev_add()'s (a record's place is its time, never before a record logged
 * earlier; IOMMU records by their own time; ties in arrival order; the netdev state's
 * detached pools after the log's records of the same time). An event is handed over once
 * nothing still to come can go before it: once the log's newest time has passed it, and
 * no IOMMU record that the assembler still holds started earlier. In a log whose times
 * never step back that is exactly the order of sorting them all; where they step back
 * (printk's per-CPU clocks) a record never goes before one already handed over. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/events.h"
#include "socbox/iommu_sid.h"

/* Events held at most while an IOMMU record waits for lines that may complete it (an old
 * kernel's raw SMMUv3 dump waits for a decoded line that never comes): beyond this, the
 * oldest waiting record is taken as it is. */
#define EACH_HOLD_MAX 1024

struct each {
	const struct sb_root *r;
	unsigned mask;
	bool iommu;
	struct sb_iommu_evasm a;
	struct sb_sid_namer *names;
	struct sb_event *heap; /* held events, a binary heap by (key_us, seq) */
	size_t n, cap;
	struct sb_event *pools; /* the netdev state's events, in time order */
	size_t npools, next_pool;
	size_t seq;
	uint64_t last_kmsg_key; /* sb_ev_add()'s place of the last non-IOMMU record */
	uint64_t newest_us;	/* the log's newest time so far */
	uint64_t floor_us;	/* the place of the last event handed over */
	sb_ev_emit_fn emit;
	void *arg;
	int rc; /* the first non-zero answer of emit, or -ENOMEM */
};

static bool before(const struct sb_event *x, const struct sb_event *y)
{
	return x->key_us != y->key_us ? x->key_us < y->key_us : x->seq < y->seq;
}

static void swap_ev(struct sb_event *x, struct sb_event *y)
{
	struct sb_event t = *x;

	*x = *y;
	*y = t;
}

static int heap_push(struct each *x, const struct sb_event *ev)
{
	size_t i;

	if (x->n == x->cap) {
		size_t cap = x->cap ? x->cap * 2 : 16;
		struct sb_event *v = realloc(x->heap, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		x->heap = v;
		x->cap = cap;
	}
	i = x->n++;
	x->heap[i] = *ev;
	while (i && before(&x->heap[i], &x->heap[(i - 1) / 2])) {
		swap_ev(&x->heap[i], &x->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	return 0;
}

static void heap_pop(struct each *x, struct sb_event *out)
{
	size_t i = 0;

	*out = x->heap[0];
	x->heap[0] = x->heap[--x->n];
	for (;;) {
		size_t l = 2 * i + 1, m = i;

		if (l < x->n && before(&x->heap[l], &x->heap[m]))
			m = l;
		if (l + 1 < x->n && before(&x->heap[l + 1], &x->heap[m]))
			m = l + 1;
		if (m == i)
			break;
		swap_ev(&x->heap[i], &x->heap[m]);
		i = m;
	}
}

/* A record of the log, placed (as sb_ev_add() does), never before one handed over. */
static void add(struct each *x, const struct sb_event *ev)
{
	struct sb_event e = *ev;

	e.seq = x->seq++;
	e.key_us = ev->ts_us;
	if (ev->subsys != SB_EV_IOMMU) {
		if (!ev->has_ts || ev->ts_us < x->last_kmsg_key)
			e.key_us = x->last_kmsg_key;
		x->last_kmsg_key = e.key_us;
	}
	if (e.key_us < x->floor_us)
		e.key_us = x->floor_us;
	if (!x->rc && heap_push(x, &e))
		x->rc = -ENOMEM;
}

static void add_iommu(struct each *x, struct sb_iommu_event *ie)
{
	struct sb_event ev;

	sb_sid_namer_name(x->names, ie);
	sb_ev_from_iommu(ie, &ev);
	add(x, &ev);
}

static void hand_over(struct each *x, const struct sb_event *ev)
{
	x->floor_us = ev->key_us;
	if (!x->rc)
		x->rc = x->emit(x->arg, ev);
}

/* Hand over what nothing to come can precede: events placed up to until (a pool, placed
 * after the log's records of its time, only before it); all with all. */
static void release(struct each *x, uint64_t until, bool all)
{
	while (!x->rc) {
		const struct sb_event *p = x->next_pool < x->npools ? &x->pools[x->next_pool] : NULL;
		struct sb_event ev;

		if (x->n && (!p || x->heap[0].key_us <= p->key_us) &&
		    (all || x->heap[0].key_us <= until)) {
			heap_pop(x, &ev);
			hand_over(x, &ev);
		} else if (p && (all || p->key_us < until)) {
			x->next_pool++;
			hand_over(x, p);
		} else {
			break;
		}
	}
}

/* Up to where the log is settled: its newest time, or the start of an IOMMU record the
 * assembler still holds, if earlier (a record without a time goes where it finishes). */
static uint64_t settled(const struct each *x)
{
	uint64_t until = x->newest_us;

	for (size_t i = 0; i < x->a.nslots; i++)
		if (x->a.slot[i].ev.has_ts && x->a.slot[i].ev.ts_us < until)
			until = x->a.slot[i].ev.ts_us;
	return until > x->floor_us ? until : x->floor_us;
}

static int each_line(void *arg, const struct sb_kmsg_line *line)
{
	struct each *x = arg;
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT], ie;
	struct sb_event ev;
	size_t n = x->iommu ? sb_iommu_evasm_feed(&x->a, line, done) : 0;

	if (line->has_ts && line->ts_us > x->newest_us)
		x->newest_us = line->ts_us;
	for (size_t k = 0; k < n; k++)
		add_iommu(x, &done[k]);
	if (sb_ev_parse_kmsg(line, &ev) && (x->mask & (1u << ev.subsys))) {
		sb_ev_name_rproc(x->r, &ev);
		add(x, &ev);
	}
	release(x, settled(x), false);
	while (!x->rc && x->n > EACH_HOLD_MAX && sb_iommu_evasm_flush(&x->a, &ie)) {
		add_iommu(x, &ie);
		release(x, settled(x), false);
	}
	return x->rc;
}

static int by_key(const void *a, const void *b)
{
	const struct sb_event *x = a, *y = b;

	return before(x, y) ? -1 : before(y, x);
}

/* The detached pools that still hold pages, in time order (as sb_ev_add() placed them:
 * they came after every record of the log). */
static int read_pools(const struct sb_root *r, struct each *x, struct sb_ev_each_info *info)
{
	struct sb_nd_state st;
	struct sb_nd_ifname *names = NULL;
	size_t nnames = 0;

	if (sb_nd_state_from_root(r, SB_ND_POOLS, &st, &info->netdev_err)) {
		info->netdev_missing = 1;
		return 0;
	}
	sb_nd_read_ifnames(r, &names, &nnames);
	x->pools = calloc(st.npools ? st.npools : 1, sizeof(*x->pools));
	for (size_t i = 0; x->pools && i < st.npools; i++) {
		struct sb_event *ev = &x->pools[x->npools];
		const char *ifname = sb_nd_ifname_of(names, nnames, st.pools[i].ifindex);
		char buf[64];

		if (!ifname && st.pools[i].ifindex) { /* ifindex 0: the netdev is gone */
			snprintf(buf, sizeof(buf), "ifindex %u", st.pools[i].ifindex);
			ifname = buf;
		}
		if (sb_ev_from_pool(&st.pools[i], ifname, ev)) {
			ev->key_us = ev->ts_us;
			ev->seq = x->npools++;
		}
	}
	free(names);
	sb_nd_state_free(&st);
	if (!x->pools)
		return -ENOMEM;
	if (x->npools)
		qsort(x->pools, x->npools, sizeof(*x->pools), by_key);
	return 0;
}

int sb_ev_each(const struct sb_root *r, unsigned mask, sb_ev_emit_fn emit, void *arg,
	       struct sb_ev_each_info *info, struct sb_err *e)
{
	struct each x = {
		.r = r, .mask = mask, .iommu = mask & (1u << SB_EV_IOMMU), .emit = emit, .arg = arg
	};
	struct sb_kmsg_info ki;
	struct sb_iommu_event ie;
	int rc;

	memset(info, 0, sizeof(*info));
	if (x.iommu && (rc = sb_sid_namer_open(r, &x.names)))
		return sb_err_set(e, -rc, "events", "read the IOMMU instances", NULL);
	if ((mask & (1u << SB_EV_NETDEV)) && (rc = read_pools(r, &x, info))) {
		sb_sid_namer_close(x.names);
		return sb_err_set(e, -rc, "events", "read the page pools", NULL);
	}
	sb_iommu_evasm_init(&x.a);
	rc = sb_kmsg_each(r, each_line, &x, &ki, e);
	info->log_source = ki.source;
	info->last_ts_us = ki.last_ts_us;
	if (!rc) {
		while (!x.rc && x.iommu && sb_iommu_evasm_flush(&x.a, &ie))
			add_iommu(&x, &ie);
		release(&x, 0, true);
		rc = x.rc;
	}
	/* emit's answer is the caller's; e says why for the log and for memory */
	if (rc == -ENOMEM && rc == x.rc)
		sb_err_set(e, ENOMEM, "events", "hold the events", NULL);
	sb_sid_namer_close(x.names);
	free(x.heap);
	free(x.pools);
	return rc;
}
