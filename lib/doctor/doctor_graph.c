// SPDX-License-Identifier: GPL-2.0-or-later
/* The board's object graph as doctor asks it (socbox/devgraph.h): a record of a device that
 * serves another (a mailbox, an IOMMU, a reset or power controller) is about the object it
 * serves, and a failed device's reason may be in the records of what serves it. Nothing
 * is read until a record asks: a board whose log names no device reads none of it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/macro.h"

void doctor_graph_init(struct doctor_board *b)
{
	b->graph = malloc(sizeof(*b->graph));
	if (!b->graph)
		abort(); /* doctor's lists follow the output layer's OOM rule */
	sb_devgraph_init(b->graph, b->root);
}

void doctor_graph_free(struct doctor_board *b)
{
	if (b->graph)
		sb_devgraph_free(b->graph);
	free(b->graph);
	b->graph = NULL;
}

static size_t checked(ssize_t n)
{
	if (n == -ENOMEM)
		abort();
	return n < 0 ? 0 : (size_t)n;
}

size_t doctor_suppliers(const struct doctor_board *b, const char *dev, struct sb_devgraph_edge *out,
			size_t max)
{
	size_t n;

	if (!b->graph || !dev[0])
		return 0;
	n = checked(sb_devgraph_suppliers(b->graph, dev, out, max, NULL));
	return n < max ? n : max;
}

/* Whether dev is a remote processor's device or has a role of its own in a subsystem. */
static int sub_of(const struct doctor_board *b, const char *dev)
{
	const struct doctor_pdev *p = doctor_pdev_find(b, dev);

	for (size_t i = 0; i < b->nprocs; i++)
		if (!strcmp(b->procs[i].device, dev))
			return SB_DOCTOR_RPMSG;
	if (p && p->role)
		return p->role->sub;
	return -1;
}

int doctor_served(const struct doctor_board *b, const char *dev, char *obj, size_t olen, char *via,
		  size_t vlen)
{
	struct sb_devgraph_edge e[8];
	size_t n, found = 0, at = 0;
	int sub = -1;

	/* only the board's platform devices: a log of many other names (a flood of USB or
	 * virtio records) costs no lookups */
	if (!b->graph || !dev[0] || !doctor_pdev_find(b, dev))
		return -1;
	for (size_t i = 0; i < b->nprocs; i++)
		if (!strcmp(b->procs[i].device, dev))
			return -1; /* a remote processor serves no other object */
	n = checked(sb_devgraph_consumers(b->graph, dev, e, 8, NULL));
	if (n > 8)
		return -1; /* a device many serve from (an SMMU and its masters) stays itself */
	for (size_t i = 0; i < n; i++) {
		int s = sub_of(b, e[i].consumer);

		if (s >= 0) {
			found++;
			at = i;
			sub = s;
		}
	}
	if (found != 1)
		return -1; /* it serves none of the objects, or several: it is the object */
	snprintf(obj, olen, "%s", e[at].consumer);
	snprintf(via, vlen, "%s %s", sb_devgraph_role(e[at].via), dev);
	return sub;
}

/* Where records printed without a device name a reserved-memory node: "OF: reserved mem: "
 * (drivers/of/of_reserved_mem.c) and 6.1's "OF: fdt: Reserved memory: " (drivers/of/fdt.c),
 * the node as '%s'. */
static const char *const region_prefixes[] = { "OF: reserved mem: ", "OF: fdt: Reserved memory: " };

bool doctor_region_of(const char *text, char *node, size_t len)
{
	const char *q, *end;

	for (size_t i = 0; i < ARRAY_SIZE(region_prefixes); i++)
		if (!strncmp(text, region_prefixes[i], strlen(region_prefixes[i])) &&
		    (q = strchr(text, '\'')) && (end = strchr(q + 1, '\'')) && end > q + 1 &&
		    (size_t)(end - q - 1) < len && q[1] != '.' &&
		    !memchr(q + 1, '/', (size_t)(end - q - 1))) { /* a node's name, no path */
			snprintf(node, len, "%.*s", (int)(end - q - 1), q + 1);
			return true;
		}
	return false;
}

size_t doctor_region_users(const struct doctor_board *b, const char *node,
			   struct sb_devgraph_edge *out, size_t max)
{
	size_t n;

	if (!b->graph)
		return 0;
	n = checked(sb_devgraph_region_users(b->graph, node, out, max, NULL));
	return n < max ? n : max;
}
