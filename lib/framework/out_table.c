// SPDX-License-Identifier: GPL-2.0-or-later
/* Column tables (-r raw, -P pairs, and the default aligned table), in the layout util-linux
 * tools print: one space between columns, right-aligned numbers, the last column unpadded.
 * On a terminal narrower than the table, columns marked SB_COL_WRAP wrap at word boundaries
 * (after a space or ',') and SB_COL_TRUNC columns are cut; others, identifiers above all, are
 * printed whole even when the line gets wider than the terminal (as lsblk does). Elsewhere
 * (a pipe, a file) nothing is cut unless $COLUMNS asks for a width. Every cell is escaped
 * (socbox/escape.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "out_model.h"
#include "socbox/escape.h"

#define MIN_FLEX_WIDTH 8 /* a cut column keeps at least this (or its heading) */
/* A wrapped column squeezed narrower than this into the tallest cell of a row (a word or two
 * a line: one event of smmustat events --list took 14 lines), or a table that still does not
 * fit, has its wrapped columns printed below each row instead, last first, across the
 * terminal's width. */
#define BELOW_UNDER 20
#define BELOW_INDENT 2

/* Display width of UTF-8 text: code points (escaped text has no controls; wide East Asian
 * characters are rare in kernel attributes and counted as one). */
size_t sb_out_text_width(const char *s, size_t bytes)
{
	size_t w = 0;

	for (size_t i = 0; i < bytes && s[i]; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			w++;
	return w;
}

/* Bytes of the first ncp code points of s. */
static size_t prefix_bytes(const char *s, size_t ncp)
{
	size_t i = 0;

	while (s[i] && ncp) {
		i++;
		while (((unsigned char)s[i] & 0xc0) == 0x80)
			i++;
		ncp--;
	}
	return i;
}

bool sb_out_seen_with_stderr(const struct sb_out *o)
{
	return o->opts.mode == SB_OUT_TABLE && isatty(fileno(o->fp)) && isatty(STDERR_FILENO);
}

size_t sb_out_term_width(FILE *fp)
{
	return isatty(fileno(fp)) ? sb_out_width(fp) : 0;
}

size_t sb_out_width(FILE *fp)
{
	const char *env = getenv("COLUMNS");
	struct winsize ws;
	char *end;

	if (env && *env) {
		unsigned long v = strtoul(env, &end, 10);
		if (!*end && v > 0 && v < 100000)
			return v;
	}
	if (!isatty(fileno(fp)))
		return 0;
	if (ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

static char *cell_string(const struct cell *c, const struct sb_col *col, enum sb_out_units units);

/* SB_T_OBJ: "key=value,key=value"; a record of SB_T_OBJV: "key=value key=value" */
static char *obj_string(const struct cell *c, const char *sep, enum sb_out_units units)
{
	char *s = strdup(""), *v, *ns;

	for (size_t i = 0; s && i < c->nm; i++) {
		struct sb_col mc = { .name = c->m[i].key, .type = c->m[i].type };

		v = cell_string(&c->m[i].c, &mc, units);
		if (!v || asprintf(&ns, "%s%s%s=%s", s, i ? sep : "", c->m[i].key, v) < 0)
			ns = NULL;
		free(v);
		free(s);
		s = ns;
	}
	return s;
}

char *sb_out_join_list(char *const *v, size_t n)
{
	size_t len = 1, off = 0;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += 2 * strlen(v[i]) + 3;
	s = malloc(len);
	if (!s)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		bool quote = strpbrk(v[i], ",\"") != NULL;

		if (i)
			s[off++] = ',';
		if (quote)
			s[off++] = '"';
		for (const char *p = v[i]; *p; p++) {
			if (*p == '"')
				s[off++] = '"';
			s[off++] = *p;
		}
		if (quote)
			s[off++] = '"';
	}
	s[off] = '\0';
	return s;
}

/* The raw text of a cell (malloc'ed): what JSON would show, joined and formatted. */
static char *cell_string(const struct cell *c, const struct sb_col *col, enum sb_out_units units)
{
	char *s = NULL;
	int n = -1;

	if (!c->set && col->type != SB_T_STRV && col->type != SB_T_U64V && col->type != SB_T_OBJV)
		return strdup("-");
	switch (col->type) {
	case SB_T_STR:
		return strdup(c->s);
	case SB_T_U64:
		n = asprintf(&s, "%" PRIu64, c->u);
		return n < 0 ? NULL : sb_out_with_units(s, (double)c->u, col, units);
	case SB_T_S64:
		n = asprintf(&s, "%" PRId64, c->i);
		return n < 0 ? NULL : sb_out_with_units(s, (double)c->i, col, units);
	case SB_T_DBL:
		if (!isfinite(c->d))
			return strdup("-");
		n = asprintf(&s, "%.*f", col->precision ? col->precision : 2, c->d);
		return n < 0 ? NULL : sb_out_with_units(s, c->d, col, units);
	case SB_T_BOOL:
		return strdup(c->b ? "yes" : "no");
	case SB_T_STRV:
	case SB_T_U64V:
		return sb_out_join_list(c->v, c->nv);
	case SB_T_OBJ:
		return obj_string(c, ",", units);
	case SB_T_OBJV:
		s = strdup("");
		for (size_t i = 0; s && i < c->nm; i++) {
			char *rec = obj_string(&c->m[i].c, " ", units), *ns = NULL;

			if (!rec || asprintf(&ns, "%s%s%s", s, i ? "," : "", rec) < 0)
				ns = NULL;
			free(rec);
			free(s);
			s = ns;
		}
		return s;
	}
	return NULL;
}

char *sb_out_cell_text(const struct cell *c, const struct sb_col *col, unsigned esc_flags,
		       enum sb_out_units units)
{
	char *raw = cell_string(c, col, units), *esc;
	size_t len;

	if (!raw)
		return NULL;
	len = strlen(raw) * 4 + 1;
	esc = malloc(len);
	if (esc)
		sb_escape(esc, len, raw, esc_flags);
	free(raw);
	return esc;
}

/* Length in bytes of the next line of text wrapped at width code points; *skip is the
 * number of spaces after it that start no line. */
static size_t wrap_line(const char *s, size_t width, size_t *skip)
{
	size_t take = prefix_bytes(s, width), brk = 0;

	*skip = 0;
	if (!s[take])
		return take;
	for (size_t i = 0; i < take; i++)
		if (s[i] == ' ' || s[i] == ',')
			brk = i + 1;
	if (s[take] == ' ')
		brk = take;
	if (!brk)
		return take; /* one word wider than the column: cut it */
	while (s[brk + *skip] == ' ')
		(*skip)++;
	return brk;
}

static size_t rtrim_len(const char *s, size_t n)
{
	while (n && s[n - 1] == ' ')
		n--;
	return n;
}

/* Width of the longest piece of s that wrapping keeps on one line: a word with the ','
 * after it. */
static size_t longest_word(const char *s)
{
	size_t best = 0, cur = 0;

	for (; *s; s++) {
		if (*s == ' ') {
			cur = 0;
			continue;
		}
		if (((unsigned char)*s & 0xc0) != 0x80)
			cur++;
		if (cur > best)
			best = cur;
		if (*s == ',')
			cur = 0;
	}
	return best;
}

/* Narrow wrap and cut columns, widest first, until the table fits in max. A wrapped column
 * keeps its longest word whole: breaking "2_LVL_STRTAB" helps nobody. */
static void fit_width(const struct sb_table *tb, const char *const *names, char **text,
		      size_t *width, size_t max)
{
	size_t total = 0, floor[tb->nsel + 1];

	for (size_t s = 0; s < tb->nsel; s++) {
		const struct sb_col *col = &tb->cols[tb->sel[s]];

		/* a wrapped column needs no more than its heading and its longest word */
		floor[s] = strlen(names[s]);
		if (!(col->flags & SB_COL_WRAP) && floor[s] < MIN_FLEX_WIDTH)
			floor[s] = MIN_FLEX_WIDTH;
		for (size_t r = 0; r < tb->nrows && (col->flags & SB_COL_WRAP); r++) {
			size_t w = longest_word(text[r * tb->nsel + s]);
			if (w > floor[s])
				floor[s] = w;
		}
	}

	for (size_t s = 0; s < tb->nsel; s++)
		total += width[s] + (s ? 1 : 0);
	while (total > max) {
		size_t best = tb->nsel;

		for (size_t s = 0; s < tb->nsel; s++) {
			const struct sb_col *col = &tb->cols[tb->sel[s]];

			if (!(col->flags & (SB_COL_WRAP | SB_COL_TRUNC)) || width[s] <= floor[s])
				continue;
			if (best == tb->nsel || width[s] > width[best])
				best = s;
		}
		if (best == tb->nsel)
			return; /* nothing more to give: the terminal wraps the line */
		width[best]--;
		total--;
	}
}

/* A line of the table goes straight to the stream; its blanks are held back until something
 * follows them, so no line ends in spaces (and no buffer is needed for the line). */
struct line_out {
	FILE *fp;
	size_t blanks;
};

static void line_text(struct line_out *l, const char *s, size_t bytes)
{
	size_t keep = rtrim_len(s, bytes);

	if (keep) {
		for (; l->blanks; l->blanks--)
			fputc(' ', l->fp);
		fwrite(s, 1, keep, l->fp);
	}
	l->blanks += bytes - keep;
}

static void put_padded(struct line_out *l, const char *s, size_t bytes, size_t width, bool right,
		       bool last)
{
	size_t w = sb_out_text_width(s, bytes);

	if (right && w < width)
		l->blanks += width - w;
	line_text(l, s, bytes);
	if (!right && !last && w < width)
		l->blanks += width - w;
}

/* One row of the aligned table, wrapped into as many lines as its widest cell needs. */
static void put_row(FILE *fp, const struct sb_table *tb, char **cells, const size_t *width)
{
	const char *pos[tb->nsel];
	bool more = true;

	for (size_t s = 0; s < tb->nsel; s++)
		pos[s] = cells[s];
	while (more) {
		struct line_out l = { fp, 0 };

		more = false;
		for (size_t s = 0; s < tb->nsel; s++) {
			const struct sb_col *col = &tb->cols[tb->sel[s]];
			size_t n = strlen(pos[s]), skip = 0;

			if (s)
				l.blanks++;
			if (sb_out_text_width(pos[s], n) > width[s]) {
				if (col->flags & SB_COL_WRAP)
					n = wrap_line(pos[s], width[s], &skip);
				else
					n = prefix_bytes(pos[s], width[s]);
			}
			put_padded(&l, pos[s], n, width[s], col->flags & SB_COL_RIGHT,
				   s + 1 == tb->nsel);
			pos[s] = (col->flags & SB_COL_WRAP) ? pos[s] + n + skip
							    : pos[s] + strlen(pos[s]);
			if (*pos[s])
				more = true;
		}
		fputc('\n', fp);
	}
}

/* Lines a cell takes at width. */
static size_t cell_lines(const struct sb_col *col, const char *t, size_t width)
{
	size_t n = 0, skip;

	if (!(col->flags & SB_COL_WRAP) || !width)
		return 1;
	do {
		t += wrap_line(t, width, &skip) + skip;
		n++;
	} while (*t);
	return n;
}

/* Whether a table laid out in max columns is cramped: wider than max, or a wrapped column
 * narrower than BELOW_UNDER that makes a row taller than its other cells do, by 3 lines or
 * more (prose a word or two a line; a list that wraps beside a longer list is fine). */
static bool cramped(const struct sb_table *tb, char **text, const size_t *width, size_t max)
{
	size_t total = 0;

	for (size_t s = 0; s < tb->nsel; s++)
		total += width[s] + (s ? 1 : 0);
	if (total > max)
		return true;
	for (size_t s = 0; s < tb->nsel; s++) {
		const struct sb_col *col = &tb->cols[tb->sel[s]];

		if (!(col->flags & SB_COL_WRAP) || width[s] >= BELOW_UNDER)
			continue;
		for (size_t r = 0; r < tb->nrows; r++) {
			size_t own = cell_lines(col, text[r * tb->nsel + s], width[s]), others = 1;

			for (size_t o = 0; o < tb->nsel; o++) {
				size_t l = cell_lines(&tb->cols[tb->sel[o]], text[r * tb->nsel + o],
						      width[o]);

				if (o != s && l > others)
					others = l;
			}
			if (own >= 3 && own > others)
				return true;
		}
	}
	return false;
}

/* "  HEADING: text", wrapped at max with the continuation lines under the text. */
static void put_below(FILE *fp, const char *heading, const char *t, size_t max)
{
	size_t lead = BELOW_INDENT + strlen(heading) + 2;
	size_t room = max > lead + MIN_FLEX_WIDTH ? max - lead : MIN_FLEX_WIDTH;
	bool first = true;

	if (!*t || !strcmp(t, "-"))
		return;
	while (*t) {
		size_t skip, n = wrap_line(t, room, &skip);

		if (first)
			fprintf(fp, "%*s%s: ", BELOW_INDENT, "", heading);
		else
			fprintf(fp, "%*s", (int)lead, "");
		fwrite(t, 1, rtrim_len(t, n), fp);
		fputc('\n', fp);
		t += n + skip;
		first = false;
	}
}

/* "  HEADING: value" for each value of an SB_COL_WHOLE cell, whole whatever the width:
 * a command wrapped by the terminal still pastes, one cut or broken at a word does not. */
static void put_whole(FILE *fp, const char *heading, const struct cell *c, unsigned esc_flags)
{
	for (size_t i = 0; c->set && i < c->nv; i++) {
		size_t len = strlen(c->v[i]) * 4 + 1;
		char *esc = malloc(len);

		if (!esc)
			return;
		sb_escape(esc, len, c->v[i], esc_flags);
		fprintf(fp, "%*s%s: %s\n", BELOW_INDENT, "", heading, esc);
		free(esc);
	}
}

/* The aligned table; on a terminal fitted to its width, cramped wrapped columns below their
 * rows, and SB_COL_WHOLE columns below them always (unless nothing else is shown). shown is
 * tb with the columns that stay in line: its sel, names and cells. */
static int print_aligned(struct sb_out *o, struct sb_table *tb, const char **names, char **text,
			 const size_t *natural)
{
	size_t max = sb_out_width(o->fp), n = tb->nsel;
	bool below[n + 1];
	int sel[n + 1];
	size_t width[n + 1], col_of[n + 1];
	const char **shown_names = calloc(n + 1, sizeof(*shown_names));
	char **cells = calloc(n * tb->nrows + 1, sizeof(*cells));
	struct sb_table shown = *tb;

	if (!shown_names || !cells) {
		free(shown_names);
		free(cells);
		return -ENOMEM;
	}
	memset(below, 0, sizeof(below));
	for (size_t s = 0; s < n; s++)
		if (tb->cols[tb->sel[s]].flags & SB_COL_WHOLE)
			below[s] = true;
	{
		size_t inline_cols = 0;

		for (size_t s = 0; s < n; s++)
			inline_cols += !below[s];
		if (!inline_cols)
			memset(below, 0, sizeof(below));
	}
	for (;;) {
		size_t k = 0;

		for (size_t s = 0; s < n; s++) {
			if (below[s])
				continue;
			sel[k] = tb->sel[s];
			col_of[k] = s;
			shown_names[k] = names[s];
			width[k] = natural[s];
			for (size_t r = 0; r < tb->nrows; r++)
				cells[r * n + k] = text[r * n + s];
			k++;
		}
		shown.sel = sel;
		shown.nsel = k;
		/* cells keep tb's row stride n: re-pack them to shown's */
		for (size_t r = 1; r < tb->nrows && k < n; r++)
			memmove(&cells[r * k], &cells[r * n], k * sizeof(*cells));
		if (!max)
			break;
		fit_width(&shown, shown_names, cells, width, max);
		if (!cramped(&shown, cells, width, max))
			break;
		{
			size_t last = n;

			for (size_t s = 0; s < k; s++)
				if (tb->cols[sel[s]].flags & SB_COL_WRAP)
					last = col_of[s];
			if (last == n || k == 1)
				break; /* nothing left to move: the terminal wraps the line */
			below[last] = true;
		}
	}
	if (!o->opts.noheadings)
		put_row(o->fp, &shown, (char **)shown_names, width);
	for (size_t r = 0; r < tb->nrows; r++) {
		put_row(o->fp, &shown, &cells[r * shown.nsel], width);
		for (size_t s = 0; s < n; s++)
			if (below[s] && !(tb->cols[tb->sel[s]].flags & SB_COL_WHOLE))
				put_below(o->fp, names[s], text[r * n + s], max);
		for (size_t s = 0; s < n; s++)
			if (below[s] && (tb->cols[tb->sel[s]].flags & SB_COL_WHOLE))
				put_whole(o->fp, names[s], &tb->rows[r]->cells[tb->sel[s]], 0);
	}
	free(shown_names);
	free(cells);
	return 0;
}

int sb_out_print_table(struct sb_out *o, struct sb_table *tb)
{
	enum sb_out_mode mode = o->opts.mode;
	unsigned esc = mode == SB_OUT_PAIRS ? SB_ESC_SHELL : mode == SB_OUT_RAW ? SB_ESC_RAW : 0;
	char **text = calloc(tb->nrows * tb->nsel + 1, sizeof(*text));
	size_t *width = calloc(tb->nsel + 1, sizeof(*width));
	const char *names[tb->nsel + 1];
	char namebuf[tb->nsel + 1][64];
	int rc = 0;

	if (!text || !width) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t r = 0; r < tb->nrows; r++)
		for (size_t s = 0; s < tb->nsel; s++) {
			int c = tb->sel[s];
			char *t = sb_out_cell_text(&tb->rows[r]->cells[c], &tb->cols[c], esc,
						   sb_out_text_units(o));

			if (!t) {
				rc = -ENOMEM;
				goto out;
			}
			text[r * tb->nsel + s] = t;
		}
	for (size_t s = 0; s < tb->nsel; s++) {
		const struct sb_col *col = &tb->cols[tb->sel[s]];

		names[s] = sb_out_text_name(col->name, col->flags, sb_out_text_units(o), namebuf[s],
					    sizeof(namebuf[s]));
	}
	if (mode == SB_OUT_PAIRS) {
		for (size_t r = 0; r < tb->nrows; r++) {
			for (size_t s = 0; s < tb->nsel; s++)
				fprintf(o->fp, "%s%s=\"%s\"", s ? " " : "", names[s],
					text[r * tb->nsel + s]);
			/* a view of several tables keys each row with its table's JSON name,
			 * last, so lines read by their first column keep matching */
			if (o->ntables > 1)
				fprintf(o->fp, " TABLE=\"%s\"", tb->key);
			fputc('\n', o->fp);
		}
		goto out;
	}
	if (mode == SB_OUT_RAW) {
		for (size_t s = 0; s < tb->nsel && !o->opts.noheadings; s++)
			fprintf(o->fp, "%s%s%s", s ? " " : "", names[s],
				s + 1 == tb->nsel ? "\n" : "");
		for (size_t r = 0; r < tb->nrows; r++)
			for (size_t s = 0; s < tb->nsel; s++)
				fprintf(o->fp, "%s%s%s", s ? " " : "", text[r * tb->nsel + s],
					s + 1 == tb->nsel ? "\n" : "");
		goto out;
	}
	for (size_t s = 0; s < tb->nsel; s++) {
		width[s] = o->opts.noheadings ? 0 : strlen(names[s]);
		for (size_t r = 0; r < tb->nrows; r++) {
			const char *t = text[r * tb->nsel + s];
			size_t w = sb_out_text_width(t, strlen(t));
			if (w > width[s])
				width[s] = w;
		}
	}
	rc = print_aligned(o, tb, names, text, width);
out:
	if (text)
		for (size_t i = 0; i < tb->nrows * tb->nsel; i++)
			free(text[i]);
	free(text);
	free(width);
	return rc;
}
