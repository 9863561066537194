// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer and the JSON writer: modes, column selection, escaping. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/escape.h"
#include "socbox/json.h"
#include "socbox/out.h"
#include "testutil.h"

enum { C_NAME, C_SIZE, C_RATE, C_OK, C_TAGS, C_SECRET };
static const struct sb_col cols[] = {
	[C_NAME] = { "NAME", SB_T_STR, 0, SB_COL_LABEL, "name", 0 },
	[C_SIZE] = { "SIZE_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "size", 0 },
	[C_RATE] = { "RATE", SB_T_DBL, 0, 0, "rate", 1 },
	[C_OK] = { "OK", SB_T_BOOL, 0, 0, "ok", 0 },
	[C_TAGS] = { "TAGS", SB_T_STRV, 0, 0, "tags", 0 },
	[C_SECRET] = { "EXTRA", SB_T_S64, 0, SB_COL_HIDDEN, "hidden by default", 0 },
};

static char *render(enum sb_out_mode mode, const char *columns, const char *name)
{
	struct sb_out_opts o = { .mode = mode, .columns = columns, .pretty = true };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_table *t = sb_out_table(out, "things", "Things", cols, 6, true);
	struct sb_row *r = sb_table_row(t);

	sb_row_str(r, C_NAME, name);
	sb_row_u64(r, C_SIZE, 4096);
	sb_row_dbl(r, C_RATE, 12.345);
	sb_row_bool(r, C_OK, true);
	sb_row_strv_add(r, C_TAGS, "a");
	sb_row_strv_add(r, C_TAGS, "b");
	sb_row_s64(r, C_SECRET, -5);
	r = sb_table_row(t); /* a row with unset cells */
	sb_row_str(r, C_NAME, "second");
	sb_out_field_str(out, "method", "legacy");
	sb_out_field_u64(out, "loops", 1000);
	sb_out_note(out, "a note");
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	return buf;
}

START_TEST(json_has_types_and_nulls)
{
	char *s = render(SB_OUT_JSON, NULL, "dev0");

	ck_assert_ptr_nonnull(strstr(s, "\"method\": \"legacy\""));
	ck_assert_ptr_nonnull(strstr(s, "\"loops\": 1000"));
	ck_assert_ptr_nonnull(strstr(s, "\"things\": ["));
	ck_assert_ptr_nonnull(strstr(s, "\"size_bytes\": 4096"));
	ck_assert_ptr_nonnull(strstr(s, "\"rate\": 12.345"));
	ck_assert_ptr_nonnull(strstr(s, "\"ok\": true"));
	ck_assert_ptr_nonnull(strstr(s, "\"size_bytes\": null"));
	ck_assert_ptr_nonnull(strstr(s, "\"notes\": ["));
	ck_assert_ptr_null(strstr(s, "extra")); /* hidden column */
	free(s);
}
END_TEST

START_TEST(columns_select_and_extend)
{
	char *s = render(SB_OUT_RAW, "name,extra", "dev0");
	ck_assert_str_eq(s, "method legacy\nloops 1000\nNAME EXTRA\ndev0 -5\nsecond -\n");
	free(s);
	s = render(SB_OUT_RAW, "+EXTRA", "dev0");
	ck_assert_ptr_nonnull(strstr(s, "NAME SIZE_BYTES RATE OK TAGS EXTRA\n"));
	ck_assert_ptr_nonnull(strstr(s, "dev0 4096 12.3 yes a,b -5\n"));
	free(s);
}
END_TEST

START_TEST(unknown_columns_are_usage_errors)
{
	struct sb_err e;

	ck_assert_int_eq(sb_out_check_columns("name,bogus", cols, 6, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.reason, "bogus"));
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_USAGE);
	ck_assert_int_eq(sb_out_check_columns(",", cols, 6, &e), -EINVAL);
	ck_assert_int_eq(sb_out_check_columns("+size_bytes", cols, 6, &e), 0);
}
END_TEST

