// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/stat and /proc/softirqs parsers and kperf's percentages. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cpustat.h"
#include "socbox/sys.h"
#include "testutil.h"

static const char stat_6_18[] =
	"cpu  3410 12 2210 991230 310 0 441 0 0 0\n"
	"cpu0 1700 6 1100 495600 150 0 400 0 0 0\n"
	"cpu1 1710 6 1110 495630 160 0 41 0 0 0\n"
	"intr 1131512 9 0 0 0 0 0 0 0 0 0 0\n"
	"ctxt 2170042\n"
	"btime 1764669000\n"
	"processes 14523\n"
	"procs_running 2\n"
	"procs_blocked 0\n"
	"softirq 361412 0 79707 4 14725 0 0 1 147100 0 119875\n";

static const char softirqs_2cpu[] =
	"                    CPU0       CPU1       \n"
	"          HI:          0          0\n"
	"       TIMER:      36191      43516\n"
	"      NET_TX:          4          0\n"
	"      NET_RX:       6851       7874\n"
	"       BLOCK:       7030       7695\n";

START_TEST(stat_real)
{
	struct sb_cpustat st;
	const struct sb_cpu_times *c1;

	ck_assert_int_eq(sb_cpustat_parse_stat(stat_6_18, &st), 0);
	ck_assert_int_eq(st.all.cpu, -1);
	ck_assert_uint_eq(st.all.t[SB_CPU_IDLE], 991230);
	ck_assert_uint_eq(st.ncpus, 2);
	c1 = sb_cpustat_find(&st, 1);
	ck_assert_ptr_nonnull(c1);
	ck_assert_uint_eq(c1->t[SB_CPU_SOFTIRQ], 41);
	ck_assert_ptr_null(sb_cpustat_find(&st, 2));
	ck_assert_int_eq(sb_cpustat_parse_softirqs(softirqs_2cpu, &st), 0);
	ck_assert_uint_eq(sb_cpustat_find(&st, 0)->net_rx, 6851);
	ck_assert_uint_eq(c1->net_rx, 7874);
	ck_assert_uint_eq(sb_cpustat_find(&st, 0)->net_tx, 4);
	ck_assert_uint_eq(st.all.net_rx, 6851 + 7874);
	sb_cpustat_free(&st);
}
END_TEST

START_TEST(stat_old_and_offline)
{
	/* A 2.6-era file with 7 columns, CPU 1 offline (no line), CPU 3 present. */
	static const char old[] =
		"cpu  10 0 10 80 0 0 0\ncpu0 5 0 5 40 0 0 0\ncpu3 5 0 5 40 0 0 0\n";
	static const char sirq[] = "   CPU0   CPU3\n NET_RX: 5 9\n";
	struct sb_cpustat st;

	ck_assert_int_eq(sb_cpustat_parse_stat(old, &st), 0);
	ck_assert_uint_eq(st.ncpus, 2);
	ck_assert_int_eq(st.cpus[1].cpu, 3);
	ck_assert_uint_eq(st.cpus[1].t[SB_CPU_STEAL], 0);
	ck_assert_int_eq(sb_cpustat_parse_softirqs(sirq, &st), 0);
	ck_assert_uint_eq(sb_cpustat_find(&st, 3)->net_rx, 9);
	sb_cpustat_free(&st);
}
END_TEST

START_TEST(stat_broken)
{
	struct sb_cpustat st;
	char *huge;
	size_t off = 0;

	ck_assert_int_eq(sb_cpustat_parse_stat("", &st), -EINVAL);
	ck_assert_int_eq(sb_cpustat_parse_stat("intr 1 2 3\nctxt 5\n", &st), -EINVAL);
	ck_assert_int_eq(sb_cpustat_parse_stat("cpu  1 2\n", &st), -EINVAL);	 /* truncated */
	ck_assert_int_eq(sb_cpustat_parse_stat("cpu  1 2 x 4\n", &st), -EINVAL); /* garbage */
	ck_assert_int_eq(sb_cpustat_parse_stat("cpu  \xff\xfe 1 2 3\n", &st), -EINVAL);
	/* A broken per-CPU line is skipped, the rest stays. */
	ck_assert_int_eq(sb_cpustat_parse_stat("cpu  1 2 3 4\ncpuX 1 2 3 4\ncpu7 1 2 3 4\ncpu8 1",
					       &st),
			 0);
	ck_assert_uint_eq(st.ncpus, 1);
	ck_assert_int_eq(st.cpus[0].cpu, 7);
	sb_cpustat_free(&st);
	/* 4096 CPUs. */
	huge = malloc(4097 * 64);
	off += (size_t)sprintf(huge, "cpu  1 2 3 4 5 6 7 8 9 10\n");
	for (int i = 0; i < 4096; i++)
		off += (size_t)sprintf(huge + off, "cpu%d %d 0 1 2 3 4 5 6 7 8\n", i, i);
	ck_assert_int_eq(sb_cpustat_parse_stat(huge, &st), 0);
	ck_assert_uint_eq(st.ncpus, 4096);
	ck_assert_uint_eq(sb_cpustat_find(&st, 4095)->t[SB_CPU_USER], 4095);
	sb_cpustat_free(&st);
	free(huge);
}
END_TEST

