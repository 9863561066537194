/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel command line (/proc/cmdline), read the way the kernel parses it: words
 * separated by spaces, values may be double-quoted ("key=\"a b\""), and when a parameter
 * is given more than once the last one wins (each occurrence calls its handler in turn).
 * The one parser for everything socbox reads from the command line. */
#ifndef SOCBOX_CMDLINE_H
#define SOCBOX_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/sys.h"

/* /proc/cmdline of the root into a malloc'ed string; "" (not NULL) when unreadable. */
char *sb_cmdline_read(const struct sb_root *r);
/* Value of the last "key=value" (or "" for a bare "key") into val; false when absent. */
bool sb_cmdline_param(const char *cmdline, const char *key, char *val, size_t len);
/* Whether a comma-separated option list ("on,strict,sm_on") holds word. */
bool sb_cmdline_has_option(const char *list, const char *word);

#endif
