/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Clocks and summary statistics for benchmarks and latency measurements. */
#ifndef SOCBOX_STATS_H
#define SOCBOX_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "socbox/out.h"

static inline uint64_t sb_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

struct sb_stats {
	size_t n;
	double min, max, mean, stddev, median, p99, sum;
};

/* Summary of n samples; sorts v in place. n == 0 gives all zeros. */
void sb_stats_compute(double *v, size_t n, struct sb_stats *s);
/* Percentile (0..100) of sorted samples, linear interpolation. */
double sb_percentile_sorted(const double *v, size_t n, double pct);

/* The summary columns of a latency table, defined once for every view that has them:
 * MIN_<unit>, MEDIAN_<unit>, P99_<unit>, MAX_<unit> and MEAN_<unit>, in this order, with prec
 * digits and flags added to SB_COL_RIGHT (SB_COL_METRIC). Put them at index first of the
 * column table ("[first] = SB_STATS_COLS(...)") and fill them with sb_row_stats(). */
#define SB_STATS_COLS(unit, prec, flags) \
	{ "MIN_" unit, SB_T_DBL, 0, SB_COL_RIGHT | (flags), "fastest", prec }, \
		{ "MEDIAN_" unit, SB_T_DBL, 0, SB_COL_RIGHT | (flags), "median", prec }, \
		{ "P99_" unit, SB_T_DBL, 0, SB_COL_RIGHT | (flags), "99th percentile", prec }, \
		{ "MAX_" unit, SB_T_DBL, 0, SB_COL_RIGHT | (flags), "slowest", prec }, \
	{ \
		"MEAN_" unit, SB_T_DBL, 0, SB_COL_RIGHT | (flags), "mean", prec \
	}
#define SB_STATS_NCOLS 5
void sb_row_stats(struct sb_row *row, int first, const struct sb_stats *s);

/* Histogram with power-of-two bucket bounds: bucket i counts samples in
 * [base*2^(i-1), base*2^i), bucket 0 everything below base. */
#define SB_HIST_BUCKETS 24
struct sb_hist {
	double base;
	size_t counts[SB_HIST_BUCKETS];
	int used; /* index of the last non-empty bucket + 1 */
};
void sb_hist_build(const double *v, size_t n, double base, struct sb_hist *h);
double sb_hist_upper(const struct sb_hist *h, int i);

#endif
