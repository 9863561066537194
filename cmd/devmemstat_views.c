// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat queues, napi, pools and qstats. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "devmemstat_views.h"
#include "socbox/macro.h"

/* A view that dumps parts and renders one primary table. */
typedef void (*render_fn)(struct sb_out *o, const struct sb_nd_state *st, const struct sb_col *cols,
			  size_t ncols, const char *key, const char *title);

static int run_view(struct sb_ctx *c, int argc, const char **argv, unsigned parts,
		    const struct sb_col *cols, size_t ncols, const char *key, const char *title,
		    render_fn render)
{
	struct poptOption opts[] = { DM_POPT_NET, SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_genl g = { 0 };
	struct sb_nd_state st;
	uint32_t ifindex;
	struct sb_out *o;
	int rc = sb_cli_parse(c, opts, NULL, argc, argv, cols, ncols);

	if (rc)
		return rc;
	rc = dm_open_view(c, &g, &ifindex);
	if (rc)
		return rc;
	rc = dm_collect(c, &g, parts, ifindex, &st);
	sb_genl_close(&g);
	if (rc)
		return rc;
	o = sb_out_new(&c->out, stdout);
	render(o, &st, cols, ncols, key, title);
	dm_note_unsupported(o, &st);
	rc = sb_out_print(o) ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	/* A view whose only source the kernel lacks is "not supported here". */
	if (!rc && (st.unsupported & parts) && !(st.have & parts & ~(unsigned)SB_ND_DEVS))
		rc = sb_report(c->applet, &st.part_err[__builtin_ctz(st.unsupported & parts)]);
	sb_nd_state_free(&st);
	return rc;
}

/* queues */
enum {
	Q_IFINDEX,
	Q_IFNAME,
	Q_TYPE,
	Q_QUEUE,
	Q_NAPI,
	Q_IRQ,
	Q_DMABUF,
	Q_XSK,
	Q_IO_URING,
	Q_RX_BYTES,
	Q_RX_PACKETS,
	Q_TX_BYTES,
	Q_TX_PACKETS,
	Q_LEASE
};
static const struct sb_col queue_cols[] = {
	[Q_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "interface index", 0 },
	[Q_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[Q_TYPE] = { "TYPE", SB_T_STR, 0, SB_COL_LABEL, "rx or tx", 0 },
	[Q_QUEUE] = { "QUEUE", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "queue id", 0 },
	[Q_NAPI] = { "NAPI_ID", SB_T_U64, 0, SB_COL_RIGHT, "NAPI instance serving the queue", 0 },
	[Q_IRQ] = { "IRQ", SB_T_U64, 0, SB_COL_RIGHT, "IRQ of that NAPI", 0 },
	[Q_DMABUF] = { "DMABUF", SB_T_U64, 0, SB_COL_RIGHT, "devmem binding id bound to the queue",
		       0 },
	[Q_XSK] = { "XSK", SB_T_BOOL, 0, 0, "an AF_XDP socket uses the queue", 0 },
	[Q_IO_URING] = { "IO_URING", SB_T_BOOL, 0, SB_COL_HIDDEN,
			 "an io_uring zero-copy RX provider uses the queue", 0 },
	[Q_RX_BYTES] = { "RX_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER | SB_COL_BYTES,
			 "received bytes (qstats)", 0 },
	/* packets hidden from the table (JSON keeps them): the view fits 80 columns */
	[Q_RX_PACKETS] = { "RX_PACKETS", SB_T_U64, 0,
			   SB_COL_RIGHT | SB_COL_COUNTER | SB_COL_HIDDEN | SB_COL_JSON,
			   "received packets (qstats)", 0 },
	[Q_TX_BYTES] = { "TX_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER | SB_COL_BYTES,
			 "sent bytes (qstats)", 0 },
	[Q_TX_PACKETS] = { "TX_PACKETS", SB_T_U64, 0,
			   SB_COL_RIGHT | SB_COL_COUNTER | SB_COL_HIDDEN | SB_COL_JSON,
			   "sent packets (qstats)", 0 },
	[Q_LEASE] = { "LEASE", SB_T_STR, 0, SB_COL_HIDDEN,
		      "leased queue: IFINDEX/TYPE-ID@NETNS_ID (7.x)", 0 },
};
_Static_assert(ARRAY_SIZE(queue_cols) == Q_LEASE + 1, "a column for each constant");

static void set_counter(struct sb_row *r, int col, const struct sb_nd_qstats *q, int attr)
{
	if (q && sb_nd_has(q->has, attr))
		sb_row_u64(r, col, q->v[attr]);
}

static void render_queues(struct sb_out *o, const struct sb_nd_state *st, const struct sb_col *cols,
			  size_t ncols, const char *key, const char *title)
{
	struct sb_table *t = sb_out_table(o, key, title, cols, ncols, true);
	char name[IF_NAMESIZE];

	for (size_t i = 0; i < st->nqueues; i++) {
		const struct sb_nd_queue *q = &st->queues[i];
		const struct sb_nd_napi *n = q->napi_id ? sb_nd_find_napi(st, q->napi_id) : NULL;
		const struct sb_nd_qstats *qs = sb_nd_find_qstats(st, q->ifindex, q->type, q->id);
		struct sb_row *r = sb_table_row(t);

		sb_row_u64(r, Q_IFINDEX, q->ifindex);
		sb_row_str(r, Q_IFNAME, dm_known(dm_ifname(q->ifindex, name)));
		sb_row_str(r, Q_TYPE, sb_nd_queue_type_name(q->type));
		sb_row_u64(r, Q_QUEUE, q->id);
		if (q->napi_id)
			sb_row_u64(r, Q_NAPI, q->napi_id);
		if (n && n->has & SB_ND_NAPI_IRQ)
			sb_row_u64(r, Q_IRQ, n->irq);
		if (q->dmabuf)
			sb_row_u64(r, Q_DMABUF, q->dmabuf);
		sb_row_bool(r, Q_XSK, q->xsk);
		sb_row_bool(r, Q_IO_URING, q->io_uring);
		set_counter(r, Q_RX_BYTES, qs, SB_NETDEV_A_QSTATS_RX_BYTES);
		set_counter(r, Q_RX_PACKETS, qs, SB_NETDEV_A_QSTATS_RX_PACKETS);
		set_counter(r, Q_TX_BYTES, qs, SB_NETDEV_A_QSTATS_TX_BYTES);
		set_counter(r, Q_TX_PACKETS, qs, SB_NETDEV_A_QSTATS_TX_PACKETS);
		if (q->leased)
			sb_row_fmt(r, Q_LEASE, "%u/%s-%u@%d", q->lease_ifindex,
				   sb_nd_queue_type_name(q->lease_queue_type), q->lease_queue_id,
				   q->lease_netns_id);
	}
}

int dm_queues(struct sb_ctx *c, int argc, const char **argv)
{
	return run_view(c, argc, argv, SB_ND_QUEUES | SB_ND_NAPIS | SB_ND_QSTATS_QUEUE, queue_cols,
			ARRAY_SIZE(queue_cols), "queues", NULL, render_queues);
}

/* napi */
enum {
	N_IFINDEX,
	N_IFNAME,
	N_ID,
	N_IRQ,
	N_PID,
	N_THREADED,
	N_DEFER,
	N_GRO,
	N_SUSPEND,
	N_RXQ,
	N_TXQ
};
static const struct sb_col napi_cols[] = {
	[N_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "interface index", 0 },
	[N_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[N_ID] = { "NAPI_ID", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "NAPI instance id", 0 },
	[N_IRQ] = { "IRQ", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "IRQ number", 0 },
	[N_PID] = { "PID", SB_T_U64, 0, SB_COL_RIGHT, "kthread pid when threaded", 0 },
	[N_THREADED] = { "THREADED", SB_T_STR, 0, 0, "disabled, enabled or busy-poll", 0 },
	[N_DEFER] = { "DEFER_HARD_IRQS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN,
		      "defer-hard-irqs", 0 },
	[N_GRO] = { "GRO_FLUSH_TIMEOUT_NS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN,
		    "gro-flush-timeout", 0 },
	[N_SUSPEND] = { "IRQ_SUSPEND_TIMEOUT_NS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN,
			"irq-suspend-timeout", 0 },
	[N_RXQ] = { "RX_QUEUES", SB_T_U64V, 0, 0, "RX queues served", 0 },
	[N_TXQ] = { "TX_QUEUES", SB_T_U64V, 0, 0, "TX queues served", 0 },
};
_Static_assert(ARRAY_SIZE(napi_cols) == N_TXQ + 1, "a column for each constant");

static const char *threaded_name(uint32_t v)
{
	static const char *const names[] = { "disabled", "enabled", "busy-poll" };
	return v < 3 ? names[v] : "?";
}

static void render_napi(struct sb_out *o, const struct sb_nd_state *st, const struct sb_col *cols,
			size_t ncols, const char *key, const char *title)
{
	struct sb_table *t = sb_out_table(o, key, title, cols, ncols, true);
	char name[IF_NAMESIZE];

	for (size_t i = 0; i < st->nnapis; i++) {
		const struct sb_nd_napi *n = &st->napis[i];
		struct sb_row *r = sb_table_row(t);

		sb_row_u64(r, N_IFINDEX, n->ifindex);
		sb_row_str(r, N_IFNAME, dm_known(dm_ifname(n->ifindex, name)));
		sb_row_u64(r, N_ID, n->id);
		if (n->has & SB_ND_NAPI_IRQ)
			sb_row_u64(r, N_IRQ, n->irq);
		if (n->has & SB_ND_NAPI_PID)
			sb_row_u64(r, N_PID, n->pid);
		if (n->has & SB_ND_NAPI_THREADED)
			sb_row_str(r, N_THREADED, threaded_name(n->threaded));
		if (n->has & SB_ND_NAPI_DEFER)
			sb_row_u64(r, N_DEFER, n->defer_hard_irqs);
		if (n->has & SB_ND_NAPI_GRO_FLUSH)
			sb_row_u64(r, N_GRO, n->gro_flush_timeout_ns);
		if (n->has & SB_ND_NAPI_IRQ_SUSPEND)
			sb_row_u64(r, N_SUSPEND, n->irq_suspend_timeout_ns);
		for (size_t k = 0; k < st->nqueues; k++) {
			const struct sb_nd_queue *q = &st->queues[k];
			if (q->napi_id != n->id)
				continue;
			sb_row_u64v_add(r, q->type == SB_NETDEV_QUEUE_TYPE_RX ? N_RXQ : N_TXQ,
					q->id);
		}
	}
}

int dm_napi(struct sb_ctx *c, int argc, const char **argv)
{
	return run_view(c, argc, argv, SB_ND_NAPIS | SB_ND_QUEUES, napi_cols, ARRAY_SIZE(napi_cols),
			"napis", NULL, render_napi);
}

/* pools */
enum {
	P_ID,
	P_IFINDEX,
	P_IFNAME,
	P_NAPI,
	P_INFLIGHT,
	P_MEM,
	P_DETACHED_S,
	P_LEAKED,
	P_DMABUF,
	P_IO_URING,
	P_RECYCLE,
	P_FIRST_STAT
};
#define POOL_STAT_COL(name, attr, flags, help) \
	[P_FIRST_STAT - SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST + \
		(attr)] = { name, SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER | (flags), help, 0 }
const struct sb_col dm_pool_cols[] = {
	[P_ID] = { "POOL_ID", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "page pool id", 0 },
	[P_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL,
			"interface index (0: device gone)", 0 },
	[P_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[P_NAPI] = { "NAPI_ID", SB_T_U64, 0, SB_COL_RIGHT, "NAPI instance the pool feeds", 0 },
	/* the pages in flight, the age and the counters are hidden from the table (JSON
	 * keeps them): the view fits 80 columns */
	[P_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0,
			 SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			 "pages handed out and not returned", 0 },
	[P_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_BYTES,
		    "memory of those pages", 0 },
	[P_DETACHED_S] = { "DETACHED_S", SB_T_U64, 0,
			   SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			   "seconds since the pool was detached from its device", 0 },
	[P_LEAKED] = { "LEAKED", SB_T_BOOL, 0, SB_COL_METRIC, "detached but still holding memory",
		       0 },
	[P_DMABUF] = { "DMABUF", SB_T_U64, 0, SB_COL_RIGHT,
		       "devmem binding id providing the memory", 0 },
	[P_IO_URING] = { "IO_URING", SB_T_BOOL, 0, SB_COL_HIDDEN,
			 "an io_uring ZC RX provider feeds the pool", 0 },
	[P_RECYCLE] = { "RECYCLE_RATE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_PERCENT,
			"recycled / returned pages (0..1)", 3 },
	POOL_STAT_COL("ALLOC_FAST", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST,
		      SB_COL_HIDDEN | SB_COL_JSON, "allocations from the cache"),
	POOL_STAT_COL("ALLOC_SLOW", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW,
		      SB_COL_HIDDEN | SB_COL_JSON, "allocations from the page allocator"),
	POOL_STAT_COL("ALLOC_SLOW_HIGH_ORDER", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW_HIGH_ORDER,
		      SB_COL_HIDDEN, "high-order slow allocations"),
	POOL_STAT_COL("ALLOC_EMPTY", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_EMPTY, SB_COL_HIDDEN,
		      "ptr ring empty on allocation"),
	POOL_STAT_COL("ALLOC_REFILL", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_REFILL, SB_COL_HIDDEN,
		      "cache refills from the ring"),
	POOL_STAT_COL("ALLOC_WAIVE", SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_WAIVE, SB_COL_HIDDEN,
		      "pages of the wrong NUMA node released"),
	POOL_STAT_COL("RECYCLE_CACHED", SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED,
		      SB_COL_HIDDEN | SB_COL_JSON, "recycled into the cache"),
	POOL_STAT_COL("RECYCLE_CACHE_FULL", SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHE_FULL,
		      SB_COL_HIDDEN, "cache full on recycle"),
	POOL_STAT_COL("RECYCLE_RING", SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING,
		      SB_COL_HIDDEN | SB_COL_JSON, "recycled into the ring"),
	POOL_STAT_COL("RECYCLE_RING_FULL", SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL,
		      SB_COL_HIDDEN, "ring full: page released"),
	POOL_STAT_COL("RECYCLE_RELEASED_REFCNT", SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT,
		      SB_COL_HIDDEN, "released: page still referenced"),
};
const size_t dm_npool_cols = ARRAY_SIZE(dm_pool_cols);
/* dm_add_pools_table fills a cell for every attribute up to the MAX the parser keeps: a new
 * attribute needs its column here before MAX may grow. */
_Static_assert(ARRAY_SIZE(dm_pool_cols) == P_FIRST_STAT + SB_NETDEV_A_PAGE_POOL_STATS_MAX -
						   SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST + 1,
	       "a pools column for every page-pool stats attribute up to MAX");

struct sb_table *dm_add_pools_table(struct sb_out *o, const struct sb_nd_state *st, bool primary)
{
	struct sb_table *t = sb_out_table(o, "pools", "Page pools", dm_pool_cols, dm_npool_cols,
					  primary);
	uint64_t now = dm_boottime_s(st), age;
	char name[IF_NAMESIZE];

	for (size_t i = 0; i < st->npools; i++) {
		const struct sb_nd_pool *p = &st->pools[i];
		const struct sb_nd_pool_stats *s = sb_nd_find_pool_stats(st, p->id);
		struct sb_row *r = sb_table_row(t);
		double rate = sb_nd_recycle_rate(s);

		sb_row_u64(r, P_ID, p->id);
		sb_row_u64(r, P_IFINDEX, p->ifindex);
		sb_row_str(r, P_IFNAME, dm_known(dm_ifname(p->ifindex, name)));
		if (p->has & SB_ND_POOL_NAPI)
			sb_row_u64(r, P_NAPI, p->napi_id);
		if (p->has & SB_ND_POOL_INFLIGHT)
			sb_row_u64(r, P_INFLIGHT, p->inflight);
		if (p->has & SB_ND_POOL_INFLIGHT_MEM)
			sb_row_u64(r, P_MEM, p->inflight_mem);
		if (p->has & SB_ND_POOL_DETACHED && now)
			sb_row_u64(r, P_DETACHED_S,
				   now > p->detach_time ? now - p->detach_time : 0);
		sb_row_bool(r, P_LEAKED, sb_nd_pool_leaked(p, now, &age));
		if (p->has & SB_ND_POOL_DMABUF)
			sb_row_u64(r, P_DMABUF, p->dmabuf);
		sb_row_bool(r, P_IO_URING, p->has & SB_ND_POOL_IO_URING);
		if (rate >= 0)
			sb_row_dbl(r, P_RECYCLE, rate);
		for (int a = SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST;
		     a <= SB_NETDEV_A_PAGE_POOL_STATS_MAX; a++)
			if (s && sb_nd_has(s->has, a))
				sb_row_u64(r,
					   P_FIRST_STAT + a - SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST,
					   s->v[a]);
	}
	return t;
}

static void render_pools(struct sb_out *o, const struct sb_nd_state *st, const struct sb_col *cols,
			 size_t ncols, const char *key, const char *title)
{
	dm_add_pools_table(o, st, true);
}

int dm_pools(struct sb_ctx *c, int argc, const char **argv)
{
	return run_view(c, argc, argv, SB_ND_POOLS | SB_ND_POOL_STATS, dm_pool_cols, dm_npool_cols,
			"pools", NULL, render_pools);
}

/* qstats: device scope rows, then queue scope rows. */
enum { S_IFINDEX, S_IFNAME, S_SCOPE, S_TYPE, S_QUEUE, S_FIRST };
#define QS_COL(attr, name, flags) \
	[S_FIRST - SB_NETDEV_A_QSTATS_RX_PACKETS + (attr)] = { \
		name, SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER | (flags), "qstats " name, 0 \
	}
#define H SB_COL_HIDDEN
#define HJ (SB_COL_HIDDEN | SB_COL_JSON)
static const struct sb_col qstats_cols[] = {
	[S_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "interface index", 0 },
	[S_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	/* SCOPE and the drop counters hidden from the table (JSON keeps them) so that the
	 * view fits 80 columns; a device row has TYPE and QUEUE "-" */
	[S_SCOPE] = { "SCOPE", SB_T_STR, 0, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
		      "device or queue", 0 },
	[S_TYPE] = { "TYPE", SB_T_STR, 0, SB_COL_LABEL, "rx or tx (queue scope)", 0 },
	[S_QUEUE] = { "QUEUE", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "queue id (queue scope)",
		      0 },
	QS_COL(SB_NETDEV_A_QSTATS_RX_PACKETS, "RX_PACKETS", 0),
	QS_COL(SB_NETDEV_A_QSTATS_RX_BYTES, "RX_BYTES", SB_COL_BYTES),
	QS_COL(SB_NETDEV_A_QSTATS_TX_PACKETS, "TX_PACKETS", 0),
	QS_COL(SB_NETDEV_A_QSTATS_TX_BYTES, "TX_BYTES", SB_COL_BYTES),
	QS_COL(SB_NETDEV_A_QSTATS_RX_ALLOC_FAIL, "RX_ALLOC_FAIL", 0),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_DROPS, "RX_HW_DROPS", HJ),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_DROP_OVERRUNS, "RX_HW_DROP_OVERRUNS", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_CSUM_COMPLETE, "RX_CSUM_COMPLETE", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_CSUM_UNNECESSARY, "RX_CSUM_UNNECESSARY", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_CSUM_NONE, "RX_CSUM_NONE", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_CSUM_BAD, "RX_CSUM_BAD", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_GRO_PACKETS, "RX_HW_GRO_PACKETS", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_GRO_BYTES, "RX_HW_GRO_BYTES", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_GRO_WIRE_PACKETS, "RX_HW_GRO_WIRE_PACKETS", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_GRO_WIRE_BYTES, "RX_HW_GRO_WIRE_BYTES", H),
	QS_COL(SB_NETDEV_A_QSTATS_RX_HW_DROP_RATELIMITS, "RX_HW_DROP_RATELIMITS", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_DROPS, "TX_HW_DROPS", HJ),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_DROP_ERRORS, "TX_HW_DROP_ERRORS", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_CSUM_NONE, "TX_CSUM_NONE", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_NEEDS_CSUM, "TX_NEEDS_CSUM", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_GSO_PACKETS, "TX_HW_GSO_PACKETS", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_GSO_BYTES, "TX_HW_GSO_BYTES", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_GSO_WIRE_PACKETS, "TX_HW_GSO_WIRE_PACKETS", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_GSO_WIRE_BYTES, "TX_HW_GSO_WIRE_BYTES", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_HW_DROP_RATELIMITS, "TX_HW_DROP_RATELIMITS", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_STOP, "TX_STOP", H),
	QS_COL(SB_NETDEV_A_QSTATS_TX_WAKE, "TX_WAKE", H),
};
#undef H
#undef HJ
/* qstats_row fills a cell for every attribute up to MAX, as for the pools above. */
_Static_assert(ARRAY_SIZE(qstats_cols) ==
		       S_FIRST + SB_NETDEV_A_QSTATS_MAX - SB_NETDEV_A_QSTATS_RX_PACKETS + 1,
	       "a qstats column for every qstats attribute up to MAX");

static void qstats_row(struct sb_table *t, const struct sb_nd_qstats *q)
{
	struct sb_row *r = sb_table_row(t);
	char name[IF_NAMESIZE];

	sb_row_u64(r, S_IFINDEX, q->ifindex);
	sb_row_str(r, S_IFNAME, dm_known(dm_ifname(q->ifindex, name)));
	sb_row_str(r, S_SCOPE, q->per_queue ? "queue" : "device");
	if (q->per_queue) {
		sb_row_str(r, S_TYPE, sb_nd_queue_type_name(q->queue_type));
		sb_row_u64(r, S_QUEUE, q->queue_id);
	}
	for (int a = SB_NETDEV_A_QSTATS_RX_PACKETS; a <= SB_NETDEV_A_QSTATS_MAX; a++)
		if (sb_nd_has(q->has, a))
			sb_row_u64(r, S_FIRST + a - SB_NETDEV_A_QSTATS_RX_PACKETS, q->v[a]);
}

static void render_qstats(struct sb_out *o, const struct sb_nd_state *st, const struct sb_col *cols,
			  size_t ncols, const char *key, const char *title)
{
	struct sb_table *t = sb_out_table(o, key, title, cols, ncols, true);

	for (size_t i = 0; i < st->ndev_qstats; i++)
		qstats_row(t, &st->dev_qstats[i]);
	for (size_t i = 0; i < st->nqstats; i++)
		qstats_row(t, &st->qstats[i]);
	if ((st->have & SB_ND_QSTATS_DEV) && !st->ndev_qstats)
		sb_out_note(o,
			    "no driver in this namespace reports qstats (veth and loopback do not); "
			    "'devmemstat top' falls back to interface counters");
}

int dm_qstats(struct sb_ctx *c, int argc, const char **argv)
{
	return run_view(c, argc, argv, SB_ND_QSTATS_DEV | SB_ND_QSTATS_QUEUE, qstats_cols,
			ARRAY_SIZE(qstats_cols), "qstats", NULL, render_qstats);
}
