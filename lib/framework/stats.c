// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void sb_row_stats(struct sb_row *row, int first, const struct sb_stats *s)
{
	sb_row_dbl(row, first, s->min);
	sb_row_dbl(row, first + 1, s->median);
	sb_row_dbl(row, first + 2, s->p99);
	sb_row_dbl(row, first + 3, s->max);
	sb_row_dbl(row, first + 4, s->mean);
}

double sb_percentile_sorted(const double *v, size_t n, double pct)
{
	double pos, frac;
	size_t i;

	if (n == 0)
		return 0;
	if (pct <= 0)
		return v[0];
	if (pct >= 100)
		return v[n - 1];
	pos = pct / 100.0 * (double)(n - 1);
	i = (size_t)pos;
	frac = pos - (double)i;
	if (i + 1 >= n)
		return v[n - 1];
	return v[i] + (v[i + 1] - v[i]) * frac;
}

void sb_stats_compute(double *v, size_t n, struct sb_stats *s)
{
	double sum = 0, sq = 0;

	memset(s, 0, sizeof(*s));
	if (n == 0)
		return;
	qsort(v, n, sizeof(*v), cmp_double);
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	s->n = n;
	s->sum = sum;
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++)
		sq += (v[i] - s->mean) * (v[i] - s->mean);
	s->stddev = n > 1 ? sqrt(sq / (double)(n - 1)) : 0;
	s->min = v[0];
	s->max = v[n - 1];
	s->median = sb_percentile_sorted(v, n, 50);
	s->p99 = sb_percentile_sorted(v, n, 99);
}

void sb_hist_build(const double *v, size_t n, double base, struct sb_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->base = base > 0 ? base : 1;
	for (size_t i = 0; i < n; i++) {
		int b = 0;
		double bound = h->base;
		while (v[i] >= bound && b < SB_HIST_BUCKETS - 1) {
			bound *= 2;
			b++;
		}
		h->counts[b]++;
		if (b + 1 > h->used)
			h->used = b + 1;
	}
}

double sb_hist_upper(const struct sb_hist *h, int i)
{
	return h->base * (double)(1ull << i); /* i < SB_HIST_BUCKETS (24) */
}
