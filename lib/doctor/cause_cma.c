// SPDX-License-Identifier: GPL-2.0-or-later
/* CMA areas that cannot give what is asked of them though memory is free: fragmentation
 * (debugfs with --buffer-size, or the free runs the kernel logs after a failed
 * allocation), and areas no dma-heap allocates from (CONFIG_DMABUF_HEAPS_CMA off). And the
 * area that was never made: its reservation failed at boot, so there is no CMA heap and
 * the contiguous allocations that needed it fail; one chain, the reservation its root. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/cma.h"
#include "socbox/cmdline.h"
#include "socbox/dmabufinfo.h"
#include "socbox/macro.h"
#include "socbox/out.h"

/* how many records after a failure line its free runs may take: 7.2 prints a header, a
 * record per range, an empty one and the total */
#define AVAIL_SPAN 72

static void human(char *buf, size_t len, uint64_t bytes)
{
	sb_out_human_bytes(buf, len, (double)bytes);
}

/* "N@S" joined by '+' (mm/cma.c cma_debug_show_areas(): N pages free from bit S; 7.2 puts
 * a '+' before the first run when it does not start at bit 0); the largest N */
static bool runs_parse(const char *s, size_t len, unsigned long *largest)
{
	char buf[4096];
	char *p = buf;

	if (len >= sizeof(buf)) /* a longer list is cut by printk anyway: the runs are lost */
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	while (*p) {
		char *e;
		unsigned long n;

		if (*p == '+')
			p++;
		n = strtoul(p, &e, 10);
		if (e == p || *e != '@' || e[1] < '0' || e[1] > '9')
			return false;
		strtoul(e + 1, &p, 10);
		*largest = n > *largest ? n : *largest;
	}
	return true;
}

struct cma_avail {
	unsigned long largest, free, total;
	size_t line; /* the record with the total */
};

/* The free runs the kernel printed after the failure at line i: 6.1 in one record "cma:
 * number of available pages: RUNS=> F free of T total pages", 7.2 "cma: range R: RUNS" per
 * range and "=> F free of T total pages" (a pr_cont after a finished record: a record of
 * its own at the default level). */
static bool avail_after(const struct doctor_board *b, size_t i, struct cma_avail *av)
{
	static const char head[] = "cma: number of available pages:";
	bool runs = false;

	memset(av, 0, sizeof(*av));
	for (size_t k = i + 1; k < b->log.n && k <= i + AVAIL_SPAN; k++) {
		const char *t = b->log.lines[k].text, *sum = NULL;

		if (!strncmp(t, head, sizeof(head) - 1)) {
			const char *r = t + sizeof(head) - 1;

			r += strspn(r, " ");
			sum = strstr(r, "=> ");
			if (sum)
				runs = runs_parse(r, (size_t)(sum - r), &av->largest);
		} else if (!strncmp(t, "cma: range ", 11)) {
			const char *r = strstr(t + 11, ": ");

			if (r && !runs_parse(r + 2, strlen(r + 2), &av->largest))
				return false;
			runs = runs || r;
		} else if (!strncmp(t, "=> ", 3)) {
			sum = t;
		} else if (!strncmp(t, "cma: ", 5) && strstr(t, ": alloc failed, req-size: ")) {
			return false; /* the next failure: this one printed no runs */
		}
		if (sum) {
			av->line = k;
			return runs && sscanf(sum, "=> %lu free of %lu total pages", &av->free,
					      &av->total) == 2;
		}
	}
	return false;
}

static void fix(struct sb_cause *c, const char *area)
{
	cause_fix(c,
		  "allocate the large contiguous buffers first (at boot or when the application "
		  "starts) and keep them; the small ones that split %s are held by what dmabufcp "
		  "ls shows; or enlarge the area (cma=SIZE, or the size of its reserved-memory "
		  "node)",
		  area);
}

/* The area now has a free run of at least req pages (its maxchunk or bitmap, live or in the
 * snapshot): what split it has been given back, and the old record raises nothing. */
static bool fits_now(const struct sb_cma_areas *ca, const char *area, unsigned long req)
{
	for (size_t i = 0; ca && i < ca->n; i++)
		if (!strcmp(ca->v[i].name, area))
			return ca->v[i].have_largest && ca->v[i].largest_free_pages >= req;
	return false;
}

