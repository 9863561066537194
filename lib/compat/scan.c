// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_sscanf(): the subset of sscanf() that socbox uses (socbox/scan.h), read as glibc's
 * vfscanf reads it: a directive of white space skips any amount of it (none included), an
 * ordinary character must come next, a conversion other than [, c and n first skips white
 * space. Running out of input before the first conversion is done returns EOF (-1), a
 * character that does not fit returns the count of assignments made. An integer is the
 * characters scanf takes (a sign, a 0x prefix for x, digits of the base, within the width)
 * given to strtol() or strtoul(), then cast to the type the modifier names. */
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "socbox/scan.h"

enum size { SZ_CHAR, SZ_SHORT, SZ_INT, SZ_LONG, SZ_LLONG };

static bool is_space(unsigned char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

static bool is_digit(unsigned char c, int base)
{
	if (base == 16)
		return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
	return c >= '0' && c < '0' + base;
}

/* The characters of an integer conversion, from *in (white space already skipped), as
 * scanf collects them; *base is 0 for %i (then set from the prefix). Leading zeros after
 * the first digit change no value and are not kept, so any number fits: more significant
 * digits than kept overflow a 64-bit value all the same (strtoul() saturates).
 * False when there is no digit (a matching failure). */
static bool take_number(const char **in, int width, int *base, char *buf, size_t size)
{
	const unsigned char *p = (const unsigned char *)*in;
	size_t n = 0;
	bool zeros = false;

	if (*p == '-' || *p == '+') {
		buf[n++] = (char)*p++;
		if (width > 0)
			width--;
	}
	if (width != 0 && *p == '0') {
		if (width > 0)
			width--;
		buf[n++] = (char)*p++;
		zeros = true;
		if (width != 0 && (*p | 0x20) == 'x') {
			if (!*base)
				*base = 16;
			if (*base == 16) {
				if (width > 0)
					width--;
				p++;
			}
		} else if (!*base) {
			*base = 8;
		}
	}
	if (!*base)
		*base = 10;
	for (; *p && width != 0 && is_digit(*p, *base); p++) {
		if (width > 0)
			width--;
		if (zeros && *p == '0')
			continue;
		zeros = false;
		if (n < size - 1)
			buf[n++] = (char)*p;
	}
	*in = (const char *)p;
	buf[n] = '\0';
	return n && !(n == 1 && (buf[0] == '-' || buf[0] == '+'));
}

static void store_signed(void *to, enum size sz, const char *buf, int base)
{
	if (sz == SZ_LLONG) {
		*(long long *)to = strtoll(buf, NULL, base);
		return;
	}
	long v = strtol(buf, NULL, base);

	if (sz == SZ_LONG)
		*(long *)to = v;
	else if (sz == SZ_SHORT)
		*(short *)to = (short)v;
	else if (sz == SZ_INT)
		*(int *)to = (int)v;
	else
		*(signed char *)to = (signed char)v;
}

static void store_unsigned(void *to, enum size sz, const char *buf, int base)
{
	if (sz == SZ_LLONG) {
		*(unsigned long long *)to = strtoull(buf, NULL, base);
		return;
	}
	unsigned long v = strtoul(buf, NULL, base);

	if (sz == SZ_LONG)
		*(unsigned long *)to = v;
	else if (sz == SZ_SHORT)
		*(unsigned short *)to = (unsigned short)v;
	else if (sz == SZ_INT)
		*(unsigned int *)to = (unsigned int)v;
	else
		*(unsigned char *)to = (unsigned char)v;
}

static void store_count(void *to, enum size sz, ptrdiff_t n)
{
	if (sz == SZ_LLONG)
		*(long long *)to = n;
	else if (sz == SZ_LONG)
		*(long *)to = (long)n;
	else if (sz == SZ_SHORT)
		*(short *)to = (short)n;
	else if (sz == SZ_CHAR)
		*(signed char *)to = (signed char)n;
	else
		*(int *)to = (int)n;
}

/* The set of a %[ conversion from *fmt (after the '['), into in[]; false when it has no
 * closing ']'. */
static bool take_set(const char **fmt, bool in[256])
{
	const unsigned char *f = (const unsigned char *)*fmt;
	bool negate = false;

	if (*f == '^') {
		negate = true;
		f++;
	}
	for (int c = 0; c < 256; c++)
		in[c] = negate;
	if (*f == ']' || *f == '-') /* first: a member, not the end or a range */
		in[*f++] = !negate;
	for (; *f && *f != ']'; f++) {
		if (f[0] == '-' && f[1] && f[1] != ']' && f[-1] <= f[1]) {
			for (int c = f[-1]; c <= f[1]; c++)
				in[c] = !negate;
			f++;
		} else {
			in[*f] = !negate;
		}
	}
	if (!*f)
		return false;
	*fmt = (const char *)f + 1;
	return true;
}

int sb_vsscanf(const char *s, const char *fmt, va_list ap)
{
	const char *in = s;
	int done = 0;

	while (*fmt) {
		bool suppress = false;
		enum size sz = SZ_INT;
		int width = -1, base = 10;
		char buf[80];
		void *to = NULL;
		unsigned char fc = (unsigned char)*fmt++;

		if (is_space(fc)) {
			while (is_space((unsigned char)*in))
				in++;
			continue;
		}
		if (fc != '%' || *fmt == '%') {
			if (fc == '%') { /* %%: white space first, as a conversion */
				fmt++;
				while (is_space((unsigned char)*in))
					in++;
			}
			if (!*in)
				return done ? done : EOF;
			if ((unsigned char)*in != fc)
				return done;
			in++;
			continue;
		}
		if (*fmt == '*') {
			suppress = true;
			fmt++;
		}
		if (*fmt >= '1' && *fmt <= '9')
			for (width = 0; *fmt >= '0' && *fmt <= '9'; fmt++)
				width = width * 10 + (*fmt - '0');
		switch (*fmt) {
		case 'h':
			sz = fmt[1] == 'h' ? SZ_CHAR : SZ_SHORT;
			fmt += fmt[1] == 'h' ? 2 : 1;
			break;
		case 'l':
			sz = fmt[1] == 'l' ? SZ_LLONG : SZ_LONG;
			fmt += fmt[1] == 'l' ? 2 : 1;
			break;
		case 'j':
			sz = SZ_LLONG;
			fmt++;
			break;
		case 'z':
		case 't':
			sz = sizeof(size_t) == sizeof(long long) ? SZ_LLONG : SZ_INT;
			fmt++;
			break;
		}
		fc = (unsigned char)*fmt++;
		if (!fc)
			return done;
		if (!suppress && fc != '%')
			to = va_arg(ap, void *);
		if (fc != '[' && fc != 'c' && fc != 'n')
			while (is_space((unsigned char)*in))
				in++;
		switch (fc) {
		case 'n':
			if (!suppress)
				store_count(to, sz, in - s);
			continue;
		case 'd':
		case 'i':
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (!*in)
				return done ? done : EOF;
			base = fc == 'i' ? 0 : fc == 'o' ? 8 : fc == 'x' || fc == 'X' ? 16 : 10;
			if (!take_number(&in, width, &base, buf, sizeof(buf)))
				return done;
			if (suppress)
				continue;
			if (fc == 'd' || fc == 'i')
				store_signed(to, sz, buf, base);
			else
				store_unsigned(to, sz, buf, base);
			done++;
			continue;
		case 's':
		case 'c':
		case '[': {
			bool set[256];
			char *out = to;
			int n = 0;

			if (fc == '[' && !take_set(&fmt, set))
				return done;
			if (!*in)
				return done ? done : EOF;
			if (fc == 'c' && width < 0)
				width = 1;
			for (; *in && (width < 0 || n < width); in++, n++) {
				unsigned char c = (unsigned char)*in;

				if (fc == 's' ? is_space(c) : fc == '[' && !set[c])
					break;
				if (out)
					*out++ = (char)c;
			}
			if (!n)
				return done;
			if (suppress)
				continue;
			if (fc != 'c')
				*out = '\0';
			done++;
			continue;
		}
		default: /* not in the subset: see socbox/scan.h */
			return done;
		}
	}
	return done;
}

int sb_sscanf(const char *s, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = sb_vsscanf(s, fmt, ap);
	va_end(ap);
	return n;
}
