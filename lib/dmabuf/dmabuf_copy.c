// SPDX-License-Identifier: GPL-2.0-or-later
/* The copy engines: move bytes between a file and a dma-buf by one method, bracketed by
 * DMA_BUF_IOCTL_SYNC when the CPU touches the buffer. Methods that do not apply, or that the
 * kernel lacks, fail with -EOPNOTSUPP (exit code 3) so 'auto' can try the next. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/sendfile.h>
#include <unistd.h>
#include <xxhash.h>

#include "socbox/dmabuf_copy.h"
#include "socbox/uapi/dma-buf.h"
#include "dmabuf_xfer.h"

int xfer_unsupported(struct sb_err *e, enum sb_copy_method m, int err, const char *why)
{
	char object[64];

	snprintf(object, sizeof(object), "method %s", sb_copy_method_name(m));
	sb_err_set(e, err ? err : EOPNOTSUPP, object, why, NULL);
	sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	return -EOPNOTSUPP;
}

int xfer_kernel_lacks(struct sb_err *e, enum sb_copy_method m, int err, const char *hint)
{
	xfer_unsupported(e, m, err, "use");
	sb_err_reason(e, "unsupported by this kernel (%s)", strerror(err));
	sb_err_hint(e, "%s", hint);
	return -EOPNOTSUPP;
}

/* The method that moves the bytes where an O_DIRECT one cannot: the same path buffered. */
static enum sb_copy_method buffered_twin(enum sb_copy_method m)
{
	return m == SB_COPY_RW_FILE_DIRECT ? SB_COPY_RW_FILE : SB_COPY_READ;
}

int xfer_direct_unusable(struct xfer *x, enum sb_copy_method m, int err, const char *why_fmt, ...)
{
	char why[sizeof(x->res->path.why)];
	va_list ap;

	va_start(ap, why_fmt);
	vsnprintf(why, sizeof(why), why_fmt, ap);
	va_end(ap);
	sb_probe_fell_back(&x->res->path, m, buffered_twin(m), err, "%s", why);
	return -EAGAIN;
}

int xfer_stopped(struct xfer *x)
{
	if (x->stop && *x->stop) {
		sb_err_set(x->e, EINTR, "copy", "interrupted", NULL);
		sb_err_exit(x->e, SB_EXIT_FAIL);
		return -EINTR;
	}
	return 0;
}

int xfer_short_source(struct xfer *x, uint64_t done)
{
	sb_err_set(x->e, ENODATA, x->path ? x->path : "input", "read", NULL);
	sb_err_reason(x->e,
		      "the source ended after %llu of %llu bytes (it shrank during the copy?)",
		      (unsigned long long)(x->file_off + done),
		      (unsigned long long)(x->file_off + x->len));
	sb_err_exit(x->e, SB_EXIT_FAIL);
	return -ENODATA;
}

int xfer_io_error(struct xfer *x, int err, const char *what)
{
	sb_err_set(x->e, err, x->path ? x->path : "file", what,
		   err == ENOSPC   ? "the file system is full"
		   : err == EDQUOT ? "disk quota exceeded"
				   : NULL);
	sb_err_exit(x->e, err == EACCES || err == EPERM ? SB_EXIT_PERM : SB_EXIT_FAIL);
	return -err;
}

