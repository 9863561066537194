// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp --verify: each buffer against the source file and the destination (a file, or
 * what went to stdout, hashed on the way out), XXH3 first, then the first differing byte. */
#define _GNU_SOURCE
#include <errno.h>

#include "socbox/stop.h"
#include "dmabufcp.h"

static int verify_chunk(const struct dmabufcp_set *set, long i, int fd, const char *what,
			const char *object, struct sb_err *e)
{
	const struct sb_chunk *ch = &set->chunks[i];
	const char *mem = set->bufs[i].map;
	uint64_t h_file, h_buf = sb_copy_hash_mem(mem, (size_t)ch->len);
	int rc = sb_copy_hash_fd(fd, ch->file_offset, ch->len, &h_file);
	int64_t diff;

	if (rc == -ENODATA || (rc == 0 && h_file != h_buf)) {
		diff = sb_copy_first_diff(fd, ch->file_offset, mem, (size_t)ch->len);
		sb_err_set(e, EIO, object, "verify", NULL);
		sb_err_reason(e, "%s differs from buffer %ld at file offset %llu", what, i,
			      (unsigned long long)(ch->file_offset +
						   (uint64_t)(diff < 0 ? 0 : diff)));
		sb_err_exit(e, SB_EXIT_FAIL);
		return -EIO;
	}
	if (rc)
		return sb_err_set(e, -rc, object, "read for verify", NULL);
	return 0;
}

/* DST '-': compare what write(2) took, hashed on the way out, with the buffer now. */
static int verify_written(const struct dmabufcp_verify *v, long i, struct sb_err *e)
{
	const struct sb_chunk *ch = &v->set->chunks[i];

	if (sb_copy_hash_mem(v->set->bufs[i].map, (size_t)ch->len) == v->out_hash[i])
		return 0;
	sb_err_set(e, EIO, "-", "verify", NULL);
	sb_err_reason(
		e,
		"the bytes written to stdout from buffer %ld (file offset %llu) differ from the buffer now",
		i, (unsigned long long)ch->file_offset);
	sb_err_exit(e, SB_EXIT_FAIL);
	return -EIO;
}

int dmabufcp_verify(const struct dmabufcp_verify *v, bool check_src, bool check_dst,
		    struct sb_err *e)
{
	int rc = 0;

	for (long i = 0; i < v->set->n && !rc; i++) {
		if (sb_stop_signal)
			return sb_err_set(e, EINTR, "verify", "interrupted", NULL);
		if ((rc = sb_dmabuf_sync(&v->set->bufs[i], false, false, e)))
			break;
		if (check_src)
			rc = verify_chunk(v->set, i, v->src_fd, "the source", v->src, e);
		if (!rc && check_dst && v->out_hash)
			rc = verify_written(v, i, e);
		else if (!rc && check_dst)
			rc = verify_chunk(v->set, i, v->dst_fd, "the output", v->dst, e);
		sb_dmabuf_sync(&v->set->bufs[i], true, false, NULL);
	}
	return rc;
}
