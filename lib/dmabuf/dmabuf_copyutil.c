// SPDX-License-Identifier: GPL-2.0-or-later
/* The arithmetic and bookkeeping around the copy engines: method names, chunk planning,
 * O_DIRECT alignment, hashing and the temporary-file-then-rename output. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <xxhash.h>

#include "socbox/claim.h"
#include "socbox/dmabuf_copy.h"

static const char *const method_names[SB_COPY_NMETHODS] = {
	[SB_COPY_AUTO] = "auto",
	[SB_COPY_READ] = "read",
	[SB_COPY_DIRECT] = "direct",
	[SB_COPY_SENDFILE] = "sendfile",
	[SB_COPY_SPLICE] = "splice",
	[SB_COPY_RW_FILE] = "rw-file",
	[SB_COPY_RW_FILE_DIRECT] = "rw-file-direct",
	[SB_COPY_COPY_RANGE] = "copy-range",
};

const char *sb_copy_method_name(enum sb_copy_method m)
{
	return m < SB_COPY_NMETHODS ? method_names[m] : "?";
}

int sb_copy_method_parse(const char *s, enum sb_copy_method *m)
{
	for (int i = 0; i < SB_COPY_NMETHODS; i++)
		if (!strcmp(s, method_names[i])) {
			*m = (enum sb_copy_method)i;
			return 0;
		}
	return -EINVAL;
}

bool sb_copy_method_applies(enum sb_copy_method m, const struct sb_dmabuf *b, bool src_is_pipe)
{
	switch (m) {
	case SB_COPY_SENDFILE:
	case SB_COPY_SPLICE:
		return b->memfd >= 0 && !src_is_pipe;
	case SB_COPY_DIRECT:
	case SB_COPY_RW_FILE:
	case SB_COPY_RW_FILE_DIRECT:
	case SB_COPY_COPY_RANGE:
		return !src_is_pipe;
	default:
		return true;
	}
}

/* Fastest first, from the seed measurements with the page cache dropped: O_DIRECT into the
 * memfd beats sendfile, which beats buffered read; warm, sendfile wins. Heap buffers cannot
 * take O_DIRECT through their mapping, so only the (proposed) kernel paths can beat read():
 * on the test kernel (tests/vm/guest/dmabufcp_rwfile.sh, 128 MiB, 4 x 32 MiB) rw-file-direct
 * moved it in 26 ms cold and 37 ms warm, rw-file 716 / 702 ms, read 822 / 745 ms: the
 * DIRECT flag wins even warm, as it skips the CPU copy. Exporters without
 * DMA_BUF_IOCTL_RW_FILE refuse it at once. */
const enum sb_copy_method *sb_copy_auto_order(
	enum sb_dmabuf_kind kind, enum sb_copy_dir dir, bool cached)
{
	static const enum sb_copy_method udmabuf_cold[] = {
		SB_COPY_RW_FILE_DIRECT, SB_COPY_DIRECT, SB_COPY_SENDFILE, SB_COPY_READ, SB_COPY_AUTO
	};
	static const enum sb_copy_method udmabuf_warm[] = {
		SB_COPY_RW_FILE_DIRECT, SB_COPY_SENDFILE, SB_COPY_READ, SB_COPY_AUTO
	};
	static const enum sb_copy_method mapped[] = {
		SB_COPY_RW_FILE_DIRECT, SB_COPY_RW_FILE, SB_COPY_COPY_RANGE, SB_COPY_READ,
		SB_COPY_AUTO
	};

	(void)dir;
	if (kind == SB_DMABUF_UDMABUF)
		return cached ? udmabuf_warm : udmabuf_cold;
	return mapped;
}

long sb_copy_plan(uint64_t total, uint64_t chunk, uint64_t limit, size_t page, struct sb_chunk **out)
{
	struct sb_chunk *v;
	uint64_t n;

	*out = NULL;
	if (page == 0 || (limit && limit < page))
		return -EINVAL;
	if (limit)
		limit -= limit % page;
	if (chunk == 0 || chunk > total)
		chunk = total;
	if (limit && chunk > limit)
		chunk = limit;
	if (chunk < total) {
		/* several buffers: each starts page-aligned in the file (O_DIRECT needs that) */
		chunk -= chunk % page;
		if (chunk == 0)
			chunk = page;
	}
	if (chunk == 0)
		chunk = page;
	n = total ? (total + chunk - 1) / chunk : 1;
	if (n > 1u << 20)
		return -E2BIG;
	v = calloc((size_t)n, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++) {
		v[i].file_offset = i * chunk;
		v[i].len = total - v[i].file_offset < chunk ? total - v[i].file_offset : chunk;
		v[i].buf_size = v[i].len ? (v[i].len + page - 1) / page * page : page;
	}
	*out = v;
	return (long)n;
}

struct sb_dio_split sb_copy_dio_split(uint64_t off, uint64_t len, uint64_t align)
{
	struct sb_dio_split s = { 0, len };

	if (align == 0 || off % align)
		return s;
	s.direct_len = len - len % align;
	s.tail_len = len - s.direct_len;
	return s;
}

