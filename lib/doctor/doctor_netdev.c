// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's netdev probe, on the netdev library devmemstat uses: family present, devices,
 * queues with a dma-buf binding, page pools and leaked (detached but still holding) pools. */
#include <errno.h>
#include <stdio.h>
#include <stdbool.h>

#include "doctor_probe.h"
#include "socbox/netdev.h"

/* The facts, status and summary of a collected state: the same on the live kernel and on a
 * snapshot with a netdev capture (the facts keep their live flag either way). */
static void summarize(struct doctor_board *b, struct sb_doctor_sub *s, const struct sb_nd_state *st)
{
	size_t bound = 0, leaked = 0;
	uint64_t age;

	doctor_bool(s, "family", true, true);
	doctor_num(s, "family_version", st->family_version, true);
	for (size_t i = 0; i < st->nqueues; i++)
		bound += st->queues[i].dmabuf != 0;
	for (size_t i = 0; i < st->npools; i++)
		if (sb_nd_pool_leaked(&st->pools[i], st->boottime_s, &age)) {
			leaked++;
			doctor_cause_pool(b, &st->pools[i], age);
		}
	doctor_num(s, "devices", (int64_t)st->ndevs, true);
	if (st->have & SB_ND_QUEUES) {
		doctor_num(s, "queues", (int64_t)st->nqueues, true);
		doctor_num(s, "queues_with_dmabuf", (int64_t)bound, true);
	} else {
		doctor_hint(s, "per-queue state (queue-get) needs Linux 6.9+");
	}
	if (st->have & SB_ND_POOLS) {
		doctor_num(s, "page_pools", (int64_t)st->npools, true);
		doctor_num(s, "page_pools_leaked", (int64_t)leaked, true);
	}
	s->status = (st->have & SB_ND_QUEUES) ? SB_HEALTH_OK : SB_HEALTH_DEGRADED;
	doctor_summary(
		s,
		"netdev family v%u: %zu device%s, %zu queue%s, %zu bound to a dma-buf, %zu page pool%s",
		st->family_version, st->ndevs, st->ndevs == 1 ? "" : "s", st->nqueues,
		st->nqueues == 1 ? "" : "s", bound, st->npools, st->npools == 1 ? "" : "s");
}

/* The kernel has no netdev family (the live answer, or what a snapshot recorded). */
static void no_family(struct doctor_board *b, struct sb_doctor_sub *s)
{
	struct sb_cause *c;

	s->status = SB_HEALTH_MISSING;
	doctor_bool(s, "family", false, true);
	doctor_summary(s, "no 'netdev' generic netlink family");
	c = doctor_cause(b, "netdev.no-family", SB_DOCTOR_NETDEV, "netdev");
	if (c) {
		cause_diag(c, "kernel %s has no netdev generic netlink family", b->rep->kernel);
		cause_evidence(c, sb_root_is_live(b->root)
					  ? "CTRL_CMD_GETFAMILY netdev: ENOENT"
					  : SB_ND_SNAP_PARTS ": " SB_ND_SNAP_ABSENT);
	}
}

/* The source could not be loaded: from a snapshot, what it lacks; from the kernel, which
 * step failed (opened: the family answered, its dump did not). */
static void not_loaded(struct sb_doctor_sub *s, const struct sb_nd_source *src, bool opened,
		       const struct sb_err *e)
{
	if (src->origin == SB_ND_FROM_SNAPSHOT) {
		s->status = SB_HEALTH_UNKNOWN;
		s->live_only = true;
		doctor_summary(s, "needs the live kernel (generic netlink); not in a snapshot");
		if (e->errnum != ENOENT)
			doctor_hint(s, "%s: %s", SB_ND_SNAP_PARTS, e->hint);
		return;
	}
	if (!opened) { /* the kernel was not asked: whether it has the family is unknown */
		s->status = SB_HEALTH_UNKNOWN;
		doctor_summary(s, "cannot ask the kernel: %s: %s: %s", e->object, e->what,
			       e->reason[0] ? e->reason : sb_strerror(e->errnum));
	} else {
		doctor_bool(s, "family", true, true);
		doctor_num(s, "family_version", src->g.version, true);
		s->status = SB_HEALTH_DEGRADED;
		doctor_summary(s, "netdev family v%u, but dumping it failed: %s", src->g.version,
			       e->reason[0] ? e->reason : sb_strerror(e->errnum));
	}
	if (e->hint[0])
		doctor_hint(s, "%s", e->hint);
}

void doctor_probe_netdev(struct doctor_board *b, struct sb_doctor_sub *s)
{
	const unsigned parts = SB_ND_DEVS | SB_ND_QUEUES | SB_ND_POOLS;
	struct sb_nd_source src = { .root = b->root };
	struct sb_nd_state st = { 0 };
	struct sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = sb_nd_source_open(&src, &e);
	if (src.family_absent)
		no_family(b, s);
	else if (rc)
		not_loaded(s, &src, false, &e);
	else if (sb_nd_source_load(&src, parts, &st, &e))
		not_loaded(s, &src, true, &e);
	else
		summarize(b, s, &st);
	sb_nd_state_free(&st);
	sb_nd_source_close(&src);
}
