// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer for a person at an 80-column console: identifiers whole, free text
 * wrapped, units, lists that read one way, notes wrapped and said once, -q, and cells
 * checked against their column table. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/out.h"
#include "testutil.h"

enum { C_DEVICE, C_SIZE, C_RECYCLE, C_RATE, C_HEAPS, C_TEXT };
static const struct sb_col cols[] = {
	[C_DEVICE] = { "DEVICE", SB_T_STR, 0, 0, "device", 0 },
	[C_SIZE] = { "SIZE_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES, "size", 0 },
	[C_RECYCLE] = { "RECYCLE_RATE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_PERCENT, "ratio", 3 },
	[C_RATE] = { "RATE", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_PER_S, "rate", 0 },
	[C_HEAPS] = { "HEAPS", SB_T_STRV, 0, 0, "heaps", 0 },
	[C_TEXT] = { "TEXT", SB_T_STR, 0, SB_COL_WRAP, "free text", 0 },
};

struct mem {
	char *buf;
	size_t len;
	FILE *fp;
};

static struct sb_out *open_out(struct mem *m, struct sb_out_opts *o)
{
	m->buf = NULL;
	m->fp = open_memstream(&m->buf, &m->len);
	return sb_out_new(o, m->fp);
}

static char *close_out(struct mem *m, struct sb_out *out)
{
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(m->fp);
	return m->buf;
}

static char *one_row(enum sb_out_mode mode, bool bytes, const char *columns)
{
	struct sb_out_opts o = { .mode = mode, .bytes = bytes, .columns = columns };
	struct mem m;
	struct sb_out *out = open_out(&m, &o);
	struct sb_row *r = sb_table_row(sb_out_table(out, "things", NULL, cols, 6, true));

	sb_row_str(r, C_DEVICE, "virtio0.rpmsg_chrdev.-1.14");
	sb_row_u64(r, C_SIZE, 8294400);
	sb_row_dbl(r, C_RECYCLE, 0.991);
	sb_row_dbl(r, C_RATE, 67108864);
	sb_row_strv_add(r, C_HEAPS, "linux,cma");
	sb_row_strv_add(r, C_HEAPS, "system");
	sb_row_str(r, C_TEXT, "the quick brown fox jumps over the lazy dog and runs far away");
	sb_out_field_bytes(out, "size_limit_bytes", 67108864);
	sb_out_field_ratio(out, "recycle_rate", 0.5);
	sb_out_field_strv_add(out, "heap_list", "linux,cma");
	sb_out_field_strv_add(out, "heap_list", "system");
	sb_out_field_count(out, "domains", "DMA", 3);
	sb_out_field_count(out, "domains", "identity", 1);
	return close_out(&m, out);
}

START_TEST(bytes_ratios_and_rates_for_a_person)
{
	char *s = one_row(SB_OUT_RAW, false, NULL);

	/* printed as K/M/G a number of bytes drops _BYTES from its name: it holds no bytes */
	ck_assert_ptr_nonnull(strstr(s, "size_limit 64M\n"));
	ck_assert_ptr_nonnull(strstr(s, "\nDEVICE SIZE "));
	ck_assert_ptr_nonnull(strstr(s, "recycle_rate 50.0%\n"));
	ck_assert_ptr_nonnull(strstr(s, " 7.9M 99.1% 64M/s "));
	free(s);
	s = one_row(SB_OUT_PAIRS, true, NULL);
	ck_assert_ptr_nonnull(strstr(s, "SIZE_BYTES=\"8294400\""));
	ck_assert_ptr_nonnull(strstr(s, "RATE=\"67108864/s\""));
	ck_assert_ptr_nonnull(strstr(s, "SIZE_LIMIT_BYTES=\"67108864\""));
	free(s);
}
END_TEST

START_TEST(json_keeps_base_units_and_gets_lists)
{
	char *s = one_row(SB_OUT_JSON, false, NULL);

	ck_assert_ptr_nonnull(strstr(s, "\"size_bytes\":8294400"));
	ck_assert_ptr_nonnull(strstr(s, "\"recycle_rate\":0.991"));
	ck_assert_ptr_nonnull(strstr(s, "\"size_limit_bytes\":67108864"));
	ck_assert_ptr_nonnull(strstr(s, "\"heap_list\":[\"linux,cma\",\"system\"]"));
	ck_assert_ptr_nonnull(strstr(s, "\"domains\":{\"DMA\":3,\"identity\":1}"));
	free(s);
}
END_TEST

START_TEST(human_bytes_as_lsblk)
{
	static const struct {
		double v;
		const char *want;
	} cases[] = {
		{ 0, "0B" },	   { 512, "512B" },	{ 1024, "1K" },
		{ 1536, "1.5K" },  { 8294400, "7.9M" }, { 67108864, "64M" },
		{ 1048575, "1M" }, { 41943040, "40M" }, { 3.5 * (1ull << 40), "3.5T" },
	};
	char buf[32];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sb_out_human_bytes(buf, sizeof(buf), cases[i].v);
		ck_assert_str_eq(buf, cases[i].want);
	}
}
END_TEST

START_TEST(lists_read_one_way)
{
	char *s = one_row(SB_OUT_RAW, false, "HEAPS");

	ck_assert_ptr_nonnull(strstr(s, "heap_list \"linux,cma\",system\n"));
	ck_assert_ptr_nonnull(strstr(s, "\n\"linux,cma\",system\n"));
	ck_assert_ptr_nonnull(strstr(s, "domains DMA=3,identity=1\n"));
	free(s);
}
END_TEST

/* At 30 columns the identifier stays whole (the line is wider) and the free text wraps
 * at words within what is left. */
START_TEST(identifiers_whole_text_wrapped)
{
	char *s;

	setenv("COLUMNS", "60", 1);
	s = one_row(SB_OUT_TABLE, false, "DEVICE,TEXT");
	unsetenv("COLUMNS");
	ck_assert_ptr_nonnull(
		strstr(s, "virtio0.rpmsg_chrdev.-1.14 the quick brown fox jumps over\n"));
	ck_assert_ptr_nonnull(
		strstr(s, "\n                           the lazy dog and runs far away\n"));
	for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n"))
		ck_assert_uint_le(strlen(line), 60);
	free(s);
}
END_TEST

/* Squeezed narrower than 20 columns a wrapped column would hold a word or two a line (one
 * event of smmustat events --list took 14 lines): it goes below its row, across the width,
 * and the line keeps the identifiers. */
START_TEST(a_cramped_wrapped_column_goes_below_its_row)
{
	const char *widths[] = { "40", "32" };

	for (size_t i = 0; i < 2; i++) {
		char *s;

		setenv("COLUMNS", widths[i], 1);
		s = one_row(SB_OUT_TABLE, false, "DEVICE,TEXT");
		unsetenv("COLUMNS");
		ck_assert_ptr_nonnull(
			strstr(s, "DEVICE\nvirtio0.rpmsg_chrdev.-1.14\n  TEXT: the quick "));
		ck_assert_ptr_nonnull(strstr(s, "\n        ")); /* continued under the text */
		ck_assert_ptr_null(strstr(s, "DEVICE                     TEXT")); /* no heading */
		for (char *line = strtok(s, "\n"); line; line = strtok(NULL, "\n"))
			ck_assert_uint_le(strlen(line), (size_t)atoi(widths[i]));
		free(s);
	}
}
END_TEST

/* $COLUMNS is the width even when stdout is no terminal (a pipe, tmux capture, tests). */
START_TEST(notes_wrapped_once_and_quiet)
{
	struct sb_out_opts o = { .mode = SB_OUT_TABLE };
	struct mem m;
	struct sb_out *out;
	char *s;

	setenv("COLUMNS", "40", 1);
	out = open_out(&m, &o);
	for (int i = 0; i < 4; i++)
		sb_out_note(out, "no remote processor on this board: nothing to list here");
	sb_out_problem(out, "remoteproc0 crashed");
	s = close_out(&m, out);
	ck_assert_str_eq(s, "note: no remote processor on this board:\n"
			    "      nothing to list here\n"
			    "problem: remoteproc0 crashed\n");
	free(s);

	o.quiet = true;
	out = open_out(&m, &o);
	sb_out_note(out, "a hint");
	sb_out_problem(out, "remoteproc0 crashed");
	s = close_out(&m, out);
	unsetenv("COLUMNS");
	ck_assert_str_eq(s, "problem: remoteproc0 crashed\n");
	free(s);
}
END_TEST

START_TEST(problems_in_json)
{
	struct sb_out_opts o = { .mode = SB_OUT_JSON };
	struct mem m;
	struct sb_out *out = open_out(&m, &o);
	char *s;

	sb_out_note(out, "a hint");
	sb_out_note(out, "a hint");
	sb_out_problem(out, "broken");
	s = close_out(&m, out);
	ck_assert_str_eq(s, "{\"notes\":[\"a hint\",\"broken\"],\"problems\":[\"broken\"]}\n");
	free(s);
}
END_TEST

START_TEST(list_columns_wraps_help)
{
	static const struct sb_col help_cols[] = {
		{ "FIRMWARE", SB_T_STR, 0, 0,
		  "firmware file below /lib/firmware that the remote processor boots", 0 },
	};
	struct sb_out_opts o = { .mode = SB_OUT_TABLE };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	setenv("COLUMNS", "60", 1);
	ck_assert_int_eq(sb_out_list_columns(&o, fp, help_cols, 1), 0);
	unsetenv("COLUMNS");
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "below /lib/firmware\n"));
	ck_assert_ptr_nonnull(strstr(buf, "    that the remote processor boots\n"));
	free(buf);
}
END_TEST

