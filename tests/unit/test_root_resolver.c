// SPDX-License-Identifier: GPL-2.0-or-later
/* How paths below a sysroot are opened (socbox/sys.h): openat2 where the kernel has it,
 * socbox's own walk where it lacks it, and the --verbose line that says which ran. A kernel
 * without openat2 is played by a fake system call (sb_root_set_openat2). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>

#include "socbox/sys.h"
#include "testutil.h"

static int openat2_calls;

static long no_openat2(int dfd, const char *path, void *how, size_t size)
{
	openat2_calls++;
	errno = ENOSYS;
	return -1;
}

/* openat2 as a kernel that has it would answer for these plain paths (no links, no "..") */
static long plain_openat2(int dfd, const char *path, void *how, size_t size)
{
	const struct open_how *h = how;

	openat2_calls++;
	ck_assert_uint_eq(size, sizeof(*h));
	ck_assert(h->resolve & RESOLVE_IN_ROOT);
	return openat(dfd, path, (int)h->flags);
}

static char *dir;

static void setup(void)
{
	dir = tu_tree_new();
	tu_write(dir, "sys/class/thing/a/value", "7\n", -1);
	tu_symlink(dir, "sys/class/thing/b", "a");
	openat2_calls = 0;
}

static void teardown(void)
{
	sb_root_set_openat2(NULL);
	tu_tree_free(dir);
}

START_TEST(without_openat2_the_walk_runs_and_says_why)
{
	char buf[256], want[256];
	struct sb_root *r;
	const struct sb_probe *p;
	struct sb_err e;
	uint64_t v;

	sb_root_set_openat2(no_openat2);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	p = sb_root_resolver(r);
	ck_assert_int_eq(p->ran, SB_ROOT_RESOLVE_WALK);
	ck_assert_int_eq(p->instead_of, SB_ROOT_RESOLVE_OPENAT2);
	ck_assert_int_eq(p->err, ENOSYS);
	ck_assert(sb_probe_is_fallback(p));
	/* asked once, when the root was opened; the reads take the walk (through a link) */
	ck_assert_int_eq(openat2_calls, 1);
	ck_assert_int_eq(sb_attr_u64(r, &v, "/sys/class/thing/b/value"), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_eq(openat2_calls, 1);
	snprintf(want, sizeof(want),
		 "sysroot %s: paths resolved by socbox's walk instead of openat2: the kernel lacks "
		 "it (ENOSYS; Linux 5.6 and qemu-user 9.0 have it)",
		 sb_root_path(r));
	ck_assert_int_eq(sb_root_resolver_text(r, buf, sizeof(buf)), (int)strlen(want));
	ck_assert_str_eq(buf, want);
	sb_root_close(r);
}
END_TEST

START_TEST(with_openat2_it_runs_and_says_so)
{
	char buf[256], want[256];
	struct sb_root *r;
	struct sb_err e;
	uint64_t v;

	sb_root_set_openat2(plain_openat2);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_root_resolver(r)->ran, SB_ROOT_RESOLVE_OPENAT2);
	ck_assert(!sb_probe_is_fallback(sb_root_resolver(r)));
	ck_assert_int_eq(openat2_calls, 1);
	ck_assert_int_eq(sb_attr_u64(r, &v, "/sys/class/thing/a/value"), 0);
	ck_assert_uint_eq(v, 7);
	ck_assert_int_gt(openat2_calls, 1); /* the read went through openat2 */
	snprintf(want, sizeof(want), "sysroot %s: paths resolved by openat2", sb_root_path(r));
	sb_root_resolver_text(r, buf, sizeof(buf));
	ck_assert_str_eq(buf, want);
	sb_root_close(r);
}
END_TEST

START_TEST(the_live_system_resolves_nothing)
{
	char buf[64] = "x";
	struct sb_root *r;
	struct sb_err e;

	sb_root_set_openat2(no_openat2);
	ck_assert_int_eq(sb_root_open(&r, "/", &e), 0);
	ck_assert_int_eq(sb_root_resolver(r)->ran, SB_ROOT_RESOLVE_NONE);
	ck_assert_int_eq(openat2_calls, 0);
	ck_assert_int_eq(sb_root_resolver_text(r, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	sb_root_close(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("root_resolver");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, without_openat2_the_walk_runs_and_says_why);
	tcase_add_test(tc, with_openat2_it_runs_and_says_so);
	tcase_add_test(tc, the_live_system_resolves_nothing);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
