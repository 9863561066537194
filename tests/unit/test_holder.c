// SPDX-License-Identifier: GPL-2.0-or-later
/* Which other process holds a file open (lib/kernel/holder.c): a child that opened the same
 * file under another name is found with its pid and comm; this process's own fds are not;
 * a file nobody else has open has no holder. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "socbox/holder.h"
#include "testutil.h"

static char *dir;
static char path[512], alias[512];

static void setup(void)
{
	dir = tu_tree_new();
	tu_write(dir, "file", "x", -1);
	snprintf(path, sizeof(path), "%s/file", dir);
	snprintf(alias, sizeof(alias), "%s/alias", dir);
	ck_assert_int_eq(link(path, alias), 0);
}

static void teardown(void)
{
	tu_tree_free(dir);
}

START_TEST(a_child_holding_it_is_named)
{
	int ready[2], done[2], fd;
	struct sb_holder h;
	char c;
	pid_t pid;

	ck_assert_int_eq(pipe(ready), 0);
	ck_assert_int_eq(pipe(done), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int held = open(alias, O_RDONLY);

		prctl(PR_SET_NAME, "holder-test");
		if (held < 0 || write(ready[1], "r", 1) != 1)
			_exit(1);
		/* until the parent has looked */
		_exit(read(done[0], &c, 1) == 1 ? 0 : 1);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(sb_holder_other(fd, &h), 1);
	ck_assert_int_eq(h.pid, pid);
	ck_assert_str_eq(h.comm, "holder-test");
	ck_assert_int_eq(write(done[1], "d", 1), 1);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	/* the child is gone: only this process has it open */
	ck_assert_int_eq(sb_holder_other(fd, &h), 0);
	close(fd);
}
END_TEST

START_TEST(own_fds_do_not_count)
{
	struct sb_holder h;
	int a = open(path, O_RDONLY), b = open(alias, O_RDONLY);

	ck_assert_int_ge(a, 0);
	ck_assert_int_ge(b, 0);
	ck_assert_int_eq(sb_holder_other(a, &h), 0);
	close(a);
	close(b);
	ck_assert_int_eq(sb_holder_other(-1, &h), -EBADF);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("holder");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, a_child_holding_it_is_named);
	tcase_add_test(tc, own_fds_do_not_count);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
