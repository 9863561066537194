// SPDX-License-Identifier: GPL-2.0-or-later
/* The output layer's model: views, tables, rows, fields and notes collected by a command.
 * Column selection (-o, -H) is in out_columns.c, rendering in out_render.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "out_model.h"
#include "socbox/out.h"

static void *xgrow(void *p, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return p;
	size_t ncap = *cap ? *cap * 2 : 8;
	void *np = realloc(p, ncap * elem);
	if (!np)
		abort(); /* out of memory while formatting output: nothing sensible left to do */
	*cap = ncap;
	return np;
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");
	if (!d)
		abort();
	return d;
}

struct sb_out *sb_out_new(const struct sb_out_opts *opts, FILE *fp)
{
	struct sb_out *o = calloc(1, sizeof(*o));
	if (!o)
		abort(); /* as every allocation of the output layer: callers never see NULL */
	if (opts)
		o->opts = *opts;
	o->fp = fp ? fp : stdout;
	return o;
}

static void cell_free(struct cell *c, enum sb_col_type t)
{
	if (!c->set)
		return;
	if (t == SB_T_STR)
		free(c->s);
	for (size_t i = 0; i < c->nv; i++)
		free(c->v[i]);
	free(c->v);
	for (size_t i = 0; i < c->nm; i++) {
		cell_free(&c->m[i].c, c->m[i].type);
		free(c->m[i].key);
	}
	free(c->m);
	memset(c, 0, sizeof(*c));
}

static void reset(struct sb_out *o)
{
	for (size_t t = 0; t < o->ntables; t++) {
		struct sb_table *tb = o->tables[t];
		for (size_t r = 0; r < tb->nrows; r++) {
			for (size_t c = 0; c < tb->ncols; c++)
				cell_free(&tb->rows[r]->cells[c], tb->cols[c].type);
			free(tb->rows[r]->cells);
			free(tb->rows[r]);
		}
		free(tb->rows);
		free(tb->sel);
		free(tb->key);
		free(tb->title);
		free(tb);
	}
	free(o->tables);
	o->tables = NULL;
	o->ntables = 0;
	for (size_t i = 0; i < o->nfields; i++) {
		cell_free(&o->fields[i].c, o->fields[i].type);
		free(o->fields[i].key);
	}
	free(o->fields);
	o->fields = NULL;
	o->nfields = 0;
	for (size_t i = 0; i < o->ntests; i++) {
		free(o->tests[i].suite);
		free(o->tests[i].name);
		free(o->tests[i].diag);
	}
	free(o->tests);
	o->tests = NULL;
	o->ntests = 0;
	for (size_t i = 0; i < o->nnotes; i++)
		free(o->notes[i]);
	free(o->notes);
	free(o->problem);
	o->notes = NULL;
	o->problem = NULL;
	o->nnotes = 0;
}

void sb_out_free(struct sb_out *o)
{
	if (!o)
		return;
	reset(o);
	free(o);
}

enum sb_out_mode sb_out_mode(const struct sb_out *o)
{
	return o->opts.mode;
}

bool sb_out_is_json(const struct sb_out *o)
{
	return o->opts.mode == SB_OUT_JSON;
}

struct sb_table *sb_out_table(struct sb_out *o, const char *key, const char *title,
			      const struct sb_col *cols, size_t ncols, bool primary)
{
	struct sb_table *t = calloc(1, sizeof(*t));

	if (!t)
		abort();
	t->key = xstrdup(key);
	t->title = title ? xstrdup(title) : NULL;
	t->cols = cols;
	t->ncols = ncols;
	t->sel = calloc(ncols ? ncols : 1, sizeof(int));
	if (!t->sel)
		abort();
	bool json = o->opts.mode == SB_OUT_JSON;

	if (sb_out_select_columns(primary ? o->opts.columns : NULL, cols, ncols, json, t->sel,
				  &t->nsel, NULL))
		sb_out_select_columns(NULL, cols, ncols, json, t->sel, &t->nsel, NULL);
	t->all_cols = sb_out_mode_is_metrics(o->opts.mode);
	o->tables = realloc(o->tables, (o->ntables + 1) * sizeof(*o->tables));
	if (!o->tables)
		abort();
	o->tables[o->ntables++] = t;
	return t;
}

bool sb_table_shows(const struct sb_table *t, int col)
{
	if (t->all_cols)
		return true;
	for (size_t s = 0; s < t->nsel; s++)
		if (t->sel[s] == col)
			return true;
	return false;
}

struct sb_row *sb_table_row(struct sb_table *t)
{
	struct sb_row *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	r->cells = calloc(t->ncols ? t->ncols : 1, sizeof(struct cell));
	if (!r->cells)
		abort();
	r->table = t;
	t->rows = xgrow(t->rows, &t->caprows, t->nrows, sizeof(*t->rows));
	t->rows[t->nrows++] = r;
	return r;
}

size_t sb_table_rows(const struct sb_table *t)
{
	return t->nrows;
}