/* Buffered transfer between fd and memory at mem; pipes use read/write. */
static int xfer_buffered(struct xfer *x, int fd, char *mem, uint64_t off, uint64_t len)
{
	bool seekable = lseek(fd, 0, SEEK_CUR) >= 0;
	uint64_t done = 0;

	while (done < len) {
		size_t want = len - done < PIECE ? (size_t)(len - done) : PIECE;
		ssize_t n;
		int rc = xfer_stopped(x);

		if (rc)
			return rc;
		if (x->dir == SB_COPY_TO_BUF)
			n = seekable ? pread(fd, mem + done, want, (off_t)(off + done))
				     : read(fd, mem + done, want);
		else
			n = seekable ? pwrite(fd, mem + done, want, (off_t)(off + done))
				     : write(fd, mem + done, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return xfer_io_error(x, errno, x->dir == SB_COPY_TO_BUF ? "read" : "write");
		if (n == 0)
			return x->dir == SB_COPY_TO_BUF
				       ? xfer_short_source(x, off + done - x->file_off)
				       : xfer_io_error(x, ENOSPC, "write");
		done += (uint64_t)n;
	}
	return 0;
}

#define BOUNCE (1u << 20)

/* Buffer to fd with the written bytes hashed: each piece is copied out of the buffer first,
 * hashed, and written from that copy, so the hash is of exactly what write(2) took even when
 * the buffer changes meanwhile (a device, another process). */
static int xfer_hashed(struct xfer *x, int fd, const char *mem, uint64_t off, uint64_t len,
		       XXH3_state_t *hs)
{
	bool seekable = lseek(fd, 0, SEEK_CUR) >= 0;
	char *bounce = malloc(BOUNCE);
	uint64_t done = 0;
	int rc = 0;

	if (!bounce)
		return sb_err_set(x->e, ENOMEM, "output", "hash the bytes written", NULL);
	while (done < len && !rc) {
		size_t want = len - done < BOUNCE ? (size_t)(len - done) : BOUNCE, put = 0;

		memcpy(bounce, mem + done, want);
		XXH3_64bits_update(hs, bounce, want);
		while (put < want && !rc) {
			ssize_t n;

			if ((rc = xfer_stopped(x)))
				break;
			n = seekable ? pwrite(fd, bounce + put, want - put,
					      (off_t)(off + done + put))
				     : write(fd, bounce + put, want - put);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				rc = xfer_io_error(x, n < 0 ? errno : ENOSPC, "write");
			else
				put += (size_t)n;
		}
		done += want;
	}
	free(bounce);
	return rc;
}

/* The CPU's view of the buffer: a udmabuf's memfd mapping is ordinary shmem that
 * MAP_POPULATE fills in advance, while its dma-buf mapping faults page by page. */
static char *cpu_view(const struct sb_dmabuf *b)
{
	return b->memfd_map ? b->memfd_map : b->map;
}

static int run_read(struct xfer *x)
{
	XXH3_state_t *hs = NULL;
	int rc;

	/* No POSIX_FADV_SEQUENTIAL: its doubled readahead window made the buffered read about
	 * 5% slower on the test bed (heap:system and udmabuf, 128 MiB, cache dropped), where
	 * the kernel's own readahead ramp, as dd gets it, kept up with the reads. */
	if (x->dir == SB_COPY_FROM_BUF && x->res->hash_written) {
		if (!(hs = XXH3_createState()))
			return sb_err_set(x->e, ENOMEM, "output", "hash the bytes written", NULL);
		XXH3_64bits_reset(hs);
	}
	if (hs)
		rc = xfer_hashed(x, x->fd, cpu_view(x->b) + x->buf_off, x->file_off, x->len, hs);
	else
		rc = xfer_buffered(x, x->fd, cpu_view(x->b) + x->buf_off, x->file_off, x->len);
	if (hs) {
		if (!rc) {
			x->res->written_hash = XXH3_64bits_digest(hs);
			x->res->written_hashed = true;
		}
		XXH3_freeState(hs);
	}

	if (!rc)
		x->res->bytes += x->len;
	return rc;
}

/* O_DIRECT for the aligned part, buffered for the tail; -EAGAIN (xfer_direct_unusable) when
 * O_DIRECT cannot work here. */
static int run_direct(struct xfer *x)
{
	char *mem = cpu_view(x->b);
	uint32_t off_align, mem_align;
	struct sb_dio_split split;
	uint64_t done = 0;
	int dfd, rc;

	if (!x->path)
		return xfer_unsupported(x->e, SB_COPY_DIRECT, EOPNOTSUPP,
					"O_DIRECT needs a regular file, not a pipe");
	if (sb_copy_dio_align(x->fd, &off_align, &mem_align) || off_align == 0)
		return xfer_direct_unusable(x, SB_COPY_DIRECT, 0,
					    "the file system does not support O_DIRECT");
	split = sb_copy_dio_split(x->file_off, x->len, off_align);
	if ((uintptr_t)(mem + x->buf_off) % (mem_align ? mem_align : 1))
		return xfer_direct_unusable(x, SB_COPY_DIRECT, 0,
					    "buffer offset is not aligned for O_DIRECT");
	if (split.direct_len) {
		dfd = open(x->path,
			   (x->dir == SB_COPY_TO_BUF ? O_RDONLY : O_WRONLY) | O_DIRECT | O_CLOEXEC);
		if (dfd < 0)
			return xfer_direct_unusable(
				x, SB_COPY_DIRECT, errno,
				"O_DIRECT open: %s (tmpfs and overlay file systems may lack it)",
				strerror(errno));
		while (done < split.direct_len) {
			size_t want = split.direct_len - done < PIECE
					      ? (size_t)(split.direct_len - done)
					      : PIECE;
			ssize_t n;

			if ((rc = xfer_stopped(x))) {
				close(dfd);
				return rc;
			}
			if (x->dir == SB_COPY_TO_BUF)
				n = pread(dfd, mem + x->buf_off + done, want,
					  (off_t)(x->file_off + done));
			else
				n = pwrite(dfd, mem + x->buf_off + done, want,
					   (off_t)(x->file_off + done));
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0 && done == 0 && (errno == EFAULT || errno == EINVAL)) {
				int err = errno;

				close(dfd);
				return xfer_direct_unusable(
					x, SB_COPY_DIRECT, err,
					"O_DIRECT %s: %s (the buffer's pages cannot be pinned)",
					x->dir == SB_COPY_TO_BUF ? "read" : "write", strerror(err));
			}
			if (n < 0) {
				rc = xfer_io_error(x, errno,
						   x->dir == SB_COPY_TO_BUF ? "O_DIRECT read"
									    : "O_DIRECT write");
				close(dfd);
				return rc;
			}
			if (n == 0 || (uint64_t)n % off_align) {
				close(dfd);
				if (x->dir == SB_COPY_TO_BUF)
					return xfer_short_source(x, done + (uint64_t)n);
				return xfer_io_error(x, ENOSPC, "O_DIRECT write");
			}
			done += (uint64_t)n;
		}
		close(dfd);
	}
	x->res->direct_bytes += split.direct_len;
	if (split.tail_len) {
		rc = xfer_buffered(x, x->fd, mem + x->buf_off + split.direct_len,
				   x->file_off + split.direct_len, split.tail_len);
		if (rc)
			return rc;
	}
	x->res->bytes += x->len;
	return 0;
}

