/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading back an earlier 'smmustat stress --json' run for --baseline. The reader knows the
 * exact shape smmustat writes: one object whose top-level keys describe the run (label,
 * path, cpus, duration_s, requests_total, requests_per_cpu_avg) and a "runs" array of
 * objects (run, total_requests, avg_per_cpu, ...). It parses real JSON, so keys nested in
 * other values or inside strings never match, and a truncated or malformed file is an
 * error that names the byte offset. */
#ifndef SOCBOX_STRESS_BASELINE_H
#define SOCBOX_STRESS_BASELINE_H

#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"

struct sb_stress_baseline {
	char label[64];	   /* "label", else the last run's "run", else empty */
	char path[32];	   /* "path"; empty when absent */
	uint64_t total;	   /* "requests_total" */
	uint64_t avg;	   /* "requests_per_cpu_avg" */
	double duration_s; /* "duration_s", > 0 */
	unsigned cpus;	   /* "cpus"; 0 when absent */
	size_t nruns;	   /* rows of "runs" */
};

/* Parse len bytes of text; name is the object of errors (the file name). EINVAL with
 * SB_EXIT_USAGE on anything that is not such a run. */
int sb_stress_baseline_parse(const char *text, size_t len, const char *name,
			     struct sb_stress_baseline *b, struct sb_err *e);
/* Read and parse a file. */
int sb_stress_baseline_load(const char *file, struct sb_stress_baseline *b, struct sb_err *e);

#endif
