// SPDX-License-Identifier: GPL-2.0-or-later
/* --baseline reader: a real 'smmustat stress --json' run, and files it must refuse or must
 * not be fooled by (the old strstr reader took the first "label": anywhere). */
#include <errno.h>
#include <string.h>

#include "socbox/iommu_stress_baseline.h"
#include "socbox/macro.h"
#include "testutil.h"

static int parse(const char *text, struct sb_stress_baseline *b, struct sb_err *e)
{
	sb_err_clear(e);
	return sb_stress_baseline_parse(text, strlen(text), "t.json", b, e);
}

START_TEST(real_run_file)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_stress_baseline_load(tu_fixture("stress/baseline-sequential.json"), &b,
						 &e),
			 0);
	ck_assert_str_eq(b.label, "iommufd 4K sequential");
	ck_assert_str_eq(b.path, "iommufd+vfio");
	ck_assert_uint_eq(b.total, 1843210);
	ck_assert_uint_eq(b.avg, 921605);
	ck_assert_double_eq_tol(b.duration_s, 3.0012, 1e-9);
	ck_assert_uint_eq(b.cpus, 2);
	ck_assert_uint_eq(b.nruns, 3);
}
END_TEST

START_TEST(missing_file_is_errno)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_stress_baseline_load("/nonexistent/base.json", &b, &e), -ENOENT);
}
END_TEST

/* every prefix of a good file is refused, and with the usage exit code */
START_TEST(truncated_anywhere)
{
	static const char good[] =
		"{\"label\": \"a\\\"b\", \"cpus\": 1, \"duration_s\": 1.5, "
		"\"requests_total\": 10, \"requests_per_cpu_avg\": 10, "
		"\"runs\": [{\"run\": \"a\", \"diff_pct\": null}], \"notes\": [\"x\"]}";
	struct sb_stress_baseline b;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_stress_baseline_parse(good, strlen(good), "t", &b, &e), 0);
	ck_assert_str_eq(b.label, "a\"b");
	for (size_t n = 0; n < strlen(good); n++) {
		sb_err_clear(&e);
		ck_assert_msg(sb_stress_baseline_parse(good, n, "t", &b, &e) == -EINVAL,
			      "prefix of %zu accepted", n);
		ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_USAGE);
	}
}
END_TEST

/* keys of the same name nested in other values, or inside strings, are not the run's */
START_TEST(nested_look_alike_keys)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	ck_assert_int_eq(
		parse("{\"notes\": [\"\\\"label\\\": \\\"fake\\\", \\\"requests_total\\\": 99\"],"
		      " \"per_cpu\": [{\"label\": \"cpu0\", \"requests_total\": 5, \"duration_s\": 9}],"
		      " \"extra\": {\"runs\": 7, \"label\": \"nested\"},"
		      " \"label\": \"real\", \"duration_s\": 2, \"requests_total\": 40,"
		      " \"requests_per_cpu_avg\": 20, \"runs\": [{\"run\": \"real\", \"label\": \"x\"}]}",
		      &b, &e),
		0);
	ck_assert_str_eq(b.label, "real");
	ck_assert_uint_eq(b.total, 40);
	ck_assert_uint_eq(b.avg, 20);
	ck_assert_double_eq(b.duration_s, 2);
	/* the totals only nested: not a run */
	ck_assert_int_eq(parse("{\"per_cpu\": [{\"requests_total\": 5, \"requests_per_cpu_avg\": 5, \"duration_s\": 1}],"
			       " \"runs\": []}",
			       &b, &e),
			 -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.reason, "requests_total missing"));
}
END_TEST

START_TEST(label_falls_back_to_the_last_run)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	ck_assert_int_eq(
		parse("{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4,"
		      " \"runs\": [{\"run\": \"ref\"}, {\"run\": \"caf\\u00e9 \\ud83d\\ude00\"}]}",
		      &b, &e),
		0);
	ck_assert_str_eq(b.label, "caf\xc3\xa9 \xf0\x9f\x98\x80");
	ck_assert_uint_eq(b.nruns, 2);
}
END_TEST

START_TEST(broken_files)
{
	static const char *bad[] = {
		"",
		"[]",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4}", /* no runs */
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": {}}", /* not an array */
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [1]}",
		"{\"duration_s\": 0, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": null, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": -4, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": 4.5, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": \"4\", \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": 99999999999999999999, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": []} x",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [],}",
		"{\"duration_s\": 1 \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": []}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [], \"x\": tru}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [], \"x\": \"\\q\"}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [], \"x\": \"\\ud800\"}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [], \"x\": 01}",
		"{\"duration_s\": 1, \"requests_total\": 4, \"requests_per_cpu_avg\": 4, \"runs\": [], \"x\": [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	};
	struct sb_stress_baseline b;
	struct sb_err e;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert_msg(parse(bad[i], &b, &e) == -EINVAL, "accepted: %s", bad[i]);
		ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_USAGE);
		ck_assert_str_eq(e.object, "t.json");
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stress_baseline");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, real_run_file);
	tcase_add_test(tc, missing_file_is_errno);
	tcase_add_test(tc, truncated_anywhere);
	tcase_add_test(tc, nested_look_alike_keys);
	tcase_add_test(tc, label_falls_back_to_the_last_run);
	tcase_add_test(tc, broken_files);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
