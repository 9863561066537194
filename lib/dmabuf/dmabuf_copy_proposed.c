// SPDX-License-Identifier: GPL-2.0-or-later
/* The copy methods of proposed uAPIs, which only patched kernels have: DMA_BUF_IOCTL_RW_FILE
 * (rw-file, rw-file-direct) and copy_file_range with a dma-buf (copy-range). Where the kernel
 * lacks them they fail with -EOPNOTSUPP naming the proposal, so 'auto' tries the next. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "socbox/dmabuf_copy.h"
#include "socbox/uapi/dma-buf.h"
#include "dmabuf_xfer.h"

/* A kernel without the proposal: what says so of any interface, and EXDEV, copy_file_range's
 * answer to two files of different file systems, which a dma-buf and a file are there (the
 * ioctl is judged the same way). */
static bool kernel_refuses(int err)
{
	return sb_kernel_lacks(err) || err == EXDEV;
}

/* One DMA_BUF_IOCTL_RW_FILE call for [off, off+len) of the transfer, in PIECE steps so a
 * stop request is seen; flags adds DIRECT. */
static int rw_file_ioctl(struct xfer *x, enum sb_copy_method m, uint32_t flags, uint64_t off,
			 uint64_t len)
{
	struct sb_dma_buf_rw_file rw = { 0 };
	uint64_t done = 0;
	int rc;

	rw.fd = x->fd;
	rw.flags = flags |
		   (x->dir == SB_COPY_TO_BUF ? SB_DMA_BUF_RW_FLAGS_READ : SB_DMA_BUF_RW_FLAGS_WRITE);
	while (done < len) {
		rw.file_offset = x->file_off + off + done;
		rw.buf_offset = x->buf_off + off + done;
		rw.buf_len = len - done < PIECE ? len - done : PIECE;
		if ((rc = xfer_stopped(x)))
			return rc;
		if (ioctl(x->b->fd, SB_DMA_BUF_IOCTL_RW_FILE, &rw) == 0) {
			done += rw.buf_len;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == ENODATA && x->dir == SB_COPY_TO_BUF)
			return xfer_short_source(x, off + done);
		if (errno == EBUSY) {
			xfer_unsupported(x->e, m, EBUSY, "use");
			sb_err_reason(
				x->e,
				"the buffer is attached to a device or mapped by the kernel (EBUSY)");
			sb_err_hint(x->e, "use --method read while a driver holds it");
			sb_err_exit(x->e, SB_EXIT_FAIL);
			return -EBUSY;
		}
		if (done == 0 && off == 0 && errno == EOPNOTSUPP) {
			xfer_unsupported(x->e, m, EOPNOTSUPP, "use");
			sb_err_reason(x->e,
				      "the %s exporter does not implement DMA_BUF_IOCTL_RW_FILE",
				      x->b->exporter);
			sb_err_hint(x->e,
				    "only the system heap implements it; use --method read or direct");
			return -EOPNOTSUPP;
		}
		if (done == 0 && off == 0 && kernel_refuses(errno))
			return xfer_kernel_lacks(
				x->e, m, errno,
				"DMA_BUF_IOCTL_RW_FILE was proposed in 2025 and is not in mainline; use udmabuf with direct");
		return xfer_io_error(x, errno, "DMA_BUF_IOCTL_RW_FILE");
	}
	return 0;
}

int xfer_run_rw_file(struct xfer *x)
{
	int rc;

	if (!x->path)
		return xfer_unsupported(x->e, SB_COPY_RW_FILE, EOPNOTSUPP,
					"DMA_BUF_IOCTL_RW_FILE needs a regular file");
	rc = rw_file_ioctl(x, SB_COPY_RW_FILE, 0, 0, x->len);
	if (!rc)
		x->res->bytes += x->len;
	return rc;
}

/* The page-aligned part with the DIRECT flag (the kernel wants file offset, buffer offset
 * and length page-aligned, and at least the file system's O_DIRECT alignment), the tail
 * buffered through the same ioctl. Without O_DIRECT here, -EAGAIN (xfer_direct_unusable):
 * all of it then goes buffered as rw-file. */
int xfer_run_rw_file_direct(struct xfer *x)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), align;
	uint32_t off_align, mem_align;
	struct sb_dio_split split;
	const char *why = NULL;
	int rc, err = 0;

	if (!x->path)
		return xfer_unsupported(x->e, SB_COPY_RW_FILE_DIRECT, EOPNOTSUPP,
					"DMA_BUF_IOCTL_RW_FILE needs a regular file");
	if (sb_copy_dio_align(x->fd, &off_align, &mem_align) || off_align == 0)
		why = "the file system does not support O_DIRECT";
	align = off_align > page ? off_align : page;
	split = sb_copy_dio_split(x->file_off, x->len, align);
	if (!why && x->buf_off % page)
		why = "buffer offset is not page-aligned";
	if (!why && split.direct_len) {
		rc = rw_file_ioctl(x, SB_COPY_RW_FILE_DIRECT, SB_DMA_BUF_RW_FLAGS_DIRECT, 0,
				   split.direct_len);
		/* EINVAL on the first call: no O_DIRECT for this file (ENOTTY: no ioctl at all) */
		if (rc == -EOPNOTSUPP && x->e->errnum == EINVAL) {
			why = "the kernel refused the DIRECT flag for this file (EINVAL)";
			err = EINVAL;
		} else if (rc) {
			return rc;
		}
	}
	if (why)
		return xfer_direct_unusable(x, SB_COPY_RW_FILE_DIRECT, err, "%s", why);
	if (split.tail_len &&
	    (rc = rw_file_ioctl(x, SB_COPY_RW_FILE_DIRECT, 0, split.direct_len, split.tail_len)))
		return rc;
	x->res->direct_bytes += split.direct_len;
	x->res->bytes += x->len;
	return 0;
}

int xfer_run_copy_range(struct xfer *x)
{
	int in = x->dir == SB_COPY_TO_BUF ? x->fd : x->b->fd;
	int out = x->dir == SB_COPY_TO_BUF ? x->b->fd : x->fd;
	loff_t in_off = (loff_t)(x->dir == SB_COPY_TO_BUF ? x->file_off : x->buf_off);
	loff_t out_off = (loff_t)(x->dir == SB_COPY_TO_BUF ? x->buf_off : x->file_off);
	uint64_t done = 0;

	if (!x->path)
		return xfer_unsupported(x->e, SB_COPY_COPY_RANGE, EOPNOTSUPP,
					"copy_file_range needs a regular file");
	while (done < x->len) {
		ssize_t n;
		int rc = xfer_stopped(x);

		if (rc)
			return rc;
		n = copy_file_range(in, &in_off, out, &out_off,
				    (size_t)(x->len - done < PIECE ? x->len - done : PIECE), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && done == 0 && (kernel_refuses(errno) || errno == EBADF))
			return xfer_kernel_lacks(
				x->e, SB_COPY_COPY_RANGE, errno,
				"copy_file_range with a dma-buf was proposed in 2025 and is not in mainline");
		if (n < 0)
			return xfer_io_error(x, errno, "copy_file_range");
		if (n == 0)
			return x->dir == SB_COPY_TO_BUF
				       ? xfer_short_source(x, done)
				       : xfer_io_error(x, ENOSPC, "copy_file_range");
		done += (uint64_t)n;
	}
	x->res->bytes += x->len;
	return 0;
}
