// SPDX-License-Identifier: GPL-2.0-or-later
/* What the readers of lib/kernel/sys.c found, for tests/cli/snapshot_covers.sh. */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sys_root.h"

/* Test hook, off unless SOCBOX_TEST_RECORD_READS names a file: each path that was opened,
 * looked at or read as a link is appended to that file as the host names it (a sysroot's
 * path first), so tests/cli/snapshot_covers.sh can hold what the views read to what a
 * snapshot copies. Only what was found: a snapshot cannot hold what the board lacks. */
static void __attribute__((noinline)) record(const char *file, const char *dir, const char *path)
{
	char line[2 * PATH_MAX + 2];
	int fd, n;

	n = snprintf(line, sizeof(line), "%s%s%s\n", dir, *dir && *path != '/' ? "/" : "", path);
	if (n <= 0 || (size_t)n >= sizeof(line))
		return;
	fd = open(file, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* one write a line (O_APPEND: whole lines from each process); a lost one fails the test
	 * that reads them */
	ssize_t done = write(fd, line, (size_t)n);
	(void)done;
	close(fd);
}

/* The file named by SOCBOX_TEST_RECORD_READS, or NULL. Checked before record() or a
 * buffer of PATH_MAX is entered: with stack-clash protection each page of such a frame is
 * probed, so a frame entered on every open deepens the stack by its size, and each new
 * stack page is a page fault at start. */
static const char *record_file(void)
{
	const char *file = getenv("SOCBOX_TEST_RECORD_READS");

	return file && *file ? file : NULL;
}

static void __attribute__((noinline)) record_at(const char *file, int dfd, const char *name)
{
	char proc[64], dir[PATH_MAX];
	ssize_t n;

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dfd);
	n = readlink(proc, dir, sizeof(dir) - 1);
	if (n <= 0)
		return;
	dir[n] = '\0';
	record(file, dir, name);
}

void sys_record_read_at(int dfd, const char *name)
{
	const char *file = record_file();

	if (file)
		record_at(file, dfd, name);
}

void sys_record_read(const struct sb_root *r, const char *path)
{
	const char *file = record_file();

	if (file)
		record(file, r->live ? "" : r->path, path);
}
