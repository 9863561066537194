// SPDX-License-Identifier: GPL-2.0-or-later
/* CMA areas: total, used and the largest free contiguous run (socbox/cma.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/cma.h"
#include "socbox/limits.h"

#define MAX_RANGES 64

int sb_cma_bitmap_parse(const char *text, uint32_t **words, size_t *nwords)
{
	uint32_t *v = NULL;
	size_t n = 0, cap = 0;
	const char *p = text;

	*words = NULL;
	*nwords = 0;
	while (*p) {
		uint64_t x = 0;
		const char *start = p;

		while (*p >= '0' && *p <= '9' && p - start < 11) {
			x = x * 10 + (uint64_t)(*p - '0');
			p++;
		}
		if (p == start || x > UINT32_MAX || (*p != ' ' && *p != '\n'))
			goto bad;
		if (n == cap) {
			uint32_t *nv = reallocarray(v, cap ? cap * 2 : 64, sizeof(*v));

			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
			cap = cap ? cap * 2 : 64;
		}
		v[n++] = (uint32_t)x;
		if (*p++ == '\n') {
			if (*p)
				goto bad;
			*words = v;
			*nwords = n;
			return 0;
		}
	}
bad: /* a stray character, or no newline: a truncated read */
	free(v);
	return -EINVAL;
}

int sb_cma_bitmap_scan(const uint32_t *words, size_t nwords, uint64_t nbits, uint64_t *longest,
		       uint64_t *set)
{
	uint64_t run = 0, best = 0, ones = 0;

	if (nwords != (nbits + 31) / 32)
		return -EINVAL;
	for (uint64_t i = 0; i < nbits; i++) {
		if (words[i / 32] >> (i % 32) & 1) {
			ones++;
			run = 0;
		} else if (++run > best) {
			best = run;
		}
	}
	*longest = best;
	*set = ones;
	return 0;
}

static int meminfo_kb(const char *text, const char *key, uint64_t *bytes)
{
	size_t klen = strlen(key);

	for (const char *l = text; l && *l; l = strchr(l, '\n'), l = l ? l + 1 : NULL) {
		unsigned long long kb;
		char unit[4];

		if (strncmp(l, key, klen) || l[klen] != ':')
			continue;
		if (sscanf(l + klen + 1, "%llu %3s", &kb, unit) != 2 || strcmp(unit, "kB") ||
		    kb > UINT64_MAX / 1024)
			return -EINVAL;
		*bytes = (uint64_t)kb * 1024;
		return 0;
	}
	return -ENOENT;
}

int sb_cma_meminfo_parse(const char *text, uint64_t *total_bytes, uint64_t *free_bytes)
{
	int rc = meminfo_kb(text, "CmaTotal", total_bytes);

	return rc ? rc : meminfo_kb(text, "CmaFree", free_bytes);
}

bool sb_cma_bytes(const struct sb_cma_areas *a, uint64_t pages, uint64_t *bytes)
{
	if (!a->page_size || pages > UINT64_MAX / a->page_size)
		return false;
	*bytes = pages * a->page_size;
	return true;
}

const char *sb_cma_area_heap(const struct sb_cma_areas *a, size_t i, const char *const *heaps,
			     size_t nheaps)
{
	const char *dflt = NULL;

	for (size_t h = 0; h < nheaps; h++) {
		if (!strcmp(heaps[h], a->v[i].name))
			return heaps[h];
		if (!strcmp(heaps[h], "default_cma_region"))
			dflt = heaps[h];
	}
	return a->n == 1 ? dflt : NULL;
}

static struct sb_cma_area *area_get(struct sb_cma_areas *a, const char *name)
{
	struct sb_cma_area *v;