/* The log path: a failed request the free total would cover but no free run does. */
static void fragmented_log(struct doctor_board *b, const struct sb_cma_areas *ca)
{
	for (size_t i = 0; i < b->log.n; i++) {
		const char *t = b->log.lines[i].text, *a, *end;
		unsigned long req;
		struct cma_avail av;
		struct sb_cause *c;
		char area[96];
		int ret;

		end = strstr(t, ": alloc failed, req-size: ");
		if (strncmp(t, "cma: ", 5) || !end || !(a = strstr(t + 5, ": ")) || a >= end)
			continue;
		snprintf(area, sizeof(area), "%.*s", (int)(end - a - 2), a + 2);
		if (sscanf(end, ": alloc failed, req-size: %lu pages, ret: %d", &req, &ret) != 2 ||
		    !avail_after(b, i, &av) || av.largest >= req || av.free < req ||
		    fits_now(ca, area, req))
			continue;
		c = doctor_cause(b, "dmabuf.cma-fragmented", SB_DOCTOR_DMABUF, area);
		if (!c)
			continue;
		cause_diag(c,
			   "CMA area %s: a request for %lu pages failed with %lu of %lu pages free, "
			   "the longest free run %lu pages: the area is fragmented",
			   area, req, av.free, av.total, av.largest);
		cause_evidence(c, "kernel log: %s; %s", t, b->log.lines[av.line].text);
		fix(c, area);
	}
}

/* The debugfs path: --buffer-size against each area a heap allocates from (every area when
 * none has a heap: drivers allocate from them with dma_alloc_coherent()). */
static void fragmented_debugfs(struct doctor_board *b, const struct sb_cma_areas *ca,
			       const char *const *heaps, size_t nheaps)
{
	uint64_t want = b->opts ? b->opts->buffer_size : 0;
	bool any_heap = false;

	for (size_t i = 0; i < ca->n; i++)
		any_heap = any_heap || sb_cma_area_heap(ca, i, heaps, nheaps);
	for (size_t i = 0; want && i < ca->n; i++) {
		const struct sb_cma_area *ar = &ca->v[i];
		uint64_t largest, total, used;
		char sl[32], sf[32], sw[32];
		struct sb_cause *c;

		if (any_heap && !sb_cma_area_heap(ca, i, heaps, nheaps))
			continue;
		if (!ar->have_largest || !ar->have_total || !ar->have_used ||
		    ar->used_pages > ar->total_pages ||
		    !sb_cma_bytes(ca, ar->largest_free_pages, &largest) ||
		    !sb_cma_bytes(ca, ar->total_pages, &total) ||
		    !sb_cma_bytes(ca, ar->used_pages, &used) || largest >= want ||
		    total - used < want)
			continue;
		c = doctor_cause(b, "dmabuf.cma-fragmented", SB_DOCTOR_DMABUF, ar->name);
		if (!c)
			continue;
		human(sl, sizeof(sl), largest);
		human(sf, sizeof(sf), (total - used));
		human(sw, sizeof(sw), want);
		cause_diag(c,
			   "CMA area %s has %s free but its longest free run is %s: a buffer of %s "
			   "(--buffer-size) does not fit",
			   ar->name, sf, sl, sw);
		if (ar->have_maxchunk)
			cause_evidence(c,
				       SB_CMA_DEBUGFS "/%s: count %llu, used %llu, maxchunk %llu "
						      "pages",
				       ar->name, (unsigned long long)ar->total_pages,
				       (unsigned long long)ar->used_pages,
				       (unsigned long long)ar->largest_free_pages);
		else
			cause_evidence(c,
				       SB_CMA_DEBUGFS "/%s: count %llu, used %llu pages; bitmap: "
						      "longest free run %llu pages",
				       ar->name, (unsigned long long)ar->total_pages,
				       (unsigned long long)ar->used_pages,
				       (unsigned long long)ar->largest_free_pages);
		fix(c, ar->name);
	}
}

/* mm/cma.c cma_declare_contiguous_nid() (7.2 also cma_declare_contiguous_multi()), pr_err
 * "Failed to reserve %ld MiB" ("%lu" in 7.2's second) with pr_fmt "cma: ": the area of cma=
 * or CONFIG_CMA_SIZE_*, which kernel/dma/contiguous.c names "reserved", was never made */
static const char reserve_failed_text[] = "cma: Failed to reserve ";
#define RESERVE_OBJECT "cma"
#define DEFAULT_AREA "reserved"

/* drivers/of/of_reserved_mem.c __reserved_mem_alloc_size(), pr_err "failed to allocate
 * memory for node '%s': size %lu MiB": a reserved-memory node of a size and no address
 * found no room; when the node is the CMA pool (reusable: a CMA area is made on it, the
 * kernel's "linux,cma" by convention), there is no such area */
