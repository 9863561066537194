// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat: devmem TCP bindings, queues, NAPIs and page pools through netdev netlink.
 * This file: the dispatcher, shared helpers and the overview. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "devmemstat.h"
#include "devmemstat_views.h"
#include "builtins.h"
#include "socbox/macro.h"

char *dm_netns;
char *dm_dev;
char *dm_save_netlink;
char *dm_load_netlink;
static FILE *capture_fp;
/* On a sysroot: the snapshot's interface names (the capture carries only ifindexes). */
static struct sb_nd_ifname *snap_names;
static size_t nsnap_names;

struct poptOption dm_popt_ns[] = {
	{ "netns", '\0', POPT_ARG_STRING, &dm_netns, 0,
	  "query the network namespace NAME (/run/netns/NAME) or PATH", "NAME|PATH" },
	{ "dev", 'd', POPT_ARG_STRING, &dm_dev, 0, "only this interface", "IF" },
	POPT_TABLEEND
};

struct poptOption dm_popt_net[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, dm_popt_ns, 0, NULL, NULL },
	{ "save-netlink", '\0', POPT_ARG_STRING, &dm_save_netlink, 0,
	  "also write the raw netlink replies to FILE (for a bug report)", "FILE" },
	{ "load-netlink", '\0', POPT_ARG_STRING, &dm_load_netlink, 0,
	  "answer from a --save-netlink FILE instead of the kernel", "FILE" },
	POPT_TABLEEND
};

const char *dm_ifname(uint32_t ifindex, char *buf)
{
	const char *name;

	if (snap_names) {
		name = sb_nd_ifname_of(snap_names, nsnap_names, ifindex);
		snprintf(buf, IF_NAMESIZE, "%s", name && ifindex ? name : "-");
		return buf;
	}
	/* A capture carries no names, and this machine's names would be wrong. */
	if (!ifindex || dm_load_netlink || !if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "-");
	return buf;
}

int dm_enter(struct sb_ctx *c, uint32_t *ifindex)
{
	struct sb_err e;

	sb_err_clear(&e);
	*ifindex = 0;
	if (!sb_root_is_live(c->root)) {
		sb_err_set(&e, EOPNOTSUPP, sb_root_path(c->root), "query netdev netlink", NULL);
		sb_err_reason(&e, "needs the live kernel (netlink cannot be read from a sysroot)");
		sb_err_hint(&e,
			    "on the board run with --save-netlink FILE, then here --load-netlink FILE");
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(c->applet, &e);
	}
	if (dm_netns && sb_netns_enter(dm_netns, &e))
		return sb_report(c->applet, &e);
	if (dm_dev) {
		*ifindex = if_nametoindex(dm_dev);
		if (!*ifindex) {
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   dm_netns ? "see 'ip -n %s link'"
					    : "see 'ip link'; --netns for another namespace",
				   dm_netns);
			return sb_report(c->applet, &e);
		}
	}
	return 0;
}

int dm_open(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	struct sb_err e;
	int rc;

	if (dm_load_netlink) {
		char *end;
		*ifindex = 0;
		if (dm_dev) {
			unsigned long v = strtoul(dm_dev, &end, 10);
			if (*end || !v || v > UINT32_MAX)
				return sb_usage_error(c,
						      "with --load-netlink, --dev takes an ifindex");
			*ifindex = (uint32_t)v;
		}
		return 0;
	}
	rc = dm_enter(c, ifindex);
	if (rc)
		return rc;
	if (dm_save_netlink) {
		capture_fp = fopen(dm_save_netlink, "we");
		if (!capture_fp) {
			sb_err_set(&e, errno, dm_save_netlink, "create", NULL);
			return sb_report(c->applet, &e);
		}
		sb_nd_set_capture(capture_fp);
	}
	sb_err_clear(&e);
	if (sb_nd_open(g, &e))
		return sb_report(c->applet, &e);
	sb_verbose(c->applet, "netdev family id %u version %u, %u multicast groups", g->id,
		   g->version, g->ngroups);
	return 0;
}

/* A snapshot: the state of the board, names from its /sys/class/net, --dev by those. */
static int open_snapshot(struct sb_ctx *c, uint32_t *ifindex)
{
	struct sb_err e;

	*ifindex = 0;
	if (dm_netns)
		return sb_need_live(c, "--netns");
	if (dm_save_netlink) /* the snapshot keeps the replies in SB_ND_SNAP_MSGS */
		return sb_need_live(c, "--save-netlink");
	if (sb_nd_read_ifnames(c->root, &snap_names, &nsnap_names) < 0)
		nsnap_names = 0;
	if (!snap_names)
		snap_names = calloc(1, sizeof(*snap_names));
	if (!snap_names) {
		sb_err_set(&e, ENOMEM, "interface names", "read", NULL);
		return sb_report(c->applet, &e);
	}
	if (dm_dev) {
		*ifindex = sb_nd_ifindex_of(snap_names, nsnap_names, dm_dev);
		if (!*ifindex) {
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   "the snapshot's interfaces are under %s/sys/class/net",
				   sb_root_path(c->root));
			return sb_report(c->applet, &e);
		}
	}
	return 0;
}

