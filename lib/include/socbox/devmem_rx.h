/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Receiving a TCP stream into a bound dma-buf (devmem TCP, MSG_SOCK_DEVMEM): every byte is
 * read where the kernel says it landed (the linear part, or a fragment of the dma-buf),
 * hashed in stream order, optionally written to a file, and each fragment given back. */
#ifndef SOCBOX_DEVMEM_RX_H
#define SOCBOX_DEVMEM_RX_H

#include <stdbool.h>
#include <stdint.h>
#include <stddef.h>

#include "socbox/error.h"

struct sb_devmem_rx {
	/* set by the caller */
	int dmabuf_fd;	     /* the bound buffer */
	size_t size;	     /* its size */
	uint32_t binding_id; /* what bind-rx answered: fragments of another binding are counted */
	int save_fd;	     /* -1, or a file that gets the stream's bytes */
	bool keep;	     /* keep the fragments: they go back when the socket is closed */
	/* results */
	uint64_t bytes, devmem_bytes, linear_bytes, frags, foreign_frags, tokens;
	uint64_t xxh3;		    /* XXH3-64 of the stream */
	uint64_t first_ns, last_ns; /* sb_now_ns() of the first and the last byte */
};

/* Receive from the connected socket until the peer closes it, limit bytes (0: no limit),
 * idle_ms without data (-ETIMEDOUT), or a stop signal (-EINTR, results kept). */
int sb_devmem_rx_run(struct sb_devmem_rx *rx, int sock, uint64_t limit, int idle_ms,
		     struct sb_err *e);

#endif
