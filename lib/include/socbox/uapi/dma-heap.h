/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dma-heap allocation ioctl (type 'H', /dev/dma_heap/NAME), our own definitions. */
#ifndef SOCBOX_UAPI_DMA_HEAP_H
#define SOCBOX_UAPI_DMA_HEAP_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct sb_dma_heap_allocation_data {
	__u64 len;
	__u32 fd;	  /* out */
	__u32 fd_flags;	  /* O_CLOEXEC | O_ACCMODE only */
	__u64 heap_flags; /* must be 0 */
};
_Static_assert(sizeof(struct sb_dma_heap_allocation_data) == 24,
	       "dma_heap_allocation_data is 24 bytes");

#define SB_DMA_HEAP_IOCTL_ALLOC _IOWR('H', 0x0, struct sb_dma_heap_allocation_data)

#endif
