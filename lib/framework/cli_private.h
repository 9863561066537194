/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the command framework (lib/framework/cli*.c). */
#ifndef SOCBOX_CLI_PRIVATE_H
#define SOCBOX_CLI_PRIVATE_H

#include "socbox/cli.h"

/* "APPLET (socbox) VERSION" on stdout: --version of every applet and command */
void sb_cli_version(const char *applet);

/* The output formats --format takes, in the order --help and the completions give them;
 * ktap only where the command runs checks. */
struct sb_cli_format {
	const char *name;
	enum sb_out_mode mode;
};
#define SB_CLI_NFORMATS 7
extern const struct sb_cli_format sb_cli_formats[SB_CLI_NFORMATS];

/* "APPLET CMD --complete-words OPTION" (hidden, for the bash completions): the words that
 * option takes, a line each (an enum's names, --format's formats, a duration's examples),
 * nothing for a free value; with OPTION "", every option of the command. SB_CLI_DONE. */
#define SB_CLI_COMPLETE_WORDS "--complete-words"
int sb_cli_complete_words(const struct sb_ctx *c, const struct poptOption *table, const char *opt);
#endif