int dm_open_view(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	if (!dm_load_netlink && !sb_root_is_live(c->root))
		return open_snapshot(c, ifindex);
	return dm_open(c, g, ifindex);
}

uint64_t dm_boottime_s(const struct sb_nd_state *st)
{
	return dm_load_netlink ? 0 : st->boottime_s;
}

void dm_note_unsupported(struct sb_out *o, const struct sb_nd_state *st)
{
	char buf[1024];

	for (unsigned bit = 0; bit < 8; bit++) {
		if (!(st->unsupported & (1u << bit)))
			continue;
		sb_err_format(&st->part_err[bit], buf, sizeof(buf));
		sb_out_note(o, "%s", buf);
	}
	if (st->malformed)
		sb_out_problem(o, "%u netlink messages could not be parsed and were skipped",
			       st->malformed);
}

int dm_collect(struct sb_ctx *c, struct sb_genl *g, unsigned parts, uint32_t ifindex,
	       struct sb_nd_state *st)
{
	struct sb_err e;

	sb_err_clear(&e);
	memset(st, 0, sizeof(*st));
	if (dm_load_netlink) {
		char *buf = NULL;
		ssize_t n = sb_read_user_file(dm_load_netlink, &buf, SB_READ_CAPTURE_MAX);

		if (n < 0) {
			sb_err_set(&e, (int)-n, dm_load_netlink, "read netlink capture",
				   n == -EFBIG ? "over %u MiB" : NULL, SB_READ_CAPTURE_MAX >> 20);
			return sb_report(c->applet, &e);
		}
		int rc = sb_nd_state_from_buf(buf, (size_t)n, st);
		size_t parsed = sb_nd_state_records(st);

		free(buf);
		if (rc < 0 && parsed == 0) {
			/* nothing parsed: not a capture at all */
			sb_err_set(&e, EINVAL, dm_load_netlink, "read netlink capture",
				   "a file written by --save-netlink");
			sb_err_reason(&e, "not a sequence of netlink messages");
			sb_nd_state_free(st);
			return sb_report(c->applet, &e);
		}
		if (rc < 0)
			st->malformed++;
		sb_nd_state_keep_ifindex(st, ifindex);
		if (ifindex && (st->have & SB_ND_DEVS) && !st->ndevs) { /* named, not there */
			sb_nd_state_free(st);
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   "'devmemstat --load-netlink %s' lists the captured devices",
				   dm_load_netlink);
			sb_err_reason(&e, "no device with ifindex %u in the capture", ifindex);
			return sb_report(c->applet, &e);
		}
		return 0;
	}
	if (!sb_root_is_live(c->root)) {
		if (sb_nd_state_from_root(c->root, parts, st, &e))
			return sb_report(c->applet, &e);
		sb_nd_state_keep_ifindex(st, ifindex);
		return 0;
	}
	if (sb_nd_collect(g, parts, ifindex, st, &e)) {
		sb_nd_state_free(st);
		return sb_report(c->applet, &e);
	}
	if (capture_fp) {
		sb_nd_set_capture(NULL);
		fclose(capture_fp);
		capture_fp = NULL;
	}
	sb_nd_state_keep_ifindex(st, ifindex);
	return 0;
}

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
	sb_row_str(r, OV_IFNAME, dm_ifname(d->ifindex, name));
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

static const struct sb_cmd cmds[] = {
	{ "show", overview_run, NULL, "per-device overview: queues, NAPIs, bindings, page pools",
	  0 },
	{ "queues", dm_queues, NULL, "RX/TX queues with NAPI, binding and qstats", 0 },
	{ "napi", dm_napi, NULL, "NAPI instances with IRQ, thread and tuning", 0 },
	{ "pools", dm_pools, NULL, "page pools with inflight memory, stats and recycle rate", 0 },
	{ "qstats", dm_qstats, NULL, "queue and device statistics (qstats)", 0 },
	{ "bindings", dm_bindings, NULL,
	  "devmem bindings: device, queues, pools, memory; leaked pools", 0 },
	{ "top", dm_top, NULL,
	  "live Gbps, packets/s, per-CPU usage and NET_RX softirqs (kperf layout)",
	  SB_CMD_STREAMS },
	{ "monitor", dm_monitor, NULL, "print device and page-pool events as they happen",
	  SB_CMD_STREAMS },
	{ "bind", dm_bind, NULL, "bind a udmabuf to RX queues (bind-rx) and hold it", 0 },
	{ NULL, NULL, NULL, NULL, 0 },
};

int devmemstat_main(int argc, const char **argv)
{
	int rc = sb_cli_dispatch(DM_APPLET, applet_summary(DM_APPLET), cmds, "show", argc, argv);

	free(snap_names);
	snap_names = NULL;
	return rc;
}
