// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_strtod() (socbox/strtod.h), and the static build's strtod(). */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "socbox/config.h"
#include "socbox/strtod.h"

/* p past the word w (any case), NULL when it does not start with it */
static const char *word(const char *p, const char *w)
{
	size_t n = strlen(w);

	return strncasecmp(p, w, n) ? NULL : p + n;
}

static int digit(char c, int base)
{
	int l = c | 0x20,
	    d = c >= '0' && c <= '9'   ? c - '0'
		: l >= 'a' && l <= 'f' ? l - 'a' + 10
				       : 99;

	return d < base ? d : -1;
}

static bool is_space(char c)
{
	return c == ' ' || (c >= '\t' && c <= '\r');
}

/* m times base to the power e, base 10 or 2 */
static double scale(uint64_t m, long e, int base)
{
	double v = (double)m, p = 1;

	e = e < -2000 ? -2000 : e > 2000 ? 2000 : e; /* past these it is 0 or inf anyway */
	if (base == 2)
		return ldexp(v, (int)e);
	for (; e > 22; e -= 22) /* 1e22 is the largest power of ten a double holds exactly */
		v *= 1e22;
	for (; e < -22; e += 22)
		v /= 1e22;
	for (long i = e < 0 ? -e : e; i > 0; i--)
		p *= 10;
	return e < 0 ? v / p : v * p;
}

double sb_strtod(const char *s, char **end)
{
	const char *p = s, *q;
	uint64_t m = 0;
	long e = 0; /* in places of the base's digits */
	int base = 10, d;
	bool neg, any = false, frac = false;
	double v;

	while (is_space(*p))
		p++;
	neg = *p == '-';
	if (*p == '-' || *p == '+')
		p++;
	if ((q = word(p, "inf"))) {
		p = word(q, "inity") ? q + 5 : q;
		v = INFINITY;
		goto done;
	}
	if ((q = word(p, "nan"))) {
		p = q;
		if (*q == '(') {
			while (*++q == '_' || digit(*q, 10) >= 0 ||
			       ((*q | 0x20) >= 'a' && (*q | 0x20) <= 'z'))
				;
			if (*q == ')')
				p = q + 1;
		}
		v = NAN;
		goto done;
	}
	if (p[0] == '0' && (p[1] | 0x20) == 'x' &&
	    (digit(p[2], 16) >= 0 || (p[2] == '.' && digit(p[3], 16) >= 0))) {
		base = 16;
		p += 2;
	}
	for (;; p++) {
		if (*p == '.' && !frac) {
			frac = true;
			continue;
		}
		if ((d = digit(*p, base)) < 0)
			break;
		any = true;
		if (m < (base == 10 ? UINT64_C(100000000000000000) : UINT64_C(1) << 58)) {
			m = m * (unsigned)base + (unsigned)d;
			e -= frac;
		} else {
			e += !frac; /* a digit past what m holds: one place more */
		}
	}
	if (!any) { /* no number: nothing is read */
		p = s;
		v = 0;
		neg = false;
		goto done;
	}
	if (base == 16)
		e *= 4; /* a hexadecimal place is four bits */
	if ((*p | 0x20) == (base == 10 ? 'e' : 'p')) {
		const char *r = p + 1;
		bool eneg = *r == '-';
		long x = 0;

		if (*r == '-' || *r == '+')
			r++;
		for (q = r; digit(*r, 10) >= 0; r++)
			if (x < 1000000)
				x = x * 10 + (*r - '0');
		if (r > q) { /* an exponent with no digits is not read */
			p = r;
			e += eneg ? -x : x;
		}
	}
	v = scale(m, e, base == 10 ? 10 : 2);
	if (isinf(v) || (v == 0 && m))
		errno = ERANGE;
done:
	if (end)
		*end = (char *)p;
	return neg ? -v : v;
}

#if SOCBOX_STATIC
double strtod(const char *s, char **end)
{
	return sb_strtod(s, end);
}
#endif
