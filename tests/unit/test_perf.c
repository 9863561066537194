// SPDX-License-Identifier: GPL-2.0-or-later
/* PMU discovery (sysfs shaped like an SMMUv3 PMCG) and event encoding. Counting on a real
 * PMU is the host tier's job (tests/host/smmustat_pmu.sh). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_pmu.h"
#include "testutil.h"

static char *pmcg_tree(void)
{
	char *d = tu_tree_new();
	const char *p = "sys/devices/platform/arm-smmu-v3-pmcg.0.auto/smmuv3_pmcg_ff88840";
	char path[256];
	static const char *const ev[][2] = {
		{ "cycles", "event=0x00" },
		{ "transaction", "event=0x01" },
		{ "tlb_miss", "event=0x02" }
	};
	static const char *const fmt[][2] = {
		{ "event", "config:0-15" },
		{ "filter_stream_id", "config1:0-31" },
		{ "filter_span", "config1:32" },
		{ "filter_enable", "config1:33" }
	};

	tu_symlink(d, "sys/bus/event_source/devices/smmuv3_pmcg_ff88840",
		   "../../../devices/platform/arm-smmu-v3-pmcg.0.auto/smmuv3_pmcg_ff88840");
	tu_symlink(d, "sys/bus/event_source/devices/cpu", "../../../devices/cpu");
	tu_write(d, "sys/devices/cpu/type", "4\n", -1);
	snprintf(path, sizeof(path), "%s/type", p);
	tu_write(d, path, "11\n", -1);
	snprintf(path, sizeof(path), "%s/cpumask", p);
	tu_write(d, path, "2\n", -1);
	snprintf(path, sizeof(path), "%s/identifier", p);
	tu_write(d, path, "0x0000043b\n", -1);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/events/%s", p, ev[i][0]);
		tu_write(d, path, ev[i][1], -1);
	}
	snprintf(path, sizeof(path), "%s/events/cycles.scale", p);
	tu_write(d, path, "1\n", -1);
	for (size_t i = 0; i < 4; i++) {
		snprintf(path, sizeof(path), "%s/format/%s", p, fmt[i][0]);
		tu_write(d, path, fmt[i][1], -1);
	}
	snprintf(path, sizeof(path), "%s/format/broken", p);
	tu_write(d, path, "config7:zz", -1);
	return d;
}

START_TEST(format_parser)
{
	struct sb_perf_format f;

	ck_assert_int_eq(sb_perf_parse_format("event", "config:0-15\n", &f), 0);
	ck_assert_uint_eq(f.word, 0);
	ck_assert_uint_eq(f.lo[0], 0);
	ck_assert_uint_eq(f.hi[0], 15);
	ck_assert_int_eq(sb_perf_parse_format("filter_span", "config1:32", &f), 0);
	ck_assert_uint_eq(f.word, 1);
	ck_assert_uint_eq(f.lo[0], 32);
	ck_assert_uint_eq(f.hi[0], 32);
	ck_assert_int_eq(sb_perf_parse_format("split", "config2:0-3,8-11", &f), 0);
	ck_assert_uint_eq(f.nranges, 2);
	ck_assert_int_eq(sb_perf_parse_format("x", "config1:", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "config:5-2", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "config:0-64", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "config3:1", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "config:1-2 junk", &f), -EINVAL);
	ck_assert_int_eq(sb_perf_parse_format("x", "config:1,2,3,4,5", &f), -EINVAL);
}
END_TEST

START_TEST(first_cpu)
{
	ck_assert_int_eq(sb_perf_first_cpu("0\n"), 0);
	ck_assert_int_eq(sb_perf_first_cpu("2-5"), 2);
	ck_assert_int_eq(sb_perf_first_cpu("7,9"), 7);
	ck_assert_int_eq(sb_perf_first_cpu(""), -1);
	ck_assert_int_eq(sb_perf_first_cpu("x"), -1);
	ck_assert_int_eq(sb_perf_first_cpu("99999999"), -1);
}
END_TEST

START_TEST(discovery_and_encoding)
{
	char *d = pmcg_tree();
	struct sb_root *r;
	struct sb_dirlist dl;
	struct sb_pmu p;
	struct sb_err e;
	uint64_t cfg[3];

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_pmu_list(r, "smmuv3_pmcg_", &dl), 0);
	ck_assert_uint_eq(dl.n, 1);
	ck_assert_str_eq(dl.names[0], "smmuv3_pmcg_ff88840");
	ck_assert_int_eq(sb_pmu_read(r, dl.names[0], &p, &e), 0);
	ck_assert_uint_eq(p.type, 11);
	ck_assert_int_eq(p.cpu, 2);
	ck_assert_str_eq(p.identifier, "0x0000043b");
	ck_assert_uint_eq(p.nevents, 3);  /* cycles.scale is no event */
	ck_assert_uint_eq(p.nformats, 4); /* the broken format is left out */
	ck_assert_ptr_nonnull(sb_pmu_event(&p, "transaction"));
	ck_assert_int_eq(sb_perf_encode(&p, "tlb_miss", cfg, &e), 0);
	ck_assert_uint_eq(cfg[0], 2);
	ck_assert_int_eq(
		sb_perf_encode(&p, "transaction,filter_enable=1,filter_stream_id=0x42,filter_span=1",
			       cfg, &e),
		0);
	ck_assert_uint_eq(cfg[0], 1);
	ck_assert_uint_eq(cfg[1], 0x42ull | (1ull << 32) | (1ull << 33));
	ck_assert_int_eq(sb_perf_encode(&p, "event=0x80", cfg, &e), 0);
	ck_assert_uint_eq(cfg[0], 0x80);
	ck_assert_int_eq(sb_perf_encode(&p, "config=7,config1=9", cfg, &e), 0);
	ck_assert_uint_eq(cfg[0], 7);
	ck_assert_uint_eq(cfg[1], 9);
	ck_assert_int_eq(sb_perf_encode(&p, "no_such_event", cfg, &e), -EINVAL);
	ck_assert_int_eq(sb_perf_encode(&p, "filter_span=2", cfg, &e), -EINVAL); /* 1-bit field */
	ck_assert_int_eq(sb_perf_encode(&p, "event=zz", cfg, &e), -EINVAL);
	sb_pmu_free(&p);
	ck_assert_int_eq(sb_pmu_read(r, "smmuv3_pmcg_0", &p, &e), -ENOENT);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	sb_pmu_free(&p);
	sb_dirlist_free(&dl);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("perf");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, format_parser);
	tcase_add_test(tc, first_cpu);
	tcase_add_test(tc, discovery_and_encoding);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
