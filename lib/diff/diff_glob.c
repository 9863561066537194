// SPDX-License-Identifier: GPL-2.0-or-later
/* The globs of --ignore: '*' (any run of characters, '/' included), '?' (one character),
 * '[abc]', '[a-z]', '[!a-z]' and '\' before a character to take it literally. Written here
 * because glibc's fnmatch() pulls its wide-character machinery into the static build (14 KiB
 * of the 1 MiB budget) for patterns that are ASCII paths. */
#include "socbox/diff.h"

/* Match s[0] against the set after '[' at *pp; *pp is moved past the ']'. -1: no ']' (the
 * '[' is then an ordinary character). */
static int match_set(const char **pp, char c)
{
	const char *p = *pp;
	bool neg = *p == '!' || *p == '^', hit = false;

	if (neg)
		p++;
	for (bool first = true; *p && (first || *p != ']'); first = false) {
		char lo = *p == '\\' && p[1] ? *++p : *p;
		char hi = lo;

		p++;
		if (*p == '-' && p[1] && p[1] != ']') {
			hi = p[1];
			p += 2;
		}
		if ((unsigned char)c >= (unsigned char)lo && (unsigned char)c <= (unsigned char)hi)
			hit = true;
	}
	if (*p != ']')
		return -1;
	*pp = p + 1;
	return hit != neg;
}

bool sb_diff_glob(const char *p, const char *s)
{
	/* the last '*' seen and where its run started: backtrack there on a mismatch (linear
	 * in the pattern times the string, never exponential) */
	const char *star = NULL, *resume = NULL;

	while (*s) {
		const char *q = p + 1;
		int m = *p == '[' ? match_set(&q, *s) : -1;

		if (*p == '*') {
			star = ++p;
			resume = s;
			continue;
		}
		if (*p == '?' || m > 0) {
			p = *p == '?' ? p + 1 : q;
			s++;
			continue;
		}
		if (m < 0) {
			q = *p == '\\' && p[1] ? p + 1 : p;
			if (*q && *q == *s) {
				p = q + 1;
				s++;
				continue;
			}
		}
		if (!star)
			return false;
		p = star;
		s = ++resume;
	}
	while (*p == '*')
		p++;
	return !*p;
}
