// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's dma-buf probe: a view of lib/dmabuf (allocators, their nodes, udmabuf limits). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/dmabuf.h"
#include "socbox/dmabufinfo.h"
#include "socbox/out.h"

/* Live only: the device node's mode and whether this user may open it to allocate. */
/* Live only: the device node's mode and whether this user may open it to allocate (a node
 * that cannot be opened is the cause dmabuf.heap-denied). */
static void node_access(struct sb_doctor_sub *s, const struct sb_dmabuf_allocator *al,
			const char *key)
{
	char desc[64];

	if (!al->node_checked)
		return;
	if (!al->node_exists) {
		snprintf(desc, sizeof(desc), "no device node");
		doctor_hint(s, "%s is missing: mount devtmpfs on /dev (CONFIG_DEVTMPFS)", al->node);
	} else {
		snprintf(desc, sizeof(desc), "%04o uid %u gid %u%s", al->mode, al->uid, al->gid,
			 al->can_open ? "" : " (no access)");
	}
	doctor_str(s, key, desc, true);
}

/* "2 heaps ("linux,cma",system), udmabuf present": the names as list cells print them */
static void summary_heaps(struct sb_doctor_sub *s, const struct sb_dmabuf_allocators *a,
			  bool udmabuf)
{
	char **v = calloc(a->nheaps + 1, sizeof(*v)), *list;

	if (!v)
		abort();
	for (size_t i = 0; i < a->nheaps; i++)
		v[i] = (char *)a->v[i].name;
	list = sb_out_join_list(v, a->nheaps);
	if (!list)
		abort();
	doctor_summary(s, "%zu heap%s%s%s%s, udmabuf %s", a->nheaps, a->nheaps == 1 ? "" : "s",
		       a->nheaps ? " (" : "", list, a->nheaps ? ")" : "",
		       udmabuf ? "present" : "missing");
	free(list);
	free(v);
}

void doctor_probe_dmabuf(struct doctor_board *b, struct sb_doctor_sub *s)
{
	const struct sb_root *r = b->root;
	struct sb_dmabuf_allocators a;
	bool udmabuf;
	char names[128] = "", key[64];
	struct sb_udmabuf_limits limits;
	size_t off = 0, nheaps;

	sb_dmabuf_allocators(r, false, &a);
	nheaps = a.nheaps;
	udmabuf = a.udmabuf;
	for (size_t i = 0; i < nheaps && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "",
					a.v[i].name);
	doctor_num(s, "heaps", (int64_t)nheaps, false);
	/* heap_names stays for old scripts; a heap name may hold a comma ("linux,cma"), so
	 * heap_list is the one to read */
	doctor_str(s, "heap_names", names, false);
	doctor_list_add(s, "heap_list", NULL, false);
	for (size_t i = 0; i < nheaps; i++)
		doctor_list_add(s, "heap_list", a.v[i].name, false);
	for (size_t i = 0; i < nheaps; i++) {
		snprintf(key, sizeof(key), "access_%.56s", a.v[i].name);
		node_access(s, &a.v[i], key);
	}
	doctor_bool(s, "udmabuf", udmabuf, false);
	if (udmabuf) {
		if (sb_udmabuf_limits(r, &limits) == 0)
			doctor_num(s, "udmabuf_size_limit_mb",
				   (int64_t)(limits.size_limit_bytes >> 20), false);
		node_access(s, &a.v[nheaps], "access_udmabuf");
	}

	if (!udmabuf) { /* the cause dmabuf.no-udmabuf says what to do */
		enum sb_mod_state st;

		sb_kmod_state(r, "udmabuf", &st);
		doctor_str(s, "module_udmabuf", sb_kmod_state_name(st), false);
	}
	if (nheaps && udmabuf) {
		s->status = SB_HEALTH_OK;
	} else if (nheaps || udmabuf) {
		s->status = SB_HEALTH_DEGRADED;
	} else {
		s->status = SB_HEALTH_MISSING;
	}
	if (s->status == SB_HEALTH_MISSING)
		doctor_summary(s, "no dma-heap and no udmabuf");
	else
		summary_heaps(s, &a, udmabuf);
	sb_dmabuf_allocators_free(&a);
}
