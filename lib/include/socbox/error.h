/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Errors as values: lib/ fills a struct sb_err and returns -errno; cmd/ decides what the
 * user sees. The exit codes are part of the interface (documented in every man page). */
#ifndef SOCBOX_ERROR_H
#define SOCBOX_ERROR_H

#include <errno.h>
#include <stdio.h>

enum sb_exit {
	SB_EXIT_OK = 0,		 /* success */
	SB_EXIT_FAIL = 1,	 /* operation or check failed */
	SB_EXIT_USAGE = 2,	 /* bad command line */
	SB_EXIT_UNSUPPORTED = 3, /* device, driver or kernel feature absent */
	SB_EXIT_PERM = 4,	 /* permission denied */
};

struct sb_err {
	int errnum;	  /* positive errno; 0 when only a message is known */
	int exit_code;	  /* enum sb_exit; 0 means "derive from errnum" */
	char object[160]; /* what it is about: "/dev/rpmsg_ctrl0", "heap system" */
	char what[128];	  /* what failed: "create endpoint" */
	char reason[256]; /* why; empty means strerror(errnum) */
	char hint[256];	  /* how to fix: module, kernel config, permission */
};

/* A path that should name a regular file or directory names a FIFO, socket or device node
 * (see sys.h). Linux has no EFTYPE; ENOSTR ("not a stream") is never returned by open(). */
#define SB_ENOTREG ENOSTR

/* strerror() that also knows socbox's own codes ("not a regular file"). */
const char *sb_strerror(int errnum);

/* Clear an error record. */
void sb_err_clear(struct sb_err *e);

/* Record an error and return -errnum (or -EIO when errnum is 0), so a library function can
 * write `return sb_err_set(e, errno, path, "open", NULL);`. e may be NULL. */
int sb_err_set(struct sb_err *e, int errnum, const char *object, const char *what,
	       const char *hint_fmt, ...) __attribute__((format(printf, 5, 6)));

/* Add or replace the reason (for example a kernel extack message). */
void sb_err_reason(struct sb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Add or replace the hint. */
void sb_err_hint(struct sb_err *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Force the exit code (for example SB_EXIT_UNSUPPORTED for a missing device node). */
void sb_err_exit(struct sb_err *e, enum sb_exit code);

/* The exit code for an errno: EPERM/EACCES -> 4; ENOTTY, EOPNOTSUPP, ENOSYS, ENODEV, ENXIO,
 * EAFNOSUPPORT, EPROTONOSUPPORT -> 3; anything else -> 1. */
int sb_exit_from_errno(int errnum);
/* e->exit_code when set, else derived from e->errnum. */
int sb_err_exit_code(const struct sb_err *e);

/* Format "OBJECT: WHAT: REASON (HINT)" without the applet prefix, leaving out empty parts. */
void sb_err_format(const struct sb_err *e, char *buf, unsigned long len);

/* The width to wrap messages on fp at: 0 when fp is not a terminal (scripts read one line
 * per message), else $COLUMNS, else the terminal's width. */
unsigned sb_err_width(FILE *fp);
/* line and "\n" on fp, broken at spaces to width columns (0: not at all), continuation
 * lines indented by two spaces; a word wider than the line (a path, a name) is never cut. */
void sb_err_put_wrapped(FILE *fp, const char *line, unsigned width);

#endif
