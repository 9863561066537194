// SPDX-License-Identifier: GPL-2.0-or-later
/* The record assembler (socbox/iommu_events.h): an SMMUv3 event the kernel prints over
 * several lines (a raw header and its four dwords, a decoded line and its qualifier) made
 * one record, whatever other records come between; and the events of a whole log. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iommu_events_line.h"
#include "socbox/iommu_events.h"
#include "socbox/sys.h"

enum slot_state {
	S_RAW,	    /* header seen, dword lines expected */
	S_RAW_DONE, /* four dwords seen; a decoded line may follow (newer kernels) */
	S_DECODED,  /* decoded line seen; its qualifier line follows */
	S_DONE,
};

void sb_iommu_evasm_init(struct sb_iommu_evasm *a)
{
	memset(a, 0, sizeof(*a));
}

bool sb_iommu_evasm_pending(const struct sb_iommu_evasm *a)
{
	return a->nslots > 0;
}

static void slot_remove(struct sb_iommu_evasm *a, size_t i, struct sb_iommu_event *out)
{
	*out = a->slot[i].ev;
	memmove(&a->slot[i], &a->slot[i + 1], (a->nslots - i - 1) * sizeof(a->slot[0]));
	a->nslots--;
}

bool sb_iommu_evasm_flush(struct sb_iommu_evasm *a, struct sb_iommu_event *out)
{
	if (!a->nslots)
		return false;
	slot_remove(a, 0, out);
	return true;
}

/* The four dwords of a raw dump: stream id, address and, for translation faults, the
 * qualifier the kernel would print. */
static void decode_raw(struct sb_iommu_evasm_slot *s)
{
	struct sb_iommu_event *ev = &s->ev;
	unsigned id = (unsigned)(s->dw[0] & 0xff);

	ev->sid = (uint32_t)(s->dw[0] >> 32);
	ev->has_sid = true;
	snprintf(ev->device, sizeof(ev->device), "sid 0x%x", ev->sid);
	if (is_translation_class(id)) {
		ev->addr = s->dw[2];
		ev->has_addr = true;
		sb_smmu_event_qualifier(id, s->dw[1], ev->reason, sizeof(ev->reason));
	} else if (is_fetch_class(id)) {
		ev->addr = s->dw[3] & 0x000ffffffffffff8ull; /* bits 51:3 */
		ev->has_addr = true;
	}
}

/* Does line (kind k, parsed into ev) continue the record of slot s? Folds it in if so. */
static bool slot_continue(struct sb_iommu_evasm_slot *s, enum line_kind k,
			  const struct sb_iommu_event *ev, uint64_t val)
{
	switch (s->state) {
	case S_RAW:
		if (k != L_DWORD)
			return false;
		s->dw[s->ndwords++] = val;
		if (s->ndwords == 4) {
			decode_raw(s);
			s->state = S_RAW_DONE;
		}
		return true;
	case S_RAW_DONE: {
		unsigned id = (unsigned)(s->dw[0] & 0xff);

		if (k != L_DECODED || !ev->has_sid || ev->sid != s->ev.sid)
			return false;
		if (ev->client_known) {
			snprintf(s->ev.device, sizeof(s->ev.device), "%s", ev->device);
			s->ev.client_known = true;
		}
		s->state = is_translation_class(id) ? S_DECODED : S_DONE;
		return true;
	}
	case S_DECODED:
		if (k != L_QUALIFIER)
			return false;
		snprintf(s->ev.reason, sizeof(s->ev.reason), "%s", ev->reason);
		s->state = S_DONE;
		return true;
	}
	return false;
}

static bool expects_qualifier(const char *kind)
{
	return !strcmp(kind, "F_TRANSLATION") || !strcmp(kind, "F_ADDR_SIZE") ||
	       !strcmp(kind, "F_ACCESS") || !strcmp(kind, "F_PERMISSION");
}

size_t sb_iommu_evasm_feed(struct sb_iommu_evasm *a, const struct sb_kmsg_line *l,
			   struct sb_iommu_event out[SB_IOMMU_EVASM_OUT])
{
	struct sb_iommu_event ev;
	uint64_t val;
	enum line_kind k = iommu_event_line(l, &ev, &val);
	size_t n = 0;

