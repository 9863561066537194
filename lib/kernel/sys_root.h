/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What a struct sb_root holds: for lib/kernel/sys*.c only. */
#ifndef SOCBOX_SYS_ROOT_H
#define SOCBOX_SYS_ROOT_H

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
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

/* sys.c: open a path below the root and record it for the test hook; -1 and errno. */
int sys_openat(const struct sb_root *r, const char *path, int flags);

static inline int __attribute__((format(printf, 3, 0)))
vpath(char *buf, size_t len, const char *fmt, va_list ap)
{
	int n = vsnprintf(buf, len, fmt, ap);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/* Format the calling function's variadic arguments after fmt into the array buf: 0, or
 * -ENAMETOOLONG when the path does not fit. */
#define FORMAT_ARGS(buf, fmt) \
	({ \
		va_list ap_; \
		int rc_; \
		va_start(ap_, fmt); \
		rc_ = vpath(buf, sizeof(buf), fmt, ap_); \
		va_end(ap_); \
		rc_; \
	})

#endif
