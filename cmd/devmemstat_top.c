// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat top: per-device and per-queue Gbps and packets/s from qstats deltas (interface
 * counters when a driver has no qstats), per-CPU usage and NET_RX softirqs, pool recycling.
 * Text output follows kperf's layout (devmemstat_top_kperf.c); -J gives one JSON object
 * per interval. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socbox/error.h"
#include "devmemstat.h"
#include "devmemstat_top.h"
#include "socbox/cpustat.h"
#include "socbox/macro.h"
#include "socbox/stats.h"

static char *top_cpus;

static void sample_free(struct sample *s)
{
	sb_cpustat_free(&s->cpu);
	sb_nd_state_free(&s->nd);
	free(s->ifc);
	memset(s, 0, sizeof(*s));
}

static int take_sample(struct sb_ctx *c, struct sb_genl *g, uint32_t ifindex, struct sample *s,
		       struct sb_err *e)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->t_ns = sb_now_ns();
	rc = sb_cpustat_read(c->root, &s->cpu, e);
	if (rc)
		return rc;
	rc = sb_nd_read_if_counters(c->root, &s->ifc, &s->nifc, e);
	if (rc)
		return rc;
	if (g->open) {
		rc = sb_nd_collect(g,
				   SB_ND_DEVS | SB_ND_QSTATS_DEV | SB_ND_QSTATS_QUEUE |
					   SB_ND_POOLS | SB_ND_POOL_STATS,
				   ifindex, &s->nd, e);
		if (rc)
			return rc;
		s->have_nd = true;
	}
	return 0;
}

uint64_t dm_d64(uint64_t a, uint64_t b)
{
	return b > a ? b - a : 0;
}