/* The cell col of r when the column exists and has type t. Cells do not know their type,
 * their table does, and strings are freed by type: a cell written with the wrong setter
 * would be read as another type, one past the table is memory of something else. Every
 * build stops there, naming the place (the default build has NDEBUG, and the cli tests
 * must catch it). */
static struct cell *cell_of(struct sb_row *r, int col, enum sb_col_type t, const char *setter)
{
	const struct sb_table *tb = r->table;
	bool ok = col >= 0 && (size_t)col < tb->ncols && tb->cols[col].type == t;

	if (!ok) {
		fprintf(stderr, "socbox: output: %s() on column %d of table '%s' (%s)\n", setter,
			col, tb->key,
			col >= 0 && (size_t)col < tb->ncols ? tb->cols[col].name : "no such column");
		abort();
	}
	return &r->cells[col];
}

static void set_str(struct sb_row *r, int col, const char *s, const char *setter)
{
	struct cell *c = cell_of(r, col, SB_T_STR, setter);

	if (!s)
		return;
	if (c->set)
		free(c->s);
	c->s = xstrdup(s);
	c->set = true;
}

void sb_row_str(struct sb_row *r, int col, const char *s)
{
	set_str(r, col, s, __func__);
}

void sb_row_fmt(struct sb_row *r, int col, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	set_str(r, col, s, __func__);
	free(s);
}

void sb_row_u64(struct sb_row *r, int col, uint64_t v)
{
	struct cell *c = cell_of(r, col, SB_T_U64, __func__);

	c->u = v;
	c->set = true;
}

void sb_row_s64(struct sb_row *r, int col, int64_t v)
{
	struct cell *c = cell_of(r, col, SB_T_S64, __func__);

	c->i = v;
	c->set = true;
}

void sb_row_dbl(struct sb_row *r, int col, double v)
{
	struct cell *c = cell_of(r, col, SB_T_DBL, __func__);

	c->d = v;
	c->set = true;
}

void sb_row_bool(struct sb_row *r, int col, bool v)
{
	struct cell *c = cell_of(r, col, SB_T_BOOL, __func__);

	c->b = v;
	c->set = true;
}

static void list_add(struct cell *c, const char *s)
{
	char **nv = realloc(c->v, (c->nv + 1) * sizeof(*nv));

	if (!nv)
		abort();
	c->v = nv;
	c->v[c->nv++] = xstrdup(s);
	c->set = true;
}

void sb_row_u64v_add(struct sb_row *r, int col, uint64_t v)
{
	struct cell *c = cell_of(r, col, SB_T_U64V, __func__);
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	list_add(c, num);
}

void sb_row_strv_add(struct sb_row *r, int col, const char *s)
{
	struct cell *c = cell_of(r, col, SB_T_STRV, __func__);

	list_add(c, s);
}

/* A named value in *v (fields of a view, members of an SB_T_OBJ cell, records of an
 * SB_T_OBJV cell). */
static struct field *add_named(struct field **v, size_t *n, const char *key, enum sb_col_type t)
{
	struct field *f, *nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		abort();
	*v = nv;
	f = &nv[(*n)++];
	memset(f, 0, sizeof(*f));
	f->key = xstrdup(key);
	f->type = t;
	f->c.set = true;
	return f;
}

static struct field *add_field(struct sb_out *o, const char *key, enum sb_col_type t)
{
	return add_named(&o->fields, &o->nfields, key, t);
}

void sb_row_obj(struct sb_row *r, int col)
{
	struct cell *c = cell_of(r, col, SB_T_OBJ, __func__);

	c->set = true;
}

void sb_row_obj_str(struct sb_row *r, int col, const char *key, const char *v)
{
	struct cell *c = cell_of(r, col, SB_T_OBJ, __func__);

	add_named(&c->m, &c->nm, key, SB_T_STR)->c.s = xstrdup(v);
	c->set = true;
}

void sb_row_obj_s64(struct sb_row *r, int col, const char *key, int64_t v)
{
	struct cell *c = cell_of(r, col, SB_T_OBJ, __func__);

	add_named(&c->m, &c->nm, key, SB_T_S64)->c.i = v;
	c->set = true;
}

void sb_row_obj_bool(struct sb_row *r, int col, const char *key, bool v)
{
	struct cell *c = cell_of(r, col, SB_T_OBJ, __func__);

	add_named(&c->m, &c->nm, key, SB_T_BOOL)->c.b = v;
	c->set = true;
}

void sb_row_obj_strv_add(struct sb_row *r, int col, const char *key, const char *item)
{
	struct cell *c = cell_of(r, col, SB_T_OBJ, __func__);
	struct field *f = NULL;

	for (size_t i = 0; i < c->nm; i++)
		if (c->m[i].type == SB_T_STRV && !strcmp(c->m[i].key, key))
			f = &c->m[i];
	if (!f)
		f = add_named(&c->m, &c->nm, key, SB_T_STRV);
	if (item)
		list_add(&f->c, item);
	c->set = true;
}

