/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Our definition of the kernel's DMA map benchmark interface
 * (/sys/kernel/debug/dma_map_benchmark, CONFIG_DMA_MAP_BENCHMARK; the file exists once a
 * device is bound to the "dma_map_benchmark" driver). */
#ifndef SOCBOX_UAPI_MAP_BENCHMARK_H
#define SOCBOX_UAPI_MAP_BENCHMARK_H

#include <linux/types.h>
#include <sys/ioctl.h>

struct sb_map_benchmark {
	__u64 avg_map_100ns;
	__u64 map_stddev;
	__u64 avg_unmap_100ns;
	__u64 unmap_stddev;
	__u32 threads;
	__u32 seconds;
	__s32 node;
	__u32 dma_bits;
	__u32 dma_dir;
	__u32 dma_trans_ns;
	__u32 granule; /* pages per map */
	__u8 expansion[76];
};

#define SB_DMA_MAP_BENCHMARK _IOWR('d', 1, struct sb_map_benchmark)
#define SB_DMA_MAP_MAX_THREADS 1024
#define SB_DMA_MAP_MAX_SECONDS 300
#define SB_DMA_MAP_MAX_GRANULE 1024 /* pages; kernel/dma/map_benchmark.c rejects more */
#define SB_DMA_MAP_BIDIRECTIONAL 0

_Static_assert(sizeof(struct sb_map_benchmark) == 136, "map_benchmark");

#endif
