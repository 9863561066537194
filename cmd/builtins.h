/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What cmd/main.c dispatches to: socbox's own commands and the applets of applets.def. */
#ifndef SOCBOX_CMD_BUILTINS_H
#define SOCBOX_CMD_BUILTINS_H
int doctor_main(int argc, const char **argv);
int snapshot_main(int argc, const char **argv);
int metrics_main(int argc, const char **argv);
int events_main(int argc, const char **argv);
int diff_main(int argc, const char **argv);

#define SB_APPLET(name, summary) int name##_main(int argc, const char **argv);
#include "applets.def"
#undef SB_APPLET

/* The applet's one-line summary, from applets.def (its only source). */
const char *applet_summary(const char *name);
#endif