	for (size_t i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return &a->v[i];
	v = reallocarray(a->v, a->n + 1, sizeof(*v));
	if (!v)
		return NULL;
	a->v = v;
	memset(&v[a->n], 0, sizeof(v[a->n]));
	snprintf(v[a->n].name, sizeof(v[a->n].name), "%s", name);
	return &v[a->n++];
}

static int read_bitmap(const struct sb_root *r, const char *area, const char *rel, uint32_t **w,
		       size_t *n)
{
	char *text = NULL;
	int rc;

	/* a 64 GiB area of 4 KiB pages at order_per_bit 0: 16M bits, 512K words of up to 11
	 * bytes */
	if (sb_read_file(r, &text, SB_READ_PROC_MAX, SB_CMA_DEBUGFS "/%s/%s", area, rel) < 0)
		return -ENOENT;
	rc = sb_cma_bitmap_parse(text, w, n);
	free(text);
	return rc;
}

/* The bitmap gives count >> order_per_bit bits. 7.2 keeps one per range in ranges/N, each of
 * DIV_ROUND_UP(its bits, 32) words; how many bits each range has is not shown, so a range
 * but the last is taken as whole words and the last gets the rest, which must then fit its
 * words (else the split is unknown and the bitmap is not used). */
static int scan_bitmaps(const struct sb_root *r, struct sb_cma_area *ar, unsigned opb)
{
	uint64_t nbits = ar->total_pages >> opb, longest = 0, set = 0;
	struct sb_dirlist l = { 0 };
	size_t nranges = 1;
	bool ranges = sb_dir_list(r, &l, SB_CMA_DEBUGFS "/%s/ranges", ar->name) == 0 && l.n;
	int rc = 0;

	if (ranges)
		nranges = l.n;
	if (nranges > MAX_RANGES)
		nranges = 0;
	for (size_t k = 0; k < nranges && rc == 0; k++) {
		uint32_t *w = NULL;
		size_t n = 0;
		uint64_t bits, lo = 0, s = 0;
		char rel[96];

		/* ranges are numbered 0..n-1 (snprintf "%d" in cma_debugfs_add_one()) */
		snprintf(rel, sizeof(rel), ranges ? "ranges/%zu/bitmap" : "bitmap", k);
		rc = read_bitmap(r, ar->name, rel, &w, &n);
		if (rc == 0) {
			bits = k + 1 < nranges ? (uint64_t)n * 32 : nbits;
			if (bits > nbits) {
				rc = -EINVAL;
			} else {
				nbits -= bits;
				rc = sb_cma_bitmap_scan(w, n, bits, &lo, &s);
			}
		}
		free(w);
		if (rc == 0) {
			longest = lo > longest ? lo : longest;
			set += s;
		}
	}
	sb_dirlist_free(&l);
	if (rc || !nranges)
		return rc ? rc : -EINVAL;
	ar->have_bitmap = true;
	ar->bitmap_largest_pages = longest << opb;
	ar->bitmap_used_pages = set << opb;
	return 0;
}

static void read_debugfs(const struct sb_root *r, struct sb_cma_area *ar)
{
	uint64_t opb = 0, v;

	ar->debugfs = true;
	if (sb_attr_u64(r, &v, SB_CMA_DEBUGFS "/%s/count", ar->name) == 0) {
		ar->have_total = true;
		ar->total_pages = v;
	}
	if (sb_attr_u64(r, &v, SB_CMA_DEBUGFS "/%s/used", ar->name) == 0) {
		ar->have_used = true;
		ar->used_pages = v;
	}
	if (sb_attr_u64(r, &v, SB_CMA_DEBUGFS "/%s/maxchunk", ar->name) == 0) {
		ar->have_maxchunk = true;
		ar->largest_free_pages = v;
	}
	/* an order beyond a page's bits is no area the kernel made */
	if (ar->have_total &&
	    sb_attr_u64(r, &opb, SB_CMA_DEBUGFS "/%s/order_per_bit", ar->name) == 0 && opb < 32)
		scan_bitmaps(r, ar, (unsigned)opb);
	/* maxchunk is taken under the area's lock; the bitmap is read apart from count, so it
	 * only stands in when maxchunk is absent */
	if (!ar->have_maxchunk && ar->have_bitmap)
		ar->largest_free_pages = ar->bitmap_largest_pages;
	if (!ar->have_used && ar->have_bitmap) {
		ar->have_used = true;
		ar->used_pages = ar->bitmap_used_pages;
	}
	ar->have_largest = ar->have_maxchunk || ar->have_bitmap;
}

static void read_sysfs(const struct sb_root *r, struct sb_cma_area *ar)
{
	uint64_t total, avail;

	ar->sysfs = true;
	if (sb_attr_u64(r, &ar->alloc_pages_fail, SB_CMA_SYSFS "/%s/alloc_pages_fail", ar->name) ==
	    0)
		ar->have_fail = true;
	/* 7.2's total_pages and available_pages (cma->count, cma->available_count) */
	if (ar->have_total || sb_attr_u64(r, &total, SB_CMA_SYSFS "/%s/total_pages", ar->name))
		return;
	ar->have_total = true;
	ar->total_pages = total;
	if (!ar->have_used &&
	    sb_attr_u64(r, &avail, SB_CMA_SYSFS "/%s/available_pages", ar->name) == 0 &&
	    avail <= total) {
		ar->have_used = true;
		ar->used_pages = total - avail;
	}
}

/* CmaTotal is totalcma_pages in kB: with the areas' counts it gives the page size of a
 * sysroot's kernel (4K, 16K, 64K), which the live system's sysconf() also gives. */
static void page_size(const struct sb_root *r, struct sb_cma_areas *a)
{
	uint64_t pages = 0;

	for (size_t i = 0; i < a->n; i++)
		if (a->v[i].have_total && pages <= UINT64_MAX - a->v[i].total_pages)
			pages += a->v[i].total_pages;
	if (a->have_meminfo && pages && a->meminfo_total_bytes % pages == 0) {
		uint64_t ps = a->meminfo_total_bytes / pages;

		if (ps >= 4096 && ps <= (1u << 20) && !(ps & (ps - 1))) {
			a->page_size = ps;
			return;
		}
	}
	if (sb_root_is_live(r))
		a->page_size = (uint64_t)sysconf(_SC_PAGESIZE);
}

int sb_cma_areas_read(const struct sb_root *r, struct sb_cma_areas *out, struct sb_err *e)
{
	static const char *const dirs[] = { SB_CMA_DEBUGFS, SB_CMA_SYSFS };
	char *text = NULL;

	memset(out, 0, sizeof(*out));
	for (size_t d = 0; d < 2; d++) {
		struct sb_dirlist l = { 0 };

		if (sb_dir_list(r, &l, "%s", dirs[d]))
			continue;
		for (size_t i = 0; i < l.n; i++) {
			struct sb_cma_area *ar;

			if (!sb_is_dir(r, "%s/%s", dirs[d], l.names[i]))
				continue;
			ar = area_get(out, l.names[i]);
			if (!ar) {
				sb_dirlist_free(&l);
				sb_cma_areas_free(out);
				return sb_err_set(e, ENOMEM, "CMA areas", "read", NULL);
			}
			if (d == 0)
				read_debugfs(r, ar);
			else
				read_sysfs(r, ar);
		}
		sb_dirlist_free(&l);
	}
	if (sb_read_file(r, &text, SB_READ_TEXT_MAX, "/proc/meminfo") >= 0 &&
	    sb_cma_meminfo_parse(text, &out->meminfo_total_bytes, &out->meminfo_free_bytes) == 0)
		out->have_meminfo = true;
	free(text);
	page_size(r, out);
	return 0;
}

void sb_cma_areas_free(struct sb_cma_areas *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}
