// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "socbox/json.h"
#include "socbox/out.h"

struct cell {
	bool set;
	union {
		char *s;
		uint64_t u;
		int64_t i;
		double d;
		bool b;
	};
	char **v; /* SB_T_STRV */
	size_t nv;
};

struct sb_row {
	struct cell *cells;
};

struct sb_table {
	char *key;
	char *title;
	const struct sb_col *cols;
	size_t ncols;
	int *sel; /* selected column indexes, in output order */
	size_t nsel;
	struct sb_row **rows;
	size_t nrows, caprows;
};

struct field {
	char *key;
	enum sb_col_type type;
	struct cell c;
};

struct sb_out {
	struct sb_out_opts opts;
	FILE *fp;
	struct sb_table **tables;
	size_t ntables;
	struct field *fields;
	size_t nfields;
	char **notes;
	size_t nnotes;
};

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
		return NULL;
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
	for (size_t i = 0; i < o->nnotes; i++)
		free(o->notes[i]);
	free(o->notes);
	o->notes = NULL;
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

static int find_col(const struct sb_col *cols, size_t ncols, const char *name, size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len && !strncasecmp(cols[i].name, name, len))
			return (int)i;
	return -1;
}

/* Resolve an -o list into column indexes. */
static int select_columns(const char *spec, const struct sb_col *cols, size_t ncols, int *sel,
			  size_t *nsel, struct sb_err *e)
{
	size_t n = 0;

	if (!spec || *spec == '+') {
		for (size_t i = 0; i < ncols; i++)
			if (!(cols[i].flags & SB_COL_HIDDEN))
				sel[n++] = (int)i;
		if (spec)
			spec++;
	}
	while (spec && *spec) {
		size_t len = strcspn(spec, ",");
		int idx;

		if (len) {
			idx = find_col(cols, ncols, spec, len);
			if (idx < 0) {
				sb_err_set(e, EINVAL, NULL, NULL, "see --list-columns");
				sb_err_reason(e, "unknown column '%.*s'", (int)len, spec);
				sb_err_exit(e, SB_EXIT_USAGE);
				return -EINVAL;
			}
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= sel[k] == idx;
			if (!dup && n < ncols)
				sel[n++] = idx;
		}
		spec += len;
		if (*spec == ',')
			spec++;
	}
	if (n == 0) {
		sb_err_set(e, EINVAL, NULL, NULL, "see --list-columns");
		sb_err_reason(e, "no columns selected");
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	*nsel = n;
	return 0;
}

int sb_out_check_columns(const char *columns, const struct sb_col *cols, size_t ncols,
			 struct sb_err *e)
{
	int *sel = calloc(ncols ? ncols : 1, sizeof(int));
	size_t n;
	int rc;

	if (!sel)
		return -ENOMEM;
	rc = select_columns(columns, cols, ncols, sel, &n, e);
	free(sel);
	return rc;
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
	if (select_columns(primary ? o->opts.columns : NULL, cols, ncols, t->sel, &t->nsel, NULL))
		select_columns(NULL, cols, ncols, t->sel, &t->nsel, NULL);
	o->tables = realloc(o->tables, (o->ntables + 1) * sizeof(*o->tables));
	if (!o->tables)
		abort();
	o->tables[o->ntables++] = t;
	return t;
}

struct sb_row *sb_table_row(struct sb_table *t)
{
	struct sb_row *r = calloc(1, sizeof(*r));

	if (!r)
		abort();
	r->cells = calloc(t->ncols ? t->ncols : 1, sizeof(struct cell));
	if (!r->cells)
		abort();
	t->rows = xgrow(t->rows, &t->caprows, t->nrows, sizeof(*t->rows));
	t->rows[t->nrows++] = r;
	return r;
}

size_t sb_table_rows(const struct sb_table *t)
{
	return t->nrows;
}

/* Cells do not know their type; the owning table does. Strings are freed by type, so a
 * cell is always written with the setter that matches its column's type. */
void sb_row_str(struct sb_row *r, int col, const char *s)
{
	struct cell *c = &r->cells[col];
	if (!s)
		return;
	if (c->set)
		free(c->s);
	c->s = xstrdup(s);
	c->set = true;
}

void sb_row_fmt(struct sb_row *r, int col, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	sb_row_str(r, col, s);
	free(s);
}

void sb_row_u64(struct sb_row *r, int col, uint64_t v)
{
	r->cells[col].u = v;
	r->cells[col].set = true;
}

void sb_row_s64(struct sb_row *r, int col, int64_t v)
{
	r->cells[col].i = v;
	r->cells[col].set = true;
}

void sb_row_dbl(struct sb_row *r, int col, double v)
{
	r->cells[col].d = v;
	r->cells[col].set = true;
}

void sb_row_bool(struct sb_row *r, int col, bool v)
{
	r->cells[col].b = v;
	r->cells[col].set = true;
}

void sb_row_strv_add(struct sb_row *r, int col, const char *s)
{
	struct cell *c = &r->cells[col];
	char **nv = realloc(c->v, (c->nv + 1) * sizeof(*nv));

	if (!nv)
		abort();
	c->v = nv;
	c->v[c->nv++] = xstrdup(s);
	c->set = true;
}

static struct field *add_field(struct sb_out *o, const char *key, enum sb_col_type t)
{
	struct field *f;

	o->fields = realloc(o->fields, (o->nfields + 1) * sizeof(*o->fields));
	if (!o->fields)
		abort();
	f = &o->fields[o->nfields++];
	memset(f, 0, sizeof(*f));
	f->key = xstrdup(key);
	f->type = t;
	f->c.set = true;
	return f;
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

void sb_out_note(struct sb_out *o, const char *fmt, ...)
{
	char *s = NULL;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		abort();
	va_end(ap);
	o->notes = realloc(o->notes, (o->nnotes + 1) * sizeof(*o->notes));
	if (!o->notes)
		abort();
	o->notes[o->nnotes++] = s;
}

/* Text of a cell for the text modes; returns buf or a constant. */
static const char *cell_text(const struct cell *c, const struct sb_col *col, char *buf, size_t len)
{
	if (!c->set)
		return "-";
	switch (col->type) {
	case SB_T_STR:
		return c->s;
	case SB_T_U64:
		snprintf(buf, len, "%" PRIu64, c->u);
		return buf;
	case SB_T_S64:
		snprintf(buf, len, "%" PRId64, c->i);
		return buf;
	case SB_T_DBL:
		if (!isfinite(c->d))
			return "-";
		snprintf(buf, len, "%.*f", col->precision ? col->precision : 2, c->d);
		return buf;
	case SB_T_BOOL:
		return c->b ? "yes" : "no";
	case SB_T_STRV: {
		size_t off = 0;
		buf[0] = '\0';
		for (size_t i = 0; i < c->nv && off < len; i++)
			off += (size_t)snprintf(buf + off, len - off, "%s%s", i ? "," : "", c->v[i]);
		return buf;
	}
	}
	return "-";
}

static void json_cell(struct sb_json *j, const char *key, const struct cell *c, enum sb_col_type t)
{
	if (!c->set && t != SB_T_STRV) {
		sb_json_null(j, key);
		return;
	}
	switch (t) {
	case SB_T_STR:
		sb_json_str(j, key, c->s);
		break;
	case SB_T_U64:
		sb_json_u64(j, key, c->u);
		break;
	case SB_T_S64:
		sb_json_s64(j, key, c->i);
		break;
	case SB_T_DBL:
		sb_json_dbl(j, key, c->d);
		break;
	case SB_T_BOOL:
		sb_json_bool(j, key, c->b);
		break;
	case SB_T_STRV:
		sb_json_arr_begin(j, key);
		for (size_t i = 0; i < c->nv; i++)
			sb_json_str(j, NULL, c->v[i]);
		sb_json_arr_end(j);
		break;
	}
}

static void lower(char *dst, size_t len, const char *src)
{
	size_t i;
	for (i = 0; src[i] && i + 1 < len; i++)
		dst[i] = (char)tolower((unsigned char)src[i]);
	dst[i] = '\0';
}

static int print_json(struct sb_out *o)
{
	struct sb_json j;
	char key[64];

	sb_json_init(&j, o->fp, o->opts.pretty);
	sb_json_obj_begin(&j, NULL);
	for (size_t i = 0; i < o->nfields; i++)
		json_cell(&j, o->fields[i].key, &o->fields[i].c, o->fields[i].type);
	for (size_t t = 0; t < o->ntables; t++) {
		struct sb_table *tb = o->tables[t];
		sb_json_arr_begin(&j, tb->key);
		for (size_t r = 0; r < tb->nrows; r++) {
			sb_json_obj_begin(&j, NULL);
			for (size_t s = 0; s < tb->nsel; s++) {
				int c = tb->sel[s];
				lower(key, sizeof(key), tb->cols[c].name);
				json_cell(&j, key, &tb->rows[r]->cells[c], tb->cols[c].type);
			}
			sb_json_obj_end(&j);
		}
		sb_json_arr_end(&j);
	}
	if (o->nnotes) {
		sb_json_arr_begin(&j, "notes");
		for (size_t i = 0; i < o->nnotes; i++)
			sb_json_str(&j, NULL, o->notes[i]);
		sb_json_arr_end(&j);
	}
	sb_json_obj_end(&j);
	return fflush(o->fp) ? -errno : 0;
}

static int print_scols(struct sb_out *o, struct sb_table *tb)
{
	struct libscols_table *st = scols_new_table();
	char buf[4096];
	int rc;

	if (!st)
		return -ENOMEM;
	scols_table_enable_raw(st, o->opts.mode == SB_OUT_RAW);
	scols_table_enable_export(st, o->opts.mode == SB_OUT_PAIRS);
	scols_table_enable_noheadings(st, o->opts.noheadings);
	for (size_t s = 0; s < tb->nsel; s++) {
		const struct sb_col *c = &tb->cols[tb->sel[s]];
		int fl = 0;
		if (c->flags & SB_COL_RIGHT)
			fl |= SCOLS_FL_RIGHT;
		if (c->flags & SB_COL_TRUNC)
			fl |= SCOLS_FL_TRUNC;
		if (c->flags & SB_COL_WRAP)
			fl |= SCOLS_FL_WRAP;
		if (!scols_table_new_column(st, c->name, c->whint ? c->whint : 1, fl)) {
			scols_unref_table(st);
			return -ENOMEM;
		}
	}
	for (size_t r = 0; r < tb->nrows; r++) {
		struct libscols_line *ln = scols_table_new_line(st, NULL);
		if (!ln) {
			scols_unref_table(st);
			return -ENOMEM;
		}
		for (size_t s = 0; s < tb->nsel; s++) {
			int c = tb->sel[s];
			scols_line_set_data(ln, s, cell_text(&tb->rows[r]->cells[c], &tb->cols[c], buf, sizeof(buf)));
		}
	}
	scols_table_set_stream(st, o->fp);
	rc = scols_print_table(st);
	scols_unref_table(st);
	return rc;
}

static void om_name(char *dst, size_t len, const char *table, const char *col)
{
	size_t off = (size_t)snprintf(dst, len, "socbox_%s_", table);
	for (size_t i = 0; col[i] && off + 1 < len; i++) {
		unsigned char ch = (unsigned char)col[i];
		dst[off++] = isalnum(ch) ? (char)tolower(ch) : '_';
	}
	dst[off < len ? off : len - 1] = '\0';
}

static void om_labels(FILE *fp, const struct sb_table *tb, const struct sb_row *row)
{
	char buf[512], key[64];
	bool first = true;

	for (size_t c = 0; c < tb->ncols; c++) {
		if (!(tb->cols[c].flags & SB_COL_LABEL) || !row->cells[c].set)
			continue;
		lower(key, sizeof(key), tb->cols[c].name);
		fprintf(fp, "%s%s=", first ? "{" : ",", key);
		sb_json_write_string(fp, cell_text(&row->cells[c], &tb->cols[c], buf, sizeof(buf)));
		first = false;
	}
	if (!first)
		fputc('}', fp);
}

static int print_openmetrics(struct sb_out *o)
{
	char name[160];

	for (size_t i = 0; i < o->nfields; i++) {
		const struct field *f = &o->fields[i];
		double v;
		if (f->type == SB_T_U64)
			v = (double)f->c.u;
		else if (f->type == SB_T_S64)
			v = (double)f->c.i;
		else if (f->type == SB_T_DBL)
			v = f->c.d;
		else
			continue;
		fprintf(o->fp, "# TYPE socbox_%s gauge\nsocbox_%s %.15g\n", f->key, f->key, v);
	}
	for (size_t t = 0; t < o->ntables; t++) {
		struct sb_table *tb = o->tables[t];
		for (size_t c = 0; c < tb->ncols; c++) {
			const struct sb_col *col = &tb->cols[c];
			bool counter = col->flags & SB_COL_COUNTER;
			if (!(col->flags & (SB_COL_METRIC | SB_COL_COUNTER)))
				continue;
			om_name(name, sizeof(name), tb->key, col->name);
			fprintf(o->fp, "# TYPE %s %s\n", name, counter ? "counter" : "gauge");
			if (col->help)
				fprintf(o->fp, "# HELP %s %s\n", name, col->help);
			for (size_t r = 0; r < tb->nrows; r++) {
				const struct cell *cl = &tb->rows[r]->cells[c];
				if (!cl->set)
					continue;
				fprintf(o->fp, "%s%s", name, counter ? "_total" : "");
				om_labels(o->fp, tb, tb->rows[r]);
				if (col->type == SB_T_U64)
					fprintf(o->fp, " %" PRIu64 "\n", cl->u);
				else if (col->type == SB_T_S64)
					fprintf(o->fp, " %" PRId64 "\n", cl->i);
				else if (col->type == SB_T_BOOL)
					fprintf(o->fp, " %d\n", cl->b ? 1 : 0);
				else if (col->type == SB_T_DBL)
					fprintf(o->fp, " %.15g\n", cl->d);
				else
					fprintf(o->fp, " NaN\n");
			}
		}
	}
	fputs("# EOF\n", o->fp);
	return fflush(o->fp) ? -errno : 0;
}

/* Inside double quotes, as libsmartcols does for the table rows of -P. */
static void shell_quote(FILE *fp, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '$' || *p == '`' || *p == '\\' || *p < 0x20 || *p == 0x7f)
			fprintf(fp, "\\x%02x", *p);
		else
			fputc(*p, fp);
	}
}

