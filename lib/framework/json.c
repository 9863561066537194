// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "socbox/json.h"

void sb_json_init(struct sb_json *j, FILE *fp, bool pretty)
{
	memset(j, 0, sizeof(*j));
	j->fp = fp;
	j->pretty = pretty;
}

/* Length of the valid UTF-8 sequence at s, or 0 when it is not valid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned cp;

	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1f;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0f;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3f);
	}
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

void sb_json_write_string(FILE *fp, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;

	fputc('"', fp);
	while (*s) {
		size_t n;

		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			s++;
			continue;
		case '\\':
			fputs("\\\\", fp);
			s++;
			continue;
		case '\n':
			fputs("\\n", fp);
			s++;
			continue;
		case '\t':
			fputs("\\t", fp);
			s++;
			continue;
		case '\r':
			fputs("\\r", fp);
			s++;
			continue;
		default:
			break;
		}
		if (*s < 0x20 || *s == 0x7f) {
			fprintf(fp, "\\u%04x", *s);
			s++;
			continue;
		}
		n = utf8_len(s);
		if (!n) {
			fputs("\\ufffd", fp);
			s++;
			continue;
		}
		if (n == 2 && s[0] == 0xc2 && s[1] < 0xa0) {
			/* a C1 control (U+0080..U+009F, CSI among them): escaped like C0 */
			fprintf(fp, "\\u%04x", s[1]);
			s += 2;
			continue;
		}
		fwrite(s, 1, n, fp);
		s += n;
	}
	fputc('"', fp);
}

static void indent(struct sb_json *j)
{
	if (!j->pretty)
		return;
	fputc('\n', j->fp);
	for (int i = 0; i < j->depth; i++)
		fputs("  ", j->fp);
}

static void member(struct sb_json *j, const char *key)
{
	if (j->depth > 0) {
		if (j->need_comma[j->depth])
			fputc(',', j->fp);
		j->need_comma[j->depth] = true;
		indent(j);
	}
	if (key) {
		sb_json_write_string(j->fp, key);
		fputs(j->pretty ? ": " : ":", j->fp);
	}
}

static void open_scope(struct sb_json *j, const char *key, char c)
{
	member(j, key);
	fputc(c, j->fp);
	if (j->depth < SB_JSON_MAX_DEPTH - 1)
		j->depth++;
	j->need_comma[j->depth] = false;
}

static void close_scope(struct sb_json *j, char c)
{
	bool had = j->need_comma[j->depth];

	if (j->depth > 0)
		j->depth--;
	if (had)
		indent(j);
	fputc(c, j->fp);
	if (j->depth == 0)
		fputc('\n', j->fp);
}

void sb_json_obj_begin(struct sb_json *j, const char *key)
{
	open_scope(j, key, '{');
}

void sb_json_obj_end(struct sb_json *j)
{
	close_scope(j, '}');
}

void sb_json_arr_begin(struct sb_json *j, const char *key)
{
	open_scope(j, key, '[');
}

void sb_json_arr_end(struct sb_json *j)
{
	close_scope(j, ']');
}

void sb_json_str(struct sb_json *j, const char *key, const char *val)
{
	member(j, key);
	if (val)
		sb_json_write_string(j->fp, val);
	else
		fputs("null", j->fp);
}

void sb_json_u64(struct sb_json *j, const char *key, uint64_t val)
{
	member(j, key);
	fprintf(j->fp, "%" PRIu64, val);
}

void sb_json_s64(struct sb_json *j, const char *key, int64_t val)
{
	member(j, key);
	fprintf(j->fp, "%" PRId64, val);
}

void sb_json_dbl(struct sb_json *j, const char *key, double val)
{
	member(j, key);
	/* The range check comes first: converting a double outside int64_t's range is
	 * undefined behaviour. */
	if (!isfinite(val))
		fputs("null", j->fp);
	else if (fabs(val) < 1e15 && val == (double)(int64_t)val)
		fprintf(j->fp, "%.0f", val);
	else
		fprintf(j->fp, "%.15g", val);
}

void sb_json_bool(struct sb_json *j, const char *key, bool val)
{
	member(j, key);
	fputs(val ? "true" : "false", j->fp);
}

void sb_json_null(struct sb_json *j, const char *key)
{
	member(j, key);
	fputs("null", j->fp);
}
