/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the command framework (lib/framework/cli.c): durations with units. */
#ifndef SOCBOX_CLI_TIMES_H
#define SOCBOX_CLI_TIMES_H

#include "socbox/cli.h"

/* Durations with a unit ("-t 2s", "--timeout=500ms", "-i 250ms") become numbers in the
 * option's unit in a copy of argv before popt reads them; bare numbers stay what they
 * always were. *copy is the copy (free with sb_cli_free_times()), or NULL when nothing
 * changed. Returns 0 or a usage error (printed). */
int sb_cli_convert_times(const struct sb_ctx *c, const struct poptOption *table, int argc,
			 const char **argv, const char ***copy);
/* Free a copy made by sb_cli_convert_times() from argv. */
void sb_cli_free_times(const char **copy, int argc, const char **argv);

#endif