enum {
	D_IFNAME,
	D_IFINDEX,
	D_SOURCE,
	D_RX_GBPS,
	D_TX_GBPS,
	D_RX_PPS,
	D_TX_PPS,
	D_RX_BYTES,
	D_TX_BYTES
};
static const struct sb_col dev_cols[] = {
	[D_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[D_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "interface index", 0 },
	[D_SOURCE] = { "SOURCE", SB_T_STR, 0, SB_COL_LABEL,
		       "qstats, or netdev (interface counters)", 0 },
	[D_RX_GBPS] = { "RX_GBPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "received Gbit/s", 3 },
	[D_TX_GBPS] = { "TX_GBPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "sent Gbit/s", 3 },
	[D_RX_PPS] = { "RX_PPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "received packets/s",
		       0 },
	[D_TX_PPS] = { "TX_PPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "sent packets/s", 0 },
	[D_RX_BYTES] = { "RX_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_BYTES,
			 "bytes received in the interval", 0 },
	[D_TX_BYTES] = { "TX_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_BYTES,
			 "bytes sent in the interval", 0 },
};
_Static_assert(ARRAY_SIZE(dev_cols) == D_TX_BYTES + 1, "a column for each constant");
enum { QQ_IFNAME, QQ_TYPE, QQ_QUEUE, QQ_GBPS, QQ_PPS };
static const struct sb_col queue_cols[] = {
	[QQ_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[QQ_TYPE] = { "TYPE", SB_T_STR, 0, SB_COL_LABEL, "rx or tx", 0 },
	[QQ_QUEUE] = { "QUEUE", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "queue id", 0 },
	[QQ_GBPS] = { "GBPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "Gbit/s", 3 },
	[QQ_PPS] = { "PPS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "packets/s", 0 },
};
_Static_assert(ARRAY_SIZE(queue_cols) == QQ_PPS + 1, "a column for each constant");
enum { C_CPU, C_USR, C_SYS, C_IDLE, C_IOW, C_IRQ, C_SIRQ, C_NET_RX, C_NET_TX };
static const struct sb_col cpu_cols[] = {
	[C_CPU] = { "CPU", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "CPU number", 0 },
	[C_USR] = { "USR", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% user and nice", 2 },
	[C_SYS] = { "SYS", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% system", 2 },
	[C_IDLE] = { "IDLE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% idle", 2 },
	[C_IOW] = { "IOW", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% iowait", 2 },
	[C_IRQ] = { "IRQ", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% hard irq", 2 },
	[C_SIRQ] = { "SIRQ", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "% softirq", 2 },
	[C_NET_RX] = { "NET_RX_PER_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
		       "NET_RX softirqs/s", 0 },
	[C_NET_TX] = { "NET_TX_PER_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
		       "NET_TX softirqs/s", 0 },
};
_Static_assert(ARRAY_SIZE(cpu_cols) == C_NET_TX + 1, "a column for each constant");
enum { PP_ID, PP_IFNAME, PP_INFLIGHT, PP_MEM, PP_ALLOC_PS, PP_RECYCLE };
static const struct sb_col pool_cols[] = {
	[PP_ID] = { "POOL_ID", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "page pool id", 0 },
	[PP_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[PP_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "pages in flight",
			  0 },
	[PP_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_BYTES,
		     "memory in flight", 0 },
	[PP_ALLOC_PS] = { "ALLOC_PER_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
			  "pages allocated/s (fast + slow)", 0 },
	[PP_RECYCLE] = { "RECYCLE_RATE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_PERCENT,
			 "recycled / returned in the interval (0..1)", 3 },
};
_Static_assert(ARRAY_SIZE(pool_cols) == PP_RECYCLE + 1, "a column for each constant");

/* Device rates between a and b (a NULL: since boot, dt = uptime). */
static size_t device_rates(const struct sample *a, const struct sample *b, uint32_t only,
			   struct rate *out, size_t max)
{
	size_t n = 0;

	if (b->have_nd) {
		for (size_t i = 0; i < b->nd.ndevs && n < max; i++) {
			const struct sb_nd_dev *d = &b->nd.devs[i];
			const struct sb_nd_qstats *qb = sb_nd_find_dev_qstats(&b->nd, d->ifindex);
			const struct sb_nd_qstats *qa =
				a ? sb_nd_find_dev_qstats(&a->nd, d->ifindex) : NULL;
			struct rate *r = &out[n];
			if (only && d->ifindex != only)
				continue;
			memset(r, 0, sizeof(*r));
			r->ifindex = d->ifindex;
			dm_ifname(d->ifindex, r->name);
			if (qb && sb_nd_has(qb->has, SB_NETDEV_A_QSTATS_RX_BYTES)) {
				static const struct sb_nd_qstats zero;
				if (!qa)
					qa = &zero;
				r->qstats = true;
				r->rx_bytes = dm_d64(qa->v[SB_NETDEV_A_QSTATS_RX_BYTES],
						     qb->v[SB_NETDEV_A_QSTATS_RX_BYTES]);
				r->tx_bytes = dm_d64(qa->v[SB_NETDEV_A_QSTATS_TX_BYTES],
						     qb->v[SB_NETDEV_A_QSTATS_TX_BYTES]);
				r->rx_packets = dm_d64(qa->v[SB_NETDEV_A_QSTATS_RX_PACKETS],
						       qb->v[SB_NETDEV_A_QSTATS_RX_PACKETS]);
				r->tx_packets = dm_d64(qa->v[SB_NETDEV_A_QSTATS_TX_PACKETS],
						       qb->v[SB_NETDEV_A_QSTATS_TX_PACKETS]);
				n++;
				continue;
			}
			const struct sb_if_counters *cb =
				sb_nd_find_if_counters(b->ifc, b->nifc, r->name);
			const struct sb_if_counters *ca =
				a ? sb_nd_find_if_counters(a->ifc, a->nifc, r->name) : NULL;
			static const struct sb_if_counters zc;
			if (!cb)
				continue;
			if (!ca)
				ca = &zc;
			r->rx_bytes = dm_d64(ca->rx_bytes, cb->rx_bytes);
			r->tx_bytes = dm_d64(ca->tx_bytes, cb->tx_bytes);
			r->rx_packets = dm_d64(ca->rx_packets, cb->rx_packets);
			r->tx_packets = dm_d64(ca->tx_packets, cb->tx_packets);
			n++;
		}
		return n;
	}
	/* No netlink (sysroot or old kernel): every interface of /proc/net/dev. */
	for (size_t i = 0; i < b->nifc && n < max; i++) {
		const struct sb_if_counters *cb = &b->ifc[i];
		const struct sb_if_counters *ca =
			a ? sb_nd_find_if_counters(a->ifc, a->nifc, cb->name) : NULL;
		static const struct sb_if_counters zc;
		struct rate *r = &out[n++];
		if (!ca)
			ca = &zc;
		memset(r, 0, sizeof(*r));
		snprintf(r->name, sizeof(r->name), "%s", cb->name);
		r->rx_bytes = dm_d64(ca->rx_bytes, cb->rx_bytes);
		r->tx_bytes = dm_d64(ca->tx_bytes, cb->tx_bytes);
		r->rx_packets = dm_d64(ca->rx_packets, cb->rx_packets);
		r->tx_packets = dm_d64(ca->tx_packets, cb->tx_packets);
	}
	return n;
}

bool dm_cpu_selected(const unsigned *cpus, unsigned n, int cpu)
{
	if (!cpus)
		return true;
	for (unsigned i = 0; i < n; i++)
		if ((int)cpus[i] == cpu)
			return true;
	return false;
}

double dm_gbps(uint64_t bytes, double dt)
{
	return dt > 0 ? (double)bytes * 8.0 / 1e9 / dt : 0;
}

double dm_pool_recycle_delta(const struct sb_nd_pool_stats *a, const struct sb_nd_pool_stats *b)
{
	struct sb_nd_pool_stats d;

	if (!b)
		return -1;
	if (!a)
		return sb_nd_recycle_rate(b);
	d = *b;
	for (int i = 0; i <= SB_NETDEV_A_PAGE_POOL_STATS_MAX; i++)
		d.v[i] = dm_d64(a->v[i], b->v[i]);
	return sb_nd_recycle_rate(&d);
}

static void device_rows(struct sb_table *t, const struct rate *r, size_t nr, double dt)
{
	for (size_t i = 0; i < nr; i++) {
		struct sb_row *row = sb_table_row(t);
		sb_row_str(row, D_IFNAME, dm_known(r[i].name));
		if (r[i].ifindex)
			sb_row_u64(row, D_IFINDEX, r[i].ifindex);
		sb_row_str(row, D_SOURCE, r[i].qstats ? "qstats" : "netdev");
		sb_row_dbl(row, D_RX_GBPS, dm_gbps(r[i].rx_bytes, dt));
		sb_row_dbl(row, D_TX_GBPS, dm_gbps(r[i].tx_bytes, dt));
		sb_row_dbl(row, D_RX_PPS, dt > 0 ? (double)r[i].rx_packets / dt : 0);
		sb_row_dbl(row, D_TX_PPS, dt > 0 ? (double)r[i].tx_packets / dt : 0);
		sb_row_u64(row, D_RX_BYTES, r[i].rx_bytes);
		sb_row_u64(row, D_TX_BYTES, r[i].tx_bytes);
	}
}

static void queue_rows(struct sb_table *t, const struct sample *a, const struct sample *b, double dt)
{
	char name[IF_NAMESIZE];

	for (size_t i = 0; b->have_nd && i < b->nd.nqstats; i++) {
		const struct sb_nd_qstats *q = &b->nd.qstats[i];
		const struct sb_nd_qstats *p =
			a ? sb_nd_find_qstats(&a->nd, q->ifindex, q->queue_type, q->queue_id)
			  : NULL;
		bool rx = q->queue_type == SB_NETDEV_QUEUE_TYPE_RX;
		int battr = rx ? SB_NETDEV_A_QSTATS_RX_BYTES : SB_NETDEV_A_QSTATS_TX_BYTES;
		int pattr = rx ? SB_NETDEV_A_QSTATS_RX_PACKETS : SB_NETDEV_A_QSTATS_TX_PACKETS;
		struct sb_row *row = sb_table_row(t);
		sb_row_str(row, QQ_IFNAME, dm_known(dm_ifname(q->ifindex, name)));
		sb_row_str(row, QQ_TYPE, sb_nd_queue_type_name(q->queue_type));
		sb_row_u64(row, QQ_QUEUE, q->queue_id);
		sb_row_dbl(row, QQ_GBPS, dm_gbps(dm_d64(p ? p->v[battr] : 0, q->v[battr]), dt));
		if (dt > 0)
			sb_row_dbl(row, QQ_PPS,
				   (double)dm_d64(p ? p->v[pattr] : 0, q->v[pattr]) / dt);
	}
}

static void cpu_rows(struct sb_table *t, const struct sample *a, const struct sample *b, double dt,
		     const unsigned *cpus, unsigned ncpus)
{
	for (size_t i = 0; i < b->cpu.ncpus; i++) {
		const struct sb_cpu_times *cb = &b->cpu.cpus[i];
		const struct sb_cpu_times *ca = a ? sb_cpustat_find(&a->cpu, cb->cpu) : NULL;
		struct sb_cpu_pct p;
		struct sb_row *row;
		if (!dm_cpu_selected(cpus, ncpus, cb->cpu))
			continue;
		sb_cpu_pct(ca, cb, &p);
		row = sb_table_row(t);
		sb_row_u64(row, C_CPU, (uint64_t)cb->cpu);
		sb_row_dbl(row, C_USR, p.usr);
		sb_row_dbl(row, C_SYS, p.sys);
		sb_row_dbl(row, C_IDLE, p.idle);
		sb_row_dbl(row, C_IOW, p.iow);
		sb_row_dbl(row, C_IRQ, p.irq);
		sb_row_dbl(row, C_SIRQ, p.sirq);
		if (cb->have_softirqs && dt > 0) {
			sb_row_dbl(row, C_NET_RX,
				   (double)dm_d64(ca ? ca->net_rx : 0, cb->net_rx) / dt);
			sb_row_dbl(row, C_NET_TX,
				   (double)dm_d64(ca ? ca->net_tx : 0, cb->net_tx) / dt);
		}
	}
}

static void pool_rows(struct sb_table *t, const struct sample *a, const struct sample *b, double dt)
{
	char name[IF_NAMESIZE];

	for (size_t i = 0; b->have_nd && i < b->nd.npools; i++) {
		const struct sb_nd_pool *p = &b->nd.pools[i];
		const struct sb_nd_pool_stats *sb = sb_nd_find_pool_stats(&b->nd, p->id);
		const struct sb_nd_pool_stats *sa = a ? sb_nd_find_pool_stats(&a->nd, p->id) : NULL;
		struct sb_row *row = sb_table_row(t);
		double rate = dm_pool_recycle_delta(sa, sb);
		sb_row_u64(row, PP_ID, p->id);
		sb_row_str(row, PP_IFNAME, dm_known(dm_ifname(p->ifindex, name)));
		sb_row_u64(row, PP_INFLIGHT, p->inflight);
		sb_row_u64(row, PP_MEM, p->inflight_mem);
		if (sb && dt > 0) {
			uint64_t alloc =
				dm_d64(sa ? sa->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST] : 0,
				       sb->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST]) +
				dm_d64(sa ? sa->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW] : 0,
				       sb->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW]);
			sb_row_dbl(row, PP_ALLOC_PS, (double)alloc / dt);
		}
		if (rate >= 0)
			sb_row_dbl(row, PP_RECYCLE, rate);
	}
}

/* One interval through the output layer (a NULL: averages since boot, dt the uptime). */
static void render(struct sb_out *o, const struct rate *r, size_t nr, const struct sample *a,
		   const struct sample *b, double dt, const unsigned *cpus, unsigned ncpus,
		   bool fallback)
{
	struct sb_table *t = sb_out_table(o, "devices", "Devices", dev_cols, ARRAY_SIZE(dev_cols),
					  true);

	sb_out_field_dbl(o, "interval_s", dt);
	device_rows(t, r, nr, dt);
	queue_rows(sb_out_table(o, "queues", "Queues", queue_cols, ARRAY_SIZE(queue_cols), false),
		   a, b, dt);
	cpu_rows(sb_out_table(o, "cpus", "CPUs", cpu_cols, ARRAY_SIZE(cpu_cols), false), a, b, dt,
		 cpus, ncpus);
	pool_rows(sb_out_table(o, "pools", "Page pools", pool_cols, ARRAY_SIZE(pool_cols), false),
		  a, b, dt);
	if (fallback)
		sb_out_note(o, "devices marked SOURCE netdev have no qstats: their rates come from "
			       "interface counters (/proc/net/dev)");
	if (!a)
		sb_out_note(o, "%s: averages since boot",
			    b->have_nd ? "first sample" : "no live kernel");
	if (b->have_nd)
		dm_note_unsupported(o, &b->nd);
}

static double read_uptime(const struct sb_root *root)
{
	char *buf = NULL;
	double up = 0;

	if (sb_read_file(root, &buf, SB_READ_ATTR_MAX, "/proc/uptime") > 0)
		up = strtod(buf, NULL);
	free(buf);
	return up;
}

static void sleep_until(uint64_t deadline_ns)
{
	uint64_t now = sb_now_ns();

	if (now < deadline_ns)
		sb_sleep((double)(deadline_ns - now) / 1e9);
}

/* What one run of top asks for and holds. */
struct top {
	struct sb_genl g; /* the netdev family; not open on an old kernel or a snapshot */
	uint32_t ifindex; /* --dev, or 0 for every device */
	unsigned *cpus, ncpus;
	double interval;
	int count;
	struct rate rates[512];
};

static int top_parse(struct sb_ctx *c, int argc, const char **argv, struct top *t)
{
	struct poptOption opts[] = {
		{ "cpus", '\0', POPT_ARG_STRING, &top_cpus, 0, "only these CPUs (e.g. 0-3,8)",
		  "LIST" },
		DM_POPT_NS,
		SB_POPT_LIVE,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	int rc;

	top_cpus = NULL;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, dev_cols, ARRAY_SIZE(dev_cols));
	if (rc)
		return rc;
	if (top_cpus && sb_parse_list(top_cpus, 65535, &t->cpus, &t->ncpus))
		return sb_usage_error(c, "bad CPU list '%s'", top_cpus);
	t->interval = sb_opt.interval > 0 ? sb_opt.interval : 1.0;
	t->count = sb_opt.count;
	return 0;
}

/* The live kernel: the network namespace and device, and the netdev family if it has one. */
static int top_open(struct sb_ctx *c, struct top *t)
{
	struct sb_err e;
	int rc = dm_enter(c, &t->ifindex);

	if (rc)
		return rc;
	sb_err_clear(&e);
	if (sb_nd_open(&t->g, &e)) {
		/* Old kernel: CPUs and interface counters still work. */
		sb_verbose(c->applet, "no netdev family, interface counters only");
		t->g.open = false;
	}
	return 0;
}

/* One screen from a to b over dt seconds (a NULL: averages since boot, dt the uptime):
 * kperf's layout for a plain table, else through the output layer. The note on interface
 * counters is for live intervals, printed once in kperf's layout. */
static void top_print(struct sb_ctx *c, struct top *t, const struct sample *a,
		      const struct sample *b, double dt, bool first)
{
	size_t nr = device_rates(a, b, t->ifindex, t->rates, ARRAY_SIZE(t->rates));
	bool fallback = false;
	struct sb_out *o;

	for (size_t i = 0; a && i < nr; i++)
		fallback |= !t->rates[i].qstats;
	if (c->out.mode == SB_OUT_TABLE && !c->out.columns) {
		dm_top_print_kperf(t->rates, nr, a, b, dt, t->cpus, t->ncpus);
		if (fallback && first)
			printf("note: [netdev] rates come from interface counters: the driver has no qstats\n");
		fflush(stdout);
		return;
	}
	o = sb_out_new(&c->out, stdout);
	render(o, t->rates, nr, a, b, dt, t->cpus, t->ncpus, fallback);
	sb_out_print(o);
	sb_out_free(o);
}

/* A screen per interval after the first sample, until -c, a stop signal or a reader that
 * has gone. Returns an exit code. */
static int top_loop(struct sb_ctx *c, struct top *t, struct sample *prev, struct sample *cur)
{
	uint64_t next = prev->t_ns;
	struct sb_err e;

	for (int n = 0; !sb_stop_signal && (t->count == 0 || n < t->count); n++) {
		next += (uint64_t)(t->interval * 1e9);
		sleep_until(next);
		if (sb_stop_signal)
			break;
		sb_err_clear(&e);
		if (take_sample(c, &t->g, t->ifindex, cur, &e))
			return sb_report(c->applet, &e);
		top_print(c, t, prev, cur, (double)(cur->t_ns - prev->t_ns) / 1e9, n == 0);
		sample_free(prev);
		*prev = *cur;
		memset(cur, 0, sizeof(*cur));
		/* the reader has gone (EPIPE with SIGPIPE ignored on entry): nothing more to do */
		if (fflush(stdout) == EOF || ferror(stdout))
			return SB_EXIT_FAIL;
	}
	return 0;
}

/* --cpus naming a CPU /proc/stat does not have: said, not an empty table (exit 3, a named
 * object that is not on this system) */
static int check_cpus(struct sb_ctx *c, const struct top *t, const struct sample *s)
{
	struct sb_err e;

	for (unsigned i = 0; i < t->ncpus; i++) {
		if (sb_cpustat_find(&s->cpu, (int)t->cpus[i]))
			continue;
		sb_err_clear(&e);
		sb_err_set(&e, ENOENT, "--cpus", "find the CPU", "%zu online in /proc/stat",
			   s->cpu.ncpus);
		sb_err_reason(&e, "no CPU %u", t->cpus[i]);
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(c->applet, &e);
	}
	return 0;
}

int dm_top(struct sb_ctx *c, int argc, const char **argv)
{
	struct sample prev = { 0 }, cur = { 0 };
	struct top t = { 0 };
	struct sb_err e;
	bool live;
	int rc;

	rc = top_parse(c, argc, argv, &t);
	if (rc)
		goto out;
	live = sb_root_is_live(c->root);
	/* a snapshot has one moment: sampling it every -i would show zero rates */
	if (!live && sb_opt.interval > 0 && (rc = sb_need_live(c, "-i")))
		goto out;
	if (live && (rc = top_open(c, &t)))
		goto out;
	sb_catch_stop_signals();
	sb_err_clear(&e);
	if (take_sample(c, &t.g, t.ifindex, &prev, &e))
		rc = sb_report(c->applet, &e);
	else if (!(rc = check_cpus(c, &t, &prev)) && !live)
		/* a snapshot has one moment: show averages since boot */
		top_print(c, &t, NULL, &prev, read_uptime(c->root), true);
	else if (!rc)
		rc = top_loop(c, &t, &prev, &cur);
out:
	sample_free(&prev);
	sample_free(&cur);
	sb_genl_close(&t.g);
	free(t.cpus);
	return rc;
}
