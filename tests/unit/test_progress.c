// SPDX-License-Identifier: GPL-2.0-or-later
/* The progress line (lib/framework/progress.c): what it says for bytes and for iterations,
 * at most SB_PROGRESS_HZ drawings a second, lines that stay (ping), erased at the end, and
 * nothing at all when off; the bars of the pictures. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/progress.h"
#include "testutil.h"

START_TEST(bars_to_scale)
{
	char b[64];

	ck_assert_uint_eq(sb_bar(b, sizeof(b), 10, 10, 40), 40);
	ck_assert_uint_eq(strspn(b, "#"), 40);
	ck_assert_uint_eq(sb_bar(b, sizeof(b), 5, 10, 40), 20);
	ck_assert_uint_eq(sb_bar(b, sizeof(b), 1, 1000, 40), 1); /* not nothing */
	ck_assert_uint_eq(sb_bar(b, sizeof(b), 0, 1000, 40), 0);
	ck_assert_str_eq(b, "");
	ck_assert_uint_eq(sb_bar(b, sizeof(b), 7, 0, 40), 0);
	ck_assert_uint_eq(sb_bar(b, 8, 10, 10, 40), 7); /* the buffer bounds it */
}
END_TEST

START_TEST(sizes_as_lsblk)
{
	char b[16];

	sb_progress_size(b, sizeof(b), 17);
	ck_assert_str_eq(b, "17");
	sb_progress_size(b, sizeof(b), 4096);
	ck_assert_str_eq(b, "4.0K");
	sb_progress_size(b, sizeof(b), 812.0 * 1048576);
	ck_assert_str_eq(b, "812M");
	sb_progress_size(b, sizeof(b), 1.25 * 1073741824);
	ck_assert_str_eq(b, "1.2G");
}
END_TEST

START_TEST(bytes_line)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_progress p;

	sb_progress_start(&p, true, f, "dmabufcp copy", SB_PROGRESS_BYTES, NULL, 400ull << 30);
	sb_progress_draw_at(&p, 1, p.t0_ns + 1000000ull); /* within the first period: nothing */
	ck_assert_uint_eq(p.draws, 0);
	/* 200 s after the start, drawn at a known time: nothing here depends on the clock */
	sb_progress_draw_at(&p, 100ull << 30, p.t0_ns + 200000000000ull);
	ck_assert_uint_eq(p.draws, 1);
	fflush(f);
	/* 100G in 200 s: 512M/s, 300G left: 600 s; the bar a quarter full */
	ck_assert_str_eq(text, "\rdmabufcp copy: 100G of 400G [#####               ] 512M/s, 600 s "
			       "left\033[K");
	/* at most SB_PROGRESS_HZ drawings a second */
	ck_assert_uint_eq(p.next_ns, p.t0_ns + 200000000000ull + 1000000000ull / SB_PROGRESS_HZ);
	sb_progress_draw_at(&p, 2ull << 30, p.next_ns - 1);
	ck_assert_uint_eq(p.draws, 1);
	sb_progress_draw_at(&p, 101ull << 30, p.next_ns);
	ck_assert_uint_eq(p.draws, 2);
	sb_progress_end(&p);
	fflush(f);
	ck_assert_str_eq(text + strlen(text) - 4, "\r\033[K"); /* erased */
	sb_progress_update(&p, 3ull << 30);		       /* off now */
	ck_assert_uint_eq(p.draws, 2);
	fclose(f);
	free(text);
}
END_TEST

START_TEST(items_and_lines)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_progress p;

	sb_progress_start(&p, true, f, "rpmsgctl rproc cycle", SB_PROGRESS_ITEMS, "cycles", 10);
	sb_progress_draw_at(&p, 3, p.next_ns);
	fflush(f);
	ck_assert_ptr_nonnull(strstr(text, "\rrpmsgctl rproc cycle: 3/10 cycles [######"));
	sb_progress_line(&p, "32 bytes: seq=%u time=%.1f us", 4u, 6.5);
	fflush(f);
	/* the progress line is erased before a line that stays */
	ck_assert_ptr_nonnull(strstr(text, "\033[K\r\033[K32 bytes: seq=4 time=6.5 us\n"));
	ck_assert_uint_eq(p.shown, 0);
	sb_progress_end(&p);
	fclose(f);
	free(text);

	/* a run of fixed length without a count: rate and time left from the duration */
	text = NULL;
	f = open_memstream(&text, &len);
	sb_progress_start(&p, true, f, "smmustat stress", SB_PROGRESS_ITEMS, "map+unmap", 0);
	p.run_s = 5000;
	sb_progress_draw_at(&p, 50000000, p.t0_ns + 1000000000000ull);
	fflush(f);
	ck_assert_ptr_nonnull(strstr(text, "smmustat stress: 50000000 map+unmap [####"));
	ck_assert_ptr_nonnull(strstr(text, "] 50.0k/s, 4000 s left"));
	sb_progress_end(&p);
	fclose(f);
	free(text);
}
END_TEST

START_TEST(off_writes_nothing)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_progress p;

	sb_progress_start(&p, false, f, "x", SB_PROGRESS_BYTES, NULL, 100);
	sb_progress_update(&p, 50);
	sb_progress_line(&p, "a line");
	sb_progress_end(&p);
	fclose(f);
	ck_assert_uint_eq(len, 0);
	ck_assert_uint_eq(p.draws, 0);
	free(text);
}
END_TEST

START_TEST(never_wider_than_the_terminal)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sb_progress p;

	sb_progress_start(&p, true, f, "a-very-long-label-for-a-narrow-console", SB_PROGRESS_BYTES,
			  NULL, 1ull << 40);
	p.width = 40;
	sb_progress_draw_at(&p, 1ull << 30, p.t0_ns + 1000000000ull);
	fflush(f);
	/* "\r", 39 characters, "\033[K" */
	ck_assert_uint_eq(strlen(text), 1 + 39 + 3);
	fclose(f);
	free(text);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, bars_to_scale);
	tcase_add_test(tc, sizes_as_lsblk);
	tcase_add_test(tc, bytes_line);
	tcase_add_test(tc, items_and_lines);
	tcase_add_test(tc, off_writes_nothing);
	tcase_add_test(tc, never_wider_than_the_terminal);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