static int print_text(struct sb_out *o)
{
	char buf[4096];
	bool table_mode = o->opts.mode == SB_OUT_TABLE;
	bool several = o->ntables > 1;
	int rc = 0;

	/* -n drops headings, and the "key: value" lines are headings of a kind: scripts reading
	 * -r -n expect table rows only. KEY="value" lines stay in -P, they name themselves. */
	for (size_t i = 0; i < o->nfields && !(o->opts.noheadings && o->opts.mode != SB_OUT_PAIRS); i++) {
		const struct field *f = &o->fields[i];
		struct sb_col col = { .name = f->key, .type = f->type };
		const char *txt = cell_text(&f->c, &col, buf, sizeof(buf));

		if (o->opts.mode == SB_OUT_PAIRS) {
			char key[64];
			size_t k;
			for (k = 0; f->key[k] && k + 1 < sizeof(key); k++)
				key[k] = (char)toupper((unsigned char)f->key[k]);
			key[k] = '\0';
			fprintf(o->fp, "%s=\"", key);
			shell_quote(o->fp, txt);
			fputs("\"\n", o->fp);
		} else if (o->opts.mode == SB_OUT_RAW) {
			fprintf(o->fp, "%s %s\n", f->key, txt);
		} else {
			fprintf(o->fp, "%s: %s\n", f->key, txt);
		}
	}
	if (table_mode && o->nfields && o->ntables && !o->opts.noheadings)
		fputc('\n', o->fp);
	for (size_t t = 0; t < o->ntables; t++) {
		struct sb_table *tb = o->tables[t];
		if (table_mode && tb->title && (several || o->nfields))
			fprintf(o->fp, "%s%s:\n", t ? "\n" : "", tb->title);
		if (tb->nrows == 0) {
			if (table_mode && tb->title && (several || o->nfields))
				fputs("  (none)\n", o->fp);
			continue;
		}
		rc = print_scols(o, tb);
		if (rc)
			break;
	}
	if (table_mode) {
		for (size_t i = 0; i < o->nnotes; i++)
			fprintf(o->fp, "%snote: %s\n", i == 0 && (o->ntables || o->nfields) ? "\n" : "", o->notes[i]);
	}
	if (fflush(o->fp))
		rc = -errno;
	return rc;
}

