// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat top's text output: kperf's layout, wrapped at a terminal's width. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/error.h"
#include "socbox/escape.h"
#include "devmemstat.h"
#include "devmemstat_top.h"

/* kperf: "Rx 98.092 Gbps (735764807680 bytes in 60006084 usec)" and
 * "CPU 2: usr: 0.00% sys: 0.01% idle:24.51% iow: 0.00% irq: 1.67% sirq:73.79%". */
static void print_kperf_to(FILE *fp, const struct rate *r, size_t nr, const struct sample *a,
			   const struct sample *b, double dt, const unsigned *cpus, unsigned ncpus)
{
	unsigned long long usec = (unsigned long long)(dt * 1e6);

	char esc[4 * IF_NAMESIZE + 1];

	fprintf(fp, "== Devices\n");
	for (size_t i = 0; i < nr; i++) {
		sb_escape(esc, sizeof(esc), r[i].name, 0); /* read from /proc/net/dev */
		fprintf(fp, "%s: Rx%7.3f Gbps (%llu bytes in %llu usec) %.0f pps [%s]\n", esc,
			dm_gbps(r[i].rx_bytes, dt), (unsigned long long)r[i].rx_bytes, usec,
			dt > 0 ? (double)r[i].rx_packets / dt : 0,
			r[i].qstats ? "qstats" : "netdev");
		fprintf(fp, "%s: Tx%7.3f Gbps (%llu bytes in %llu usec) %.0f pps [%s]\n", esc,
			dm_gbps(r[i].tx_bytes, dt), (unsigned long long)r[i].tx_bytes, usec,
			dt > 0 ? (double)r[i].tx_packets / dt : 0,
			r[i].qstats ? "qstats" : "netdev");
	}
	if (b->have_nd) {
		char name[IF_NAMESIZE];
		for (size_t i = 0; i < b->nd.nqstats; i++) {
			const struct sb_nd_qstats *q = &b->nd.qstats[i];
			const struct sb_nd_qstats *p =
				a ? sb_nd_find_qstats(&a->nd, q->ifindex, q->queue_type, q->queue_id)
				  : NULL;
			int battr = q->queue_type == SB_NETDEV_QUEUE_TYPE_RX
					    ? SB_NETDEV_A_QSTATS_RX_BYTES
					    : SB_NETDEV_A_QSTATS_TX_BYTES;
			uint64_t bytes = dm_d64(p ? p->v[battr] : 0, q->v[battr]);
			fprintf(fp, "%s %s-%u: %s%7.3f Gbps (%llu bytes in %llu usec)\n",
				sb_escape(esc, sizeof(esc), dm_ifname(q->ifindex, name), 0),
				sb_nd_queue_type_name(q->queue_type), q->queue_id,
				q->queue_type == SB_NETDEV_QUEUE_TYPE_RX ? "Rx" : "Tx",
				dm_gbps(bytes, dt), (unsigned long long)bytes, usec);
		}
	}
	if (!a)
		fprintf(fp, "note: averages since boot (%s)\n",
			b->have_nd ? "first sample" : "a snapshot has one moment");
	fprintf(fp, "== CPUs\n");
	for (size_t i = 0; i < b->cpu.ncpus; i++) {
		const struct sb_cpu_times *cb = &b->cpu.cpus[i];
		const struct sb_cpu_times *ca = a ? sb_cpustat_find(&a->cpu, cb->cpu) : NULL;
		struct sb_cpu_pct p;
		if (!dm_cpu_selected(cpus, ncpus, cb->cpu))
			continue;
		sb_cpu_pct(ca, cb, &p);
		fprintf(fp,
			"CPU %d: usr:%5.2f%% sys:%5.2f%% idle:%5.2f%% iow:%5.2f%% irq:%5.2f%% sirq:%5.2f%%",
			cb->cpu, p.usr, p.sys, p.idle, p.iow, p.irq, p.sirq);
		if (cb->have_softirqs)
			fprintf(fp, " net_rx:%.0f/s",
				dt > 0 ? (double)dm_d64(ca ? ca->net_rx : 0, cb->net_rx) / dt : 0);
		fputc('\n', fp);
	}
	if (b->have_nd && b->nd.npools) {
		char name[IF_NAMESIZE];
		fprintf(fp, "== Page pools\n");
		for (size_t i = 0; i < b->nd.npools; i++) {
			const struct sb_nd_pool *p = &b->nd.pools[i];
			const struct sb_nd_pool_stats *sb = sb_nd_find_pool_stats(&b->nd, p->id);
			const struct sb_nd_pool_stats *sa = a ? sb_nd_find_pool_stats(&a->nd, p->id)
							      : NULL;
			double rate = dm_pool_recycle_delta(sa, sb);
			fprintf(fp, "pool %llu %s: inflight %llu (%llu bytes)",
				(unsigned long long)p->id,
				sb_escape(esc, sizeof(esc), dm_ifname(p->ifindex, name), 0),
				(unsigned long long)p->inflight,
				(unsigned long long)p->inflight_mem);
			if (sb && dt > 0)
				fprintf(fp, " alloc:%.0f/s",
					(double)(dm_d64(sa ? sa->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST]
							   : 0,
							sb->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST]) +
						 dm_d64(sa ? sa->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW]
							   : 0,
							sb->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW])) /
						dt);
			if (rate >= 0)
				fprintf(fp, " recycle:%5.1f%%", rate * 100); /* as RECYCLE_RATE */
			if (p->has & SB_ND_POOL_DETACHED)
				fprintf(fp, " detached");
			fputc('\n', fp);
		}
	}
}

/* kperf's lines as they are to a pipe (the seed's scripts read them); on a terminal each
 * is wrapped at its width, continuation lines indented */
void dm_top_print_kperf(const struct rate *r, size_t nr, const struct sample *a,
			const struct sample *b, double dt, const unsigned *cpus, unsigned ncpus)
{
	unsigned width = sb_err_width(stdout);
	char *text = NULL, *line, *save = NULL;
	size_t len = 0;
	FILE *m = width ? open_memstream(&text, &len) : NULL;

	if (!m) {
		print_kperf_to(stdout, r, nr, a, b, dt, cpus, ncpus);
		return;
	}
	print_kperf_to(m, r, nr, a, b, dt, cpus, ncpus);
	if (fclose(m) != 0 || !text) /* no memory: the lines as they are */
		print_kperf_to(stdout, r, nr, a, b, dt, cpus, ncpus);
	else
		for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			sb_err_put_wrapped(stdout, line, width);
	free(text);
}
