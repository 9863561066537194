/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dma-buf ioctls (type 'b'), our own definitions of the kernel's uAPI, plus the proposed and
 * never merged DMA_BUF_IOCTL_RW_FILE (probed, expected to fail with ENOTTY on mainline). */
#ifndef SOCBOX_UAPI_DMA_BUF_H
#define SOCBOX_UAPI_DMA_BUF_H

#include <linux/ioctl.h>
#include <linux/types.h>

struct sb_dma_buf_sync {
	__u64 flags;
};
_Static_assert(sizeof(struct sb_dma_buf_sync) == 8, "dma_buf_sync is 8 bytes");

#define SB_DMA_BUF_SYNC_READ (1ULL << 0)
#define SB_DMA_BUF_SYNC_WRITE (2ULL << 0)
#define SB_DMA_BUF_SYNC_RW (SB_DMA_BUF_SYNC_READ | SB_DMA_BUF_SYNC_WRITE)
#define SB_DMA_BUF_SYNC_START (0ULL << 2)
#define SB_DMA_BUF_SYNC_END (1ULL << 2)

#define SB_DMA_BUF_NAME_LEN 32

#define SB_DMA_BUF_IOCTL_SYNC _IOW('b', 0, struct sb_dma_buf_sync)
#define SB_DMA_BUF_SET_NAME_B _IOW('b', 1, __u64)

/* Proposed 2025 (wangtao), not in mainline. */
struct sb_dma_buf_rw_file {
	__u32 flags;
	__s32 fd;
	__u64 file_offset;
	__u64 buf_offset;
	__u64 buf_len;
};
_Static_assert(sizeof(struct sb_dma_buf_rw_file) == 32, "dma_buf_rw_file is 32 bytes");

#define SB_DMA_BUF_RW_FLAGS_READ 1u  /* file into buffer */
#define SB_DMA_BUF_RW_FLAGS_WRITE 2u /* buffer into file */
#define SB_DMA_BUF_RW_FLAGS_DIRECT (1u << 31)
#define SB_DMA_BUF_IOCTL_RW_FILE _IOW('b', 4, struct sb_dma_buf_rw_file)

#endif
