// SPDX-License-Identifier: GPL-2.0-or-later
/* Every renderer on cells that come from files: the input, cut at NUL bytes, becomes string
 * cells, lists, a field and a note, printed as table, raw, pairs, JSON and OpenMetrics.
 * Whatever the bytes, text output holds no control character but "\n" and no invalid UTF-8
 * (they are written as \xHH), a raw or pairs row stays one line, and JSON is valid. */
#define _GNU_SOURCE
#include <stdio.h>

#include "fuzz.h"
#include "socbox/macro.h"
#include "socbox/out.h"

static const struct sb_col cols[] = {
	{ "NAME", SB_T_STR, 0, SB_COL_LABEL, "name", 0 },
	{ "DESC", SB_T_STR, 0.3, SB_COL_WRAP, "description", 0 },
	{ "LIST", SB_T_STRV, 0, 0, "list", 0 },
	{ "COUNT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "count", 0 },
};

/* Length of the valid UTF-8 sequence at s, 0 when invalid (overlong, surrogate, > U+10FFFF). */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned cp;
	size_t n;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n > left)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	if (cp >= 0x80 && cp < 0xa0)
		return 0; /* a C1 control is as bad as a C0 one on a terminal */
	return n;
}

static void check_text(const char *out, size_t len)
{
	const unsigned char *p = (const unsigned char *)out;

	for (size_t i = 0; i < len;) {
		size_t n = utf8_len(p + i, len - i);

		FUZZ_ASSERT(n != 0);
		FUZZ_ASSERT(n > 1 || p[i] == '\n' || (p[i] >= 0x20 && p[i] != 0x7f));
		i += n;
	}
}

/* A JSON validator (RFC 8259) for what the renderer wrote. */
struct js {
	const char *p, *end;
	int depth;
};

static void ws(struct js *j)
{
	while (j->p < j->end && (*j->p == ' ' || *j->p == '\n' || *j->p == '\t' || *j->p == '\r'))
		j->p++;
}

static int lit(struct js *j, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(j->end - j->p) < n || memcmp(j->p, w, n))
		return -1;
	j->p += n;
	return 0;
}

static int string(struct js *j)
{
	if (j->p >= j->end || *j->p++ != '"')
		return -1;
	while (j->p < j->end && *j->p != '"') {
		unsigned char c = (unsigned char)*j->p;
		size_t n;

		if (c < 0x20)
			return -1;
		if (c == '\\') {
			if (++j->p >= j->end)
				return -1;
			if (*j->p == 'u') {
				for (int i = 1; i <= 4; i++)
					if (j->p + i >= j->end ||
					    !strchr("0123456789abcdefABCDEF", j->p[i]) || !j->p[i])
						return -1;
				j->p += 5;
			} else if (strchr("\"\\/bfnrt", *j->p) && *j->p) {
				j->p++;
			} else {
				return -1;
			}
			continue;
		}
		n = utf8_len((const unsigned char *)j->p, (size_t)(j->end - j->p));
		if (!n && c >= 0x80)
			return -1;
		j->p += n ? n : 1;
	}
	if (j->p >= j->end)
		return -1;
	j->p++;
	return 0;
}

static int value(struct js *j);

static int number(struct js *j)
{
	const char *s = j->p;

	if (j->p < j->end && *j->p == '-')
		j->p++;
	while (j->p < j->end && strchr("0123456789.eE+-", *j->p) && *j->p)
		j->p++;
	return j->p > s && (s[0] != '-' || j->p > s + 1) ? 0 : -1;
}

static int members(struct js *j, char close, bool keys)
{
	j->p++;
	if (++j->depth > 64)
		return -1;
	ws(j);
	if (j->p < j->end && *j->p == close) {
		j->p++;
		j->depth--;
		return 0;
	}
	for (;;) {
		ws(j);
		if (keys) {
			if (string(j))
				return -1;
			ws(j);
			if (j->p >= j->end || *j->p++ != ':')
				return -1;
		}
		if (value(j))
			return -1;
		ws(j);
		if (j->p < j->end && *j->p == ',') {
			j->p++;
			continue;
		}
		if (j->p < j->end && *j->p == close) {
			j->p++;
			j->depth--;
			return 0;
		}
		return -1;
	}
}

static int value(struct js *j)
{
	ws(j);
	if (j->p >= j->end)
		return -1;
	switch (*j->p) {
	case '{':
		return members(j, '}', true);
	case '[':
		return members(j, ']', false);
	case '"':
		return string(j);
	case 't':
		return lit(j, "true");
	case 'f':
		return lit(j, "false");
	case 'n':
		return lit(j, "null");
	default:
		return number(j);
	}
}

static void render(enum sb_out_mode mode, bool noheadings, char **cells, size_t n)
{
	struct sb_out_opts opts = { .mode = mode, .noheadings = noheadings, .pretty = true };
	size_t len = 0, rows = 0, lines = 0;
	char *out = NULL;
	FILE *fp = open_memstream(&out, &len);
	struct sb_out *o;
	struct sb_table *t;

	if (!fp)
		abort();
	o = sb_out_new(&opts, fp);
	/* the first cell is a field and a note, only in table and JSON (raw and pairs rows are
	 * counted as lines below) */
	if (n && (mode == SB_OUT_TABLE || mode == SB_OUT_JSON)) {
		sb_out_field_str(o, "source", cells[0]);
		sb_out_note(o, "%s", cells[0]);
	}
	t = sb_out_table(o, "items", "Items", cols, ARRAY_SIZE(cols), true);
	for (size_t i = 0; i < n; i += 3) {
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, 0, cells[i]);
		if (i + 1 < n)
			sb_row_str(r, 1, cells[i + 1]);
		for (char *s = i + 2 < n ? cells[i + 2] : NULL, *c; s; s = c ? c + 1 : NULL) {
			c = strchr(s, ',');
			if (c)
				*c = '\0';
			sb_row_strv_add(r, 2, s);
			if (c)
				*c = ',';
		}
		sb_row_u64(r, 3, i);
		rows++;
	}
	FUZZ_ASSERT(sb_out_print(o) == 0);
	sb_out_free(o);
	fclose(fp);
	if (mode == SB_OUT_JSON) {
		struct js j = { out, out + len, 0 };

		FUZZ_ASSERT(value(&j) == 0);
		ws(&j);
		FUZZ_ASSERT(j.p == j.end);
	} else {
		check_text(out, len);
	}
	for (size_t i = 0; i < len; i++)
		lines += out[i] == '\n';
	if (mode == SB_OUT_RAW || mode == SB_OUT_PAIRS)
		FUZZ_ASSERT(lines == rows + (rows && !noheadings && mode == SB_OUT_RAW));
	free(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *cells[30];
	size_t n = 0;

	/* cells are separated by NUL bytes (a file's text ends at one), so a cell may hold any
	 * other byte, newlines and escapes included */
	for (size_t off = 0; off <= size && n < 30; off += strlen(text + off) + 1)
		cells[n++] = text + off;
	for (int noh = 0; noh <= 1; noh++) {
		render(SB_OUT_TABLE, noh, cells, n);
		render(SB_OUT_RAW, noh, cells, n);
		render(SB_OUT_PAIRS, noh, cells, n);
	}
	render(SB_OUT_JSON, false, cells, n);
	render(SB_OUT_OPENMETRICS, false, cells, n);
	free(text);
	return 0;
}
