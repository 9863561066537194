// SPDX-License-Identifier: GPL-2.0-or-later
/* Compare two record sets: a merge of the objects sorted by subsystem and id, then the
 * attributes of each object both sides have. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/diff.h"
#include "socbox/macro.h"

const char *const sb_diff_kind_names[] = { "added", "removed", "changed", NULL };

/* Kinds in the order a reader wants them: the whole before its parts. */
static size_t kind_rank(const char *id)
{
	static const char *const kinds[] = {
		"board", "subsystem", "cause",	  "remoteproc", "channel", "ctrl",  "endpoint",
		"heap",	 "udmabuf",   "instance", "group",	"device",  "queue", "pool"
	};
	size_t len = strcspn(id, ":");

	for (size_t i = 0; i < ARRAY_SIZE(kinds); i++)
		if (strlen(kinds[i]) == len && !strncmp(kinds[i], id, len))
			return i;
	return ARRAY_SIZE(kinds);
}

static int obj_cmp(const struct sb_diff_obj *a, const struct sb_diff_obj *b)
{
	size_t ka = kind_rank(a->id), kb = kind_rank(b->id);

	if (a->sub != b->sub)
		return a->sub < b->sub ? -1 : 1;
	if (ka != kb)
		return ka < kb ? -1 : 1;
	/* natural order: remoteproc2 before remoteproc10 */
	return strverscmp(a->id, b->id);
}

static int obj_qsort_cmp(const void *a, const void *b)
{
	return obj_cmp(*(const struct sb_diff_obj *const *)a, *(const struct sb_diff_obj *const *)b);
}

bool sb_diff_ignored(const char *const *ignore, const char *path)
{
	for (size_t i = 0; ignore && ignore[i]; i++)
		if (sb_diff_glob(ignore[i], path))
			return true;
	return false;
}

static int add(struct sb_diff_result *res, size_t *cap, const char *const *ignore,
	       struct sb_diff_change ch)
{
	char *path;

	if (res->n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct sb_diff_change *v = realloc(res->v, ncap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		res->v = v;
		*cap = ncap;
	}
	if (asprintf(&path, "%s/%s%s%s", sb_diff_sub_names[ch.sub], ch.id, ch.attr ? "/" : "",
		     ch.attr ? ch.attr : "") < 0)
		return -ENOMEM;
	ch.ignored = sb_diff_ignored(ignore, path);
	free(path);
	res->nignored += ch.ignored;
	res->v[res->n++] = ch;
	return 0;
}

static const struct sb_diff_attr *find_attr(const struct sb_diff_obj *o, const char *key)
{
	for (size_t i = 0; i < o->nattrs; i++)
		if (!strcmp(o->attrs[i].key, key))
			return &o->attrs[i];
	return NULL;
}

static int compare_attrs(const struct sb_diff_obj *a, const struct sb_diff_obj *b,
			 struct sb_diff_result *res, size_t *cap, const char *const *ignore)
{
	struct sb_diff_change ch = { .kind = SB_DIFF_CHANGED, .sub = a->sub, .id = a->id, .obj = b };
	int rc = 0;

	for (size_t i = 0; i < a->nattrs && !rc; i++) {
		const struct sb_diff_attr *x = &a->attrs[i], *y = find_attr(b, x->key);

		if ((y && !strcmp(x->val, y->val)) || (!y && x->live))
			continue;
		ch.attr = x->key;
		ch.old_val = x->val;
		ch.new_val = y ? y->val : NULL;
		rc = add(res, cap, ignore, ch);
	}
	for (size_t i = 0; i < b->nattrs && !rc; i++) {
		if (find_attr(a, b->attrs[i].key) || b->attrs[i].live)
			continue;
		ch.attr = b->attrs[i].key;
		ch.old_val = NULL;
		ch.new_val = b->attrs[i].val;
		rc = add(res, cap, ignore, ch);
	}
	return rc;
}

int sb_diff_compare(struct sb_diff_set *old_set, struct sb_diff_set *new_set,
		    const char *const *ignore, struct sb_diff_result *res)
{
	size_t i = 0, j = 0, cap = 0;
	int rc = 0;

	*res = (struct sb_diff_result){ 0 };
	qsort(old_set->objs, old_set->n, sizeof(*old_set->objs), obj_qsort_cmp);
	qsort(new_set->objs, new_set->n, sizeof(*new_set->objs), obj_qsort_cmp);
	while (!rc && (i < old_set->n || j < new_set->n)) {
		const struct sb_diff_obj *a = i < old_set->n ? old_set->objs[i] : NULL;
		const struct sb_diff_obj *b = j < new_set->n ? new_set->objs[j] : NULL;
		int cmp = !a ? 1 : !b ? -1 : obj_cmp(a, b);

		if (cmp < 0) {
			rc = add(res, &cap, ignore,
				 (struct sb_diff_change){
					 .kind = SB_DIFF_REMOVED,
					 .sub = a->sub,
					 .id = a->id,
					 .obj = a });
			i++;
		} else if (cmp > 0) {
			rc = add(res, &cap, ignore,
				 (struct sb_diff_change){
					 .kind = SB_DIFF_ADDED,
					 .sub = b->sub,
					 .id = b->id,
					 .obj = b });
			j++;
		} else {
			rc = compare_attrs(a, b, res, &cap, ignore);
			i++;
			j++;
		}
	}
	if (rc)
		sb_diff_result_free(res);
	return rc;
}

void sb_diff_result_free(struct sb_diff_result *res)
{
	free(res->v);
	*res = (struct sb_diff_result){ 0 };
}
