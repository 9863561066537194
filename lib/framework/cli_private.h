/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the command framework (lib/framework/cli*.c). */
#ifndef SOCBOX_CLI_PRIVATE_H
#define SOCBOX_CLI_PRIVATE_H

/* "APPLET (socbox) VERSION" on stdout: --version of every applet and command */
void sb_cli_version(const char *applet);
#endif
