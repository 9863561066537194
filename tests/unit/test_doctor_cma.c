// SPDX-License-Identifier: GPL-2.0-or-later
/* CMA fragmentation from the kernel log alone (lib/doctor/cause_cma.c): the free runs
 * mm/cma.c cma_debug_show_areas() prints after a failed allocation, as 6.1 (one record) and
 * 7.2 (a record per range, the total a record of its own) store them, and logs that are cut
 * short or lie. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/dmabufinfo.h"
#include "socbox/doctor.h"
#include "testutil.h"

/* the fragmented causes a log gives on a board without CMA files */
static size_t run(const char *log, struct sb_doctor_report *rep)
{
	struct sb_dmabuf_allocators a = { 0 };
	struct doctor_board b;
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();

	tu_write(dir, "proc/version", "Linux version 7.2.13\n", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	memset(&b, 0, sizeof(b));
	memset(rep, 0, sizeof(*rep));
	b.root = r;
	b.rep = rep;
	doctor_log_load_text(&b, log);
	doctor_causes_cma(&b, &a);
	sb_kmsg_free(&b.log);
	free(b.log_count);
	free(b.log_first);
	free(b.evgroups);
	sb_root_close(r);
	tu_tree_free(dir);
	return rep->ncauses;
}

START_TEST(free_runs_of_61_and_72)
{
	struct sb_doctor_report rep;

	ck_assert_uint_eq(run("3,1,10,-;cma: cma_alloc: linux,cma: alloc failed, req-size: 2048 "
			      "pages, ret: -12\n"
			      "6,2,11,-;cma: number of available pages: 768@0+768@1024+1000@3000=> "
			      "2536 free of 8192 total pages\n",
			      &rep),
			  1);
	ck_assert_str_eq(rep.causes[0].def->code, "dmabuf.cma-fragmented");
	ck_assert_str_eq(rep.causes[0].object, "linux,cma");
	ck_assert_str_eq(rep.causes[0].diagnosis,
			 "CMA area linux,cma: a request for 2048 pages failed with 2536 of 8192 "
			 "pages free, the longest free run 1000 pages: the area is fragmented");
	sb_doctor_report_free(&rep);

	/* 7.2: '+' before a first run that is not at bit 0, two ranges, records between */
	ck_assert_uint_eq(run("3,1,10,-;cma: __cma_alloc_frozen: reserved: alloc failed, "
			      "req-size: 512 pages, ret: -16\n"
			      "6,2,11,-;cma: number of available pages: \n"
			      "6,3,11,-;cma: range 0: +100@5+300@200\n"
			      "3,4,11,-;mmcblk0: error -110 transferring data\n"
			      "6,5,11,-;cma: range 1: 400@0\n"
			      "6,6,12,-;cma: \n"
			      "4,7,12,c;=> 800 free of 4096 total pages\n",
			      &rep),
			  1);
	ck_assert_str_eq(rep.causes[0].object, "reserved");
	ck_assert_ptr_nonnull(strstr(rep.causes[0].diagnosis, "the longest free run 400 pages"));
	ck_assert_str_eq(rep.causes[0].evidence,
			 "kernel log: cma: __cma_alloc_frozen: reserved: alloc failed, req-size: "
			 "512 pages, ret: -16; => 800 free of 4096 total pages");
	sb_doctor_report_free(&rep);
}
END_TEST

START_TEST(not_fragmentation)
{
	static const char *const logs[] = {
		/* too little free: exhaustion, another cause */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@0+768@1024=> 1536 free of 8192 "
		"total pages\n",
		/* a run long enough: the failure was something else (busy pages, alignment) */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 512 pages, ret: -16\n"
		"6,2,11,-;cma: number of available pages: 768@0+768@1024=> 1536 free of 8192 "
		"total pages\n",
		/* cut short: no total */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@0+768@1024+76\n",
		/* runs that are not runs */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@x+768@1024=> 6144 free of 8192 "
		"total pages\n",
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@+768@1024=> 6144 free of 8192 "
		"total pages\n",
		/* a total without runs */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"4,2,11,c;=> 6144 free of 8192 total pages\n",
		/* the runs belong to the next failure */
		"3,1,10,-;cma: cma_alloc: a: alloc failed, req-size: 2048 pages, ret: -12\n"
		"3,2,10,-;cma: cma_alloc: b: alloc failed, req-size: 8 pages, ret: -12\n"
		"6,3,11,-;cma: number of available pages: 768@0=> 768 free of 8192 total "
		"pages\n",
		/* no area name */
		"3,1,10,-;cma: alloc failed, req-size: 2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@0=> 6144 free of 8192 total "
		"pages\n",
	};
	struct sb_doctor_report rep;

	for (size_t i = 0; i < sizeof(logs) / sizeof(logs[0]); i++) {
		ck_assert_msg(run(logs[i], &rep) == 0, "log %zu named a cause", i);
		sb_doctor_report_free(&rep);
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_cma");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, free_runs_of_61_and_72);
	tcase_add_test(tc, not_fragmentation);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