static int run_sendfile(struct xfer *x)
{
	int in = x->dir == SB_COPY_TO_BUF ? x->fd : x->b->memfd;
	int out = x->dir == SB_COPY_TO_BUF ? x->b->memfd : x->fd;
	off_t in_off = (off_t)(x->dir == SB_COPY_TO_BUF ? x->file_off : x->buf_off);
	off_t out_off = (off_t)(x->dir == SB_COPY_TO_BUF ? x->buf_off : x->file_off);
	uint64_t done = 0;

	if (x->b->memfd < 0)
		return xfer_unsupported(x->e, SB_COPY_SENDFILE, EOPNOTSUPP,
					"sendfile needs a udmabuf (its memfd)");
	if (lseek(out, out_off, SEEK_SET) < 0)
		return xfer_io_error(x, errno, "seek");
	while (done < x->len) {
		size_t want = x->len - done < PIECE ? (size_t)(x->len - done) : PIECE;
		ssize_t n;
		int rc = xfer_stopped(x);

		if (rc)
			return rc;
		n = sendfile(out, in, &in_off, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && done == 0 && sb_kernel_lacks(errno))
			return xfer_kernel_lacks(
				x->e, SB_COPY_SENDFILE, errno,
				"sendfile into/out of a memfd needs Linux 2.6.33 or later");
		if (n < 0)
			return xfer_io_error(x, errno, "sendfile");
		if (n == 0)
			return x->dir == SB_COPY_TO_BUF ? xfer_short_source(x, done)
							: xfer_io_error(x, ENOSPC, "sendfile");
		done += (uint64_t)n;
	}
	x->res->bytes += x->len;
	return 0;
}

static int run_splice(struct xfer *x)
{
	int in = x->dir == SB_COPY_TO_BUF ? x->fd : x->b->memfd;
	int out = x->dir == SB_COPY_TO_BUF ? x->b->memfd : x->fd;
	loff_t in_off = (loff_t)(x->dir == SB_COPY_TO_BUF ? x->file_off : x->buf_off);
	loff_t out_off = (loff_t)(x->dir == SB_COPY_TO_BUF ? x->buf_off : x->file_off);
	uint64_t done = 0;
	int p[2], rc = 0;
	long pipe_size;

	if (x->b->memfd < 0)
		return xfer_unsupported(x->e, SB_COPY_SPLICE, EOPNOTSUPP,
					"splice needs a udmabuf (its memfd)");
	if (pipe2(p, O_CLOEXEC))
		return xfer_io_error(x, errno, "create pipe");
	pipe_size = fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
	if (pipe_size <= 0)
		pipe_size = fcntl(p[1], F_GETPIPE_SZ);
	if (pipe_size <= 0)
		pipe_size = 65536;
	while (done < x->len && !rc) {
		size_t want = x->len - done < (uint64_t)pipe_size ? (size_t)(x->len - done)
								  : (size_t)pipe_size;
		ssize_t n, m;

		if ((rc = xfer_stopped(x)))
			break;
		n = splice(in, &in_off, p[1], NULL, want, SPLICE_F_MOVE);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && done == 0 && sb_kernel_lacks(errno)) {
			rc = xfer_kernel_lacks(x->e, SB_COPY_SPLICE, errno,
					       "splice needs both files to support it");
			break;
		}
		if (n < 0) {
			rc = xfer_io_error(x, errno, "splice into pipe");
			break;
		}
		if (n == 0) {
			rc = xfer_short_source(x, done);
			break;
		}
		while (n > 0) {
			m = splice(p[0], NULL, out, &out_off, (size_t)n, SPLICE_F_MOVE);
			if (m < 0 && errno == EINTR)
				continue;
			if (m <= 0) {
				rc = xfer_io_error(x, m < 0 ? errno : ENOSPC, "splice out of pipe");
				break;
			}
			n -= m;
			done += (uint64_t)m;
		}
	}
	close(p[0]);
	close(p[1]);
	if (!rc)
		x->res->bytes += x->len;
	return rc;
}

