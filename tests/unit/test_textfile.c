// SPDX-License-Identifier: GPL-2.0-or-later
/* One exposition from several views (lib/metrics/textfile.c) and its atomic write. */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "socbox/textfile.h"
#include "testutil.h"

static const char a_om[] = "# HELP socbox_a_x x\n# TYPE socbox_a_x gauge\nsocbox_a_x 1\n# EOF\n";
static const char b_om[] =
	"# HELP socbox_a_x x again\n# TYPE socbox_a_x gauge\nsocbox_a_x 2\n"
	"# HELP socbox_b_y y\n# TYPE socbox_b_y counter\nsocbox_b_y_total 3\n# EOF\n";

START_TEST(openmetrics_chunks_merge_with_one_eof)
{
	struct sb_expo x;
	size_t len;
	const char *s;

	sb_expo_init(&x, true);
	ck_assert_int_eq(sb_expo_add(&x, a_om, strlen(a_om)), 0);
	ck_assert_int_eq(sb_expo_add(&x, b_om, strlen(b_om)), 0);
	s = sb_expo_finish(&x, &len);
	ck_assert_str_eq(s,
			 "# HELP socbox_a_x x\n# TYPE socbox_a_x gauge\nsocbox_a_x 1\n"
			 "# HELP socbox_b_y y\n# TYPE socbox_b_y counter\nsocbox_b_y_total 3\n# EOF\n");
	ck_assert_uint_eq(len, strlen(s));
	ck_assert_uint_eq(x.dropped, 1);
	sb_expo_free(&x);
}
END_TEST

START_TEST(cut_chunks_are_refused_whole)
{
	struct sb_expo x;
	size_t len;

	sb_expo_init(&x, true);
	ck_assert_int_eq(sb_expo_add(&x, a_om, strlen(a_om) - 6), -EINVAL); /* no EOF */
	ck_assert_int_eq(sb_expo_add(&x, a_om, strlen(a_om) - 1), -EINVAL); /* no newline */
	ck_assert_int_eq(sb_expo_add(&x, "# EOF\nsocbox_z 1\n# EOF\n", 24), -EINVAL);
	ck_assert_int_eq(sb_expo_add(&x, "socbox_z 1# EOF\n", 16), -EINVAL); /* found by fuzz_expo */
	ck_assert_str_eq(sb_expo_finish(&x, &len), "# EOF\n");
	ck_assert_uint_eq(x.nfamilies, 0);
	sb_expo_free(&x);
	sb_expo_init(&x, false);
	ck_assert_int_eq(sb_expo_add(&x, "socbox_a 1", 10), -EINVAL);
	ck_assert_int_eq(sb_expo_add(&x, "", 0), 0);
	ck_assert_str_eq(sb_expo_finish(&x, &len), "");
	ck_assert_uint_eq(len, 0);
	sb_expo_free(&x);
}
END_TEST

START_TEST(textfile_written_whole)
{
	char *dir = tu_tree_new(), path[4096];
	struct sb_err e;
	struct stat st;
	DIR *d;
	struct dirent *de;
	int n = 0;
	FILE *fp;
	char buf[64] = "";

	tu_write(dir, "socbox.prom", "old\n", -1);
	ck_assert_int_eq(sb_textfile_write(dir, "socbox.prom", "socbox_a 1\n", 11, &e), 0);
	snprintf(path, sizeof(path), "%s/socbox.prom", dir);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_eq(st.st_mode & 07777, 0644);
	fp = fopen(path, "r");
	ck_assert_ptr_nonnull(fp);
	ck_assert_ptr_nonnull(fgets(buf, sizeof(buf), fp));
	fclose(fp);
	ck_assert_str_eq(buf, "socbox_a 1\n");
	d = opendir(dir);
	while ((de = readdir(d)))
		n += de->d_name[0] != '.' || strlen(de->d_name) > 2;
	closedir(d);
	ck_assert_int_eq(n, 1); /* no temporary file left */
	snprintf(path, sizeof(path), "%s/none", dir);
	ck_assert_int_eq(sb_textfile_write(path, "socbox.prom", "x\n", 2, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.hint, "textfile.directory"));
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("textfile");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, openmetrics_chunks_merge_with_one_eof);
	tcase_add_test(tc, cut_chunks_are_refused_whole);
	tcase_add_test(tc, textfile_written_whole);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