void sb_row_objv_add_u64(struct sb_row *r, int col, size_t n, const char *const keys[],
			 const uint64_t v[])
{
	struct cell *c = cell_of(r, col, SB_T_OBJV, __func__);
	struct field *rec;

	rec = add_named(&c->m, &c->nm, "", SB_T_OBJ);
	for (size_t i = 0; i < n; i++)
		add_named(&rec->c.m, &rec->c.nm, keys[i], SB_T_U64)->c.u = v[i];
	c->set = true;
}

void sb_out_field_str(struct sb_out *o, const char *key, const char *val)
{
	struct field *f = add_field(o, key, SB_T_STR);
	if (val)
		f->c.s = xstrdup(val);
	else
		f->c.set = false;
}

void sb_out_field_u64(struct sb_out *o, const char *key, uint64_t val)
{
	add_field(o, key, SB_T_U64)->c.u = val;
}

void sb_out_field_s64(struct sb_out *o, const char *key, int64_t val)
{
	add_field(o, key, SB_T_S64)->c.i = val;
}

void sb_out_field_dbl(struct sb_out *o, const char *key, double val)
{
	add_field(o, key, SB_T_DBL)->c.d = val;
}

void sb_out_field_bool(struct sb_out *o, const char *key, bool val)
{
	add_field(o, key, SB_T_BOOL)->c.b = val;
}

void sb_out_field_bytes(struct sb_out *o, const char *key, uint64_t val)
{
	struct field *f = add_field(o, key, SB_T_U64);

	f->c.u = val;
	f->flags = SB_COL_BYTES;
}

void sb_out_field_ratio(struct sb_out *o, const char *key, double val)
{
	struct field *f = add_field(o, key, SB_T_DBL);

	f->c.d = val;
	f->flags = SB_COL_PERCENT;
}

/* The field key of type t, made when the view has none yet. */
static struct field *field_named(struct sb_out *o, const char *key, enum sb_col_type t)
{
	for (size_t i = 0; i < o->nfields; i++)
		if (o->fields[i].type == t && !strcmp(o->fields[i].key, key))
			return &o->fields[i];
	return add_field(o, key, t);
}

void sb_out_field_strv_add(struct sb_out *o, const char *key, const char *item)
{
	list_add(&field_named(o, key, SB_T_STRV)->c, item);
}

void sb_out_field_count(struct sb_out *o, const char *key, const char *name, uint64_t n)
{
	struct field *f = field_named(o, key, SB_T_OBJ);

	add_named(&f->c.m, &f->c.nm, name, SB_T_U64)->c.u = n;
}

/* a KTAP name: no '#' (it starts a directive) and no white space */
static char *test_name(const char *s)
{
	char *n = xstrdup(s && *s ? s : "unnamed");

	for (char *p = n; *p; p++)
		if (*p == '#' || isspace((unsigned char)*p) || iscntrl((unsigned char)*p))
			*p = '_';
	return n;
}

void sb_out_test(struct sb_out *o, const char *suite, const char *name, enum sb_test_result r,
		 const char *diag_fmt, ...)
{
	struct out_test *t, *nv = realloc(o->tests, (o->ntests + 1) * sizeof(*nv));
	va_list ap;

	if (!nv)
		abort();
	o->tests = nv;
	t = &nv[o->ntests++];
	t->suite = suite ? test_name(suite) : NULL;
	t->name = test_name(name);
	t->result = r;
	t->diag = NULL;
	if (diag_fmt) {
		va_start(ap, diag_fmt);
		if (vasprintf(&t->diag, diag_fmt, ap) < 0)
			abort();
		va_end(ap);
	}
}

__attribute__((format(printf, 3, 0))) static void add_note(
	struct sb_out *o, bool problem, const char *fmt, va_list ap)
{
	char *s = NULL;

	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	for (size_t i = 0; i < o->nnotes; i++)
		if (!strcmp(o->notes[i], s)) {
			o->problem[i] |= problem;
			free(s);
			return;
		}
	o->notes = realloc(o->notes, (o->nnotes + 1) * sizeof(*o->notes));
	o->problem = realloc(o->problem, (o->nnotes + 1) * sizeof(*o->problem));
	if (!o->notes || !o->problem)
		abort();
	o->problem[o->nnotes] = problem;
	o->notes[o->nnotes++] = s;
}

void sb_out_note(struct sb_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(o, false, fmt, ap);
	va_end(ap);
}

void sb_out_problem(struct sb_out *o, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	add_note(o, true, fmt, ap);
	va_end(ap);
}

int sb_out_print(struct sb_out *o)
{
	int rc;

	switch (o->opts.mode) {
	case SB_OUT_JSON:
		rc = sb_out_render_json(o);
		break;
	case SB_OUT_OPENMETRICS:
	case SB_OUT_PROMETHEUS:
		rc = sb_out_render_openmetrics(o);
		break;
	case SB_OUT_KTAP:
		rc = sb_out_render_ktap(o);
		break;
	default:
		rc = sb_out_render_text(o);
		break;
	}
	reset(o);
	return rc;
}
