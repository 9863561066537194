// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev devices, queues and page pools as diff records, named by the root's interface
 * names (a snapshot's capture with the board's names). Traffic counters, NAPI, pool and
 * binding ids and the pages a live pool has in flight change all the time and are left out;
 * a detached pool's pages in flight are what leaked, and are kept. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "socbox/diff.h"
#include "socbox/netdev.h"

struct names {
	struct sb_nd_ifname *v;
	size_t n;
};

static void ifname(char *buf, size_t len, const struct names *nm, uint32_t ifindex)
{
	const char *name = sb_nd_ifname_of(nm->v, nm->n, ifindex);

	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "if%" PRIu32, ifindex);
}

static void devices(struct sb_diff_set *s, const struct sb_nd_state *st, const struct names *nm)
{
	for (size_t i = 0; i < st->ndevs; i++) {
		const struct sb_nd_dev *d = &st->devs[i];
		struct sb_diff_obj *o;
		char name[32];

		ifname(name, sizeof(name), nm, d->ifindex);
		o = sb_diff_obj_add(s, SB_DIFF_NETDEV, "device:%s", name);
		sb_diff_attr_fmt(s, o, "xdp_features", "0x%" PRIx64, d->xdp_features);
		sb_diff_attr_fmt(s, o, "xdp_rx_metadata_features", "0x%" PRIx64,
				 d->xdp_rx_metadata_features);
		sb_diff_attr_fmt(s, o, "xsk_features", "0x%" PRIx64, d->xsk_features);
		sb_diff_attr_u64(s, o, "xdp_zc_max_segs", d->xdp_zc_max_segs);
	}
}

static void queues(struct sb_diff_set *s, const struct sb_nd_state *st, const struct names *nm)
{
	for (size_t i = 0; i < st->nqueues; i++) {
		const struct sb_nd_queue *q = &st->queues[i];
		struct sb_diff_obj *o;
		char name[32];

		ifname(name, sizeof(name), nm, q->ifindex);
		o = sb_diff_obj_add(s, SB_DIFF_NETDEV, "queue:%s:%s:%" PRIu32, name,
				    sb_nd_queue_type_name(q->type), q->id);
		sb_diff_attr_bool(s, o, "napi", q->napi_id != 0);
		sb_diff_attr_bool(s, o, "devmem", q->dmabuf != 0);
		sb_diff_attr_bool(s, o, "io_uring", q->io_uring);
		sb_diff_attr_bool(s, o, "xsk", q->xsk);
		if (q->leased)
			sb_diff_attr_fmt(s, o, "lease", "if%" PRIu32 ":%s:%" PRIu32,
					 q->lease_ifindex,
					 sb_nd_queue_type_name(q->lease_queue_type),
					 q->lease_queue_id);
	}
}

static int pool_cmp(const void *a, const void *b)
{
	const struct sb_nd_pool *x = *(const struct sb_nd_pool *const *)a;
	const struct sb_nd_pool *y = *(const struct sb_nd_pool *const *)b;

	if (x->ifindex != y->ifindex)
		return x->ifindex < y->ifindex ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* Pool ids (and binding ids) count up from boot, so two boots of one board never share
 * them: a pool is named by its interface ("-" once detached) and its place among that
 * interface's pools in id order. */
static void pools(struct sb_diff_set *s, const struct sb_nd_state *st, const struct names *nm)
{
	const struct sb_nd_pool **v = calloc(st->npools ? st->npools : 1, sizeof(*v));
	unsigned nth = 0;

	if (!v) {
		s->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < st->npools; i++)
		v[i] = &st->pools[i];
	qsort(v, st->npools, sizeof(*v), pool_cmp);
	for (size_t i = 0; i < st->npools; i++) {
		const struct sb_nd_pool *p = v[i];
		bool detached = p->has & SB_ND_POOL_DETACHED;
		struct sb_diff_obj *o;
		char name[32] = "-";
		uint64_t age;

		nth = i && v[i - 1]->ifindex == p->ifindex ? nth + 1 : 0;
		if (p->ifindex)
			ifname(name, sizeof(name), nm, p->ifindex);
		o = sb_diff_obj_add(s, SB_DIFF_NETDEV, "pool:%s:%u", name, nth);
		sb_diff_attr_bool(s, o, "devmem", (p->has & SB_ND_POOL_DMABUF) && p->dmabuf);
		sb_diff_attr_bool(s, o, "io_uring", p->has & SB_ND_POOL_IO_URING);
		sb_diff_attr_bool(s, o, "detached", detached);
		sb_diff_attr_bool(s, o, "leaked", sb_nd_pool_leaked(p, st->boottime_s, &age));
		if (detached && (p->has & SB_ND_POOL_INFLIGHT))
			sb_diff_attr_u64(s, o, "inflight_pages", p->inflight);
	}
	free(v);
}

void sb_diff_collect_netdev(const struct sb_root *r, struct sb_diff_set *s)
{
	const unsigned parts = SB_ND_DEVS | SB_ND_QUEUES | SB_ND_POOLS;
	struct names nm = { 0 };
	struct sb_nd_state st = { 0 };
	struct sb_err e;

	/* No family, no capture, no permission: doctor's netdev status says which. */
	if (sb_nd_state_from_root(r, parts, &st, &e))
		return;
	if (sb_nd_read_ifnames(r, &nm.v, &nm.n) < 0)
		nm.n = 0;
	devices(s, &st, &nm);
	queues(s, &st, &nm);
	pools(s, &st, &nm);
	free(nm.v);
	sb_nd_state_free(&st);
}
