/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's CMA areas as a board engineer needs them: per area the total, what is used
 * and the largest free contiguous run, from debugfs cma/AREA (mm/cma_debug.c: count, used,
 * maxchunk, order_per_bit, the bitmap; 7.2 keeps a bitmap per range in ranges/N), sysfs
 * mm/cma/AREA (mm/cma_sysfs.c: alloc_pages_fail; 7.2 also total_pages, available_pages)
 * and /proc/meminfo CmaTotal/CmaFree (all areas together) when neither is there. */
#ifndef SOCBOX_CMA_H
#define SOCBOX_CMA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

#define SB_CMA_DEBUGFS "/sys/kernel/debug/cma"
#define SB_CMA_SYSFS "/sys/kernel/mm/cma"

/* Counts are in pages; sb_cma_bytes() turns them into bytes with the areas' page size. */
struct sb_cma_area {
	char name[64];
	bool debugfs, sysfs;  /* where it was found */
	bool have_total;      /* debugfs count or sysfs total_pages */
	uint64_t total_pages; /* cma->count */
	bool have_used;
	uint64_t used_pages;
	bool have_largest;	       /* the largest free run is known */
	uint64_t largest_free_pages;   /* maxchunk, else the bitmap's longest run of clear bits */
	bool have_maxchunk;	       /* the kernel's own maxchunk file was read */
	bool have_bitmap;	       /* the bitmap was read whole and matches count */
	uint64_t bitmap_largest_pages; /* have_bitmap: the run the bitmap gives */
	uint64_t bitmap_used_pages;    /* have_bitmap: its set bits, in pages */
	bool have_fail;
	uint64_t alloc_pages_fail; /* sysfs alloc_pages_fail */
};

struct sb_cma_areas {
	struct sb_cma_area *v;
	size_t n;
	uint64_t page_size; /* 0 when neither meminfo nor the live system tells */
	bool have_meminfo;  /* CmaTotal and CmaFree were read */
	uint64_t meminfo_total_bytes, meminfo_free_bytes;
};

/* Every CMA area under the root (none is not an error: out->n == 0). -ENOMEM only; a file
 * that is missing or malformed leaves its have_ flag false. */
int sb_cma_areas_read(const struct sb_root *r, struct sb_cma_areas *out, struct sb_err *e);
void sb_cma_areas_free(struct sb_cma_areas *a);
/* pages in bytes, false when the page size is unknown or it overflows */
bool sb_cma_bytes(const struct sb_cma_areas *a, uint64_t pages, uint64_t *bytes);

/* The dma-heap allocating from area i among the heap names given, NULL when none does.
 * drivers/dma-buf/heaps/cma_heap.c names a heap after its area (6.1: the default area
 * only); 7.2 also names the default area's "default_cma_region", which sysfs does not tie
 * to an area: it is taken for the only area there is. */
const char *sb_cma_area_heap(const struct sb_cma_areas *a, size_t i, const char *const *heaps,
			     size_t nheaps);

/* Parsers, exposed for the unit tests. */
/* debugfs_create_u32_array()'s text ("%u" joined by ' ', '\n' at the end: fs/debugfs/file.c
 * u32_format_array()). *words is malloc'ed. -EINVAL on anything else (a word over
 * UINT32_MAX, a sign, a stray character, no final newline: a truncated read). */
int sb_cma_bitmap_parse(const char *text, uint32_t **words, size_t *nwords);
/* The longest run of clear bits among the first nbits (bit i is bit i%32 of word i/32, the
 * kernel's unsigned long bitmap read as u32 on a little-endian machine) and the number of
 * set bits. -EINVAL when nwords is not DIV_ROUND_UP(nbits, 32) (the kernel's n_elements). */
int sb_cma_bitmap_scan(const uint32_t *words, size_t nwords, uint64_t nbits, uint64_t *longest,
		       uint64_t *set);
/* /proc/meminfo's CmaTotal and CmaFree in bytes; -ENOENT when either line is missing. */
int sb_cma_meminfo_parse(const char *text, uint64_t *total_bytes, uint64_t *free_bytes);

#endif
