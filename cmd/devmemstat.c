// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat: devmem TCP bindings, queues, NAPIs and page pools through netdev netlink.
 * This file: the dispatcher and the overview. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "devmemstat.h"
#include "devmemstat_views.h"
#include "builtins.h"
#include "socbox/macro.h"

/* The overview: one row per device, then its page pools. */
enum {
	OV_IFINDEX,
	OV_IFNAME,
	OV_RX_QUEUES,
	OV_TX_QUEUES,
	OV_NAPI_IDS,
	OV_IRQS,
	OV_DMABUFS,
	OV_POOLS,
	OV_INFLIGHT,
	OV_INFLIGHT_MEM,
	OV_DETACHED,
	OV_RECYCLE,
	OV_XDP,
	OV_XDP_RX_META,
	OV_XSK,
	OV_XDP_ZC_SEGS
};
static const struct sb_col overview_cols[] = {
	[OV_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "interface index", 0 },
	[OV_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[OV_RX_QUEUES] = { "RX_QUEUES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "RX queues", 0 },
	[OV_TX_QUEUES] = { "TX_QUEUES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "TX queues", 0 },
	/* hidden from the table, not from JSON, so that the view fits 80 columns: the
	 * queues and pools views show them */
	[OV_NAPI_IDS] = { "NAPI_IDS", SB_T_U64V, 0, SB_COL_WRAP | SB_COL_HIDDEN | SB_COL_JSON,
			  "NAPI instance ids", 0 },
	[OV_IRQS] = { "IRQS", SB_T_U64V, 0, SB_COL_WRAP | SB_COL_HIDDEN | SB_COL_JSON,
		      "IRQs of the NAPIs", 0 },
	[OV_DMABUFS] = { "DMABUFS", SB_T_U64V, 0, 0, "devmem binding ids bound to its queues", 0 },
	[OV_POOLS] = { "POOLS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "page pools", 0 },
	[OV_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0,
			  SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			  "pages in flight, all pools", 0 },
	[OV_INFLIGHT_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0,
			      SB_COL_RIGHT | SB_COL_METRIC | SB_COL_BYTES,
			      "memory in flight, all pools", 0 },
	[OV_DETACHED] = { "DETACHED_POOLS", SB_T_U64, 0,
			  SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			  "pools detached but not yet freed", 0 },
	[OV_RECYCLE] = { "RECYCLE_RATE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_PERCENT,
			 "recycled / returned pages, all pools (0..1)", 3 },
	/* the device's netdev attributes as the kernel gives them (flag bits of
	 * enum netdev_xdp_act, netdev_xdp_rx_metadata, netdev_xsk_flags) */
	[OV_XDP] = { "XDP_FEATURES", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
		     "xdp-features flags", 0 },
	[OV_XDP_RX_META] = { "XDP_RX_METADATA_FEATURES", SB_T_U64, 0,
			     SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
			     "xdp-rx-metadata-features flags", 0 },
	[OV_XSK] = { "XSK_FEATURES", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
		     "xsk-features flags", 0 },
	[OV_XDP_ZC_SEGS] = { "XDP_ZC_MAX_SEGS", SB_T_U64, 0,
			     SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
			     "xdp-zc-max-segs: fragments of a zero-copy AF_XDP frame", 0 },
};
_Static_assert(ARRAY_SIZE(overview_cols) == OV_XDP_ZC_SEGS + 1, "a column for each constant");

static bool strv_has(const unsigned *v, size_t n, unsigned x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return true;
	return false;
}

static void overview_row(struct sb_table *t, const struct sb_nd_state *st, const struct sb_nd_dev *d)
{
	struct sb_row *r = sb_table_row(t);
	char name[IF_NAMESIZE];
	unsigned dmabufs[64];
	size_t nnapis = 0, ndmabufs = 0;
	uint64_t rxq = 0, txq = 0, pools = 0, inflight = 0, mem = 0, detached = 0;
	double recycled = 0, returned = 0;

	sb_row_u64(r, OV_IFINDEX, d->ifindex);
	sb_row_str(r, OV_IFNAME, dm_known(dm_ifname(d->ifindex, name)));
	for (size_t i = 0; i < st->nqueues; i++) {
		const struct sb_nd_queue *q = &st->queues[i];
		if (q->ifindex != d->ifindex)
			continue;
		if (q->type == SB_NETDEV_QUEUE_TYPE_RX)
			rxq++;
		else
			txq++;
		if (q->dmabuf && !strv_has(dmabufs, ndmabufs, q->dmabuf) && ndmabufs < 64)
			dmabufs[ndmabufs++] = q->dmabuf;
	}
	for (size_t i = 0; i < st->nnapis; i++) {
		const struct sb_nd_napi *n = &st->napis[i];
		if (n->ifindex != d->ifindex || nnapis >= 256)
			continue;
		nnapis++;
		sb_row_u64v_add(r, OV_NAPI_IDS, n->id);
		if (n->has & SB_ND_NAPI_IRQ)
			sb_row_u64v_add(r, OV_IRQS, n->irq);
	}
	for (size_t i = 0; i < st->npools; i++) {
		const struct sb_nd_pool *p = &st->pools[i];
		const struct sb_nd_pool_stats *s;
		if (p->ifindex != d->ifindex)
			continue;
		pools++;
		inflight += p->inflight;
		mem += p->inflight_mem;
		detached += !!(p->has & SB_ND_POOL_DETACHED);
		s = sb_nd_find_pool_stats(st, p->id);
		if (s && sb_nd_recycle_rate(s) >= 0) {
			double rc = (double)(s->v[SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED] +
					     s->v[SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING]);
			recycled += rc;
			returned +=
				rc +
				(double)(s->v[SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL] +
					 s->v[SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT]);
		}
		if (p->has & SB_ND_POOL_DMABUF && !strv_has(dmabufs, ndmabufs, p->dmabuf) &&
		    ndmabufs < 64)
			dmabufs[ndmabufs++] = p->dmabuf;
	}
	if (st->have & SB_ND_QUEUES) {
		sb_row_u64(r, OV_RX_QUEUES, rxq);
		sb_row_u64(r, OV_TX_QUEUES, txq);
	}
	if (st->have & SB_ND_POOLS) {
		sb_row_u64(r, OV_POOLS, pools);
		sb_row_u64(r, OV_INFLIGHT, inflight);
		sb_row_u64(r, OV_INFLIGHT_MEM, mem);
		sb_row_u64(r, OV_DETACHED, detached);
	}
	if (returned > 0)
		sb_row_dbl(r, OV_RECYCLE, recycled / returned);
	for (size_t i = 0; i < ndmabufs; i++)
		sb_row_u64v_add(r, OV_DMABUFS, dmabufs[i]);
	sb_row_u64(r, OV_XDP, d->xdp_features);
	sb_row_u64(r, OV_XDP_RX_META, d->xdp_rx_metadata_features);
	sb_row_u64(r, OV_XSK, d->xsk_features);
	sb_row_u64(r, OV_XDP_ZC_SEGS, d->xdp_zc_max_segs);
}

static int overview_run(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = { DM_POPT_NET, SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	const size_t ncols = ARRAY_SIZE(overview_cols);
	struct sb_genl g = { 0 };
	struct sb_nd_state st;
	uint32_t ifindex;
	struct sb_out *o;
	struct sb_table *t;
	int rc = sb_cli_parse(c, opts, NULL, argc, argv, overview_cols, ncols);

	if (rc)
		return rc;
	rc = dm_open_view(c, &g, &ifindex);
	if (rc)
		return rc;
	rc = dm_collect(c, &g,
			SB_ND_DEVS | SB_ND_QUEUES | SB_ND_NAPIS | SB_ND_POOLS | SB_ND_POOL_STATS,
			ifindex, &st);
	sb_genl_close(&g);
	if (rc)
		return rc;
	o = sb_out_new(&c->out, stdout);
	t = sb_out_table(o, "devices", "Devices", overview_cols, ncols, true);
	for (size_t i = 0; i < st.ndevs; i++)
		overview_row(t, &st, &st.devs[i]);
	dm_add_pools_table(o, &st, false);
	dm_note_unsupported(o, &st);
	rc = sb_out_print(o) ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	sb_nd_state_free(&st);
	return rc;
}

const struct sb_cmd devmemstat_cmds[] = {
	{ "show", overview_run, NULL, "per-device overview: queues, NAPIs, bindings, pools",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR | SB_CMD_APPLET_LABEL },
	{ "queues", dm_queues, NULL, "RX/TX queues with NAPI, binding and qstats", SB_CMD_VIEW },
	{ "napi", dm_napi, NULL, "NAPI instances with IRQ, thread and tuning", SB_CMD_VIEW },
	{ "pools", dm_pools, NULL, "page pools with inflight memory, stats and recycle rate",
	  SB_CMD_VIEW },
	{ "qstats", dm_qstats, NULL, "queue and device statistics (qstats)", SB_CMD_VIEW },
	{ "bindings", dm_bindings, NULL,
	  "devmem bindings: device, queues, pools, memory; leaked pools",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "top", dm_top, NULL, "live Gbps, packets/s, CPU usage, NET_RX softirqs (kperf layout)",
	  SB_CMD_VIEW | SB_CMD_STREAMS },
	{ "monitor", dm_monitor, NULL, "print device and page-pool events as they happen",
	  SB_CMD_LIVE | SB_CMD_STREAMS },
	/* bind-rx is GENL_ADMIN_PERM: CAP_NET_ADMIN in the device's network namespace */
	{ "bind", dm_bind, NULL, "bind a udmabuf to RX queues (bind-rx) and hold it",
	  SB_CMD_LIVE | SB_CMD_ROOT | SB_CMD_NET_ADMIN },
	{ "rx", dm_rx, NULL, "devmem TCP receive test: bind, accept, receive, verify, rate",
	  SB_CMD_LIVE | SB_CMD_ROOT | SB_CMD_NET_ADMIN },
	{ NULL, NULL, NULL, NULL, 0 },
};

int devmemstat_main(int argc, const char **argv)
{
	int rc = sb_cli_dispatch(DM_APPLET, applet_summary(DM_APPLET), devmemstat_cmds, "show",
				 argc, argv);

	dm_source_done();
	return rc;
}
