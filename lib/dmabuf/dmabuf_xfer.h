/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One transfer of the copy engines and the error helpers every method uses: for
 * lib/dmabuf/dmabuf_copy*.c only. */
#ifndef SOCBOX_DMABUF_XFER_H
#define SOCBOX_DMABUF_XFER_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "socbox/dmabuf_copy.h"

#define PIECE (8u << 20) /* bytes per syscall: big enough to be fast, small enough to stop */

struct xfer {
	enum sb_copy_dir dir;
	int fd;
	const char *path;
	uint64_t file_off;
	struct sb_dmabuf *b;
	uint64_t buf_off;
	uint64_t len;
	volatile sig_atomic_t *stop;
	struct sb_copy_result *res;
	struct sb_err *e;
	bool allow_fallback;
};

/* -EOPNOTSUPP (exit 3): method m does not apply (why), or the kernel lacks it (hint). */
int xfer_unsupported(struct sb_err *e, enum sb_copy_method m, int err, const char *why);
int xfer_kernel_lacks(struct sb_err *e, enum sb_copy_method m, int err, const char *hint);
/* O_DIRECT cannot be used for this transfer of method m, and nothing has moved: records why
 * (err: the errno that said so, or 0) in the result and returns -EAGAIN, on which
 * sb_copy_run() runs the method's buffered twin, or fails when no fallback is allowed. */
int xfer_direct_unusable(struct xfer *x, enum sb_copy_method m, int err, const char *why_fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* -EINTR when a stop was requested, else 0. */
int xfer_stopped(struct xfer *x);
/* The source file ended after done bytes of the transfer. */
int xfer_short_source(struct xfer *x, uint64_t done);
/* An I/O error of what (a syscall's name). */
int xfer_io_error(struct xfer *x, int err, const char *what);

/* dmabuf_copy_proposed.c */
int xfer_run_rw_file(struct xfer *x);
int xfer_run_rw_file_direct(struct xfer *x);
int xfer_run_copy_range(struct xfer *x);

#endif
