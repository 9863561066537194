// SPDX-License-Identifier: GPL-2.0-or-later
/* Events counted per subsystem, kind and object (socbox events --format openmetrics), in
 * the order each was first seen: a hash of the keys, so a count costs the same however many
 * there are. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/events.h"

static uint32_t hash_of(enum sb_ev_subsys s, const char *kind, const char *object)
{
	uint32_t h = 2166136261u ^ (uint32_t)s; /* FNV-1a */

	for (const char *p = kind; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	h = (h ^ 0xff) * 16777619u; /* "a" "bc" and "ab" "c" differ */
	for (const char *p = object; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	return h;
}

static bool same(const struct sb_ev_count *c, const struct sb_event *ev)
{
	return c->subsys == ev->subsys && !strcmp(c->kind, ev->kind) &&
	       !strcmp(c->object, ev->object);
}

/* Room for one more count, the index at most half full. */
static int grow(struct sb_ev_counts *c)
{
	if (c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		struct sb_ev_count *v = realloc(c->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		c->v = v;
		c->cap = cap;
	}
	if (2 * (c->n + 1) > c->nslots) {
		size_t nslots = c->nslots ? c->nslots * 2 : 64;
		size_t *slot = malloc(nslots * sizeof(*slot));

		if (!slot)
			return -ENOMEM;
		for (size_t i = 0; i < nslots; i++)
			slot[i] = SIZE_MAX;
		for (size_t k = 0; k < c->n; k++) {
			size_t i = c->v[k].hash & (nslots - 1);

			while (slot[i] != SIZE_MAX)
				i = (i + 1) & (nslots - 1);
			slot[i] = k;
		}
		free(c->slot);
		c->slot = slot;
		c->nslots = nslots;
	}
	return 0;
}

int sb_ev_counts_add(struct sb_ev_counts *c, const struct sb_event *ev)
{
	uint32_t h = hash_of(ev->subsys, ev->kind, ev->object);
	struct sb_ev_count *n;
	size_t i;

	if (grow(c))
		return -ENOMEM;
	for (i = h & (c->nslots - 1); c->slot[i] != SIZE_MAX; i = (i + 1) & (c->nslots - 1)) {
		n = &c->v[c->slot[i]];
		if (n->hash == h && same(n, ev))
			goto count;
	}
	c->slot[i] = c->n;
	n = &c->v[c->n++];
	memset(n, 0, sizeof(*n));
	n->hash = h;
	n->subsys = ev->subsys;
	memcpy(n->kind, ev->kind, sizeof(n->kind));
	memcpy(n->object, ev->object, sizeof(n->object));
count:
	n->n++;
	n->last_has_ts = ev->has_ts;
	n->last_ts_us = ev->ts_us;
	return 0;
}

void sb_ev_counts_free(struct sb_ev_counts *c)
{
	free(c->v);
	free(c->slot);
	memset(c, 0, sizeof(*c));
}
