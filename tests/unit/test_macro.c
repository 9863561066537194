// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox/macro.h: ARRAY_SIZE counts arrays and knows them from pointers. */
#include <stddef.h>

#include "socbox/macro.h"
#include "testutil.h"

struct pair {
	const char *name;
	int v;
};

static const struct pair pairs[] = { { "a", 1 }, { "b", 2 }, { "c", 3 } };

START_TEST(counts_arrays)
{
	char buf[17];
	unsigned long long wide[2][5];
	static const char *const names[] = { "x", "y" };

	ck_assert_uint_eq(ARRAY_SIZE(pairs), 3);
	ck_assert_uint_eq(ARRAY_SIZE(buf), 17);
	ck_assert_uint_eq(ARRAY_SIZE(wide), 2);
	ck_assert_uint_eq(ARRAY_SIZE(wide[0]), 5);
	ck_assert_uint_eq(ARRAY_SIZE(names), 2);
	_Static_assert(ARRAY_SIZE(pairs) == 3, "a constant expression");
}
END_TEST

START_TEST(tells_arrays_from_pointers)
{
	const struct pair *p = pairs;
	char buf[4], *s = buf;

	ck_assert(SB_IS_ARRAY(pairs));
	ck_assert(SB_IS_ARRAY(buf));
	ck_assert(!SB_IS_ARRAY(p));
	ck_assert(!SB_IS_ARRAY(s));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("macro");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, counts_arrays);
	tcase_add_test(tc, tells_arrays_from_pointers);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
