// SPDX-License-Identifier: GPL-2.0-or-later
/* Chains of causes: a cause that follows from another (a remote processor's recovery that
 * failed on its firmware follows from its crash; a device waiting in deferred probe from
 * what is wrong with its supplier) is shown with it, root first, so the person at the
 * console fixes the root and not what follows from it. A detector says what its cause
 * follows from by the object (and code) of the other; the link is made once every cause
 * is named, and one that names no cause of this run is none. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"

void doctor_cause_follows(struct sb_cause *c, const char *code, const char *object)
{
	/* "CODE\tOBJECT" until doctor_causes_chain() finds the cause */
	snprintf(c->follows, sizeof(c->follows), "%s\t%s", code ? code : "", object);
}

/* The cause c follows from: the best-ranked other cause of its object (and code). */
static long parent_of(const struct sb_doctor_report *rep, size_t i)
{
	const char *f = rep->causes[i].follows, *tab = strchr(f, '\t');
	size_t clen = tab ? (size_t)(tab - f) : 0;

	if (!tab)
		return -1;
	for (size_t j = 0; j < rep->ncauses; j++) {
		const struct sb_cause *p = &rep->causes[j];

		if (j != i && !strcmp(p->object, tab + 1) &&
		    (!clen || (strlen(p->def->code) == clen && !strncmp(p->def->code, f, clen))))
			return (long)j;
	}
	return -1;
}

static void emit(const struct sb_doctor_report *rep, const long *parent, size_t i, unsigned depth,
		 struct sb_cause *out, size_t *n, bool *done)
{
	out[*n] = rep->causes[i];
	out[*n].depth = depth;
	if (parent[i] >= 0)
		snprintf(out[*n].follows, sizeof(out[*n].follows), "%s %s",
			 rep->causes[parent[i]].def->code, rep->causes[parent[i]].object);
	else
		out[*n].follows[0] = '\0';
	(*n)++;
	done[i] = true;
	for (size_t j = 0; j < rep->ncauses; j++)
		if (parent[j] == (long)i && !done[j])
			emit(rep, parent, j, depth + 1, out, n, done);
}

void doctor_causes_chain(struct sb_doctor_report *rep)
{
	size_t n = rep->ncauses, k = 0;
	long *parent = calloc(n ? n : 1, sizeof(*parent));
	bool *done = calloc(n ? n : 1, sizeof(*done));
	struct sb_cause *out = calloc(n ? n : 1, sizeof(*out));

	if (!parent || !done || !out)
		abort(); /* doctor's lists follow the output layer's OOM rule */
	for (size_t i = 0; i < n; i++)
		parent[i] = parent_of(rep, i);
	/* a cycle (two causes said to follow from each other) is cut where it is found */
	for (size_t i = 0; i < n; i++) {
		long j = parent[i];

		for (size_t steps = 0; j >= 0 && steps <= n; steps++) {
			if ((size_t)j == i) {
				parent[i] = -1;
				break;
			}
			j = parent[j];
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t r = i;

		while (parent[r] >= 0)
			r = (size_t)parent[r];
		if (!done[r])
			emit(rep, parent, r, 0, out, &k, done);
	}
	if (n) /* no causes: rep->causes may be NULL, which memcpy must not get */
		memcpy(rep->causes, out, n * sizeof(*out));
	free(out);
	free(done);
	free(parent);
}
