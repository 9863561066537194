// SPDX-License-Identifier: GPL-2.0-or-later
/* Durations on the command line: "250ms", "2s", "1m" for every option whose argument is
 * named DURATION, taken as strings in popt's own loop and turned into the option's number
 * there (argv is never rewritten, so "-vi 2s" is one as "-i 2s" is). A bare number is
 * seconds in every applet, as timeout(1) and ping -W take it; the option's C type says how
 * it is kept: an int holds whole milliseconds, a double seconds. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
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

/* A duration: its argument is named DURATION in --help. */
static bool is_time(const struct poptOption *o)
{
	unsigned type = o->argInfo & POPT_ARG_MASK;

	return o->argDescrip && (type == POPT_ARG_INT || type == POPT_ARG_DOUBLE) &&
	       !strcmp(o->argDescrip, SB_CLI_DURATION);
}

static void swap(struct sb_cli_times *t, struct poptOption *table)
{
	for (struct poptOption *o = table;
	     o && (o->longName || o->shortName || o->argInfo || o->arg); o++) {
		struct sb_cli_time *k;
		bool typed;

		if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			swap(t, o->arg);
			continue;
		}
		typed = (o->argInfo & POPT_ARG_MASK) == SB_POPT_ARG_VALUE;
		if ((!typed && !is_time(o)) || t->n == ARRAY_SIZE(t->opts))
			continue;
		k = &t->opts[t->n];
		*k = (struct sb_cli_time){
			.opt = o, .argInfo = o->argInfo, .arg = o->arg, .val = o->val
		};
		if (typed) {
			/* the default, before the command line */
			k->value = o->arg;
			k->value->value = 0;
			k->value->given = false;
			if (k->value->def)
				sb_cli_value_set(k->value, k->value->def);
			k->descrip = o->descrip;
			k->help = sb_cli_value_help(o->descrip, k->value);
			if (k->help)
				o->descrip = k->help;
		}
		o->argInfo = (o->argInfo & ~(unsigned)POPT_ARG_MASK) | POPT_ARG_STRING;
		o->arg = &k->text;
		o->val = SB_CLI_TIME_VAL + (int)t->n++;
	}
}

void sb_cli_times_begin(struct sb_cli_times *t, struct poptOption *table)
{
	t->n = 0;
	swap(t, table);
}

int sb_cli_times_take(const struct sb_ctx *c, struct sb_cli_times *t, int val)
{
	struct sb_cli_time *k;
	bool ms;
	double sec;

	if (val < SB_CLI_TIME_VAL || val >= SB_CLI_TIME_VAL + (int)t->n)
		return val;
	k = &t->opts[val - SB_CLI_TIME_VAL];
	if (k->value) {
		char opt[64];
		int rc = sb_cli_value_set(k->value, k->text);

		if (!rc) {
			k->value->given = true;
			return k->val;
		}
		if (k->opt->longName)
			snprintf(opt, sizeof(opt), "--%s", k->opt->longName);
		else
			snprintf(opt, sizeof(opt), "-%c", k->opt->shortName);
		return -sb_cli_value_usage(c, opt, k->value, k->text ? k->text : "", rc);
	}
	ms = (k->argInfo & POPT_ARG_MASK) == POPT_ARG_INT; /* kept in milliseconds */
	/* a plain number (any sign, nan, inf) is seconds, judged by the command as popt would
	 * have handed it over ("-i -1": "must be above 0") */
	if (k->text) {
		char *end;
		double raw = strtod(k->text, &end);

		if (end != k->text && !*end) {
			if (!ms) {
				*(double *)k->arg = raw;
				return k->val;
			}
			raw = raw < 0 ? floor(raw * 1e3) : ceil(raw * 1e3);
			if (raw >= INT_MIN && raw <= INT_MAX) {
				*(int *)k->arg = (int)raw;
				return k->val;
			}
		}
	}
	if (!k->text || sb_parse_duration(k->text, 1, &sec))
		return -sb_usage_error(
			c,
			"--%s: '%s' is not a duration (250ms, 2s, 1m; a bare number counts seconds)",
			k->opt->longName, k->text ? k->text : "");
	if (ms) {
		/* whole milliseconds, never less than asked */
		double v = ceil(sec * 1e3);

		if (v > INT_MAX)
			return -sb_usage_error(c, "--%s: '%s' is too long", k->opt->longName,
					       k->text);
		*(int *)k->arg = (int)v;
	} else {
		*(double *)k->arg = sec;
	}
	return k->val;
}

void sb_cli_times_end(struct sb_cli_times *t)
{
	for (size_t i = 0; i < t->n; i++) {
		struct sb_cli_time *k = &t->opts[i];

		k->opt->argInfo = k->argInfo;
		k->opt->arg = k->arg;
		k->opt->val = k->val;
		if (k->value)
			k->opt->descrip = k->descrip;
		free(k->help);
		k->help = NULL;
		free(k->text);
		k->text = NULL;
	}
	t->n = 0;
}
