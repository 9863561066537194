// SPDX-License-Identifier: GPL-2.0-or-later
/* Options with a real type (socbox/cli.h, struct sb_cli_value): whole numbers and sizes
 * within bounds and words of a fixed list, converted in popt's own loop by cli_times.c as
 * durations are; their default and bounds are written once, in the value, and --help shows
 * the default from there. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cli.h"
#include "socbox/suggest.h"
#include "cli_times.h"

/* "123" or "0x7b": decimal unless 0x, never octal, no sign, no suffix */
static int parse_number(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');

	if (*s < '0' || *s > '9' || (hex && !s[2]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, hex ? 16 : 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
}

int sb_cli_value_set(struct sb_cli_value *v, const char *text)
{
	uint64_t n;
	int rc;

	if (!text)
		return -EINVAL;
	if (v->kind == SB_CLI_ENUM) {
		for (size_t i = 0; v->names && v->names[i]; i++)
			if (!strcmp(v->names[i], text)) {
				v->value = i;
				return 0;
			}
		return -EINVAL;
	}
	rc = v->kind == SB_CLI_SIZE ? sb_parse_size(text, &n) : parse_number(text, &n);
	if (rc == -ERANGE)
		return rc;
	if (rc)
		return -EINVAL;
	if (n < v->min || n > v->max)
		return -ERANGE;
	v->value = n;
	return 0;
}

/* a bound as the option takes it: sizes in the largest unit that keeps them whole */
static void bound(char *buf, size_t len, const struct sb_cli_value *v, uint64_t n)
{
	static const char units[] = "KMGT";
	unsigned u = 0;

	while (v->kind == SB_CLI_SIZE && n && !(n & 1023) && u < sizeof(units) - 1) {
		n >>= 10;
		u++;
	}
	snprintf(buf, len, "%llu%.*s", (unsigned long long)n, u ? 1 : 0, u ? &units[u - 1] : "");
}

/* "a, b or c" */
static void join(char *buf, size_t len, const char *const *names)
{
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; names && names[i] && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s",
				       !i	      ? ""
				       : names[i + 1] ? ", "
						      : " or ",
				       names[i]);
}

int sb_cli_value_usage(const struct sb_ctx *c, const char *opt, const struct sb_cli_value *v,
		       const char *text, int rc)
{
	char lo[32], hi[32], list[512];
	const char *best;

	if (v->kind == SB_CLI_ENUM) {
		join(list, sizeof(list), v->names);
		best = sb_suggest_among(text, v->names);
		if (best)
			return sb_usage_error(c, "%s: '%s' is not one of %s; did you mean '%s'?",
					      opt, text, list, best);
		return sb_usage_error(c, "%s: '%s' is not one of %s", opt, text, list);
	}
	bound(lo, sizeof(lo), v, v->min);
	bound(hi, sizeof(hi), v, v->max);
	if (rc != -ERANGE && v->kind == SB_CLI_SIZE)
		return sb_usage_error(c, "%s: '%s' is not a size (4096, 64K, 8M, 1G)", opt, text);
	if (v->max == SB_CLI_NO_MAX)
		return sb_usage_error(c, "%s: '%s' is %s (at least %s)", opt, text,
				      rc == -ERANGE ? "out of range" : "not a whole number", lo);
	return sb_usage_error(c, "%s: '%s' is %s (%s to %s)", opt, text,
			      rc == -ERANGE ? "out of range" : "not a whole number", lo, hi);
}

char *sb_cli_value_help(const char *descrip, const struct sb_cli_value *v)
{
	char list[512], *help;
	const char *d = descrip ? descrip : "";

	list[0] = '\0';
	if (v->kind == SB_CLI_ENUM)
		join(list, sizeof(list), v->names);
	if (asprintf(&help, "%s%s%s%s%s%s", d, *d && *list ? ": " : "", list,
		     v->def ? " (default " : "", v->def ? v->def : "", v->def ? ")" : "") < 0)
		return NULL;
	return help;
}
