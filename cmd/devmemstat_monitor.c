// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat monitor: device and page-pool notifications (mgmt and page-pool groups). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "socbox/escape.h"
#include "devmemstat.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/utc.h"

static double mon_timeout;
enum {
	E_TIME,
	E_EVENT,
	E_IFINDEX,
	E_IFNAME,
	E_POOL,
	E_NAPI,
	E_INFLIGHT,
	E_MEM,
	E_DMABUF,
	E_DETACHED,
	E_XDP,
	E_XDP_RX_META,
	E_XSK,
	E_XDP_ZC_SEGS,
	E_LOST
};
static const struct sb_col event_cols[] = {
	[E_TIME] = { "TIME", SB_T_STR, 20, 0, "time of the event, UTC (ISO 8601)", 0 },
	[E_EVENT] = { "EVENT", SB_T_STR, 18, 0,
		      "dev-add, dev-delete, dev-change, page-pool-add, ...; lost (the socket overflowed)",
		      0 },
	[E_LOST] = { "LOST", SB_T_U64, 0, SB_COL_RIGHT,
		     "notifications the kernel dropped (lost rows; the socket's drop count)", 0 },
	[E_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT, "interface index", 0 },
	[E_IFNAME] = { "IFNAME", SB_T_STR, 15, 0, "interface name (remembered for deleted devices)",
		       0 },
	[E_POOL] = { "POOL_ID", SB_T_U64, 0, SB_COL_RIGHT, "page pool id", 0 },
	[E_NAPI] = { "NAPI_ID", SB_T_U64, 0, SB_COL_RIGHT, "NAPI the pool feeds", 0 },
	[E_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0, SB_COL_RIGHT, "pages in flight", 0 },
	[E_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES,
		    "memory in flight", 0 },
	[E_DMABUF] = { "DMABUF", SB_T_U64, 0, SB_COL_RIGHT, "devmem binding id", 0 },
	[E_DETACHED] = { "DETACHED", SB_T_BOOL, 0, 0, "the pool is detached from its device", 0 },
	/* dev-add and dev-change carry the device's XDP features (what dev-change is about) */
	[E_XDP] = { "XDP_FEATURES", SB_T_U64, 0, SB_COL_RIGHT, "xdp-features flags (dev events)",
		    0 },
	[E_XDP_RX_META] = { "XDP_RX_METADATA_FEATURES", SB_T_U64, 0,
			    SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
			    "xdp-rx-metadata-features flags (dev events)", 0 },
	[E_XSK] = { "XSK_FEATURES", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
		    "xsk-features flags (dev events)", 0 },
	[E_XDP_ZC_SEGS] = { "XDP_ZC_MAX_SEGS", SB_T_U64, 0,
			    SB_COL_HIDDEN | SB_COL_JSON | SB_COL_RIGHT,
			    "xdp-zc-max-segs (dev events)", 0 },
};
_Static_assert(ARRAY_SIZE(event_cols) == E_LOST + 1, "a column for each constant");

/* ifindex -> name, so delete events can still be named. */
struct name_cache {
	struct {
		uint32_t ifindex;
		char name[IF_NAMESIZE];
	} e[1024];
	size_t n;
};

static const char *cache_name(struct name_cache *nc, uint32_t ifindex, bool refresh)
{
	char buf[IF_NAMESIZE];
	size_t i;

	for (i = 0; i < nc->n; i++)
		if (nc->e[i].ifindex == ifindex)
			break;
	if (i == nc->n || refresh) {
		if (!ifindex || !if_indextoname(ifindex, buf))
			return i < nc->n ? nc->e[i].name : "-";
		if (i == nc->n) {
			if (nc->n == ARRAY_SIZE(nc->e))
				i = 0; /* full: reuse */
			else
				nc->n++;
		}
		nc->e[i].ifindex = ifindex;
		snprintf(nc->e[i].name, IF_NAMESIZE, "%s", buf);
	}
	return nc->e[i].name;
}

struct mon {
	struct sb_ctx *c;
	struct name_cache names;
	long events, max_events;
	bool headings_done;
	unsigned malformed;
	unsigned overflows; /* ENOBUFS: the socket dropped notifications */
	struct sb_genl *g;
	uint64_t drops;	    /* the socket's drop count, as far as lost rows have said it */
	bool drops_unknown; /* the kernel does not count them (no SO_MEMINFO) */
};

