// SPDX-License-Identifier: GPL-2.0-or-later
/* CMA areas: the debugfs bitmap as fs/debugfs/file.c prints it, the largest free run, the
 * 6.1 and 7.2 debugfs layouts, sysfs and /proc/meminfo, and files cut short or hostile. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cma.h"
#include "testutil.h"

START_TEST(bitmap_as_debugfs_prints_it)
{
	uint32_t *w;
	size_t n;

	ck_assert_int_eq(sb_cma_bitmap_parse("4294967295 0 15\n", &w, &n), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(w[0], UINT32_MAX);
	ck_assert_uint_eq(w[1], 0);
	ck_assert_uint_eq(w[2], 15);
	free(w);
}
END_TEST

START_TEST(bitmap_hostile_or_cut_short)
{
	static const char *const bad[] = {
		"",		/* empty */
		"1 2",		/* no newline: the read stopped early */
		"1 2 ",		/* cut after a separator */
		"1  2\n",	/* two spaces */
		"-1\n",		/* a sign */
		"4294967296\n", /* over u32 */
		"99999999999999999999999\n",
		"1\n2\n", /* text after the last word */
		"12a\n",  /* a stray character */
		"\n",	  /* no word */
		"0x10\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		uint32_t *w = (uint32_t *)1;
		size_t n = 7;

		ck_assert_msg(sb_cma_bitmap_parse(bad[i], &w, &n) == -EINVAL, "accepted '%s'",
			      bad[i]);
		ck_assert_ptr_null(w);
		ck_assert_uint_eq(n, 0);
	}
}
END_TEST

START_TEST(largest_run_across_words)
{
	/* bits 0-15 and 36-39 set: free runs 16..35 (20) and 40..63 (24) */
	const uint32_t w[] = { 0xffff, 0xf0 };
	uint64_t lo, set;

	ck_assert_int_eq(sb_cma_bitmap_scan(w, 2, 64, &lo, &set), 0);
	ck_assert_uint_eq(lo, 24);
	ck_assert_uint_eq(set, 20);
	/* 40 bits: the area ends at bit 39, the padding after it is not free memory */
	ck_assert_int_eq(sb_cma_bitmap_scan(w, 2, 40, &lo, &set), 0);
	ck_assert_uint_eq(lo, 20);
	/* the kernel's n_elements is DIV_ROUND_UP(bits, 32): anything else is another area */
	ck_assert_int_eq(sb_cma_bitmap_scan(w, 2, 65, &lo, &set), -EINVAL);
	ck_assert_int_eq(sb_cma_bitmap_scan(w, 2, 32, &lo, &set), -EINVAL);
	/* all used, all free */
	const uint32_t full[] = { UINT32_MAX }, none[] = { 0 };

	ck_assert_int_eq(sb_cma_bitmap_scan(full, 1, 32, &lo, &set), 0);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(set, 32);
	ck_assert_int_eq(sb_cma_bitmap_scan(none, 1, 7, &lo, &set), 0);
	ck_assert_uint_eq(lo, 7);
	ck_assert_uint_eq(set, 0);
}
END_TEST

START_TEST(meminfo_cma_lines)
{
	uint64_t t = 0, f = 0;

	ck_assert_int_eq(sb_cma_meminfo_parse("MemTotal:        4015720 kB\n"
					      "CmaTotal:         524288 kB\n"
					      "CmaFree:          498372 kB\n",
					      &t, &f),
			 0);
	ck_assert_uint_eq(t, 524288ull * 1024);
	ck_assert_uint_eq(f, 498372ull * 1024);
	ck_assert_int_eq(sb_cma_meminfo_parse("MemTotal:        4015720 kB\n", &t, &f), -ENOENT);
	ck_assert_int_eq(sb_cma_meminfo_parse("CmaTotal:  x kB\nCmaFree: 1 kB\n", &t, &f), -EINVAL);
	ck_assert_int_eq(sb_cma_meminfo_parse("CmaTotal: 99999999999999999999 kB\n", &t, &f),
			 -EINVAL);
	ck_assert_int_eq(sb_cma_meminfo_parse("CmaTotal: 4 MB\nCmaFree: 1 kB\n", &t, &f), -EINVAL);
	/* "CmaTotalX" is not CmaTotal */
	ck_assert_int_eq(sb_cma_meminfo_parse("CmaTotalX: 4 kB\nCmaFree: 1 kB\n", &t, &f), -ENOENT);
}
END_TEST

static struct sb_root *open_tree(const char *dir)
{
	struct sb_root *r;
	struct sb_err e;

	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	return r;
}

/* 6.1: one bitmap beside count, used, maxchunk; 7.2: a bitmap per range under ranges/N and
 * sysfs total_pages/available_pages */
