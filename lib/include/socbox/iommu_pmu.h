/* SPDX-License-Identifier: GPL-2.0-or-later */
/* perf_event_open without the perf tool: PMU discovery from
 * /sys/bus/event_source/devices/<pmu>/ (type, cpumask, identifier, events/, format/),
 * event terms ("event=0x02,filter_stream_id=0x42") encoded through the format fields, and
 * counting groups (all counters of one PMU opened under one leader, enabled and read
 * together: separate opens of SMMUv3 PMCG counters give bogus counts). */
#ifndef SOCBOX_PERF_H
#define SOCBOX_PERF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/sys.h"

#define SB_PERF_MAX_RANGES 4

struct sb_perf_format {
	char name[40]; /* "event", "filter_stream_id" */
	unsigned word; /* 0 config, 1 config1, 2 config2 */
	unsigned nranges;
	unsigned lo[SB_PERF_MAX_RANGES], hi[SB_PERF_MAX_RANGES];
};

struct sb_perf_evdef {
	char name[64];	 /* "transaction" */
	char terms[128]; /* "event=0x01" */
};

struct sb_pmu {
	char name[64];
	unsigned type;
	int cpu;	     /* first CPU of cpumask; -1 when the PMU has no cpumask */
	char identifier[32]; /* "0x0000043b", empty when absent */
	struct sb_perf_format *formats;
	size_t nformats;
	struct sb_perf_evdef *events;
	size_t nevents;
};

/* Parse a format file: "config:0-15", "config1:32", "config2:0-3,8-11". */
int sb_perf_parse_format(const char *name, const char *text, struct sb_perf_format *f);
/* First CPU of a cpumask/cpulist text ("0", "0-3", "2,4"); -1 when empty or malformed. */
int sb_perf_first_cpu(const char *text);
int sb_pmu_read(const struct sb_root *r, const char *name, struct sb_pmu *p, struct sb_err *e);
void sb_pmu_free(struct sb_pmu *p);
/* Names of event_source devices starting with prefix ("smmuv3_pmcg_"), natural order. */
int sb_pmu_list(const struct sb_root *r, const char *prefix, struct sb_dirlist *out);

/* Encode terms into config words. A term is a format field name (value, default 1), or
 * "config", "config1", "config2" (raw). An event name of the PMU may stand for its terms.
 * -EINVAL with e filled when a term or value is unknown. */
int sb_perf_encode(const struct sb_pmu *p, const char *terms, uint64_t cfg[3], struct sb_err *e);
/* Look up an event by name; NULL when absent. */
const struct sb_perf_evdef *sb_pmu_event(const struct sb_pmu *p, const char *name);

struct sb_perf_group {
	int *fds;
	uint64_t *ids;
	size_t n;
};

/* Open n counters as one group on cpu (pid -1: all tasks) or for pid (cpu -1), disabled;
 * cfg[i] are the config words. Errors name the PMU and the event index. */
int sb_perf_group_open(struct sb_perf_group *g, unsigned type, const uint64_t (*cfg)[3], size_t n,
		       int cpu, pid_t pid, struct sb_err *e);
int sb_perf_group_enable(struct sb_perf_group *g, struct sb_err *e);
/* values[i] for counter i; enabled/running in ns (multiplexing shows as running < enabled). */
int sb_perf_group_read(struct sb_perf_group *g, uint64_t *values, uint64_t *enabled,
		       uint64_t *running, struct sb_err *e);
void sb_perf_group_close(struct sb_perf_group *g);

#endif