/* A row of its own for each event, printed as it comes, with the time (UTC). */
static struct sb_row *start_row(struct mon *m, const char *kind, struct sb_out **o)
{
	struct sb_out_opts opts = m->c->out;
	char ts[SB_UTC_LEN];
	struct sb_table *t;
	struct sb_row *r;

	sb_utc_iso8601(time(NULL), ts, sizeof(ts));
	opts.noheadings = opts.noheadings || m->headings_done;
	*o = sb_out_new(&opts, stdout);
	t = sb_out_table(*o, "events", NULL, event_cols, ARRAY_SIZE(event_cols), true);
	r = sb_table_row(t);
	sb_row_str(r, E_TIME, ts);
	sb_row_str(r, E_EVENT, kind);
	return r;
}

static void end_row(struct mon *m, struct sb_out *o)
{
	sb_out_print(o);
	sb_out_free(o);
	m->headings_done = true;
}

static int event_cb(const struct nlmsghdr *nlh, void *data)
{
	struct mon *m = data;
	struct sb_nd_event ev;
	struct sb_out *o;
	struct sb_row *r;
	char kind[32];

	if (m->max_events && m->events >= m->max_events)
		return SB_NL_CB_OK;
	if (sb_nd_parse_event(nlh, &ev)) {
		m->malformed++;
		return SB_NL_CB_OK;
	}
	snprintf(kind, sizeof(kind), "%s-%s", ev.is_pool ? "page-pool" : "dev",
		 sb_nd_event_action(ev.cmd));
	r = start_row(m, kind, &o);
	if (ev.is_pool) {
		const struct sb_nd_pool *p = &ev.pool;
		sb_row_u64(r, E_IFINDEX, p->ifindex);
		sb_row_str(r, E_IFNAME, dm_known(cache_name(&m->names, p->ifindex, false)));
		sb_row_u64(r, E_POOL, p->id);
		if (p->has & SB_ND_POOL_NAPI)
			sb_row_u64(r, E_NAPI, p->napi_id);
		if (p->has & SB_ND_POOL_INFLIGHT)
			sb_row_u64(r, E_INFLIGHT, p->inflight);
		if (p->has & SB_ND_POOL_INFLIGHT_MEM)
			sb_row_u64(r, E_MEM, p->inflight_mem);
		if (p->has & SB_ND_POOL_DMABUF)
			sb_row_u64(r, E_DMABUF, p->dmabuf);
		sb_row_bool(r, E_DETACHED, p->has & SB_ND_POOL_DETACHED);
	} else {
		sb_row_u64(r, E_IFINDEX, ev.dev.ifindex);
		sb_row_str(r, E_IFNAME,
			   dm_known(cache_name(&m->names, ev.dev.ifindex,
					       ev.cmd != SB_NETDEV_CMD_DEV_DEL_NTF)));
		if (ev.cmd != SB_NETDEV_CMD_DEV_DEL_NTF) {
			sb_row_u64(r, E_XDP, ev.dev.xdp_features);
			sb_row_u64(r, E_XDP_RX_META, ev.dev.xdp_rx_metadata_features);
			sb_row_u64(r, E_XSK, ev.dev.xsk_features);
			sb_row_u64(r, E_XDP_ZC_SEGS, ev.dev.xdp_zc_max_segs);
		}
	}
	end_row(m, o);
	m->events++;
	return SB_NL_CB_OK;
}

/* Notifications the kernel dropped since the last lost row: a "lost" row says how many, where
 * they would have been. The kernel reports the overflow (ENOBUFS) before the notifications
 * still queued, and goes on dropping until the queue has room: the drop count is read again
 * after every read, so the lost rows add up to the socket's count. Without that count (no
 * SO_MEMINFO), an ENOBUFS still gets its row, LOST empty. */
static void lost_rows(struct mon *m, bool enobufs)
{
	struct sb_out *o;
	struct sb_row *r;
	struct sb_err e;
	uint64_t drops = 0;

	sb_err_clear(&e);
	if (!m->drops_unknown && sb_genl_drops(m->g, &drops, &e))
		m->drops_unknown = true;
	if (m->drops_unknown ? !enobufs : drops <= m->drops)
		return;
	r = start_row(m, "lost", &o);
	if (!m->drops_unknown)
		sb_row_u64(r, E_LOST, drops - m->drops);
	end_row(m, o);
	m->drops = drops;
}

