// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_path_join: symlink text resolved against its directory, lexically. */
#include <errno.h>
#include <string.h>

#include "socbox/path.h"
#include "testutil.h"

static const char *join(const char *dir, const char *rel)
{
	static char out[256];

	ck_assert_int_eq(sb_path_join(out, sizeof(out), dir, rel), 0);
	return out;
}

START_TEST(relative_link_text)
{
	/* /sys/class/iommu/smmu3.0x9050000 -> ../../devices/platform/9050000.smmuv3/iommu/... */
	ck_assert_str_eq(join("/sys/class/iommu",
			      "../../devices/platform/9050000.smmuv3/iommu/smmu3.0x9050000"),
			 "/sys/devices/platform/9050000.smmuv3/iommu/smmu3.0x9050000");
	ck_assert_str_eq(join("/sys/devices/platform/x/iommu/y", "../../../x"),
			 "/sys/devices/platform/x");
	ck_assert_str_eq(join("/a/b", "./c//d/."), "/a/b/c/d");
	ck_assert_str_eq(join("/a/b/", "c/"), "/a/b/c");
}
END_TEST

START_TEST(absolute_text_and_the_top)
{
	ck_assert_str_eq(join("/a/b", "/x/../y"), "/y");
	ck_assert_str_eq(join("/a", "../../../.."), "/");
	ck_assert_str_eq(join("/", "."), "/");
	ck_assert_str_eq(join("", ""), "/");
	ck_assert_str_eq(join("/a", "../../b"), "/b");
}
END_TEST

START_TEST(more_parts_than_the_old_limits)
{
	/* the two copies this replaced kept 128 and 256 parts and dropped the rest silently */
	static char rel[2000], want[2000], out[2048];

	rel[0] = want[0] = '\0';
	for (int i = 0; i < 300; i++) {
		strcat(rel, i ? "/p" : "p");
		strcat(want, "/p");
	}
	ck_assert_int_eq(sb_path_join(out, sizeof(out), "/", rel), 0);
	ck_assert_str_eq(out, want);
	strcat(rel, "/..");
	ck_assert_int_eq(sb_path_join(out, sizeof(out), "/", rel), 0);
	ck_assert_uint_eq(strlen(out), strlen(want) - 2);
}
END_TEST

START_TEST(too_long_is_an_error)
{
	char out[9];

	ck_assert_int_eq(sb_path_join(out, sizeof(out), "/abc", "defg"), -ENAMETOOLONG);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(sb_path_join(out, sizeof(out), "/abc", "def"), 0);
	ck_assert_str_eq(out, "/abc/def");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("path");
	TCase *tc = tcase_create("join");

	tcase_add_test(tc, relative_link_text);
	tcase_add_test(tc, absolute_text_and_the_top);
	tcase_add_test(tc, more_parts_than_the_old_limits);
	tcase_add_test(tc, too_long_is_an_error);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
