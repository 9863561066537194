// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

START_TEST(latency_columns_in_one_place)
{
	enum { L_NAME, L_STATS, L_NCOLS = L_STATS + SB_STATS_NCOLS };
	static const struct sb_col cols[L_NCOLS] = {
		[L_NAME] = { "NAME", SB_T_STR, 0, 0, "name", 0 },
		[L_STATS] = SB_STATS_COLS("MS", 2, 0),
	};
	struct sb_out_opts o = { .mode = SB_OUT_JSON };
	double v[] = { 4, 1, 3, 2 };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_row *row = sb_table_row(sb_out_table(out, "phases", NULL, cols, L_NCOLS, true));
	struct sb_stats st;

	sb_stats_compute(v, 4, &st);
	sb_row_str(row, L_NAME, "up");
	sb_row_stats(row, L_STATS, &st);
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	ck_assert_str_eq(buf, "{\"phases\":[{\"name\":\"up\",\"min_ms\":1,\"median_ms\":2.5,"
			      "\"p99_ms\":3.97,\"max_ms\":4,\"mean_ms\":2.5}]}\n");
	free(buf);
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
	tcase_add_test(tc, latency_columns_in_one_place);
	tcase_add_test(tc, empty_and_single);
	tcase_add_test(tc, histogram_buckets_double);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