START_TEST(pairs_quote_values)
{
	char *s = render(SB_OUT_PAIRS, "name", "a \"quoted\" name");
	ck_assert_ptr_null(strstr(s, "SIZE_BYTES="));
	ck_assert_ptr_nonnull(strstr(s, "NAME=\"a \\x22quoted\\x22 name\""));
	ck_assert_ptr_nonnull(strstr(s, "METHOD=\"legacy\""));
	free(s);
}
END_TEST

START_TEST(openmetrics_exports_flagged_columns)
{
	char *s = render(SB_OUT_OPENMETRICS, NULL, "dev0");
	ck_assert_ptr_nonnull(strstr(s, "# TYPE socbox_things_size_bytes gauge\n"));
	ck_assert_ptr_nonnull(strstr(s, "socbox_things_size_bytes{name=\"dev0\"} 4096\n"));
	ck_assert_ptr_nonnull(strstr(s, "socbox_loops 1000\n"));
	ck_assert_ptr_null(strstr(s, "rate"));
	ck_assert_ptr_nonnull(strstr(s, "# EOF\n"));
	free(s);
}
END_TEST

START_TEST(table_mode_titles_and_notes)
{
	char *s = render(SB_OUT_TABLE, NULL, "dev0");
	ck_assert_ptr_nonnull(strstr(s, "method: legacy\n"));
	ck_assert_ptr_nonnull(strstr(s, "Things:\n"));
	ck_assert_ptr_nonnull(strstr(s, "note: a note\n"));
	free(s);
}
END_TEST

static char *json_string(const char *in)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	sb_json_write_string(fp, in);
	fclose(fp);
	return buf;
}

START_TEST(json_strings_are_always_valid)
{
	char *s;

	s = json_string("tab\there \"q\" back\\slash\nnl\x01");
	ck_assert_str_eq(s, "\"tab\\there \\\"q\\\" back\\\\slash\\nnl\\u0001\"");
	free(s);
	s = json_string("caf\xe9!"); /* Latin-1, not UTF-8 */
	ck_assert_str_eq(s, "\"caf\\ufffd!\"");
	free(s);
	s = json_string("\xc3\xa9t\xc3\xa9"); /* valid UTF-8 passes through */
	ck_assert_str_eq(s, "\"\xc3\xa9t\xc3\xa9\"");
	free(s);
	s = json_string(
		"\xed\xa0\x80 \xc0\xaf \xf4\x90\x80\x80"); /* surrogate, overlong, > U+10FFFF */
	ck_assert_str_eq(s, "\"\\ufffd\\ufffd\\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd\\ufffd\"");
	free(s);
	s = json_string("\xe2\x82"); /* truncated sequence at the end */
	ck_assert_str_eq(s, "\"\\ufffd\\ufffd\"");
	free(s);
}
END_TEST

START_TEST(json_numbers)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_json j;

	sb_json_init(&j, fp, false);
	sb_json_obj_begin(&j, NULL);
	sb_json_dbl(&j, "a", 0.1);
	sb_json_dbl(&j, "b", NAN);
	sb_json_dbl(&j, "c", 3.0);
	sb_json_u64(&j, "d", UINT64_MAX);
	sb_json_s64(&j, "e", INT64_MIN);
	sb_json_arr_begin(&j, "f");
	sb_json_arr_end(&j);
	sb_json_obj_end(&j);
	fclose(fp);
	ck_assert_str_eq(buf, "{\"a\":0.1,\"b\":null,\"c\":3,\"d\":18446744073709551615,"
			      "\"e\":-9223372036854775808,\"f\":[]}\n");
	free(buf);
}
END_TEST

/* Doubles outside int64_t's range: printed as doubles, with no conversion on the way
 * (clang's -fsanitize=float-cast-overflow flagged the old order of checks). */
