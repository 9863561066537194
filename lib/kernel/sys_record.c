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
static void record(const char *dir, const char *path)
{
	const char *file = getenv("SOCBOX_TEST_RECORD_READS");
	char line[2 * PATH_MAX + 2];
	int fd, n;

	if (!file || !*file)
		return;
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

void sys_record_read_at(int dfd, const char *name)
{
	char proc[64], dir[PATH_MAX];
	ssize_t n;

	if (!getenv("SOCBOX_TEST_RECORD_READS"))
		return;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", dfd);
	n = readlink(proc, dir, sizeof(dir) - 1);
	if (n <= 0)
		return;
	dir[n] = '\0';
	record(dir, name);
}

void sys_record_read(const struct sb_root *r, const char *path)
{
	record(r->live ? "" : r->path, path);
}