	if (k == L_NONE)
		return 0;
	if (k == L_SUPPRESSED) {
		a->suppressed += val;
		return 0;
	}
	for (size_t i = 0; ev.source[0] && i < a->nslots; i++) {
		struct sb_iommu_evasm_slot *s = &a->slot[i];

		if (strcmp(s->ev.source, ev.source))
			continue;
		if (slot_continue(s, k, &ev, val)) {
			if (s->state == S_DONE)
				slot_remove(a, i, &out[n++]);
			return n;
		}
		slot_remove(a, i, &out[n++]); /* this SMMU moved on: the record is complete */
		break;
	}
	if (k == L_RAW_HEADER || (k == L_DECODED && expects_qualifier(ev.kind))) {
		struct sb_iommu_evasm_slot *s;

		if (a->nslots == SB_IOMMU_EVASM_SLOTS)
			slot_remove(a, 0, &out[n++]);
		s = &a->slot[a->nslots++];
		memset(s, 0, sizeof(*s));
		s->ev = ev;
		s->state = k == L_RAW_HEADER ? S_RAW : S_DECODED;
	} else if (k == L_RECORD || k == L_DECODED) {
		out[n++] = ev;
	}
	return n;
}

int sb_iommu_event_push(struct sb_iommu_event **out, size_t *n, size_t *cap,
			const struct sb_iommu_event *ev)
{
	size_t i;

	if (*n == *cap) {
		struct sb_iommu_event *ne;

		*cap = *cap ? *cap * 2 : 32;
		ne = realloc(*out, *cap * sizeof(*ne));
		if (!ne)
			return -ENOMEM;
		*out = ne;
	}
	/* Records of interleaved SMMUs may finish out of order: keep log (time) order. */
	for (i = *n; i > 0 && (*out)[i - 1].has_ts && ev->has_ts && (*out)[i - 1].ts_us > ev->ts_us;
	     i--)
		(*out)[i] = (*out)[i - 1];
	(*out)[i] = *ev;
	(*n)++;
	return 0;
}

int sb_iommu_events(const struct sb_kmsg *log, struct sb_iommu_event **out, size_t *n,
		    uint64_t *suppressed)
{
	struct sb_iommu_evasm a;
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	sb_iommu_evasm_init(&a);
	for (size_t i = 0; i < log->n; i++) {
		size_t k = sb_iommu_evasm_feed(&a, &log->lines[i], done);

		for (size_t j = 0; j < k; j++)
			if (sb_iommu_event_push(out, n, &cap, &done[j]))
				goto nomem;
	}
	while (sb_iommu_evasm_flush(&a, &done[0]))
		if (sb_iommu_event_push(out, n, &cap, &done[0]))
			goto nomem;
	if (suppressed)
		*suppressed = a.suppressed;
	return 0;
nomem:
	free(*out);
	*out = NULL;
	*n = 0;
	return -ENOMEM;
}

struct each {
	struct sb_iommu_evasm a;
	int (*fn)(void *arg, const struct sb_iommu_event *ev);
	void *arg;
};

static int each_line(void *arg, const struct sb_kmsg_line *l)
{
	struct each *x = arg;
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	size_t k = sb_iommu_evasm_feed(&x->a, l, done);
	int rc = 0;

	for (size_t j = 0; j < k && !rc; j++)
		rc = x->fn(x->arg, &done[j]);
	return rc;
}

int sb_iommu_events_each(const struct sb_root *r,
			 int (*fn)(void *arg, const struct sb_iommu_event *ev), void *arg,
			 struct sb_kmsg_info *info, uint64_t *suppressed, struct sb_err *e)
{
	struct each x = { .fn = fn, .arg = arg };
	struct sb_iommu_event ev;
	int rc;

	sb_iommu_evasm_init(&x.a);
	rc = sb_kmsg_each(r, each_line, &x, info, e);
	while (!rc && sb_iommu_evasm_flush(&x.a, &ev))
		rc = fn(arg, &ev);
	if (suppressed)
		*suppressed = x.a.suppressed;
	return rc;
}
