// SPDX-License-Identifier: GPL-2.0-or-later
/* Renderers of the output layer: JSON (own writer, one object per print), table/raw/pairs
 * (lib/framework/out_table.c); OpenMetrics and Prometheus text are in out_openmetrics.c. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_model.h"
#include "socbox/escape.h"
#include "socbox/json.h"

static void json_cell(struct sb_json *j, const char *key, const struct cell *c, enum sb_col_type t)
{
	if (!c->set && t != SB_T_STRV && t != SB_T_U64V && t != SB_T_OBJV) {
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
	case SB_T_U64V: /* kept as decimal text (one list storage), written as numbers */
		sb_json_arr_begin(j, key);
		for (size_t i = 0; i < c->nv; i++)
			sb_json_u64(j, NULL, strtoull(c->v[i], NULL, 10));
		sb_json_arr_end(j);
		break;
	case SB_T_OBJ:
		sb_json_obj_begin(j, key);
		for (size_t i = 0; i < c->nm; i++)
			json_cell(j, c->m[i].key, &c->m[i].c, c->m[i].type);
		sb_json_obj_end(j);
		break;
	case SB_T_OBJV:
		sb_json_arr_begin(j, key);
		for (size_t i = 0; i < c->nm; i++)
			json_cell(j, NULL, &c->m[i].c, SB_T_OBJ);
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
		bool problems = false;

		sb_json_arr_begin(&j, "notes");
		for (size_t i = 0; i < o->nnotes; i++) {
			sb_json_str(&j, NULL, o->notes[i]);
			problems |= o->problem[i];
		}
		sb_json_arr_end(&j);
		if (problems) {
			sb_json_arr_begin(&j, "problems");
			for (size_t i = 0; i < o->nnotes; i++)
				if (o->problem[i])
					sb_json_str(&j, NULL, o->notes[i]);
			sb_json_arr_end(&j);
		}
	}
	sb_json_obj_end(&j);
	return fflush(o->fp) ? -errno : 0;
}

/* prefix and text, the text wrapped at spaces to width (0: no limit) under an indent as
 * wide as the prefix; a word wider than the line stays whole. */
static void put_note(FILE *fp, const char *prefix, const char *text, size_t width)
{
	size_t len = strlen(text) * 4 + 1, indent = strlen(prefix), col = indent;
	char *esc = malloc(len);
	const char *p;

	if (!esc)
		abort(); /* out of memory while printing: nothing sensible left to do */
	sb_escape(esc, len, text, 0);
	fputs(prefix, fp);
	p = esc;
	while (*p) {
		size_t sp = strspn(p, " "), word = strcspn(p + sp, " ");
		size_t w = sb_out_text_width(p + sp, word);

		if (!word)
			break;
		if (col > indent && width && col + sp + w > width) {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fwrite(p, 1, sp, fp);
			col += sp;
		}
		fwrite(p + sp, 1, word, fp);
		col += w;
		p += sp + word;
	}
	fputc('\n', fp);
	free(esc);
}

int sb_out_render_text(struct sb_out *o)
{
	bool table_mode = o->opts.mode == SB_OUT_TABLE;
	bool several = o->ntables > 1;
	int rc = 0;

	/* -n drops headings, and the "key: value" lines are headings of a kind: scripts reading
	 * -r -n expect table rows only. KEY="value" lines stay in -P, they name themselves. */
	for (size_t i = 0; i < o->nfields && !(o->opts.noheadings && o->opts.mode != SB_OUT_PAIRS);
	     i++) {
		const struct field *f = &o->fields[i];
		struct sb_col col = { .name = f->key, .type = f->type, .flags = f->flags };
		bool pairs = o->opts.mode == SB_OUT_PAIRS;
		char *txt = sb_out_cell_text(&f->c, &col, pairs ? SB_ESC_SHELL : 0,
					     sb_out_text_units(o));
		char keybuf[64];
		const char *key = sb_out_text_name(f->key, f->flags, sb_out_text_units(o), keybuf,
						   sizeof(keybuf));

		if (!txt) {
			rc = -ENOMEM;
			break;
		}
		if (pairs) {
			for (size_t k = 0; key[k]; k++)
				fputc(toupper((unsigned char)key[k]), o->fp);
			fprintf(o->fp, "=\"%s\"\n", txt);
		} else {
			fprintf(o->fp, "%s%s%s\n", key, o->opts.mode == SB_OUT_RAW ? " " : ": ",
				txt);
		}
		free(txt);
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
		rc = sb_out_print_table(o, tb);
		if (rc)
			break;
	}
	if (table_mode) {
		size_t width = sb_out_width(o->fp), shown = 0;

		for (size_t i = 0; i < o->nnotes; i++) {
			if (o->opts.quiet && !o->problem[i])
				continue;
			if (shown++ == 0 && (o->ntables || o->nfields))
				fputc('\n', o->fp);
			put_note(o->fp, o->problem[i] ? "problem: " : "note: ", o->notes[i], width);
		}
	}
	if (fflush(o->fp))
		rc = -errno;
	return rc;
}
