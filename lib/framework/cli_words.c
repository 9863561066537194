// SPDX-License-Identifier: GPL-2.0-or-later
/* The words a command's options take, for the bash completions (cli_private.h,
 * SB_CLI_COMPLETE_WORDS): read from the option table the command parses with, so a
 * completion offers what the command accepts and no list of its own. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "cli_private.h"

/* A duration's examples: a bare number is seconds in every applet, the units are offered. */
static const char *const duration_words[] = { "250ms", "1s", "5s", "30s", "1m", NULL };

static const struct poptOption *find(const struct poptOption *t, const char *opt)
{
	for (; t->longName || t->shortName || t->argInfo || t->arg; t++) {
		const struct poptOption *in;

		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			if ((in = find(t->arg, opt)))
				return in;
			continue;
		}
		if ((t->longName && opt[0] == '-' && opt[1] == '-' &&
		     !strcmp(opt + 2, t->longName)) ||
		    (t->shortName && opt[0] == '-' && opt[1] == t->shortName && !opt[2]))
			return t;
	}
	return NULL;
}

static void all(const struct poptOption *t)
{
	for (; t->longName || t->shortName || t->argInfo || t->arg; t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			all(t->arg);
		else if (t->longName && !(t->argInfo & POPT_ARGFLAG_DOC_HIDDEN))
			printf("--%s\n", t->longName);
	}
}

int sb_cli_complete_words(const struct sb_ctx *c, const struct poptOption *table, const char *opt)
{
	const struct poptOption *o;

	if (!opt[0]) {
		all(table);
		return SB_CLI_DONE;
	}
	if (!(o = find(table, opt)))
		return SB_CLI_DONE;
	if ((o->argInfo & POPT_ARG_MASK) == SB_POPT_ARG_VALUE) {
		const struct sb_cli_value *v = o->arg;

		for (size_t i = 0; v->kind == SB_CLI_ENUM && v->names && v->names[i]; i++)
			printf("%s\n", v->names[i]);
	} else if (o->arg == (void *)&sb_opt.format) { /* the output layer's --format */
		for (size_t i = 0; i < SB_CLI_NFORMATS; i++)
			if (sb_cli_formats[i].mode != SB_OUT_KTAP || c->tests)
				printf("%s\n", sb_cli_formats[i].name);
	} else if (o->argDescrip && !strcmp(o->argDescrip, SB_CLI_DURATION)) {
		for (size_t i = 0; duration_words[i]; i++)
			printf("%s\n", duration_words[i]);
	}
	return SB_CLI_DONE;
}