int sb_copy_dio_align(int fd, uint32_t *offset_align, uint32_t *mem_align)
{
	struct statx stx;
	struct stat st;

	*offset_align = *mem_align = 0;
	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN)) {
		*offset_align = stx.stx_dio_offset_align;
		*mem_align = stx.stx_dio_mem_align;
		return 0;
	}
	if (fstat(fd, &st))
		return -errno;
	*offset_align = (uint32_t)st.st_blksize;
	*mem_align = (uint32_t)st.st_blksize;
	return 0;
}

int sb_copy_hash_fd(int fd, uint64_t off, uint64_t len, uint64_t *hash)
{
	XXH3_state_t *st = XXH3_createState();
	size_t bufsz = 1u << 20;
	char *buf = malloc(bufsz);
	int rc = 0;

	if (!st || !buf) {
		XXH3_freeState(st);
		free(buf);
		return -ENOMEM;
	}
	XXH3_64bits_reset(st);
	while (len) {
		ssize_t n = pread(fd, buf, len < bufsz ? (size_t)len : bufsz, (off_t)off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? -errno : -ENODATA;
			break;
		}
		XXH3_64bits_update(st, buf, (size_t)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	*hash = XXH3_64bits_digest(st);
	XXH3_freeState(st);
	free(buf);
	return rc;
}

uint64_t sb_copy_hash_mem(const void *p, size_t len)
{
	return XXH3_64bits(p, len);
}

int64_t sb_copy_first_diff(int fd, uint64_t off, const void *mem, size_t len)
{
	const unsigned char *m = mem;
	unsigned char buf[65536];
	size_t done = 0;

	while (done < len) {
		size_t want = len - done < sizeof(buf) ? len - done : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)(off + done));

		if (n <= 0)
			return (int64_t)done;
		for (ssize_t i = 0; i < n; i++)
			if (buf[i] != m[done + (size_t)i])
				return (int64_t)(done + (size_t)i);
		done += (size_t)n;
	}
	return -1;
}

static void unlink_leftover(const char *path, void *arg)
{
	(void)arg;
	unlink(path);
}

int sb_tmpfile_open(struct sb_tmpfile *t, const char *dest, struct sb_err *e)
{
	char dircopy[4096], basecopy[4096], prefix[4096 + 16];
	struct sb_claim claim;
	const char *dir;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	if (strlen(dest) >= sizeof(dircopy) - 32) {
		sb_err_set(e, ENAMETOOLONG, dest, "create output", NULL);
		return -ENAMETOOLONG;
	}
	snprintf(t->final, sizeof(t->final), "%s", dest);
	snprintf(dircopy, sizeof(dircopy), "%s", dest);
	snprintf(basecopy, sizeof(basecopy), "%s", dest);
	dir = dirname(dircopy);
	snprintf(prefix, sizeof(prefix), ".%s.dmabufcp-", basename(basecopy));
	/* what a killed copy to the same DST left; a running one holds its claim */
	sb_claim_sweep(dir, prefix, unlink_leftover, NULL);
	if (sb_claim_create(&claim, dir, prefix, 0666, dest, e) < 0)
		return -e->errnum;
	t->fd = claim.fd;
	snprintf(t->path, sizeof(t->path), "%s", claim.path);
	return 0;
}

int sb_tmpfile_commit(struct sb_tmpfile *t, struct sb_err *e)
{
	char dircopy[4096];
	int err, dfd;

	if (fsync(t->fd)) {
		err = errno;
		sb_tmpfile_abort(t);
		return sb_err_set(e, err, t->final, "write the output (fsync)",
				  err == ENOSPC ? "the file system is full" : NULL);
	}
	/* renamed while still open, so the claim stays locked until it has its final name */
	if (rename(t->path, t->final)) {
		err = errno;
		sb_tmpfile_abort(t);
		return sb_err_set(e, err, t->final, "rename the temporary output over it", NULL);
	}
	t->path[0] = '\0';
	err = close(t->fd) ? errno : 0;
	t->fd = -1;
	if (err)
		return sb_err_set(e, err, t->final, "write the output (close)",
				  err == ENOSPC ? "the file system is full" : NULL);
	/* the rename lives in the directory: sync it too, or a power cut may bring back the old
	 * DST (or none) although the data itself was synced */
	snprintf(dircopy, sizeof(dircopy), "%s", t->final);
	dfd = open(dirname(dircopy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || (fsync(dfd) && errno != EINVAL)) {
		err = errno;
		if (dfd >= 0)
			close(dfd);
		return sb_err_set(e, err, t->final, "sync its directory after the rename",
				  "the file is complete but may not survive a power cut");
	}
	close(dfd);
	return 0;
}

void sb_tmpfile_abort(struct sb_tmpfile *t)
{
	/* removed before the lock goes with the close: no sweep sees it unclaimed */
	if (t->path[0])
		unlink(t->path);
	t->path[0] = '\0';
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
}

void sb_copy_cache_drop(int fd)
{
	fdatasync(fd);
	posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

void sb_copy_cache_warm(int fd, uint64_t size)
{
	char buf[1 << 16];

	for (uint64_t off = 0; off < size;) {
		ssize_t n = pread(fd, buf, sizeof(buf), (off_t)off);
		if (n <= 0)
			break;
		off += (uint64_t)n;
	}
}
