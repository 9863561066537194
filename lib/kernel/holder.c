// SPDX-License-Identifier: GPL-2.0-or-later
#include "socbox/holder.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

static bool process_holds(int procfd, const char *pid, const struct stat *want)
{
	char path[64];
	struct dirent *de;
	struct stat st;
	bool found = false;
	int dfd;
	DIR *d;

	snprintf(path, sizeof(path), "%.20s/fd", pid);
	dfd = openat(procfd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return false;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return false;
	}
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		/* follows the fd's link to the open file itself */
		found = fstatat(dfd, de->d_name, &st, 0) == 0 && same_file(&st, want);
	}
	closedir(d);
	return found;
}

static void read_comm(int procfd, const char *pid, char *buf, size_t len)
{
	char path[64];
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof(path), "%.20s/comm", pid);
	fd = openat(procfd, path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, buf, len - 1);
		close(fd);
	}
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

int sb_holder_err(struct sb_err *e, const struct sb_holder *h, const char *object, const char *what,
		  const char *hint)
{
	sb_err_set(e, EBUSY, object, what, "%s", hint);
	sb_err_reason(e, "in use by process %d (%s)", (int)h->pid, h->comm);
	return -EBUSY;
}

int sb_holder_other(int fd, struct sb_holder *h)
{
	struct stat want;
	struct dirent *de;
	pid_t self = getpid();
	int procfd, found = 0;
	DIR *d;

	if (fstat(fd, &want) < 0)
		return -errno;
	procfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (procfd < 0)
		return -errno;
	d = fdopendir(dup(procfd));
	if (!d) {
		int err = errno;

		close(procfd);
		return -err;
	}
	while (!found && (de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);

		if (*end || pid <= 0 || pid == self)
			continue;
		if (process_holds(procfd, de->d_name, &want)) {
			h->pid = (pid_t)pid;
			read_comm(procfd, de->d_name, h->comm, sizeof(h->comm));
			found = 1;
		}
	}
	closedir(d);
	close(procfd);
	return found;
}
