// SPDX-License-Identifier: GPL-2.0-or-later
/* Why dma-bufs cannot be had: CMA areas that ran out, nodes this user cannot open, a
 * udmabuf limit below the application's buffer, one process holding most buffers. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/dmabuf.h"
#include "socbox/dmabufinfo.h"

#define CMA "/sys/kernel/mm/cma"

/* "cma: FUNC: AREA: alloc failed, req-size: N pages, ret: E" (mm/cma.c; FUNC is cma_alloc
 * in 6.1, __cma_alloc_frozen in 7.2) */
static bool cma_line(const char *text, char *area, size_t len, unsigned long *pages, int *ret)
{
	const char *end = strstr(text, ": alloc failed, req-size: "), *start;

	if (!end || strncmp(text, "cma: ", 5))
		return false;
	start = strstr(text + 5, ": ");
	if (!start || start >= end)
		return false;
	start += 2;
	snprintf(area, len, "%.*s", (int)(end - start), start);
	return sscanf(end, ": alloc failed, req-size: %lu pages, ret: %d", pages, ret) == 2;
}

/* The failure lines of one area (its name as cma_line() gives it), gathered in one pass. */
struct cma_log {
	char name[96];
	unsigned long lines, largest;
	int lastret;
	size_t last; /* index of its last line in the log */
};

static void cma_area(struct doctor_board *b, const char *area, uint64_t fail,
		     const struct cma_log *e)
{
	unsigned long largest = e ? e->largest : 0, lines = e ? e->lines : 0;
	char last[256] = "";
	struct sb_cause *c;
	int lastret = e ? e->lastret : 0;

	/* a failure that fragmentation explains (cause_cma.c) is not a lack of memory */
	if ((!fail && !lines) || doctor_has_cause(b, area))
		return;
	c = doctor_cause(b, "dmabuf.cma-exhausted", SB_DOCTOR_DMABUF, area);
	if (!c)
		return;
	if (lines)
		snprintf(last, sizeof(last), "%s", b->log.lines[e->last].text);
	if (fail && lines)
		cause_diag(c,
			   "CMA area %s: %llu pages failed to allocate, largest request %lu pages "
			   "(ret %d)",
			   area, (unsigned long long)fail, largest, lastret);
	else if (fail)
		cause_diag(c, "CMA area %s: %llu pages failed to allocate", area,
			   (unsigned long long)fail);
	else
		cause_diag(c, "CMA area %s: %lu allocations failed, largest request %lu pages",
			   area, lines, largest);
	if (fail)
		cause_evidence(c, CMA "/%s/alloc_pages_fail: %llu%s%s", area,
			       (unsigned long long)fail, lines ? "; kernel log: " : "", last);
	else
		cause_evidence(c, "kernel log: %s", last);
}

static struct cma_log *cma_log_find(struct cma_log *v, size_t n, const char *area)
{
	for (size_t k = 0; k < n; k++)
		if (!strcmp(v[k].name, area))
			return &v[k];
	return NULL;
}

static void cma(struct doctor_board *b)
{
	struct sb_dirlist l = { 0 };
	struct cma_log *v = NULL;
	size_t n = 0;
	char name[96];
	unsigned long pages;
	int ret;

	/* one pass over the log: the failure lines by area, in the order first seen (a log of
	 * hundreds of thousands of records has a handful of CMA areas) */
	for (size_t i = 0; i < b->log.n; i++) {
		struct cma_log *e;

		if (!cma_line(b->log.lines[i].text, name, sizeof(name), &pages, &ret))
			continue;
		e = cma_log_find(v, n, name);
		if (!e) {
			void *nv = reallocarray(v, n + 1, sizeof(*v));

			if (!nv)
				abort();
			v = nv;
			e = &v[n++];
			memset(e, 0, sizeof(*e));
			snprintf(e->name, sizeof(e->name), "%s", name);
		}
		e->lines += b->log_count[i];
		e->lastret = ret;
		e->largest = pages > e->largest ? pages : e->largest;
		e->last = i;
	}
	if (sb_dir_list(b->root, &l, CMA) == 0)
		for (size_t i = 0; i < l.n; i++) {
			uint64_t fail = 0;

			sb_attr_u64(b->root, &fail, CMA "/%s/alloc_pages_fail", l.names[i]);
			cma_area(b, l.names[i], fail, cma_log_find(v, n, l.names[i]));
		}
	sb_dirlist_free(&l);
	/* without CMA_SYSFS only the log tells */
	for (size_t k = 0; k < n; k++)
		cma_area(b, v[k].name, 0, &v[k]);
	free(v);
}

static void access_denied(struct doctor_board *b, const struct sb_dmabuf_allocators *a)
{
	for (size_t i = 0; i < a->nheaps + (a->udmabuf ? 1 : 0); i++) {
		const struct sb_dmabuf_allocator *al = &a->v[i];
		struct sb_cause *c;

		if (!al->node_checked || !al->node_exists || al->can_open)
			continue;
		c = doctor_cause(b, "dmabuf.heap-denied", SB_DOCTOR_DMABUF, al->node);
		if (!c)
			continue;
		cause_diag(c, "%s (mode %04o, uid %u, gid %u) cannot be opened by this user",
			   al->node, al->mode, al->uid, al->gid);
		cause_evidence(c, "stat %s: mode %04o uid %u gid %u", al->node, al->mode, al->uid,
			       al->gid);
	}
}