static struct sb_out *setter_out(FILE **fp, struct sb_row **r)
{
	static struct sb_out_opts o = { .mode = SB_OUT_JSON };
	struct sb_out *out;

	*fp = fopen("/dev/null", "w");
	out = sb_out_new(&o, *fp);
	*r = sb_table_row(sb_out_table(out, "things", NULL, cols, 6, true));
	return out;
}

START_TEST(wrong_type_aborts)
{
	FILE *fp;
	struct sb_row *r;
	struct sb_out *out = setter_out(&fp, &r);

	sb_row_str(r, C_SIZE, "8294400"); /* a string into a number column */
	sb_out_free(out);
	fclose(fp);
}
END_TEST

START_TEST(index_past_the_table_aborts)
{
	FILE *fp;
	struct sb_row *r;
	struct sb_out *out = setter_out(&fp, &r);

	sb_row_u64(r, 6, 1);
	sb_out_free(out);
	fclose(fp);
}
END_TEST

START_TEST(list_setter_checked)
{
	FILE *fp;
	struct sb_row *r;
	struct sb_out *out = setter_out(&fp, &r);

	sb_row_u64v_add(r, C_HEAPS, 1); /* numbers into a list of strings */
	sb_out_free(out);
	fclose(fp);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("out_console");
	TCase *tc = tcase_create("console");
	TCase *tk = tcase_create("checked cells");

	tcase_add_test(tc, bytes_ratios_and_rates_for_a_person);
	tcase_add_test(tc, json_keeps_base_units_and_gets_lists);
	tcase_add_test(tc, human_bytes_as_lsblk);
	tcase_add_test(tc, lists_read_one_way);
	tcase_add_test(tc, identifiers_whole_text_wrapped);
	tcase_add_test(tc, a_cramped_wrapped_column_goes_below_its_row);
	tcase_add_test(tc, notes_wrapped_once_and_quiet);
	tcase_add_test(tc, problems_in_json);
	tcase_add_test(tc, list_columns_wraps_help);
	tcase_add_test_raise_signal(tk, wrong_type_aborts, SIGABRT);
	tcase_add_test_raise_signal(tk, index_past_the_table_aborts, SIGABRT);
	tcase_add_test_raise_signal(tk, list_setter_checked, SIGABRT);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, tk);
	return tu_run(s);
}