int sb_out_print(struct sb_out *o)
{
	int rc;

	switch (o->opts.mode) {
	case SB_OUT_JSON:
		rc = print_json(o);
		break;
	case SB_OUT_OPENMETRICS:
		rc = print_openmetrics(o);
		break;
	default:
		rc = print_text(o);
		break;
	}
	reset(o);
	return rc;
}

static const char *type_name(enum sb_col_type t)
{
	static const char *const names[] = { "string", "number", "number", "number", "boolean", "array" };
	return names[t];
}

int sb_out_list_columns(const struct sb_out_opts *opts, FILE *fp, const struct sb_col *cols,
			size_t ncols)
{
	static const struct sb_col list_cols[] = {
		{ "NAME", SB_T_STR, 0, 0, "column name", 0 },
		{ "TYPE", SB_T_STR, 0, 0, "JSON type", 0 },
		{ "DEFAULT", SB_T_BOOL, 0, 0, "shown without -o", 0 },
		{ "DESCRIPTION", SB_T_STR, 0, SB_COL_TRUNC, "what the column holds", 0 },
	};
	struct sb_out_opts lo = *opts;
	struct sb_out *o;
	struct sb_table *t;
	int rc;

	lo.columns = NULL;
	if (lo.mode == SB_OUT_OPENMETRICS)
		lo.mode = SB_OUT_TABLE;
	o = sb_out_new(&lo, fp);
	if (!o)
		return -ENOMEM;
	t = sb_out_table(o, "columns", NULL, list_cols, 4, true);
	for (size_t i = 0; i < ncols; i++) {
		struct sb_row *r = sb_table_row(t);
		sb_row_str(r, 0, cols[i].name);
		sb_row_str(r, 1, type_name(cols[i].type));
		sb_row_bool(r, 2, !(cols[i].flags & SB_COL_HIDDEN));
		sb_row_str(r, 3, cols[i].help);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc;
}