START_TEST(json_doubles_beyond_int64)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_json j;

	sb_json_init(&j, fp, false);
	sb_json_obj_begin(&j, NULL);
	sb_json_dbl(&j, "a", 1e300);
	sb_json_dbl(&j, "b", -1e300);
	sb_json_dbl(&j, "c", 9.3e18);
	sb_json_dbl(&j, "d", 1e15);
	sb_json_dbl(&j, "e", 999999999999999.0);
	sb_json_obj_end(&j);
	fclose(fp);
	ck_assert_str_eq(buf, "{\"a\":1e+300,\"b\":-1e+300,\"c\":9.3e+18,\"d\":1e+15,"
			      "\"e\":999999999999999}\n");
	free(buf);
}
END_TEST

/* Before: libsmartcols escaped table cells, but fields ("kernel: ...") and notes went to
 * the terminal as they were read. */
START_TEST(text_modes_escape_control_bytes_everywhere)
{
	const char *evil = "a\033]0;PWNED\007b \xff\xc2\x85z";
	enum sb_out_mode modes[] = { SB_OUT_TABLE, SB_OUT_RAW, SB_OUT_PAIRS };

	for (size_t m = 0; m < 3; m++) {
		struct sb_out_opts o = { .mode = modes[m] };
		char *buf = NULL;
		size_t len = 0;
		FILE *fp = open_memstream(&buf, &len);
		struct sb_out *out = sb_out_new(&o, fp);
		struct sb_table *t = sb_out_table(out, "things", "Things", cols, 6, true);

		sb_row_str(sb_table_row(t), C_NAME, evil);
		sb_out_field_str(out, "kernel", evil);
		sb_out_note(out, "%s", evil);
		ck_assert_int_eq(sb_out_print(out), 0);
		sb_out_free(out);
		fclose(fp);
		for (size_t i = 0; i < len; i++)
			ck_assert_msg((unsigned char)buf[i] >= 0x20 || buf[i] == '\n',
				      "mode %zu: byte 0x%02x at %zu", m, (unsigned char)buf[i], i);
		ck_assert_ptr_null(memchr(buf, 0xff, len)); /* invalid UTF-8 */
		ck_assert_ptr_null(memchr(buf, 0xc2, len)); /* C1 control U+0085 */
		ck_assert_ptr_nonnull(strstr(buf, "\\x1b]0;PWNED\\x07b"));
		ck_assert_ptr_nonnull(strstr(buf, "\\xff\\xc2\\x85z"));
		free(buf);
	}
}
END_TEST

START_TEST(escape_keeps_valid_utf8_and_cuts_whole_characters)
{
	char b[16];

	ck_assert_str_eq(sb_escape(b, sizeof(b), "caf\xc3\xa9", 0), "caf\xc3\xa9");
	ck_assert_str_eq(sb_escape(b, sizeof(b), "a\tb\nc", 0), "a\\x09b\\x0ac");
	ck_assert_str_eq(sb_escape(b, sizeof(b), "a\tb\nc", SB_ESC_KEEP_LINES), "a\tb\nc");
	ck_assert_str_eq(sb_escape(b, sizeof(b), "a b\\", SB_ESC_RAW), "a\\x20b\\x5c");
	ck_assert_str_eq(sb_escape(b, sizeof(b), "\"$`", SB_ESC_SHELL), "\\x22\\x24\\x60");
	/* overlong "/" and a UTF-16 surrogate are not UTF-8 */
	ck_assert_str_eq(sb_escape(b, sizeof(b), "\xc0\xaf", 0), "\\xc0\\xaf");
	ck_assert_str_eq(sb_escape(b, 8, "\xed\xa0\x80", 0), "\\xed");
	ck_assert_str_eq(sb_escape(b, 6, "\x01\x02", 0), "\\x01");
}
END_TEST

