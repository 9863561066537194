// SPDX-License-Identifier: GPL-2.0-or-later
#include <math.h>

#include "socbox/stats.h"
#include "testutil.h"

START_TEST(summary_of_known_samples)
{
	double v[] = { 5, 1, 4, 2, 3 };
	struct sb_stats s;

	sb_stats_compute(v, 5, &s);
	ck_assert_uint_eq(s.n, 5);
	ck_assert_double_eq(s.min, 1);
	ck_assert_double_eq(s.max, 5);
	ck_assert_double_eq(s.median, 3);
	ck_assert_double_eq(s.mean, 3);
	ck_assert_double_eq_tol(s.stddev, sqrt(2.5), 1e-12);
	ck_assert_double_eq_tol(s.p99, 4.96, 1e-12);
}
END_TEST

START_TEST(empty_and_single)
{
	double one = 7;
	struct sb_stats s;

	sb_stats_compute(NULL, 0, &s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_double_eq(s.mean, 0);
	sb_stats_compute(&one, 1, &s);
	ck_assert_double_eq(s.p99, 7);
	ck_assert_double_eq(s.stddev, 0);
}
END_TEST

START_TEST(histogram_buckets_double)
{
	double v[] = { 0.5, 1, 1.5, 3, 100 };
	struct sb_hist h;

	sb_hist_build(v, 5, 1.0, &h);
	ck_assert_uint_eq(h.counts[0], 1); /* < 1 */
	ck_assert_uint_eq(h.counts[1], 2); /* [1,2) */
	ck_assert_uint_eq(h.counts[2], 1); /* [2,4) */
	ck_assert_uint_eq(h.counts[7], 1); /* [64,128) */
	ck_assert_int_eq(h.used, 8);
	ck_assert_double_eq(sb_hist_upper(&h, 2), 4);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, summary_of_known_samples);
	tcase_add_test(tc, empty_and_single);
	tcase_add_test(tc, histogram_buckets_double);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
