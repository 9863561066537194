// SPDX-License-Identifier: GPL-2.0-or-later
/* Durations on the command line: "250ms", "2s", "1m" for every option whose argument is
 * named MS or SEC, turned into the number popt expects before it parses. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cli.h"
#include "socbox/macro.h"
#include "cli_times.h"

int sb_parse_duration(const char *s, double bare_unit_s, double *out_s)
{
	static const struct {
		const char *suffix;
		double seconds;
	} units[] = {
		{ "us", 1e-6 }, { "ms", 1e-3 }, { "s", 1 },
		{ "m", 60 },	{ "h", 3600 },	{ "d", 86400 },
	};
	char *end;
	double v;

	if (!s || *s < '0' || *s > '9') /* no sign, no "inf", no "nan" */
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || !isfinite(v) || end == s)
		return -EINVAL;
	if (!*end) {
		*out_s = v * bare_unit_s;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(units); i++) {
		if (strcmp(end, units[i].suffix))
			continue;
		*out_s = v * units[i].seconds;
		return 0;
	}
	return -EINVAL;
}

/* The value of a time option as popt reads it: a number in the option's own unit (its
 * argument is named MS or SEC in --help). *out NULL when s is a plain number (popt's to
 * judge); -EINVAL when it is neither that nor a duration. */
static int time_in_unit(const struct poptOption *o, const char *s, char **out)
{
	double sec;
	char *end;

	*out = NULL;
	strtod(s, &end);
	if (end != s && !*end)
		return 0;
	if (sb_parse_duration(s, 1, &sec))
		return -EINVAL;
	if (!strcmp(o->argDescrip, "MS")) /* whole milliseconds, never less than asked */
		return asprintf(out, "%.0f", ceil(sec * 1e3)) < 0 ? -ENOMEM : 0;
	return asprintf(out, "%.9g", sec) < 0 ? -ENOMEM : 0;
}

static const struct poptOption *time_option(const struct poptOption *t, const char *arg, size_t len)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *o = time_option(t->arg, arg, len);
			if (o)
				return o;
			continue;
		}
		if (!t->argDescrip || (strcmp(t->argDescrip, "MS") && strcmp(t->argDescrip, "SEC")))
			continue;
		if (arg[1] == '-' ? t->longName && strlen(t->longName) == len - 2 &&
					    !strncmp(arg + 2, t->longName, len - 2)
				  : t->shortName && arg[1] == t->shortName)
			return t;
	}
	return NULL;
}

void sb_cli_free_times(const char **copy, int argc, const char **argv)
{
	for (int i = 0; copy && i < argc; i++)
		if (copy[i] != argv[i])
			free((char *)copy[i]);
	free(copy);
}

int sb_cli_convert_times(const struct sb_ctx *c, const struct poptOption *table, int argc,
			 const char **argv, const char ***copyp)
{
	const char **copy = NULL;

	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i], *eq = strchr(a, '=');
		const struct poptOption *o;
		bool inline_value;
		char *v, *joined;

		if (a[0] != '-' || !a[1])
			continue;
		if (a[1] == '-') {
			o = time_option(table, a, eq ? (size_t)(eq - a) : strlen(a));
			inline_value = eq != NULL;
		} else {
			o = time_option(table, a, 2);
			inline_value = a[2] != '\0';
		}
		if (!o || (!inline_value && i + 1 >= argc))
			continue;
		const char *val = inline_value ? (a[1] == '-' ? eq + 1 : a + 2) : argv[i + 1];

		if (time_in_unit(o, val, &v)) {
			sb_cli_free_times(copy, argc, argv);
			return sb_usage_error(
				c,
				"--%s: '%s' is not a duration (250ms, 2s, 1m; a bare number counts %s)",
				o->longName, val,
				!strcmp(o->argDescrip, "MS") ? "milliseconds" : "seconds");
		}
		if (!v)
			continue;
		if (!copy) {
			copy = calloc((size_t)argc + 1, sizeof(*copy));
			if (!copy) {
				free(v);
				return sb_usage_error(c, "out of memory");
			}
			for (int k = 0; k < argc; k++)
				copy[k] = argv[k];
		}
		if (!inline_value) {
			copy[++i] = v;
			continue;
		}
		if (asprintf(&joined, "%.*s%s", (int)(a[1] == '-' ? eq + 1 - a : 2), a, v) < 0)
			joined = NULL;
		free(v);
		if (joined)
			copy[i] = joined;
	}
	*copyp = copy;
	return 0;
}