START_TEST(tables_wrap_at_words_to_columns)
{
	static const struct sb_col wcols[] = {
		{ "NAME", SB_T_STR, 0, 0, "name", 0 },
		{ "FEATURES", SB_T_STRV, 0, SB_COL_WRAP, "features", 0 },
	};
	static const char *feats[] = {
		"2_LVL_STRTAB", "TT_LE", "MSI", "COHERENCY", "TRANS_S1", "TRANS_S2"
	};
	struct sb_out_opts o = { .mode = SB_OUT_TABLE };
	char *buf = NULL, *save = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_table *t = sb_out_table(out, "smmu", NULL, wcols, 2, true);
	struct sb_row *r = sb_table_row(t);
	int lines = 0;

	sb_row_str(r, 0, "smmu3.0x0000000049000000");
	for (size_t i = 0; i < 6; i++)
		sb_row_strv_add(r, 1, feats[i]);
	setenv("COLUMNS", "40", 1);
	ck_assert_int_eq(sb_out_print(out), 0);
	unsetenv("COLUMNS");
	sb_out_free(out);
	fclose(fp);
	for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save), lines++) {
		ck_assert_msg(strlen(l) <= 40, "line wider than 40: '%s'", l);
		ck_assert_msg(strstr(l, "2_LVL_ST") == NULL || strstr(l, "2_LVL_STRTAB"),
			      "word broken: '%s'", l);
	}
	ck_assert_int_ge(lines, 3);
	free(buf);
}
END_TEST

START_TEST(list_columns_names_every_column)
{
	struct sb_out_opts o = { .mode = SB_OUT_RAW };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(sb_out_list_columns(&o, fp, cols, 6), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "EXTRA number no hidden"));
	ck_assert_ptr_nonnull(strstr(buf, "TAGS array yes tags"));
	free(buf);
}
END_TEST

enum { N_NAME, N_IDS, N_FACTS, N_MORE };
static const struct sb_col nested_cols[] = {
	[N_NAME] = { "NAME", SB_T_STR, 0, 0, "name", 0 },
	[N_IDS] = { "IDS", SB_T_U64V, 0, 0, "ids", 0 },
	[N_FACTS] = { "FACTS", SB_T_OBJ, 0, SB_COL_HIDDEN | SB_COL_JSON, "facts", 0 },
	[N_MORE] = { "MORE", SB_T_OBJ, 0, SB_COL_HIDDEN | SB_COL_JSON, "more", 0 },
};

static char *render_nested(enum sb_out_mode mode, const char *columns)
{
	struct sb_out_opts o = { .mode = mode, .columns = columns };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_table *t = sb_out_table(out, "subsystems", NULL, nested_cols, 4, true);
	struct sb_row *r = sb_table_row(t);

	sb_row_str(r, N_NAME, "iommu");
	sb_row_u64v_add(r, N_IDS, 280);
	sb_row_obj_s64(r, N_FACTS, "groups", 8);
	sb_row_obj_bool(r, N_FACTS, "strict", false);
	sb_row_obj_str(r, N_FACTS, "type", "DMA-FQ");
	sb_row_obj(r, N_MORE);
	r = sb_table_row(t); /* FACTS and MORE unset: null */
	sb_row_str(r, N_NAME, "netdev");
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	return buf;
}

/* doctor -J through the framework: nested facts, {} for an object without members, null
 * for one never set, and detail columns that JSON shows by default and tables hide. */
START_TEST(objects_in_json_and_text)
{
	char *s = render_nested(SB_OUT_JSON, NULL);

	ck_assert_str_eq(s,
			 "{\"subsystems\":[{\"name\":\"iommu\",\"ids\":[280],"
			 "\"facts\":{\"groups\":8,\"strict\":false,\"type\":\"DMA-FQ\"},\"more\":{}},"
			 "{\"name\":\"netdev\",\"ids\":[],\"facts\":null,\"more\":null}]}\n");
	free(s);
	s = render_nested(SB_OUT_JSON, "name");
	ck_assert_str_eq(s, "{\"subsystems\":[{\"name\":\"iommu\"},{\"name\":\"netdev\"}]}\n");
	free(s);
	s = render_nested(SB_OUT_PAIRS, NULL);
	ck_assert_str_eq(s, "NAME=\"iommu\" IDS=\"280\"\nNAME=\"netdev\" IDS=\"\"\n");
	free(s);
	s = render_nested(SB_OUT_PAIRS, "name,facts");
	ck_assert_str_eq(
		s,
		"NAME=\"iommu\" FACTS=\"groups=8,strict=no,type=DMA-FQ\"\nNAME=\"netdev\" FACTS=\"-\"\n");
	free(s);
}
END_TEST

