/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the dmabufcp command files. */
#ifndef SOCBOX_CMD_DMABUFCP_H
#define SOCBOX_CMD_DMABUFCP_H

#include <stdbool.h>
#include <stdint.h>

#include "socbox/cli.h"
#include "socbox/dmabuf_copy.h"
#include "socbox/dmabuf.h"

#define DMABUFCP "dmabufcp"

/* The buffers one file is split over. */
struct dmabufcp_set {
	struct sb_chunk *chunks;
	struct sb_dmabuf *bufs;
	long n;
	double alloc_ms;
};
/* Plan chunks for total bytes (chunk 0: as large as the buffer kind allows), allocate and map
 * a buffer for each. A PID:FD spec gives one chunk, the imported buffer. note receives an
 * explanation when the chunk size was reduced to fit udmabuf's size_limit_mb. */
int dmabufcp_set_alloc(const struct sb_root *r, const struct sb_dmabuf_spec *spec, uint64_t total,
		       uint64_t chunk, const char *name, struct dmabufcp_set *set, char *note,
		       size_t note_len, struct sb_err *e);
void dmabufcp_set_free(struct dmabufcp_set *set);

/* --verify (cmd/dmabufcp_verify.c): what one copy's buffers are compared with. */
struct dmabufcp_verify {
	const struct dmabufcp_set *set;
	int src_fd;		  /* the source file, when it is checked */
	const char *src;	  /* its name, for messages */
	int dst_fd;		  /* the destination file (its temporary), or -1 for stdout */
	const char *dst;	  /* its name, for messages ("-" for stdout) */
	const uint64_t *out_hash; /* stdout: XXH3 per buffer of what write(2) took */
};
/* Each buffer against the source (check_src) and the destination (check_dst), with each
 * buffer's CPU access bracketed by DMA_BUF_IOCTL_SYNC; the first difference is an error
 * (exit 1) naming the buffer and the file offset. 0 or -errno with e set. */
int dmabufcp_verify(const struct dmabufcp_verify *v, bool check_src, bool check_dst,
		    struct sb_err *e);
double dmabufcp_now_ms(void);

int dmabufcp_copy(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_bench(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_heaps(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_ls(struct sb_ctx *c, int argc, const char **argv);

#endif
