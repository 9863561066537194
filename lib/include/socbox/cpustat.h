/* SPDX-License-Identifier: GPL-2.0-or-later */
/* CPU time from /proc/stat and per-CPU softirq counts from /proc/softirqs, and the
 * percentages kperf prints (usr, sys, idle, iow, irq, sirq) between two samples. */
#ifndef SOCBOX_CPUSTAT_H
#define SOCBOX_CPUSTAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

enum sb_cpu_field {
	SB_CPU_USER,
	SB_CPU_NICE,
	SB_CPU_SYSTEM,
	SB_CPU_IDLE,
	SB_CPU_IOWAIT,
	SB_CPU_IRQ,
	SB_CPU_SOFTIRQ,
	SB_CPU_STEAL,
	SB_CPU_GUEST,
	SB_CPU_GUEST_NICE,
	SB_CPU_NFIELDS
};

struct sb_cpu_times {
	int cpu;		    /* -1: the aggregate "cpu" line */
	uint64_t t[SB_CPU_NFIELDS]; /* USER_HZ ticks; absent columns are 0 */
	uint64_t net_rx, net_tx;    /* softirq counts from /proc/softirqs */
	bool have_softirqs;
};

struct sb_cpustat {
	struct sb_cpu_times all;
	struct sb_cpu_times *cpus; /* online CPUs in file order */
	size_t ncpus;
};

/* Parse the text of /proc/stat: the cpu and cpuN lines (3..10 numeric columns). -EINVAL when
 * there is no valid cpu line. Lines it does not know are skipped. */
int sb_cpustat_parse_stat(const char *text, struct sb_cpustat *st);
/* Add NET_RX and NET_TX of /proc/softirqs to the CPUs of st (matched by the CPUn header). */
int sb_cpustat_parse_softirqs(const char *text, struct sb_cpustat *st);
/* Read both files under root; softirqs are optional (have_softirqs tells). */
int sb_cpustat_read(const struct sb_root *root, struct sb_cpustat *st, struct sb_err *e);
void sb_cpustat_free(struct sb_cpustat *st);
const struct sb_cpu_times *sb_cpustat_find(const struct sb_cpustat *st, int cpu);

/* kperf's percentages between two samples of one CPU; usr includes nice, guest time is
 * already inside user. prev NULL: since boot. All zero when no time passed. */
struct sb_cpu_pct {
	double usr, sys, idle, iow, irq, sirq;
};
void sb_cpu_pct(const struct sb_cpu_times *prev, const struct sb_cpu_times *cur,
		struct sb_cpu_pct *p);

#endif
