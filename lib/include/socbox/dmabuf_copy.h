/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Copy engines between a file and a mapped dma-buf, plus the arithmetic around them (chunk
 * planning, O_DIRECT alignment) and the temporary-file-then-rename output. */
#ifndef SOCBOX_COPY_H
#define SOCBOX_COPY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/dmabuf.h"
#include "socbox/error.h"
#include "socbox/probe.h"

enum sb_copy_method {
	SB_COPY_AUTO,
	SB_COPY_READ,		/* read()/write() between the file and the mapping */
	SB_COPY_DIRECT,		/* O_DIRECT between the file and the mapping */
	SB_COPY_SENDFILE,	/* sendfile() with the udmabuf's memfd */
	SB_COPY_SPLICE,		/* splice() through a pipe with the udmabuf's memfd */
	SB_COPY_RW_FILE,	/* proposed DMA_BUF_IOCTL_RW_FILE */
	SB_COPY_RW_FILE_DIRECT, /* the same with its O_DIRECT flag for the page-aligned part */
	SB_COPY_COPY_RANGE,	/* copy_file_range() with the dma-buf fd */
	SB_COPY_NMETHODS,
};

const char *sb_copy_method_name(enum sb_copy_method m);
/* -EINVAL for an unknown name. */
int sb_copy_method_parse(const char *s, enum sb_copy_method *m);

enum sb_copy_dir {
	SB_COPY_TO_BUF,	  /* file -> dma-buf */
	SB_COPY_FROM_BUF, /* dma-buf -> file */
};

/* Chunk planning: split total bytes over buffers of at most chunk bytes, each no larger than
 * limit (0: no limit), rounded to pages. Returns the number of chunks (at least 1, so an empty
 * file still gets one buffer of one page) or -EINVAL when limit is below a page. */
struct sb_chunk {
	uint64_t file_offset;
	uint64_t len;	   /* bytes of file data */
	uint64_t buf_size; /* buffer size: len rounded up to a page, at least one page */
};
long sb_copy_plan(uint64_t total, uint64_t chunk, uint64_t limit, size_t page,
		  struct sb_chunk **out);

/* O_DIRECT arithmetic: the part of [off, off+len) that starts on an aligned offset and has an
 * aligned length, and the unaligned tail behind it. Requires off aligned (else direct = 0). */
struct sb_dio_split {
	uint64_t direct_len;
	uint64_t tail_len;
};
struct sb_dio_split sb_copy_dio_split(uint64_t off, uint64_t len, uint64_t align);

/* O_DIRECT alignment of a file (statx STATX_DIOALIGN, 6.1+): 0 when the file system does not
 * support O_DIRECT. Falls back to st_blksize when statx cannot say. */
int sb_copy_dio_align(int fd, uint32_t *offset_align, uint32_t *mem_align);

/* What happened for one transfer. */
struct sb_copy_result {
	/* path.ran: the enum sb_copy_method that moved the bytes; path.instead_of: the O_DIRECT
	 * method asked for when it could not be used here and its buffered twin ran (direct:
	 * read, rw-file-direct: rw-file), with path.why */
	struct sb_probe path;
	uint64_t bytes;
	uint64_t direct_bytes; /* of which by O_DIRECT */
	/* Set hash_written before the call to have the bytes hashed (XXH3-64) as they are handed
	 * to write(2), for outputs that cannot be read back (stdout, a pipe): each piece is copied
	 * out of the buffer, hashed and written from the copy. written_hashed says whether that
	 * happened: only the read method out of a buffer hashes. */
	bool hash_written;
	bool written_hashed;
	uint64_t written_hash;
};

/* One transfer: len bytes between file fd (at file_off) and buffer b (at buf_off). */
struct sb_copy_req {
	enum sb_copy_dir dir;
	int fd;
	const char *path; /* the file's path, for O_DIRECT's re-open; NULL for a pipe */
	uint64_t file_off;
	struct sb_dmabuf *b;
	uint64_t buf_off;
	uint64_t len;
	volatile sig_atomic_t *stop; /* the copy stops (-EINTR) when *stop becomes non-zero */
	/* an O_DIRECT method that cannot be used here runs its buffered twin instead, and the
	 * result says so (without: -EOPNOTSUPP, exit 3) */
	bool allow_fallback;
};

/* Run rq by method m. Fails with exit code 1 on short transfers (source shrank: -ENODATA),
 * 3 when the method does not apply or the kernel lacks it. */
int sb_copy_run(enum sb_copy_method m, const struct sb_copy_req *rq, struct sb_copy_result *res,
		struct sb_err *e);

/* 'auto': try the methods of sb_copy_auto_order() that apply, fastest first, until one works
 * (a method the kernel lacks, or one the buffer refuses for now with -EBUSY, is skipped;
 * an O_DIRECT method always may run its buffered twin). tried receives "method: why" for each one the
 * kernel or the buffer refused. */
int sb_copy_run_auto(const struct sb_copy_req *rq, bool cached, struct sb_copy_result *res,
		     char *tried, size_t tried_len, struct sb_err *e);

/* Whether m can work at all for this buffer kind (udmabuf methods need the memfd). */
bool sb_copy_method_applies(enum sb_copy_method m, const struct sb_dmabuf *b, bool src_is_pipe);

/* The order 'auto' tries methods in, fastest first, for a buffer kind, a direction and
 * whether the file is in the page cache. Ends with SB_COPY_AUTO. */
const enum sb_copy_method *sb_copy_auto_order(
	enum sb_dmabuf_kind kind, enum sb_copy_dir dir, bool cached);

/* Output through a temporary file in the destination's directory, renamed over the
 * destination only on commit. */
struct sb_tmpfile {
	char path[4096];  /* the temporary */
	char final[4096]; /* the destination */
	int fd;
};
int sb_tmpfile_open(struct sb_tmpfile *t, const char *dest, struct sb_err *e);
/* fsync the temporary, rename it over the destination (replacing an existing file, as cp
 * does), then fsync the directory so the rename survives a power cut. EINVAL from the
 * directory fsync (a file system that cannot sync directories) is not an error. */
int sb_tmpfile_commit(struct sb_tmpfile *t, struct sb_err *e);
/* Close and unlink; async-signal-safe parts only, so it may run from a signal handler. */
void sb_tmpfile_abort(struct sb_tmpfile *t);

/* For benchmarks: write back and drop fd's page cache (fdatasync, POSIX_FADV_DONTNEED), or
 * read size bytes of it so it is cached. Best effort, no errors. */
void sb_copy_cache_drop(int fd);
void sb_copy_cache_warm(int fd, uint64_t size);

/* XXH3-64 of a file range / a memory range; -ENODATA when the file is shorter. */
int sb_copy_hash_fd(int fd, uint64_t off, uint64_t len, uint64_t *hash);
uint64_t sb_copy_hash_mem(const void *p, size_t len);
/* First offset where fd differs from mem (or -1 when equal), reading fd at off. */
int64_t sb_copy_first_diff(int fd, uint64_t off, const void *mem, size_t len);

#endif
