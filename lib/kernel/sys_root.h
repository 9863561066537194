/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a struct sb_root holds: for lib/kernel/sys*.c only. */
#ifndef SOCBOX_SYS_ROOT_H
#define SOCBOX_SYS_ROOT_H

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "socbox/probe.h"

/* A file read once per root (sb_read_file_once). */
struct sb_file_once {
	struct sb_file_once *next;
	char *text;
	ssize_t rc;
	char path[];
};

struct sb_root {
	int fd;
	bool live;
	struct sb_probe resolver; /* enum sb_root_resolver: how paths below it are opened */
	struct sb_file_once *once;
	char path[]; /* canonical, as realpath(3) gives it */
};

/* sys_record.c: the test hook SOCBOX_TEST_RECORD_READS=FILE (off when unset) appends each
 * path found below a root, or below the directory dfd, to FILE. */
void sys_record_read(const struct sb_root *r, const char *path);
void sys_record_read_at(int dfd, const char *name);

/* sys_root.c: open a path below the root (see there for what a sysroot may not open), and
 * open one for reading with the size at which reading may stop. */
int root_openat(const struct sb_root *r, const char *path, int flags);
int root_open_text(const struct sb_root *r, const char *path, off_t *size);

#endif
