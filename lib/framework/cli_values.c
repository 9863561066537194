// SPDX-License-Identifier: GPL-2.0-or-later
/* Option values every applet shares: sizes with binary units ("64M") and lists of numbers
 * ("0-3,7"), as socbox/cli.h declares them. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cli.h"
#include "socbox/macro.h"

int sb_parse_size(const char *s, uint64_t *out)
{
	static const struct {
		const char *suffix;
		unsigned shift;
	} units[] = {
		{ "", 0 },     { "B", 0 },  { "K", 10 },   { "KiB", 10 },
		{ "k", 10 },   { "M", 20 }, { "MiB", 20 }, { "G", 30 },
		{ "GiB", 30 }, { "T", 40 }, { "TiB", 40 },
	};
	unsigned long long v;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	/* Decimal unless 0x, as sb_parse_u64 reads numbers: base 0 would take "010" as 8. */
	errno = 0;
	v = strtoull(s, &end, s[0] == '0' && (s[1] == 'x' || s[1] == 'X') ? 16 : 10);
	if (errno)
		return -EINVAL;
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		if (units[i].shift && v > (UINT64_MAX >> units[i].shift))
			return -ERANGE;
		*out = (uint64_t)v << units[i].shift;
		return 0;
	}
	return -EINVAL;
}

int sb_parse_list(const char *s, unsigned max, unsigned **out, unsigned *n)
{
	unsigned *v = NULL;
	unsigned cnt = 0;

	*out = NULL;
	*n = 0;
	if (!s || !*s)
		return -EINVAL;
	while (*s) {
		unsigned long a, b;
		char *end;

		if (*s < '0' || *s > '9')
			goto bad;
		a = strtoul(s, &end, 10);
		b = a;
		if (*end == '-') {
			s = end + 1;
			if (*s < '0' || *s > '9')
				goto bad;
			b = strtoul(s, &end, 10);
		}
		if (b < a || b > max)
			goto bad;
		for (unsigned long x = a; x <= b; x++) {
			bool dup = false;
			for (unsigned k = 0; k < cnt; k++)
				dup |= v[k] == x;
			if (dup)
				continue;
			unsigned *nv = realloc(v, (cnt + 1) * sizeof(*v));
			if (!nv) {
				free(v);
				return -ENOMEM;
			}
			v = nv;
			v[cnt++] = (unsigned)x;
		}
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	*out = v;
	*n = cnt;
	return 0;
bad:
	free(v);
	return -EINVAL;
}