static bool cpu_touches_buffer(enum sb_copy_method m)
{
	return m != SB_COPY_RW_FILE && m != SB_COPY_RW_FILE_DIRECT && m != SB_COPY_COPY_RANGE;
}

static int run_method(enum sb_copy_method m, struct xfer *x)
{
	switch (m) {
	case SB_COPY_READ:
		return run_read(x);
	case SB_COPY_DIRECT:
		return run_direct(x);
	case SB_COPY_SENDFILE:
		return run_sendfile(x);
	case SB_COPY_SPLICE:
		return run_splice(x);
	case SB_COPY_RW_FILE:
		return xfer_run_rw_file(x);
	case SB_COPY_RW_FILE_DIRECT:
		return xfer_run_rw_file_direct(x);
	case SB_COPY_COPY_RANGE:
		return xfer_run_copy_range(x);
	default:
		break;
	}
	return xfer_unsupported(x->e, m, EINVAL, "choose a concrete method");
}

int sb_copy_run(enum sb_copy_method m, const struct sb_copy_req *rq, struct sb_copy_result *res,
		struct sb_err *e)
{
	struct xfer x = {
		.dir = rq->dir,
		.fd = rq->fd,
		.path = rq->path,
		.file_off = rq->file_off,
		.b = rq->b,
		.buf_off = rq->buf_off,
		.len = rq->len,
		.stop = rq->stop,
		.res = res,
		.e = e,
		.allow_fallback = rq->allow_fallback,
	};
	enum sb_copy_dir dir = rq->dir;
	struct sb_dmabuf *b = rq->b;
	uint64_t buf_off = rq->buf_off, len = rq->len;
	bool write = dir == SB_COPY_TO_BUF;
	int rc, rc2;

	sb_probe_ran(&res->path, m);
	if (buf_off + len > b->size) {
		sb_err_set(e, EINVAL, b->exporter, "copy", "%llu bytes do not fit a buffer of %llu",
			   (unsigned long long)(buf_off + len), (unsigned long long)b->size);
		return -EINVAL;
	}
	if (dir == SB_COPY_TO_BUF && !b->writable) {
		sb_err_set(e, EBADF, b->exporter, "write into the buffer",
			   "the fd was opened read-only by its owner");
		sb_err_exit(e, SB_EXIT_FAIL);
		return -EBADF;
	}
	if (cpu_touches_buffer(m) && (rc = sb_dmabuf_sync(b, false, write, e)))
		return rc;
	rc = run_method(m, &x);
	if (rc == -EAGAIN && !rq->allow_fallback) {
		xfer_unsupported(e, m, EOPNOTSUPP, "use");
		sb_err_reason(e, "%s", res->path.why);
		if (m == SB_COPY_DIRECT)
			sb_err_hint(
				e,
				"use --method read, or a file on a block-device file system with a udmabuf");
		sb_probe_ran(&res->path, m);
		rc = -EOPNOTSUPP;
	} else if (rc == -EAGAIN) {
		sb_err_clear(e); /* what the O_DIRECT attempt recorded, if anything */
		rc = run_method(res->path.ran, &x);
	}
	if (cpu_touches_buffer(m) && (rc2 = sb_dmabuf_sync(b, true, write, rc ? NULL : e)) && !rc)
		rc = rc2;
	return rc;
}

int sb_copy_run_auto(const struct sb_copy_req *rq, bool cached, struct sb_copy_result *res,
		     char *tried, size_t tried_len, struct sb_err *e)
{
	const struct sb_dmabuf *b = rq->b;
	const enum sb_copy_method *order =
		sb_copy_auto_order(b->kind == SB_DMABUF_PIDFD ? SB_DMABUF_HEAP : b->kind, rq->dir,
				   cached);
	struct sb_copy_req each = *rq;
	size_t used = 0;
	int rc = -EOPNOTSUPP;

	if (tried_len)
		tried[0] = '\0';
	for (; *order != SB_COPY_AUTO; order++) {
		if (!sb_copy_method_applies(*order, b, rq->path == NULL))
			continue;
		memset(res, 0, sizeof(*res));
		sb_err_clear(e);
		each.allow_fallback = true;
		rc = sb_copy_run(*order, &each, res, e);
		if (rc != -EOPNOTSUPP && rc != -EBUSY)
			return rc;
		if (used < tried_len)
			used += (size_t)snprintf(tried + used, tried_len - used, "%s%s: %s",
						 used ? "; " : "", sb_copy_method_name(*order),
						 e->reason[0] ? e->reason : "unsupported");
	}
	return rc;
}
