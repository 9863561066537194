/* SPDX-License-Identifier: GPL-2.0-or-later */
/* devmem TCP receive: the socket options and control messages (Linux 6.12,
 * include/uapi/asm-generic/socket.h, include/linux/socket.h, include/uapi/linux/uio.h).
 * Our own definitions; the numbers are the asm-generic ones every Arm and x86 kernel uses. */
#ifndef SOCBOX_UAPI_DEVMEM_H
#define SOCBOX_UAPI_DEVMEM_H

#include <stdint.h>

#define SB_SO_DEVMEM_LINEAR 78	 /* cmsg: this many bytes were copied to the user buffer */
#define SB_SO_DEVMEM_DMABUF 79	 /* cmsg: a fragment in the bound dma-buf */
#define SB_SO_DEVMEM_DONTNEED 80 /* setsockopt: give fragments back by token */
#define SB_MSG_SOCK_DEVMEM 0x2000000

struct sb_dmabuf_cmsg {
	uint64_t frag_offset; /* into the dma-buf */
	uint32_t frag_size;
	uint32_t frag_token; /* for SO_DEVMEM_DONTNEED */
	uint32_t dmabuf_id;  /* the binding */
	uint32_t flags;
};
_Static_assert(sizeof(struct sb_dmabuf_cmsg) == 24, "struct dmabuf_cmsg is 24 bytes");

struct sb_dmabuf_token {
	uint32_t token_start;
	uint32_t token_count;
};
_Static_assert(sizeof(struct sb_dmabuf_token) == 8, "struct dmabuf_token is 8 bytes");

#endif