static void udmabuf_limit(struct doctor_board *b)
{
	struct sb_udmabuf_limits lim;
	struct sb_cause *c;
	uint64_t want = b->opts ? b->opts->buffer_size : 0;

	if (!want || sb_udmabuf_limits(b->root, &lim) || !lim.known || lim.size_limit_bytes >= want)
		return;
	/* over the limit, create fails with EINVAL and the kernel says nothing */
	c = doctor_cause(b, "dmabuf.udmabuf-limit", SB_DOCTOR_DMABUF, "udmabuf");
	if (!c)
		return;
	cause_diag(c, "udmabuf takes at most %llu MiB a buffer; the application needs %llu MiB",
		   (unsigned long long)(lim.size_limit_bytes >> 20),
		   (unsigned long long)((want + (1 << 20) - 1) >> 20));
	cause_evidence(c, "/sys/module/udmabuf/parameters/size_limit_mb: %llu",
		       (unsigned long long)(lim.size_limit_bytes >> 20));
	cause_fix(c, "boot with udmabuf.size_limit_mb=%llu, or load the module with " SB_FIX_RUN0,
		  (unsigned long long)((want + (1 << 20) - 1) >> 20));
	sb_cause_run(c, "modprobe udmabuf size_limit_mb=%llu",
		     (unsigned long long)((want + (1 << 20) - 1) >> 20));
}

/* One process holding at least 16 buffers and 4 times as many as any other. */
#define HOG_MIN 16
#define HOG_FACTOR 4

struct holder_count {
	pid_t pid;
	char comm[32];
	size_t n;
	uint64_t bytes;
};

static void hog(struct doctor_board *b)
{
	struct sb_dmabuf_inventory inv = { 0 };
	struct holder_count top = { 0 }, second = { 0 }, *per = NULL;
	size_t nper = 0;
	struct sb_cause *c;

	if (sb_dmabuf_inventory(b->root, 0, &inv, NULL) < 0)
		return;
	for (size_t i = 0; i < inv.n; i++)
		for (size_t h = 0; h < inv.v[i].nholders; h++) {
			const struct sb_dmabuf_holder *ho = &inv.v[i].holders[h];
			size_t k = 0, seen = 0;

			/* a buffer counts once per process, however many fds and maps it has */
			while (seen < h && inv.v[i].holders[seen].pid != ho->pid)
				seen++;
			if (seen < h)
				continue;
			while (k < nper && per[k].pid != ho->pid)
				k++;
			if (k == nper) {
				void *n = reallocarray(per, nper + 1, sizeof(*per));

				if (!n)
					abort();
				per = n;
				memset(&per[nper], 0, sizeof(*per));
				per[nper].pid = ho->pid;
				snprintf(per[nper].comm, sizeof(per[nper].comm), "%s", ho->comm);
				nper++;
			}
			per[k].n++;
			per[k].bytes += inv.v[i].size;
		}
	for (size_t k = 0; k < nper; k++) {
		if (per[k].n > top.n) {
			second = top;
			top = per[k];
		} else if (per[k].n > second.n) {
			second = per[k];
		}
	}
	if (nper >= 2 && top.n >= HOG_MIN && top.n >= HOG_FACTOR * second.n) {
		char object[64];

		snprintf(object, sizeof(object), "%s[%d]", top.comm, (int)top.pid);
		c = doctor_cause(b, "dmabuf.hog", SB_DOCTOR_DMABUF, object);
		if (c) {
			cause_diag(c, "%s holds %zu dma-bufs (%llu MiB); the next process %zu",
				   object, top.n, (unsigned long long)(top.bytes >> 20), second.n);
			cause_evidence(c,
				       "/proc/%d/fdinfo and /proc/%d/maps: %zu buffers; %s[%d]: %zu",
				       (int)top.pid, (int)top.pid, top.n, second.comm,
				       (int)second.pid, second.n);
			cause_fix(c, "check %s for a buffer leak with " SB_FIX_RUN0, object);
			sb_cause_run(c, "dmabufcp ls -p %d", (int)top.pid);
		}
	}
	free(per);
	sb_dmabuf_inventory_free(&inv);
}

void doctor_causes_dmabuf(struct doctor_board *b)
{
	struct sb_dmabuf_allocators a;
	struct sb_cause *c;

	sb_dmabuf_allocators(b->root, false, &a);
	doctor_causes_cma(b, &a);
	cma(b);
	access_denied(b, &a);
	if (!a.nheaps && (c = doctor_cause(b, "dmabuf.no-heap", SB_DOCTOR_DMABUF, "dma_heap"))) {
		cause_diag(c, "no dma-heap: /dev/dma_heap has nothing to allocate from");
		cause_evidence(c, "/sys/class/dma_heap: no heap");
	}
	if (!a.udmabuf && (c = doctor_cause(b, "dmabuf.no-udmabuf", SB_DOCTOR_DMABUF, "udmabuf"))) {
		char hint[256];
		enum sb_mod_state st;

		sb_kmod_state(b->root, "udmabuf", &st);
		cause_diag(c, "no udmabuf: memfd pages cannot be made into dma-bufs");
		cause_evidence(c, "/sys/class/misc/udmabuf: absent; module udmabuf: %s",
			       sb_kmod_state_name(st));
		if (sb_kmod_hint(hint, sizeof(hint), st, "udmabuf", "CONFIG_UDMABUF", NULL))
			cause_fix(c, "%s", hint);
	}
	sb_dmabuf_allocators_free(&a);
	udmabuf_limit(b);
	hog(b);
}
