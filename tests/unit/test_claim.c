// SPDX-License-Identifier: GPL-2.0-or-later
/* Claimed temporary names (lib/kernel/claim.c): a claim held by a live process is never taken
 * for a leftover, one whose process was killed is, at once and whatever its age. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <utime.h>

#include "socbox/claim.h"
#include "testutil.h"

static void count_reap(const char *path, void *arg)
{
	ck_assert_int_eq(unlink(path), 0);
	(*(int *)arg)++;
}

static bool exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

START_TEST(a_held_claim_is_never_swept)
{
	char *dir = tu_tree_new();
	struct sb_claim c;
	struct sb_err e;
	int reaped = 0, fd;

	ck_assert_int_eq(sb_claim_create(&c, dir, ".out.x-", 0644, "out", &e), 0);
	ck_assert(exists(c.path));
	ck_assert_uint_eq(strlen(c.path), strlen(dir) + 1 + strlen(".out.x-") + 6);
	/* locked from the moment it has a name */
	fd = open(c.path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(flock(fd, LOCK_EX | LOCK_NB), -1);
	ck_assert_int_eq(errno, EWOULDBLOCK);
	close(fd);
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", count_reap, &reaped), 0);
	ck_assert(exists(c.path));
	/* released (its process gone): a leftover */
	sb_claim_release(&c);
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", count_reap, &reaped), 1);
	ck_assert_int_eq(reaped, 1);
	ck_assert(!exists(c.path));
	tu_tree_free(dir);
}
END_TEST

/* The case the claims are for: a process killed with its claim open. */
START_TEST(a_killed_process_leaves_a_leftover_the_next_sweep_takes)
{
	char *dir = tu_tree_new();
	char path[SB_CLAIM_PATH_MAX] = "";
	int p[2], reaped = 0;
	pid_t pid;

	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct sb_claim c;
		struct sb_err e;

		if (sb_claim_create(&c, dir, ".out.x-", 0644, "out", &e))
			_exit(1);
		if (write(p[1], c.path, strlen(c.path) + 1) < 0)
			_exit(1);
		pause();
		_exit(0);
	}
	close(p[1]);
	ck_assert_int_gt(read(p[0], path, sizeof(path)), 0);
	close(p[0]);
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", count_reap, &reaped), 0);
	kill(pid, SIGKILL);
	ck_assert_int_eq(waitpid(pid, NULL, 0), pid);
	ck_assert(exists(path));
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", count_reap, &reaped), 1);
	ck_assert(!exists(path));
	tu_tree_free(dir);
}
END_TEST

/* Only PREFIX + 6 characters are claims; PREFIXnew-xxxxxx (made before its lock where the
 * file system has no O_TMPFILE) only once it is an hour old; other names never. */
START_TEST(what_a_sweep_takes)
{
	char *dir = tu_tree_new(), path[4200];
	struct utimbuf old = { .actime = time(NULL) - 7200, .modtime = time(NULL) - 7200 };
	int reaped = 0;

	tu_write(dir, ".out.x-abc123", "", 0);	   /* an old-style leftover: taken */
	tu_write(dir, ".out.x-abc12", "", 0);	   /* 5 characters: not ours */
	tu_write(dir, ".out.x-abc1234", "", 0);	   /* 7 characters: not ours */
	tu_write(dir, ".out.x-new-young1", "", 0); /* being claimed: left */
	tu_write(dir, ".out.x-new-old123", "", 0); /* an hour old: taken */
	tu_write(dir, ".other.x-abc123", "", 0);   /* another destination */
	snprintf(path, sizeof(path), "%s/.out.x-new-old123", dir);
	ck_assert_int_eq(utime(path, &old), 0);
	snprintf(path, sizeof(path), "%s/.out.x-dir123", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0); /* not a regular file: left */
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", count_reap, &reaped), 2);
	ck_assert_int_eq(reaped, 2);
	snprintf(path, sizeof(path), "%s/.out.x-abc12", dir);
	ck_assert(exists(path));
	snprintf(path, sizeof(path), "%s/.out.x-new-young1", dir);
	ck_assert(exists(path));
	snprintf(path, sizeof(path), "%s/.other.x-abc123", dir);
	ck_assert(exists(path));
	tu_tree_free(dir);
}
END_TEST

static void record_reap(const char *path, void *arg)
{
	char *last = arg;

	snprintf(last, 4200, "%s", path);
}

/* A claim's tree or archive (CLAIM.d, CLAIM.part) without its claim is a leftover too (a
 * process that ran on after its sweeper removed the claim, a sweep cut short); with its claim
 * held, it belongs to a running process. */
START_TEST(what_a_claim_stands_for)
{
	char *dir = tu_tree_new(), path[4200], last[4200] = "", want[4200];
	int fd;

	snprintf(path, sizeof(path), "%s/.out.x-zzz999.d", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	tu_write(dir, ".out.x-zzz999.part", "half an archive", -1);
	tu_write(dir, ".out.x-yyy888", "", 0);
	snprintf(path, sizeof(path), "%s/.out.x-yyy888.d", dir);
	ck_assert_int_eq(mkdir(path, 0700), 0);
	snprintf(path, sizeof(path), "%s/.out.x-yyy888", dir);
	fd = open(path, O_RDONLY);
	ck_assert_int_eq(flock(fd, LOCK_EX), 0); /* held by a running process */
	ck_assert_uint_eq(sb_claim_sweep(dir, ".out.x-", record_reap, last), 2);
	snprintf(want, sizeof(want), "%s/.out.x-zzz999", dir);
	ck_assert_str_eq(last, want);
	close(fd);
	tu_tree_free(dir);
}
END_TEST

START_TEST(create_errors_name_the_destination)
{
	struct sb_claim c;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_claim_create(&c, "/nonexistent/dir", ".out-", 0644,
					 "/nonexistent/dir/out", &e),
			 -ENOENT);
	ck_assert_str_eq(e.object, "/nonexistent/dir/out");
	ck_assert_int_eq(c.fd, -1);
	ck_assert_uint_eq(sb_claim_sweep("/nonexistent/dir", ".out-", count_reap, NULL), 0);
}
END_TEST

START_TEST(rename_noreplace_keeps_what_is_there)
{
	char *dir = tu_tree_new(), a[4200], b[4200];

	tu_write(dir, "a", "new", -1);
	tu_write(dir, "b", "old", -1);
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	ck_assert_int_eq(sb_rename_noreplace(a, b), -1);
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_int_eq(unlink(b), 0);
	ck_assert_int_eq(sb_rename_noreplace(a, b), 0);
	ck_assert(!exists(a));
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("claim");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, a_held_claim_is_never_swept);
	tcase_add_test(tc, a_killed_process_leaves_a_leftover_the_next_sweep_takes);
	tcase_add_test(tc, what_a_sweep_takes);
	tcase_add_test(tc, what_a_claim_stands_for);
	tcase_add_test(tc, create_errors_name_the_destination);
	tcase_add_test(tc, rename_noreplace_keeps_what_is_there);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
