// SPDX-License-Identifier: GPL-2.0-or-later
/* "Did you mean": which typos find their word, and which words are left alone. */
#include <string.h>

#include "socbox/macro.h"
#include "socbox/suggest.h"
#include "testutil.h"

static const char *best(const char *word, const char *const *cands, size_t n)
{
	struct sb_suggest s;

	sb_suggest_init(&s, word, (size_t)-1);
	for (size_t i = 0; i < n; i++)
		sb_suggest_add(&s, cands[i]);
	return sb_suggest_best(&s);
}

static const char *const rpmsg_cmds[] = {
	"list", "ept", "dev", "flow", "send", "recv", "ping", "rproc", "bench"
};
static const char *const smmu_cmds[] = {
	"overview", "groups", "irq", "events", "pmu", "stress", "check"
};
static const char *const dmabuf_cmds[] = { "copy", "bench", "heaps", "ls" };

START_TEST(typos_find_their_word)
{
	ck_assert_str_eq(best("lsit", rpmsg_cmds, ARRAY_SIZE(rpmsg_cmds)), "list");
	ck_assert_str_eq(best("overveiw", smmu_cmds, ARRAY_SIZE(smmu_cmds)), "overview");
	ck_assert_str_eq(best("heap", dmabuf_cmds, ARRAY_SIZE(dmabuf_cmds)), "heaps");
	ck_assert_str_eq(best("evnets", smmu_cmds, ARRAY_SIZE(smmu_cmds)), "events");
	ck_assert_str_eq(best("rpoc", rpmsg_cmds, ARRAY_SIZE(rpmsg_cmds)), "rproc");
	/* case is ignored: columns are upper case, typed any way */
	ck_assert_str_eq(best("naem", (const char *[]){ "INODE", "NAME", "SIZE" }, 3), "NAME");
}
END_TEST

START_TEST(far_words_are_left_alone)
{
	ck_assert_ptr_null(best("xyzzy", rpmsg_cmds, ARRAY_SIZE(rpmsg_cmds)));
	/* one edit at most for words up to four characters */
	ck_assert_ptr_null(best("abc", dmabuf_cmds, ARRAY_SIZE(dmabuf_cmds)));
	ck_assert_ptr_null(best("", dmabuf_cmds, ARRAY_SIZE(dmabuf_cmds)));
	ck_assert_ptr_null(best("ab", (const char *[]){ "abcd" }, 1));
	/* two edits above four characters */
	ck_assert_str_eq(best("grops", smmu_cmds, ARRAY_SIZE(smmu_cmds)), "groups");
	ck_assert_ptr_null(best("grp", smmu_cmds, ARRAY_SIZE(smmu_cmds)));
}
END_TEST

START_TEST(the_closest_wins)
{
	/* "stat" is one edit from "start" and two from "status" */
	ck_assert_str_eq(best("stat", (const char *[]){ "status", "start", "stop" }, 3), "start");
	ck_assert_str_eq(best("stats", (const char *[]){ "start", "status" }, 2), "status");
}
END_TEST

START_TEST(a_part_of_a_string)
{
	struct sb_suggest s;

	sb_suggest_init(&s, "jsn=1", 3);
	sb_suggest_add(&s, "json");
	sb_suggest_add(&s, "raw");
	ck_assert_str_eq(sb_suggest_best(&s), "json");
}
END_TEST

START_TEST(long_words_are_not_compared)
{
	char w[200];

	memset(w, 'a', sizeof(w) - 1);
	w[sizeof(w) - 1] = '\0';
	ck_assert_ptr_null(best(w, (const char *[]){ w }, 1));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("suggest");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, typos_find_their_word);
	tcase_add_test(tc, far_words_are_left_alone);
	tcase_add_test(tc, the_closest_wins);
	tcase_add_test(tc, a_part_of_a_string);
	tcase_add_test(tc, long_words_are_not_compared);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
