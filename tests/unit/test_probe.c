// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox/probe.h: the errnos of a kernel that lacks an interface, and the record of which
 * path a probe ran. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/probe.h"
#include "testutil.h"

START_TEST(kernel_lacks_what_says_no_such_interface)
{
	static const int lacks[] = { ENOSYS, ENOTTY, EOPNOTSUPP, ENOTSUP, EINVAL };
	/* failures of an interface that is there: memory, rights, a busy or absent object, an
	 * address in use, a race to retry */
	static const int has[] = { 0,	  ENOMEM, EPERM,      EACCES, EBUSY, ENOENT, ENODEV,
				   ENXIO, EAGAIN, EADDRINUSE, EFAULT, EBADF, EXDEV,  EIO };

	for (size_t i = 0; i < ARRAY_SIZE(lacks); i++)
		ck_assert_msg(sb_kernel_lacks(lacks[i]), "%s", strerrorname_np(lacks[i]));
	for (size_t i = 0; i < ARRAY_SIZE(has); i++)
		ck_assert_msg(!sb_kernel_lacks(has[i]), "%d", has[i]);
}
END_TEST

enum path { NONE, NEW, OLD };

START_TEST(records_which_path_ran_and_why)
{
	struct sb_probe p;

	memset(&p, 0x5a, sizeof(p));
	sb_probe_ran(&p, NEW);
	ck_assert_int_eq(p.ran, NEW);
	ck_assert_int_eq(p.instead_of, NONE);
	ck_assert_int_eq(p.err, 0);
	ck_assert_str_eq(p.why, "");
	ck_assert(!sb_probe_is_fallback(&p));

	sb_probe_fell_back(&p, NEW, OLD, ENOSYS, "no %s here", "new");
	ck_assert_int_eq(p.ran, OLD);
	ck_assert_int_eq(p.instead_of, NEW);
	ck_assert_int_eq(p.err, ENOSYS);
	ck_assert_str_eq(p.why, "no new here");
	ck_assert(sb_probe_is_fallback(&p));

	/* a new probe forgets the last one's reason */
	sb_probe_ran(&p, NEW);
	ck_assert_int_eq(p.instead_of, NONE);
	ck_assert_int_eq(p.err, 0);
	ck_assert_str_eq(p.why, "");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("probe");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, kernel_lacks_what_says_no_such_interface);
	tcase_add_test(tc, records_which_path_ran_and_why);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