/* SB_T_OBJV: numbers stay numbers inside a list of records (smmustat irq's CPU_COUNTS) */
static char *render_records(enum sb_out_mode mode, const char *columns)
{
	static const struct sb_col rec_cols[] = {
		{ "IRQ", SB_T_STR, 0, 0, "irq", 0 },
		{ "CPU_COUNTS", SB_T_OBJV, 0, SB_COL_HIDDEN | SB_COL_JSON, "per CPU", 0 },
	};
	static const char *const keys[] = { "cpu", "count" };
	struct sb_out_opts o = { .mode = mode, .columns = columns };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_table *t = sb_out_table(out, "irqs", NULL, rec_cols, 2, true);
	struct sb_row *r = sb_table_row(t);

	sb_row_str(r, 0, "28");
	sb_row_objv_add_u64(r, 1, 2, keys, (const uint64_t[]){ 0, 3 });
	sb_row_objv_add_u64(r, 1, 2, keys, (const uint64_t[]){ 2, 18446744073709551615ull });
	r = sb_table_row(t); /* no record: [] and empty text, like an empty list */
	sb_row_str(r, 0, "29");
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	return buf;
}

START_TEST(records_of_numbers)
{
	char *s = render_records(SB_OUT_JSON, NULL);

	ck_assert_str_eq(
		s,
		"{\"irqs\":[{\"irq\":\"28\",\"cpu_counts\":[{\"cpu\":0,\"count\":3},"
		"{\"cpu\":2,\"count\":18446744073709551615}]},{\"irq\":\"29\",\"cpu_counts\":[]}]}\n");
	free(s);
	s = render_records(SB_OUT_PAIRS, NULL);
	ck_assert_str_eq(s, "IRQ=\"28\"\nIRQ=\"29\"\n");
	free(s);
	s = render_records(SB_OUT_PAIRS, "+cpu_counts");
	ck_assert_str_eq(s,
			 "IRQ=\"28\" CPU_COUNTS=\"cpu=0 count=3,cpu=2 count=18446744073709551615\"\n"
			 "IRQ=\"29\" CPU_COUNTS=\"\"\n");
	free(s);
}
END_TEST

/* -H names the JSON type of every column type (U64V was read past the end of the names) */
START_TEST(list_columns_types)
{
	struct sb_out_opts o = { .mode = SB_OUT_RAW };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_int_eq(sb_out_list_columns(&o, fp, nested_cols, 4), 0);
	fclose(fp);
	ck_assert_ptr_nonnull(strstr(buf, "IDS array yes ids"));
	ck_assert_ptr_nonnull(strstr(buf, "FACTS object no facts"));
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("out");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, json_has_types_and_nulls);
	tcase_add_test(tc, columns_select_and_extend);
	tcase_add_test(tc, unknown_columns_are_usage_errors);
	tcase_add_test(tc, pairs_quote_values);
	tcase_add_test(tc, openmetrics_exports_flagged_columns);
	tcase_add_test(tc, table_mode_titles_and_notes);
	tcase_add_test(tc, json_strings_are_always_valid);
	tcase_add_test(tc, json_numbers);
	tcase_add_test(tc, json_doubles_beyond_int64);
	tcase_add_test(tc, list_columns_names_every_column);
	tcase_add_test(tc, objects_in_json_and_text);
	tcase_add_test(tc, records_of_numbers);
	tcase_add_test(tc, list_columns_types);
	tcase_add_test(tc, text_modes_escape_control_bytes_everywhere);
	tcase_add_test(tc, escape_keeps_valid_utf8_and_cuts_whole_characters);
	tcase_add_test(tc, tables_wrap_at_words_to_columns);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
