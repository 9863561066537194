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

/* the fragmented causes a log gives on a board whose area linux,cma has debugfs files with
 * that maxchunk (NULL: no CMA files) */
static size_t run_now(const char *log, const char *maxchunk, struct sb_doctor_report *rep)
{
	struct sb_dmabuf_allocators a = { 0 };
	struct doctor_board b;
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();

	tu_write(dir, "proc/version", "Linux version 7.2.13\n", -1);
	if (maxchunk) {
		tu_write(dir, "sys/kernel/debug/cma/linux,cma/count", "8192\n", -1);
		tu_write(dir, "sys/kernel/debug/cma/linux,cma/used", "2048\n", -1);
		tu_write(dir, "sys/kernel/debug/cma/linux,cma/maxchunk", maxchunk, -1);
	}
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

static size_t run(const char *log, struct sb_doctor_report *rep)
{
	return run_now(log, NULL, rep);
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

/* the area has a run long enough again (what split it was given back): the record is
 * answered; still too short, the cause stays */
START_TEST(answered_once_it_fits_again)
{
	static const char log[] =
		"3,1,10,-;cma: cma_alloc: linux,cma: alloc failed, req-size: "
		"2048 pages, ret: -12\n"
		"6,2,11,-;cma: number of available pages: 768@0+768@1024+1000@"
		"3000=> 2536 free of 8192 total pages\n";
	struct sb_doctor_report rep;

	ck_assert_uint_eq(run_now(log, "6144\n", &rep), 0);
	sb_doctor_report_free(&rep);
	ck_assert_uint_eq(run_now(log, "2048\n", &rep), 0);
	sb_doctor_report_free(&rep);
	ck_assert_uint_eq(run_now(log, "2047\n", &rep), 1);
	ck_assert_str_eq(rep.causes[0].def->code, "dmabuf.cma-fragmented");
	ck_assert_str_eq(rep.causes[0].object, "linux,cma");
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

/* A reservation that failed at boot is a cause, the root of a chain: the CMA heap that
 * could not be made (while another heap shows the framework is there) and the causes whose
 * evidence is a contiguous allocation that failed follow it. */
static void reserve_run(const char *log, const char *cmdline, size_t nheaps,
			struct sb_doctor_report *rep, struct sb_cause *follower)
{
	struct sb_dmabuf_allocator heaps[1] = { { .name = "system" } };
	struct sb_dmabuf_allocators a = { .v = heaps, .n = nheaps, .nheaps = nheaps };
	struct doctor_board b;
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();
	struct sb_cause *c;

	tu_write(dir, "proc/version", "Linux version 6.1.0\n", -1);
	tu_write(dir, "proc/meminfo", "MemTotal:        2048000 kB\nCmaTotal:              0 kB\n",
		 -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	memset(&b, 0, sizeof(b));
	memset(rep, 0, sizeof(*rep));
	b.root = r;
	b.rep = rep;
	b.cmdline = cmdline ? strdup(cmdline) : NULL;
	doctor_log_load_text(&b, log);
	if (follower) { /* a cause another detector named */
		c = doctor_cause(&b, follower->def->code, follower->sub, follower->object);
		ck_assert_ptr_nonnull(c);
		snprintf(c->evidence, sizeof(c->evidence), "%s", follower->evidence);
	}
	doctor_causes_cma(&b, &a);
	doctor_causes_cma_follow(&b);
	free(b.cmdline);
	sb_kmsg_free(&b.log);
	free(b.log_count);
	free(b.log_first);
	free(b.evgroups);
	sb_root_close(r);
	tu_tree_free(dir);
}

static const struct sb_cause *find(const struct sb_doctor_report *rep, const char *code)
{
	for (size_t i = 0; i < rep->ncauses; i++)
		if (!strcmp(rep->causes[i].def->code, code))
			return &rep->causes[i];
	return NULL;
}

START_TEST(a_failed_reservation_is_the_root_of_a_chain)
{
	static const char log[] = "6,0,0,-;Booting Linux on physical CPU 0x0000000000\n"
				  "3,14,0,-;cma: Failed to reserve 512 MiB\n";
	struct sb_cause boot = {
		.def = sb_cause_find("rpmsg.boot-failed"),
		.sub = SB_DOCTOR_RPMSG,
		.object = "remoteproc0",
		.evidence = "kernel log: k3-m4-rproc 5000000.m4fss: failed to "
			    "allocate dma memory: len 0x1000000"
	};
	struct sb_cause other = {
		.def = sb_cause_find("rpmsg.boot-failed"),
		.sub = SB_DOCTOR_RPMSG,
		.object = "remoteproc1",
		.evidence = "kernel log: remoteproc remoteproc1: Boot failed: -2"
	};
	struct sb_doctor_report rep;
	const struct sb_cause *root, *heap, *f;

	reserve_run(log, "console=ttyS2 cma=512M", 1, &rep, &boot);
	ck_assert_uint_eq(rep.ncauses, 3);
	root = find(&rep, "dmabuf.cma-reserve-failed");
	ck_assert_ptr_nonnull(root);
	ck_assert_str_eq(root->object, "cma");
	ck_assert_str_eq(root->diagnosis,
			 "the CMA area of cma=512M could not be reserved at boot (\"Failed to "
			 "reserve 512 MiB\"): there is no CMA area, no CMA heap, and contiguous "
			 "allocations get only what the page allocator finds");
	ck_assert_str_eq(root->follows, "");
	heap = find(&rep, "dmabuf.cma-no-heap");
	ck_assert_ptr_nonnull(heap);
	ck_assert_str_eq(heap->object, "reserved");
	ck_assert_str_eq(heap->follows, "dmabuf.cma-reserve-failed\tcma");
	f = find(&rep, "rpmsg.boot-failed");
	ck_assert_str_eq(f->follows, "dmabuf.cma-reserve-failed\tcma");
	sb_doctor_report_free(&rep);

	/* a failure of something else does not follow it; without another heap the framework
	 * is not there and no CMA heap is missing; without cma= the area is the default one */
	reserve_run(log, NULL, 0, &rep, &other);
	ck_assert_uint_eq(rep.ncauses, 2);
	ck_assert_ptr_null(find(&rep, "dmabuf.cma-no-heap"));
	ck_assert_str_eq(find(&rep, "rpmsg.boot-failed")->follows, "");
	ck_assert_ptr_nonnull(strstr(find(&rep, "dmabuf.cma-reserve-failed")->diagnosis,
				     "the CMA area \"reserved\" could not be reserved"));
	sb_doctor_report_free(&rep);

	/* no failed reservation: nothing, and nothing follows */
	reserve_run("6,1,0,-;cma: Reserved 256 MiB at 0x00000000f0000000\n", NULL, 1, &rep, &boot);
	ck_assert_uint_eq(rep.ncauses, 1);
	ck_assert_str_eq(rep.causes[0].follows, "");
	sb_doctor_report_free(&rep);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_cma");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, free_runs_of_61_and_72);
	tcase_add_test(tc, not_fragmentation);
	tcase_add_test(tc, answered_once_it_fits_again);
	tcase_add_test(tc, a_failed_reservation_is_the_root_of_a_chain);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
