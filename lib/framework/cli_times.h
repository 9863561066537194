/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the command framework (lib/framework/cli.c): durations with units and the
 * options with a real type (struct sb_cli_value), both taken in popt's own loop. */
#ifndef SOCBOX_CLI_TIMES_H
#define SOCBOX_CLI_TIMES_H

#include "socbox/cli.h"

/* The val popt returns for the n-th duration option of a parse (above the framework's own) */
#define SB_CLI_TIME_VAL 0x7100

struct sb_cli_time {
	struct poptOption *opt; /* the entry, lent to popt as a string option */
	unsigned argInfo;	/* ... and what it was */
	void *arg;
	int val;
	char *text;		    /* the value as given, popt's copy */
	struct sb_cli_value *value; /* a typed option's (NULL: a duration) */
	const char *descrip;	    /* its help as written, and ... */
	char *help;		    /* ... with its default, lent to popt for --help */
};

struct sb_cli_times {
	struct sb_cli_time opts[48];
	size_t n;
};

/* Lend every typed option (SB_POPT_ARG_VALUE: its value set to its default, its help given
 * the default) and every duration option of table (its argument named DURATION; an int kept in
 * milliseconds or a double in seconds) to popt as a string option whose value comes back to
 * the loop: "-t 2s", "--timeout=500ms", "-vi 250ms" (popt's own clusters), a bare number
 * in seconds whatever the option keeps. */
void sb_cli_times_begin(struct sb_cli_times *t, struct poptOption *table);
/* poptGetNextOpt() returned val: a duration's is converted and stored where the option
 * stores it, and its own val returned; any other val is returned as is. A value that is no
 * duration: printed as a usage error, -SB_EXIT_USAGE returned. */
int sb_cli_times_take(const struct sb_ctx *c, struct sb_cli_times *t, int val);
/* Give the entries back as they were (after --help, which shows them lent). */
void sb_cli_times_end(struct sb_cli_times *t);

/* Convert text into v: 0, -EINVAL (not of the kind's form), -ERANGE (outside the bounds). */
int sb_cli_value_set(struct sb_cli_value *v, const char *text);
/* The usage error for text refused by sb_cli_value_set() with rc, naming opt ("--runs"),
 * the value and the bounds or the words; SB_EXIT_USAGE. */
int sb_cli_value_usage(const struct sb_ctx *c, const char *opt, const struct sb_cli_value *v,
		       const char *text, int rc);
/* descrip with v's words (ENUM) and default, malloc'ed; NULL when out of memory. */
char *sb_cli_value_help(const char *descrip, const struct sb_cli_value *v);

#endif