static const char node_failed_text[] = "OF: reserved mem: failed to allocate memory for node '";

/* The record of a failed reservation in the log, NULL when none; the area's name into area:
 * the node's, or "reserved" for cma= and the kernel's configured size. */
static const struct sb_kmsg_line *reserve_failed_line(
	const struct doctor_board *b, char *area, size_t len)
{
	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text;

		if (b->log.lines[i].prio > 3)
			continue;
		snprintf(area, len, DEFAULT_AREA);
		if (strstr(text, reserve_failed_text))
			return &b->log.lines[i];
		if (!strncmp(text, node_failed_text, strlen(node_failed_text)) &&
		    doctor_region_of(text, area, len) &&
		    (!strncmp(area, "linux,cma", 9) ||
		     sb_exists(b->root, SB_DT_RESERVED_MEMORY "/%s/reusable", area)))
			return &b->log.lines[i];
	}
	return NULL;
}

static void reserve_failed(struct doctor_board *b, const struct sb_kmsg_line *l, const char *area,
			   bool other)
{
	char cma[64] = "", what[128];
	bool node = strcmp(area, DEFAULT_AREA);
	struct sb_cause *c = doctor_cause(b, "dmabuf.cma-reserve-failed", SB_DOCTOR_DMABUF,
					  RESERVE_OBJECT);

	if (!c)
		return;
	if (b->cmdline && !node)
		sb_cmdline_param(b->cmdline, "cma", cma, sizeof(cma));
	snprintf(what, sizeof(what), "%s%s",
		 node	  ? " of reserved-memory node "
		 : cma[0] ? " of cma="
			  : "",
		 node	  ? area
		 : cma[0] ? cma
			  : " \"" DEFAULT_AREA "\"");
	/* a node that failed leaves the kernel's configured area (CONFIG_CMA_SIZE_*) to be made */
	cause_diag(c,
		   "the CMA area%s could not be reserved at boot (\"%s\"): %s, and contiguous "
		   "allocations get only %s",
		   what, l->text + (node ? strlen("OF: reserved mem: ") : strlen("cma: ")),
		   other ? "no CMA heap of it" : "there is no CMA area, no CMA heap",
		   other ? "the other CMA area" : "what the page allocator finds");
	cause_evidence(c, "kernel log: %s%s%s", l->text, cma[0] ? "; /proc/cmdline: cma=" : "", cma);
	if (node)
		cause_fix(c,
			  "lower the size of reserved-memory node %s or widen its "
			  "alloc-ranges (dmesg, /proc/iomem)",
			  area);
	else
		cause_fix(c, "lower cma=SIZE (or CONFIG_CMA_SIZE_MBYTES) or move it "
			     "(cma=SIZE@START) where memory is free of other reserved-memory "
			     "nodes; dmesg shows the reserved-memory nodes (\"OF: reserved mem:\") "
			     "and memblock's layout");
}

/* No area at all because its reservation failed: no CMA heap could be made, whatever the
 * kernel was built with. Said when the dma-heap framework is there (another heap). */
static void no_area_no_heap(struct doctor_board *b, const struct sb_cma_areas *ca,
			    const char *const *heaps, size_t nheaps, const char *area)
{
	struct sb_cause *c;
	char list[160] = "";
	size_t len = 0;

	if (!nheaps || ca->n || (ca->have_meminfo && ca->meminfo_total_bytes))
		return;
	for (size_t h = 0; h < nheaps; h++) {
		if (strcmp(heaps[h], "system") && strcmp(heaps[h], "system-uncached"))
			return; /* a heap of some other memory: not ours to judge */
		if (len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						h ? ", " : "", heaps[h]);
	}
	c = doctor_cause(b, "dmabuf.cma-no-heap", SB_DOCTOR_DMABUF, area);
	if (!c)
		return;
	cause_diag(c,
		   "no CMA heap: its area (%s) was never reserved, so /dev/dma_heap "
		   "offers only %s and no contiguous dma-buf can be allocated",
		   area, list);
	cause_evidence(c,
		       "/sys/class/dma_heap: %s; no CMA area (" SB_CMA_SYSFS " and " SB_CMA_DEBUGFS
		       " empty or absent%s)",
		       list, ca->have_meminfo ? ", /proc/meminfo CmaTotal: 0 kB" : "");
	cause_fix(c, "reserve the CMA area first (dmabuf.cma-reserve-failed): the CMA heap is "
		     "made on it at boot");
	doctor_cause_follows(c, "dmabuf.cma-reserve-failed", RESERVE_OBJECT);
}

