// SPDX-License-Identifier: GPL-2.0-or-later
/* Renderers of the output layer: JSON (own writer, one object per print), table/raw/pairs
 * (libsmartcols) and OpenMetrics. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <libsmartcols.h>
#include <math.h>
#include <string.h>

#include "out_model.h"
#include "socbox/json.h"

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

int sb_out_render_json(struct sb_out *o)
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

/* libsmartcols is loaded when a table is first printed, not at every start: --version,
 * JSON and OpenMetrics output never need it, and each shared library costs start-up time. */
static struct scols_api {
	struct libscols_table *(*new_table)(void);
	void (*unref_table)(struct libscols_table *);
	int (*enable_raw)(struct libscols_table *, int);
	int (*enable_export)(struct libscols_table *, int);
	int (*enable_noheadings)(struct libscols_table *, int);
	struct libscols_column *(*new_column)(struct libscols_table *, const char *, double, int);
	struct libscols_line *(*new_line)(struct libscols_table *, struct libscols_line *);
	int (*set_data)(struct libscols_line *, size_t, const char *);
	int (*set_stream)(struct libscols_table *, FILE *);
	int (*print_table)(struct libscols_table *);
} S;

static int scols_api_load(void)
{
	static int state; /* 0 untried, 1 loaded, < 0 -errno */
	void *h;

	if (state)
		return state > 0 ? 0 : state;
	state = -ELIBACC;
	h = dlopen("libsmartcols.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return state;
#define SYM(field, name)                                  \
	do {                                               \
		*(void **)&S.field = dlsym(h, name);       \
		if (!S.field)                              \
			return state;                      \
	} while (0)
	SYM(new_table, "scols_new_table");
	SYM(unref_table, "scols_unref_table");
	SYM(enable_raw, "scols_table_enable_raw");
	SYM(enable_export, "scols_table_enable_export");
	SYM(enable_noheadings, "scols_table_enable_noheadings");
	SYM(new_column, "scols_table_new_column");
	SYM(new_line, "scols_table_new_line");
	SYM(set_data, "scols_line_set_data");
	SYM(set_stream, "scols_table_set_stream");
	SYM(print_table, "scols_print_table");
#undef SYM
	state = 1;
	return 0;
}

static int print_scols(struct sb_out *o, struct sb_table *tb)
{
	struct libscols_table *st;

	if (scols_api_load()) {
		fprintf(stderr, "socbox: libsmartcols.so.1: cannot load it for table output (install libsmartcols1, or use -J)\n");
		return -ELIBACC;
	}
	st = S.new_table();
	char buf[4096];
	int rc;

	if (!st)
		return -ENOMEM;
	S.enable_raw(st, o->opts.mode == SB_OUT_RAW);
	S.enable_export(st, o->opts.mode == SB_OUT_PAIRS);
	S.enable_noheadings(st, o->opts.noheadings);
	for (size_t s = 0; s < tb->nsel; s++) {
		const struct sb_col *c = &tb->cols[tb->sel[s]];
		int fl = 0;
		if (c->flags & SB_COL_RIGHT)
			fl |= SCOLS_FL_RIGHT;
		if (c->flags & SB_COL_TRUNC)
			fl |= SCOLS_FL_TRUNC;
		if (c->flags & SB_COL_WRAP)
			fl |= SCOLS_FL_WRAP;
		if (!S.new_column(st, c->name, c->whint ? c->whint : 1, fl)) {
			S.unref_table(st);
			return -ENOMEM;
		}
	}
	for (size_t r = 0; r < tb->nrows; r++) {
		struct libscols_line *ln = S.new_line(st, NULL);
		if (!ln) {
			S.unref_table(st);
			return -ENOMEM;
		}
		for (size_t s = 0; s < tb->nsel; s++) {
			int c = tb->sel[s];
			S.set_data(ln, s, cell_text(&tb->rows[r]->cells[c], &tb->cols[c], buf, sizeof(buf)));
		}
	}
	S.set_stream(st, o->fp);
	rc = S.print_table(st);
	S.unref_table(st);
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

int sb_out_render_openmetrics(struct sb_out *o)
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

int sb_out_render_text(struct sb_out *o)
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
