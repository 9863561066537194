// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log as doctor keeps it: read once, a line at a time (sb_kmsg_each()), never
 * whole, so its memory does not grow with the log (the kernel keeps up to 32 MiB).
 *
 * Kept for the detectors, as b->log: the records at warning or worse, those of unknown
 * priority (a dmesg text) and the few informational ones a detector reads (a remote
 * processor powering up and up again, the IOMMU's default domain and TLB policy). Each
 * distinct record (text, device and priority) is kept once, where it came last, with how
 * many times it came (b->log_count) and where it came first (b->log_first): "is there an
 * X after the last Y", "the last X" and "the first X" get the answers the whole log gives,
 * and counts stay exact. At most SB_DOCTOR_LOG_KEEP
 * distinct records are kept; past that the one that came last longest ago goes
 * (b->log_dropped counts them).
 *
 * IOMMU events span several lines (an SMMUv3 dump): they are assembled in the same pass
 * (lib/iommu's assembler) and kept grouped by IOMMU, client, stream ID and kind, with the
 * group's first event and its count (b->evgroups), in the order the groups first came. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "doctor_probe.h"
#include "socbox/iommu_events.h"
#include "socbox/limits.h"

#define NIL UINT32_MAX
/* The hash table starts small and doubles as records are kept, up to twice the nodes: set
 * to NIL, a table sized for the most that is kept would be 16 pages written before the first
 * record of every run, a quarter of doctor's start-up on a small board (bench/startup). */
#define BUCKETS_FIRST 256u /* powers of two */
#define BUCKETS_MOST (2 * SB_DOCTOR_LOG_KEEP)

struct kept {
	uint64_t hash;
	uint32_t prev, next; /* by last occurrence, oldest first */
	uint32_t hnext;	     /* the hash chain */
	size_t count;
	uint64_t first; /* the line's ordinal in the log when it came first */
	struct sb_kmsg_line l;
	char *str; /* text, NUL, device, NUL (malloc'ed) */
	size_t len;
};

struct keeper {
	struct doctor_board *b;
	struct kept *v; /* SB_DOCTOR_LOG_KEEP nodes */
	uint32_t *bucket;
	uint32_t nbuckets, live; /* live: records kept now */
	uint32_t used, head, tail, free;
	uint32_t fresh; /* nodes from here on were never handed out (nor touched: start-up) */
	size_t bytes;
	struct sb_iommu_evasm evasm;
	size_t capgroups;
	uint64_t lines; /* fed so far */
	bool nomem;
};

/* Informational records a detector reads (the others it reads are warnings or worse). */
static bool wanted_info(const char *text)
{
	static const char *const words[] = {
		"powering up ",		     /* remoteproc_core.c rproc_boot(), dev_info */
		" is now up",		     /* remoteproc_core.c rproc_start(), dev_info */
		"Default domain type: ",     /* iommu.c iommu_subsys_init(), pr_info */
		"TLB invalidation policy: ", /* iommu.c iommu_subsys_init(), pr_info */
		/* mm/cma.c cma_debug_show_areas(), pr_info, after a failed allocation: the
		 * free runs (cause_cma.c) */
		"cma: number of available pages: ", "cma: range ",
		/* drivers/base/dd.c deferred_probe_timeout_work_func(), 6.1 dev_info: the
		 * deferred devices without debugfs (doctor_board.c) */
		"deferred probe pending"
	};

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strstr(text, words[i]))
			return true;
	return false;
}

static uint64_t hash_of(const struct sb_kmsg_line *l)
{
	uint64_t h = XXH3_64bits(l->text, strlen(l->text));

	if (l->device)
		h ^= XXH3_64bits(l->device, strlen(l->device)) * 0x9e3779b97f4a7c15ull;
	return h ^ (uint64_t)(l->prio + 1);
}

static bool same(const struct kept *k, uint64_t h, const struct sb_kmsg_line *l)
{
	const char *dev = k->str + strlen(k->str) + 1;

	return k->hash == h && k->l.prio == l->prio && !strcmp(k->str, l->text) &&
	       (l->device ? k->l.device && !strcmp(dev, l->device) : !k->l.device);
}

static void unlink_order(struct keeper *s, uint32_t i)
{
	struct kept *k = &s->v[i];

	if (k->prev != NIL)
		s->v[k->prev].next = k->next;
	else
		s->head = k->next;
	if (k->next != NIL)
		s->v[k->next].prev = k->prev;
	else
		s->tail = k->prev;
}

static void append_order(struct keeper *s, uint32_t i)
{
	struct kept *k = &s->v[i];

	k->prev = s->tail;
	k->next = NIL;
	if (s->tail != NIL)
		s->v[s->tail].next = i;
	else
		s->head = i;
	s->tail = i;
}

/* The record that came last longest ago goes. */
static void evict(struct keeper *s)
{
	uint32_t i = s->head, *p;
	struct kept *k = &s->v[i];

	unlink_order(s, i);
	for (p = &s->bucket[k->hash & (s->nbuckets - 1)]; *p != i; p = &s->v[*p].hnext)
		;
	*p = k->hnext;
	s->bytes -= k->len;
	free(k->str);
	k->str = NULL;
	k->hnext = s->free;
	s->free = i;
	s->live--;
	s->b->log_dropped += k->count;
}

static bool node_left(const struct keeper *s)
{
	return s->free != NIL || s->fresh < SB_DOCTOR_LOG_KEEP;
}

static uint32_t *new_buckets(uint32_t n)
{
	uint32_t *t = malloc(n * sizeof(*t));

	if (!t)
		abort();
	memset(t, 0xff, n * sizeof(*t)); /* NIL */
	return t;
}

/* Twice the buckets, the kept records chained again. */
static void grow_buckets(struct keeper *s)
{
	uint32_t n = 2 * s->nbuckets, *t = new_buckets(n);

	for (uint32_t i = s->head; i != NIL; i = s->v[i].next) {
		uint32_t *b = &t[s->v[i].hash & (n - 1)];

		s->v[i].hnext = *b;
		*b = i;
	}
	free(s->bucket);
	s->bucket = t;
	s->nbuckets = n;
}

static void keep(struct keeper *s, const struct sb_kmsg_line *l)
{
	uint64_t h = hash_of(l);
	uint32_t *b = &s->bucket[h & (s->nbuckets - 1)], i;
	size_t tl, dl;
	struct kept *k;
	bool recycled;

	for (i = *b; i != NIL; i = s->v[i].hnext)
		if (same(&s->v[i], h, l)) {
			k = &s->v[i];
			k->count++;
			k->l.ts_us = l->ts_us;
			k->l.has_ts = l->has_ts;
			k->l.seq = l->seq;
			k->l.has_seq = l->has_seq;
			unlink_order(s, i);
			append_order(s, i);
			return;
		}
	tl = strlen(l->text);
	dl = l->device ? strlen(l->device) : 0;
	while (s->head != NIL &&
	       (!node_left(s) || s->bytes + tl + dl + 2 > SB_DOCTOR_LOG_KEEP_BYTES))
		evict(s);
	if (!node_left(s))
		return; /* a record larger than everything kept may be: not kept */
	recycled = s->free != NIL;
	i = recycled ? s->free : s->fresh;
	k = &s->v[i];
	k->str = malloc(tl + dl + 2);
	if (!k->str) {
		s->nomem = true;
		return;
	}
	if (recycled)
		s->free = k->hnext;
	else
		s->fresh++;
	memcpy(k->str, l->text, tl + 1);
	memcpy(k->str + tl + 1, l->device ? l->device : "", dl + 1);
	k->len = tl + dl + 2;
	s->bytes += k->len;
	k->hash = h;
	k->count = 1;
	k->first = s->lines;
	k->l = *l;
	k->hnext = *b;
	*b = i;
	append_order(s, i);
	if (++s->live > s->nbuckets / 2 && s->nbuckets < BUCKETS_MOST)
		grow_buckets(s);
}

/* An IOMMU event into its group: by IOMMU, client, stream ID and kind. The groups stay in
 * the order their first events came in time (records of interleaved SMMUs may finish out
 * of order, as sb_iommu_events() orders them). */
static void group_event(struct keeper *s, const struct sb_iommu_event *ev)
{
	struct doctor_board *b = s->b;
	size_t i;

	for (i = b->nevgroups; i-- > 0;) {
		struct doctor_evgroup *g = &b->evgroups[i];

		if (g->ev.has_sid == ev->has_sid && (!ev->has_sid || g->ev.sid == ev->sid) &&
		    !strcmp(g->ev.kind, ev->kind) && !strcmp(g->ev.source, ev->source) &&
		    !strcmp(g->ev.device, ev->device)) {
			g->count++;
			return;
		}
	}
	if (b->nevgroups == SB_DOCTOR_EVGROUPS_MAX) {
		b->evgroups_dropped++;
		return;
	}
	if (b->nevgroups == s->capgroups) {
		size_t ncap = s->capgroups ? s->capgroups * 2 : 16;
		void *n = reallocarray(b->evgroups, ncap, sizeof(*b->evgroups));

		if (!n) {
			s->nomem = true;
			return;
		}
		b->evgroups = n;
		s->capgroups = ncap;
	}
	for (i = b->nevgroups; i > 0 && b->evgroups[i - 1].ev.has_ts && ev->has_ts &&
			       b->evgroups[i - 1].ev.ts_us > ev->ts_us;
	     i--)
		b->evgroups[i] = b->evgroups[i - 1];
	b->evgroups[i].ev = *ev;
	b->evgroups[i].count = 1;
	b->nevgroups++;
}

static int line(void *arg, const struct sb_kmsg_line *l)
{
	struct keeper *s = arg;
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	size_t n = sb_iommu_evasm_feed(&s->evasm, l, done);

	for (size_t k = 0; k < n; k++)
		group_event(s, &done[k]);
	if (l->prio <= 4 || wanted_info(l->text))
		keep(s, l);
	s->lines++;
	return 0;
}

/* The kept records, in the order they came last, as one buffer of lines. */
static void settle(struct keeper *s)
{
	struct sb_kmsg *k = &s->b->log;
	size_t n = 0;
	char *p;

	k->lines = calloc(s->used ? s->used : 1, sizeof(*k->lines));
	s->b->log_count = calloc(s->used ? s->used : 1, sizeof(*s->b->log_count));
	s->b->log_first = calloc(s->used ? s->used : 1, sizeof(*s->b->log_first));
	k->buf = p = malloc(s->bytes ? s->bytes : 1);
	if (!k->lines || !s->b->log_count || !s->b->log_first || !k->buf)
		abort(); /* doctor's lists follow the output layer's OOM rule */
	for (uint32_t i = s->head; i != NIL; i = s->v[i].next, n++) {
		const struct kept *e = &s->v[i];

		memcpy(p, e->str, e->len);
		k->lines[n] = e->l;
		k->lines[n].text = p;
		k->lines[n].device = e->l.device ? p + strlen(p) + 1 : NULL;
		s->b->log_count[n] = e->count;
		s->b->log_first[n] = e->first;
		p += e->len;
	}
	k->n = n;
}

static void keeper_init(struct keeper *s, struct doctor_board *b)
{
	memset(s, 0, sizeof(*s));
	s->b = b;
	s->head = s->tail = s->free = NIL;
	/* calloc'ed and handed out in order (fresh), so a short log touches a few pages of it */
	s->v = calloc(SB_DOCTOR_LOG_KEEP, sizeof(*s->v));
	if (!s->v)
		abort();
	s->nbuckets = BUCKETS_FIRST;
	s->bucket = new_buckets(s->nbuckets);
	sb_iommu_evasm_init(&s->evasm);
}

/* The pending IOMMU events, then the kept records into b->log. */
static void keeper_done(struct keeper *s, bool ok)
{
	struct doctor_board *b = s->b;
	struct sb_iommu_event ev;

	if (ok) {
		while (sb_iommu_evasm_flush(&s->evasm, &ev))
			group_event(s, &ev);
		b->log_read = true;
	} else { /* unreadable, or read in part: as an empty log */
		while (s->head != NIL)
			evict(s);
		b->log_dropped = 0;
		free(b->evgroups);
		b->evgroups = NULL;
		b->nevgroups = b->evgroups_dropped = 0;
	}
	if (s->nomem)
		abort();
	for (uint32_t i = s->head; i != NIL; i = s->v[i].next)
		s->used++;
	settle(s);
	for (uint32_t i = 0; i < s->fresh; i++)
		free(s->v[i].str);
	free(s->v);
	free(s->bucket);
}

void doctor_log_load(struct doctor_board *b)
{
	struct keeper s;
	struct sb_kmsg_info info;
	bool ok;

	keeper_init(&s, b);
	ok = sb_kmsg_each(b->root, line, &s, &info, NULL) == 0;
	if (ok) {
		b->log.source = info.source;
		b->log.lost = info.lost;
	}
	keeper_done(&s, ok);
}

void doctor_log_load_text(struct doctor_board *b, const char *text)
{
	struct keeper s;
	struct sb_kmsg k;
	char *copy = strdup(text);

	if (!copy)
		abort();
	keeper_init(&s, b);
	if (sb_kmsg_parse(copy, &k))
		abort();
	for (size_t i = 0; i < k.n; i++)
		line(&s, &k.lines[i]);
	sb_kmsg_free(&k);
	keeper_done(&s, true);
}