START_TEST(areas_of_61_and_72)
{
	char *dir = tu_tree_new();
	struct sb_cma_areas a;
	struct sb_root *r;
	uint64_t b;

	tu_write(dir, "sys/kernel/debug/cma/linux,cma/count", "64\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/linux,cma/used", "20\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/linux,cma/maxchunk", "24\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/linux,cma/order_per_bit", "0\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/linux,cma/base_pfn", "589824\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/linux,cma/bitmap", "65535 240\n", -1);
	tu_write(dir, "sys/kernel/mm/cma/linux,cma/alloc_pages_fail", "8\n", -1);
	/* 96 pages at order_per_bit 1: 48 bits, 32 in range 0 and 16 in range 1 */
	tu_write(dir, "sys/kernel/debug/cma/reserved/count", "96\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/reserved/order_per_bit", "1\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/reserved/ranges/0/bitmap", "1\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/reserved/ranges/1/bitmap", "0\n", -1);
	tu_write(dir, "sys/kernel/mm/cma/reserved/total_pages", "96\n", -1);
	tu_write(dir, "sys/kernel/mm/cma/reserved/available_pages", "94\n", -1);
	tu_write(dir, "proc/meminfo", "CmaTotal:            640 kB\nCmaFree:             472 kB\n",
		 -1);
	r = open_tree(dir);
	ck_assert_int_eq(sb_cma_areas_read(r, &a, NULL), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_uint_eq(a.page_size, 4096);
	ck_assert_str_eq(a.v[0].name, "linux,cma");
	ck_assert(a.v[0].have_total && a.v[0].have_used && a.v[0].have_largest);
	ck_assert_uint_eq(a.v[0].total_pages, 64);
	ck_assert_uint_eq(a.v[0].used_pages, 20);
	ck_assert_uint_eq(a.v[0].largest_free_pages, 24);
	ck_assert(a.v[0].have_bitmap);
	ck_assert_uint_eq(a.v[0].bitmap_largest_pages, 24);
	ck_assert_uint_eq(a.v[0].bitmap_used_pages, 20);
	ck_assert(a.v[0].have_fail);
	ck_assert_uint_eq(a.v[0].alloc_pages_fail, 8);
	ck_assert(sb_cma_bytes(&a, a.v[0].largest_free_pages, &b));
	ck_assert_uint_eq(b, 24 * 4096);

	ck_assert_str_eq(a.v[1].name, "reserved");
	ck_assert(!a.v[1].have_maxchunk && a.v[1].have_bitmap && a.v[1].have_largest);
	ck_assert_uint_eq(a.v[1].largest_free_pages, 62); /* 31 bits of 2 pages */
	ck_assert_uint_eq(a.v[1].used_pages, 2);	  /* the bitmap agrees with sysfs */
	ck_assert_uint_eq(a.v[1].total_pages, 96);
	ck_assert(a.v[1].debugfs && a.v[1].sysfs);
	sb_cma_areas_free(&a);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(area_files_hostile_or_cut_short)
{
	char *dir = tu_tree_new();
	struct sb_cma_areas a;
	struct sb_root *r;

	/* a bitmap cut short (no newline, one word of two): maxchunk still answers */
	tu_write(dir, "sys/kernel/debug/cma/cut/count", "64\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/cut/maxchunk", "24\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/cut/order_per_bit", "0\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/cut/bitmap", "65535", -1);
	/* a bitmap of another size than count says, and no maxchunk: nothing is made up */
	tu_write(dir, "sys/kernel/debug/cma/lies/count", "640\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/lies/order_per_bit", "0\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/lies/bitmap", "0 0\n", -1);
	/* an order_per_bit no kernel has, and garbage numbers */
	tu_write(dir, "sys/kernel/debug/cma/odd/count", "18446744073709551615\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/odd/used", "-3\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/odd/order_per_bit", "4096\n", -1);
	tu_write(dir, "sys/kernel/debug/cma/odd/bitmap", "0\n", -1);
	/* a file where an area's directory belongs */
	tu_write(dir, "sys/kernel/debug/cma/notadir", "1\n", -1);
	/* available beyond total */
	tu_write(dir, "sys/kernel/mm/cma/sysonly/total_pages", "10\n", -1);
	tu_write(dir, "sys/kernel/mm/cma/sysonly/available_pages", "11\n", -1);
	/* CmaTotal that gives no power-of-two page size */
	tu_write(dir, "proc/meminfo", "CmaTotal:            3 kB\nCmaFree:             1 kB\n", -1);
	r = open_tree(dir);
	ck_assert_int_eq(sb_cma_areas_read(r, &a, NULL), 0);
	ck_assert_uint_eq(a.n, 4);
	ck_assert_uint_eq(a.page_size, 0);
	ck_assert(!sb_cma_bytes(&a, 1, &(uint64_t){ 0 }));
	ck_assert_str_eq(a.v[0].name, "cut");
	ck_assert(!a.v[0].have_bitmap && a.v[0].have_largest);
	ck_assert_uint_eq(a.v[0].largest_free_pages, 24);
	ck_assert_str_eq(a.v[1].name, "lies");
	ck_assert(!a.v[1].have_bitmap && !a.v[1].have_largest && !a.v[1].have_used);
	ck_assert_str_eq(a.v[2].name, "odd");
	ck_assert(!a.v[2].have_bitmap && !a.v[2].have_largest && !a.v[2].have_used);
	ck_assert_str_eq(a.v[3].name, "sysonly");
	ck_assert(a.v[3].have_total && !a.v[3].have_used && !a.v[3].have_largest);
	sb_cma_areas_free(&a);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(no_cma_at_all)
{
	char *dir = tu_tree_new();
	struct sb_cma_areas a;
	struct sb_root *r;

	tu_write(dir, "proc/meminfo", "MemTotal:        4015720 kB\n", -1);
	r = open_tree(dir);
	ck_assert_int_eq(sb_cma_areas_read(r, &a, NULL), 0);
	ck_assert_uint_eq(a.n, 0);
	ck_assert(!a.have_meminfo);
	sb_cma_areas_free(&a);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cma");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, bitmap_as_debugfs_prints_it);
	tcase_add_test(tc, bitmap_hostile_or_cut_short);
	tcase_add_test(tc, largest_run_across_words);
	tcase_add_test(tc, meminfo_cma_lines);
	tcase_add_test(tc, areas_of_61_and_72);
	tcase_add_test(tc, area_files_hostile_or_cut_short);
	tcase_add_test(tc, no_cma_at_all);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
