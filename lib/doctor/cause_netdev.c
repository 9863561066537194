// SPDX-License-Identifier: GPL-2.0-or-later
/* Page pools that do not go away: the kernel log's stalled-shutdown warning, and (from the
 * netdev family, in doctor_netdev.c) pools detached from their device but still holding
 * pages, with or without a devmem binding. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/devmem_ready.h"
#include "socbox/netdev.h"

void doctor_cause_pool(struct doctor_board *b, const struct sb_nd_pool *p, uint64_t age_s)
{
	char object[48];
	struct sb_cause *c;

	if (p->dmabuf) {
		snprintf(object, sizeof(object), "binding %u", p->dmabuf);
		c = doctor_cause(b, "netdev.binding-leaked", SB_DOCTOR_NETDEV, object);
		if (c)
			cause_diag(c,
				   "devmem binding %u: page pool %llu was detached %llu s ago "
				   "and still holds %llu pages",
				   p->dmabuf, (unsigned long long)p->id, (unsigned long long)age_s,
				   (unsigned long long)p->inflight);
	} else {
		snprintf(object, sizeof(object), "page pool %llu", (unsigned long long)p->id);
		c = doctor_cause(b, "netdev.pool-stalled", SB_DOCTOR_NETDEV, object);
		if (c)
			cause_diag(c,
				   "page pool %llu was detached %llu s ago and still holds %llu "
				   "pages",
				   (unsigned long long)p->id, (unsigned long long)age_s,
				   (unsigned long long)p->inflight);
	}
	if (c)
		cause_evidence(c,
			       "netdev page-pool-get: id %llu, ifindex 0, detach-time %llu, "
			       "inflight %llu%s",
			       (unsigned long long)p->id, (unsigned long long)p->detach_time,
			       (unsigned long long)p->inflight, p->dmabuf ? ", dmabuf" : "");
}

/* doctor --devmem IF: what that NIC lacks for devmem TCP (live only). */
static void devmem_ready(struct doctor_board *b)
{
	const char *ifname = b->opts ? b->opts->devmem_dev : NULL;
	struct sb_devmem_ready r;
	struct sb_cause *c;
	char lacks[320];

	if (!ifname || !sb_root_is_live(b->root))
		return;
	if (sb_devmem_ready_read(ifname, &r, NULL) < 0 ||
	    !sb_devmem_ready_lacks(&r, ifname, lacks, sizeof(lacks)))
		return;
	c = doctor_cause(b, "netdev.devmem-unsupported", SB_DOCTOR_NETDEV, ifname);
	if (!c)
		return;
	cause_diag(c, "%s cannot take devmem TCP as it is set up", ifname);
	cause_evidence(c,
		       "%s: tcp-data-split %s, hds-thresh %s, ntuple %s, channels %u combined "
		       "%u rx",
		       ifname,
		       r.tcp_data_split < 0    ? "unknown"
		       : r.tcp_data_split == 2 ? "on"
					       : "off",
		       r.have_hds_thresh ? (r.hds_thresh ? "not 0" : "0") : "unknown",
		       r.have_ntuple ? (r.ntuple ? "on" : "off") : "unknown", r.combined, r.rx);
	cause_fix(c, "%s", lacks);
}

/* "page_pool_release_retry() stalled pool shutdown: id %u, %d inflight %d sec"
 * (net/core/page_pool.c, 6.8+); 6.1 has no id: "... stalled pool shutdown %d inflight %d
 * sec" */
void doctor_causes_netdev(struct doctor_board *b)
{
	devmem_ready(b);
	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text;
		const char *at = strstr(text, "stalled pool shutdown: id ");
		unsigned id = 0;
		int inflight, sec;
		char object[48];
		struct sb_cause *c;

		if (!at)
			at = strstr(text, "stalled pool shutdown ");
		if (!at)
			continue;
		if (sscanf(at, "stalled pool shutdown: id %u, %d inflight %d sec", &id, &inflight,
			   &sec) == 3)
			snprintf(object, sizeof(object), "page pool %u", id);
		else if (sscanf(at, "stalled pool shutdown %d inflight %d sec", &inflight, &sec) ==
			 2)
			snprintf(object, sizeof(object), "page pool");
		else
			continue;
		/* the last warning about a pool says the most */
		c = doctor_cause(b, "netdev.pool-stalled", SB_DOCTOR_NETDEV, object);
		if (!c) {
			for (size_t k = 0; k < b->rep->ncauses; k++)
				if (!strcmp(b->rep->causes[k].object, object))
					c = &b->rep->causes[k];
			if (!c || strncmp(c->evidence, "kernel log", 10))
				continue;
		}
		cause_diag(c, "%s cannot shut down: %d pages in flight after %d s", object,
			   inflight, sec);
		cause_evidence(c, "kernel log: %s", text);
	}
}