/* The socket overflowed (ENOBUFS): after the lost row, the names of the devices that exist
 * now are read again, so a later delete is still named. */
static void overflowed(struct mon *m)
{
	struct sb_nd_state st;
	struct sb_genl g;
	struct sb_err e;

	m->overflows++;
	lost_rows(m, true);
	/* a socket of its own: a dump on the listening one would swallow the notifications
	 * still queued there */
	memset(&st, 0, sizeof(st));
	sb_err_clear(&e);
	if (sb_nd_open(&g, &e))
		return;
	if (sb_nd_collect(&g, SB_ND_DEVS, 0, &st, &e) == 0)
		for (size_t i = 0; i < st.ndevs; i++)
			cache_name(&m->names, st.devs[i].ifindex, true);
	sb_nd_state_free(&st);
	sb_genl_close(&g);
}

int dm_monitor(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = {
		{ "timeout", 't', POPT_ARG_DOUBLE, &mon_timeout, 0, "stop after this long",
		  SB_CLI_DURATION },
		DM_POPT_NS,
		SB_POPT_COUNT,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	static struct mon m;
	struct sb_genl g = { 0 };
	struct sb_nd_state st;
	uint32_t ifindex;
	uint64_t deadline = 0;
	struct sb_err e;
	int rc;

	mon_timeout = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, event_cols, ARRAY_SIZE(event_cols));
	if (rc)
		return rc;
	if (mon_timeout < 0)
		return sb_usage_error(c, "--timeout must not be negative");
	rc = dm_open(c, &g, &ifindex);
	if (rc)
		return rc;
	memset(&m, 0, sizeof(m));
	m.c = c;
	m.g = &g;
	m.max_events = sb_opt.count;
	sb_err_clear(&e);
	if (sb_genl_join(&g, SB_NETDEV_MCGRP_MGMT, &e)) {
		sb_err_hint(&e, "device notifications need Linux 6.3");
		rc = sb_report(c->applet, &e);
		goto out;
	}
	sb_err_clear(&e);
	if (sb_genl_join(&g, SB_NETDEV_MCGRP_PAGE_POOL, &e)) {
		sb_err_hint(&e,
			    "page-pool notifications need Linux 6.8; showing device events only");
		if (!sb_opt.quiet)
			sb_report(c->applet, &e);
	}
	/* Remember the names of the devices that exist now, for their delete events. */
	memset(&st, 0, sizeof(st));
	sb_err_clear(&e);
	if (sb_nd_collect(&g, SB_ND_DEVS, 0, &st, &e) == 0)
		for (size_t i = 0; i < st.ndevs; i++)
			cache_name(&m.names, st.devs[i].ifindex, true);
	sb_nd_state_free(&st);
	sb_catch_stop_signals();
	if (mon_timeout > 0)
		deadline = sb_now_ns() + (uint64_t)(mon_timeout * 1e9);
	sb_verbose(c->applet, "listening for netdev events");
	rc = 0;
	while (!sb_stop_signal && (!m.max_events || m.events < m.max_events)) {
		int wait_ms = sb_poll_timeout(deadline, 500);

		if (!wait_ms)
			break;
		sb_err_clear(&e);
		rc = sb_genl_recv(&g, event_cb, &m, wait_ms, &e);
		if (rc == -ETIMEDOUT || (rc && sb_stop_signal)) {
			rc = 0;
			continue;
		}
		if (rc == -ENOBUFS) {
			overflowed(&m);
			rc = 0;
			continue;
		}
		if (m.overflows)
			lost_rows(&m, false);
		if (rc) {
			rc = sb_report(c->applet, &e);
			goto out;
		}
	}
	if (m.malformed)
		sb_eprintf("%s: %u event messages could not be parsed", c->applet, m.malformed);
	if (m.overflows) {
		lost_rows(&m, false);
		if (m.drops_unknown)
			sb_eprintf("%s: the notification socket overflowed %u time(s): events were "
				   "lost there (rows 'lost')",
				   c->applet, m.overflows);
		else
			sb_eprintf("%s: the notification socket overflowed %u time(s): the kernel "
				   "dropped %llu notifications (rows 'lost')",
				   c->applet, m.overflows, (unsigned long long)m.drops);
	}
out:
	sb_genl_close(&g);
	return rc;
}
