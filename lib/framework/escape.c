// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/error.h"
#include "socbox/escape.h"
#include "socbox/limits.h"

/* Length of the valid UTF-8 sequence at s (1-4), 0 when s does not start one. Overlong
 * forms, surrogates and code points past U+10FFFF are not valid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned cp;

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
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return n;
}

static bool needs_escape(const unsigned char *p, size_t n, unsigned flags)
{
	if (n == 0)
		return true;
	if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
		return true; /* C1 controls U+0080..U+009F */
	if (n > 1)
		return false;
	if (*p == '\n' || *p == '\t')
		return !(flags & SB_ESC_KEEP_LINES);
	if (*p < 0x20 || *p == 0x7f)
		return true;
	if ((flags & SB_ESC_RAW) && (*p == ' ' || *p == '\\'))
		return true;
	return (flags & SB_ESC_SHELL) && (*p == '"' || *p == '$' || *p == '`' || *p == '\\');
}

/* Calls put(piece, length) for each piece of the escaped text; stops when it returns false. */
static void escape_each(const char *src, unsigned flags, bool (*put)(void *, const char *, size_t),
			void *arg)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *p = (const unsigned char *)src;

	while (*p) {
		size_t n = utf8_len(p);

		if (needs_escape(p, n, flags)) {
			/* an invalid byte or a control character: one \xHH per byte */
			size_t bytes = n ? n : 1;
			for (size_t i = 0; i < bytes; i++) {
				char e[4] = { '\\', 'x', hex[p[i] >> 4], hex[p[i] & 15] };
				if (!put(arg, e, 4))
					return;
			}
			p += bytes;
			continue;
		}
		if (!put(arg, (const char *)p, n))
			return;
		p += n;
	}
}

struct buf_sink {
	char *dst;
	size_t len, off;
};

static bool put_buf(void *arg, const char *s, size_t n)
{
	struct buf_sink *b = arg;

	if (b->off + n >= b->len)
		return false;
	memcpy(b->dst + b->off, s, n);
	b->off += n;
	return true;
}

char *sb_escape(char *dst, size_t len, const char *src, unsigned flags)
{
	struct buf_sink b = { dst, len, 0 };

	if (!len)
		return dst;
	escape_each(src, flags, put_buf, &b);
	dst[b.off] = '\0';
	return dst;
}

static bool put_file(void *arg, const char *s, size_t n)
{
	return fwrite(s, 1, n, arg) == n;
}

void sb_fputs_escaped(FILE *fp, const char *s, unsigned flags)
{
	escape_each(s, flags, put_file, fp);
}

/* An escape \xHH that starts before off and ends after it: its start, else off. */
static size_t escape_start(const char *s, size_t off)
{
	for (size_t k = 1; k <= 3 && k <= off; k++)
		if (s[off - k] == '\\' && s[off - k + 1] == 'x')
			return off - k;
	return off;
}

void sb_put_error_line(FILE *fp, const char *line)
{
	size_t len = strlen(line), tail_len = SB_ERR_LINE_MAX / 4, head_len, tail;
	char *esc = malloc(4 * len + 1); /* every byte may become \xHH */

	if (!esc) {
		fputs("(out of memory formatting an error)\n", fp);
		return;
	}
	/* escaped first, then cut: the cut line is at most SB_ERR_LINE_MAX bytes with "\n" */
	sb_escape(esc, 4 * len + 1, line, 0);
	len = strlen(esc);
	if (len < SB_ERR_LINE_MAX) {
		sb_err_put_wrapped(fp, esc, sb_err_width(fp));
		free(esc);
		return;
	}
	/* the start says what failed and the end why: the middle goes, at whole characters */
	head_len = escape_start(esc, SB_ERR_LINE_MAX - 1 - 3 - tail_len);
	while (head_len && ((unsigned char)esc[head_len] & 0xc0) == 0x80)
		head_len--;
	tail = len - tail_len;
	while (tail < len &&
	       (escape_start(esc, tail) != tail || ((unsigned char)esc[tail] & 0xc0) == 0x80))
		tail++;
	fprintf(fp, "%.*s...%s\n", (int)head_len, esc, esc + tail);
	free(esc);
}

void sb_eprintf(const char *fmt, ...)
{
	va_list ap;
	char *line;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&line, fmt, ap);
	va_end(ap);
	if (n < 0) {
		fputs("(out of memory formatting an error)\n", stderr);
		return;
	}
	sb_put_error_line(stderr, line);
	free(line);
}
