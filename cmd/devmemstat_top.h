// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat top's two halves: the sampling loop and output-layer rows
 * (devmemstat_top.c), and kperf's text layout (devmemstat_top_kperf.c). */
#ifndef SOCBOX_DEVMEMSTAT_TOP_H
#define SOCBOX_DEVMEMSTAT_TOP_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "socbox/cpustat.h"
#include "socbox/netdev.h"

/* One moment: CPU times, the netdev family's state (when it answers), /proc/net/dev. */
struct sample {
	uint64_t t_ns;
	struct sb_cpustat cpu;
	struct sb_nd_state nd;
	bool have_nd;
	struct sb_if_counters *ifc;
	size_t nifc;
};

/* One device's counters between two samples. */
struct rate {
	char name[IF_NAMESIZE];
	uint32_t ifindex;
	bool qstats;
	uint64_t rx_bytes, tx_bytes, rx_packets, tx_packets;
};

uint64_t dm_d64(uint64_t a, uint64_t b);
double dm_gbps(uint64_t bytes, double dt);
bool dm_cpu_selected(const unsigned *cpus, unsigned n, int cpu);
double dm_pool_recycle_delta(const struct sb_nd_pool_stats *a, const struct sb_nd_pool_stats *b);
void dm_top_print_kperf(const struct rate *r, size_t nr, const struct sample *a,
			const struct sample *b, double dt, const unsigned *cpus, unsigned ncpus);

#endif
