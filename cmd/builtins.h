/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What cmd/main.c dispatches to: the applets and socbox's own commands of applets.def. */
#ifndef SOCBOX_CMD_BUILTINS_H
#define SOCBOX_CMD_BUILTINS_H

#include "socbox/cli.h"

#define SB_COMMAND(name, flags, summary) \
	int name##_run(struct sb_ctx *c, int argc, const char **argv);
#define SB_APPLET(name, summary) \
	int name##_main(int argc, const char **argv); \
	extern const struct sb_cmd name##_cmds[];
#include "applets.def"
#undef SB_APPLET
#undef SB_COMMAND

/* socbox's own commands' descriptors and the applets, from applets.def (NULL-terminated) */
extern const struct sb_cmd socbox_cmds[];
extern const struct sb_applet socbox_applets[];

/* The applet's one-line summary, from applets.def (its only source). */
const char *applet_summary(const char *name);
#endif
