// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log as smmustat's overview and check read it: once, a line at a time. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_log.h"
#include "socbox/kmsg.h"

struct scan {
	struct sb_iommu_log *l;
	size_t cap;
	bool events;
	bool all_timed; /* every record so far had a time */
	struct sb_iommu_evasm a;
};

/* As sb_iommu_event_push() orders them, the first record is the earliest one while every
 * record has a time, else the first that came. */
static void count(struct scan *s, const struct sb_iommu_event *ev)
{
	if (!s->l->nevents || (s->all_timed && ev->has_ts && s->l->first.ts_us > ev->ts_us))
		s->l->first = *ev;
	s->all_timed = (s->all_timed || !s->l->nevents) && ev->has_ts;
	s->l->nevents++;
}

static int line(void *arg, const struct sb_kmsg_line *l)
{
	struct scan *s = arg;

	sb_iommu_policy_line(l->text, &s->l->policy);
	if (sb_smmu_probes_add(l->text, &s->l->probes, &s->l->nprobes, &s->cap))
		return -ENOMEM;
	if (s->events) {
		struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
		size_t n = sb_iommu_evasm_feed(&s->a, l, done);

		for (size_t k = 0; k < n; k++)
			count(s, &done[k]);
	}
	return 0;
}

int sb_iommu_log_read(const struct sb_root *r, bool events, struct sb_iommu_log *l, struct sb_err *e)
{
	struct scan s = { .l = l, .events = events };
	struct sb_kmsg_info info;
	struct sb_iommu_event ev;
	int rc;

	memset(l, 0, sizeof(*l));
	sb_iommu_evasm_init(&s.a);
	rc = sb_kmsg_each(r, line, &s, &info, e);
	if (rc == -ENOMEM && !e->errnum)
		sb_err_set(e, ENOMEM, "/dev/kmsg", "read the kernel log", NULL);
	if (rc) {
		sb_iommu_log_free(l);
		return rc < 0 ? rc : -EIO;
	}
	while (events && sb_iommu_evasm_flush(&s.a, &ev))
		count(&s, &ev);
	l->source = info.source;
	l->lines = info.lines;
	return 0;
}

void sb_iommu_log_free(struct sb_iommu_log *l)
{
	free(l->probes);
	memset(l, 0, sizeof(*l));
}