/* Records that say a contiguous DMA allocation failed: with no CMA area, a buffer larger
 * than the page allocator's largest order cannot be had. */
static const char *const alloc_failed[] = {
	/* drivers/remoteproc/remoteproc_core.c rproc_alloc_carveout(), dev_err
	 * "failed to allocate dma memory: len 0x%zx\n" (dma_alloc_coherent() failed) */
	"failed to allocate dma memory: len ",
};

void doctor_causes_cma_follow(struct doctor_board *b)
{
	const struct sb_cause *root = NULL;

	for (size_t i = 0; i < b->rep->ncauses && !root; i++)
		if (!strcmp(b->rep->causes[i].def->code, "dmabuf.cma-reserve-failed"))
			root = &b->rep->causes[i];
	if (!root)
		return;
	for (size_t i = 0; i < b->rep->ncauses; i++) {
		struct sb_cause *c = &b->rep->causes[i];

		if (c == root || c->follows[0])
			continue;
		for (size_t k = 0; k < ARRAY_SIZE(alloc_failed); k++)
			if (strstr(c->evidence, alloc_failed[k]))
				doctor_cause_follows(c, "dmabuf.cma-reserve-failed", RESERVE_OBJECT);
	}
}

/* Areas but no heap on any: the dma-heap framework is there (another heap registered),
 * its CMA heap is not. */
static void no_heap(struct doctor_board *b, const struct sb_cma_areas *ca, const char *const *heaps,
		    size_t nheaps)
{
	const char *object = ca->n ? ca->v[0].name : "cma";
	struct sb_cause *c;
	enum sb_mod_state st = SB_MOD_UNKNOWN;
	char hint[256];

	if (!nheaps || (!ca->n && !(ca->have_meminfo && ca->meminfo_total_bytes)))
		return;
	for (size_t i = 0; i < ca->n; i++)
		if (sb_cma_area_heap(ca, i, heaps, nheaps))
			return;
	for (size_t h = 0; h < nheaps; h++)
		if (!strcmp(heaps[h], "default_cma_region"))
			return;
	c = doctor_cause(b, "dmabuf.cma-no-heap", SB_DOCTOR_DMABUF, object);
	if (!c)
		return;
	if (ca->n)
		cause_diag(c,
			   "CMA area %s is reserved but no dma-heap allocates from it: "
			   "/dev/dma_heap offers no contiguous memory",
			   object);
	else
		cause_diag(c, "CMA is reserved but no dma-heap allocates from it: /dev/dma_heap "
			      "offers no contiguous memory");
	if (ca->n)
		cause_evidence(c, "%s/%s exists; /sys/class/dma_heap has %zu heap%s, none named %s",
			       ca->v[0].debugfs ? SB_CMA_DEBUGFS : SB_CMA_SYSFS, object, nheaps,
			       nheaps == 1 ? "" : "s", object);
	else
		cause_evidence(c,
			       "/proc/meminfo CmaTotal: %llu kB; /sys/class/dma_heap has no CMA "
			       "heap",
			       (unsigned long long)(ca->meminfo_total_bytes >> 10));
	sb_kmod_state(b->root, "cma_heap", &st);
	if (sb_kmod_hint(hint, sizeof(hint), st, "cma_heap", "CONFIG_DMABUF_HEAPS_CMA", NULL))
		cause_fix(c, "%s", hint);
}

void doctor_causes_cma(struct doctor_board *b, const struct sb_dmabuf_allocators *a)
{
	const char **heaps = calloc(a->nheaps + 1, sizeof(*heaps));
	char area[64];
	const struct sb_kmsg_line *failed = reserve_failed_line(b, area, sizeof(area));
	struct sb_cma_areas ca;
	bool have_areas;

	if (!heaps)
		abort();
	for (size_t i = 0; i < a->nheaps; i++)
		heaps[i] = a->v[i].name;
	have_areas = sb_cma_areas_read(b->root, &ca, NULL) == 0;
	fragmented_log(b, have_areas ? &ca : NULL);
	if (failed)
		reserve_failed(b, failed, area, have_areas && ca.n);
	if (have_areas) {
		fragmented_debugfs(b, &ca, heaps, a->nheaps);
		no_heap(b, &ca, heaps, a->nheaps);
		if (failed)
			no_area_no_heap(b, &ca, heaps, a->nheaps, area);
		sb_cma_areas_free(&ca);
	}
	free(heaps);
}
