// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's text attributes as numbers and booleans (what sb_attr_u64 and friends parse,
 * and what the command line and snapshots give as text). */
#include <ctype.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/sys.h"

char *sb_rtrim(char *s)
{
	size_t n = strlen(s);
	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
		s[--n] = '\0';
	return s;
}

int sb_parse_u64(const char *s, int base, uint64_t *v)
{
	char *end;
	unsigned long long x;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-' || *s == '+' || !*s)
		return -EINVAL;
	if (base == 0)
		base = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? 16 : 10;
	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	/* strtoull would skip blanks and take a sign here ("0x-5" is 2^64-5 to it): the
	 * digits must start right after the prefix (strtoull checks they fit the base). */
	if (!isalnum((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, base);
	if (errno == ERANGE)
		return -ERANGE;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*v = x;
	return 0;
}

int sb_parse_s64(const char *s, int base, int64_t *v)
{
	uint64_t u;
	int neg = 0, rc;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-') {
		neg = 1;
		s++;
	} else if (*s == '+') {
		s++;
	}
	rc = sb_parse_u64(s, base, &u);
	if (rc)
		return rc;
	if ((!neg && u > INT64_MAX) || (neg && u > (uint64_t)INT64_MAX + 1))
		return -ERANGE;
	*v = neg ? (int64_t)(0 - u) : (int64_t)u;
	return 0;
}

int sb_parse_bool(const char *s, bool *v)
{
	/* one table, so a word cannot lose its value (two lists walked by one index could) */
	static const struct {
		const char *word;
		bool value;
	} words[] = {
		{ "1", true },	    { "Y", true },    { "y", true },	     { "yes", true },
		{ "true", true },   { "on", true },   { "enabled", true },   { "enable", true },
		{ "0", false },	    { "N", false },   { "n", false },	     { "no", false },
		{ "false", false }, { "off", false }, { "disabled", false }, { "disable", false },
	};

	for (size_t i = 0; i < ARRAY_SIZE(words); i++) {
		if (!strcmp(s, words[i].word)) {
			*v = words[i].value;
			return 0;
		}
	}
	return -EINVAL;
}
