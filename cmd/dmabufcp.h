/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the dmabufcp command files. */
#ifndef SOCBOX_CMD_DMABUFCP_H
#define SOCBOX_CMD_DMABUFCP_H

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
double dmabufcp_now_ms(void);

int dmabufcp_copy(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_bench(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_heaps(struct sb_ctx *c, int argc, const char **argv);
int dmabufcp_ls(struct sb_ctx *c, int argc, const char **argv);

#endif