START_TEST(softirqs_broken)
{
	struct sb_cpustat st;

	ck_assert_int_eq(sb_cpustat_parse_stat(stat_6_18, &st), 0);
	ck_assert_int_eq(sb_cpustat_parse_softirqs("", &st), -EINVAL);
	ck_assert_int_eq(sb_cpustat_parse_softirqs("garbage\n NET_RX: 1 2\n", &st), -EINVAL);
	ck_assert_int_eq(sb_cpustat_parse_softirqs("  CPU0 CPU1\n HI: 0 0\n", &st), -EINVAL);
	/* A row shorter than the header: what is there counts. */
	ck_assert_int_eq(sb_cpustat_parse_softirqs("  CPU0 CPU1\n NET_RX: 42\n", &st), 0);
	ck_assert_uint_eq(sb_cpustat_find(&st, 0)->net_rx, 42);
	ck_assert(!sb_cpustat_find(&st, 1)->have_softirqs);
	sb_cpustat_free(&st);
}
END_TEST

START_TEST(percentages)
{
	struct sb_cpu_times a = { .cpu = 2 }, b = { .cpu = 2 };
	struct sb_cpu_pct p;

	/* 100 ticks: 10 user + 5 nice, 20 sys, 40 idle, 5 iow, 5 irq, 15 sirq; guest 8 is inside user. */
	b.t[SB_CPU_USER] = 10;
	b.t[SB_CPU_NICE] = 5;
	b.t[SB_CPU_SYSTEM] = 20;
	b.t[SB_CPU_IDLE] = 40;
	b.t[SB_CPU_IOWAIT] = 5;
	b.t[SB_CPU_IRQ] = 5;
	b.t[SB_CPU_SOFTIRQ] = 15;
	b.t[SB_CPU_GUEST] = 8;
	sb_cpu_pct(&a, &b, &p);
	ck_assert_double_eq_tol(p.usr, 15.0, 1e-9);
	ck_assert_double_eq_tol(p.sys, 20.0, 1e-9);
	ck_assert_double_eq_tol(p.idle, 40.0, 1e-9);
	ck_assert_double_eq_tol(p.iow, 5.0, 1e-9);
	ck_assert_double_eq_tol(p.irq, 5.0, 1e-9);
	ck_assert_double_eq_tol(p.sirq, 15.0, 1e-9);
	/* iowait going backwards counts as none; nothing elapsed gives zeros. */
	a.t[SB_CPU_IOWAIT] = 50;
	sb_cpu_pct(&a, &b, &p);
	ck_assert_double_eq_tol(p.iow, 0.0, 1e-9);
	sb_cpu_pct(&b, &b, &p);
	ck_assert_double_eq_tol(p.idle, 0.0, 1e-9);
	/* Since boot. */
	sb_cpu_pct(NULL, &b, &p);
	ck_assert_double_eq_tol(p.sys, 20.0, 1e-9);
}
END_TEST

START_TEST(read_from_sysroot)
{
	char *dir = tu_tree_new();
	struct sb_root *root;
	struct sb_cpustat st;
	struct sb_err e;

	tu_write(dir, "proc/stat", stat_6_18, -1);
	tu_write(dir, "proc/softirqs", softirqs_2cpu, -1);
	ck_assert_int_eq(sb_root_open(&root, dir, &e), 0);
	ck_assert_int_eq(sb_cpustat_read(root, &st, &e), 0);
	ck_assert(st.cpus[0].have_softirqs);
	sb_cpustat_free(&st);
	sb_root_close(root);
	tu_write(dir, "proc/stat", "nonsense\n", -1);
	ck_assert_int_eq(sb_root_open(&root, dir, &e), 0);
	ck_assert_int_eq(sb_cpustat_read(root, &st, &e), -EINVAL);
	ck_assert_str_eq(e.object, "/proc/stat");
	sb_root_close(root);
	tu_tree_free(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("cpustat");
	TCase *t = tcase_create("core");

	tcase_add_test(t, stat_real);
	tcase_add_test(t, stat_old_and_offline);
	tcase_add_test(t, stat_broken);
	tcase_add_test(t, softirqs_broken);
	tcase_add_test(t, percentages);
	tcase_add_test(t, read_from_sysroot);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
