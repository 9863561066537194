// SPDX-License-Identifier: GPL-2.0-or-later
/* The record sets of socbox diff: objects with attributes, built by the collectors. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/diff.h"

const char *const sb_diff_sub_names[] = { "doctor", "rpmsg", "dmabuf", "iommu", "netdev", NULL };

struct sb_diff_obj *sb_diff_obj_add(struct sb_diff_set *s, enum sb_diff_sub sub, const char *fmt,
				    ...)
{
	struct sb_diff_obj *o;
	va_list ap;

	if (s->err)
		return NULL;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 32;
		struct sb_diff_obj **v = realloc(s->objs, cap * sizeof(*v));

		if (!v)
			goto oom;
		s->objs = v;
		s->cap = cap;
	}
	o = calloc(1, sizeof(*o));
	if (!o)
		goto oom;
	va_start(ap, fmt);
	if (vasprintf(&o->id, fmt, ap) < 0)
		o->id = NULL;
	va_end(ap);
	if (!o->id) {
		free(o);
		goto oom;
	}
	o->sub = sub;
	s->objs[s->n++] = o;
	return o;
oom:
	s->err = -ENOMEM;
	return NULL;
}

void sb_diff_attr_str(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, const char *val)
{
	struct sb_diff_attr *a;

	if (!o || s->err)
		return;
	if (o->nattrs == o->cap) {
		size_t cap = o->cap ? o->cap * 2 : 8;
		struct sb_diff_attr *v = realloc(o->attrs, cap * sizeof(*v));

		if (!v)
			goto oom;
		o->attrs = v;
		o->cap = cap;
	}
	a = &o->attrs[o->nattrs];
	a->key = strdup(key);
	a->live = false;
	a->val = strdup(val ? val : "");
	if (!a->key || !a->val) {
		free(a->key);
		free(a->val);
		goto oom;
	}
	o->nattrs++;
	return;
oom:
	s->err = -ENOMEM;
}

void sb_diff_attr_fmt(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key,
		      const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_diff_attr_str(s, o, key, buf);
}

void sb_diff_attr_live(struct sb_diff_obj *o, const char *key)
{
	for (size_t i = 0; o && i < o->nattrs; i++)
		if (!strcmp(o->attrs[i].key, key))
			o->attrs[i].live = true;
}

void sb_diff_attr_u64(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, uint64_t v)
{
	sb_diff_attr_fmt(s, o, key, "%" PRIu64, v);
}

void sb_diff_attr_bool(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, bool v)
{
	sb_diff_attr_str(s, o, key, v ? "yes" : "no");
}

void sb_diff_set_free(struct sb_diff_set *s)
{
	for (size_t i = 0; i < s->n; i++) {
		struct sb_diff_obj *o = s->objs[i];

		for (size_t j = 0; j < o->nattrs; j++) {
			free(o->attrs[j].key);
			free(o->attrs[j].val);
		}
		free(o->attrs);
		free(o->id);
		free(o);
	}
	free(s->objs);
	*s = (struct sb_diff_set){ 0 };
}

int sb_diff_collect(const struct sb_root *r, struct sb_diff_set *s, struct sb_err *e)
{
	sb_diff_collect_doctor(r, s);
	sb_diff_collect_rpmsg(r, s);
	sb_diff_collect_dmabuf(r, s);
	sb_diff_collect_iommu(r, s);
	sb_diff_collect_netdev(r, s);
	if (s->err)
		return sb_err_set(e, -s->err, sb_root_path(r), "collect records for diff", NULL);
	return 0;
}
