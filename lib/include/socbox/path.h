/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Paths as text: a symlink's text resolved against the directory that holds it, without
 * asking the file system (the result is then read through the root, socbox/sys.h). */
#ifndef SOCBOX_PATH_H
#define SOCBOX_PATH_H

#include <stddef.h>

/* dir + "/" + rel (rel alone when it is absolute), "." and ".." collapsed lexically, into
 * out: an absolute path without "//", "." or ".." ("/" at the least; ".." never climbs
 * above "/"). out must not overlap dir or rel. 0, or -ENAMETOOLONG (out "") when it does
 * not fit in len bytes. */
int sb_path_join(char *restrict out, size_t len, const char *restrict dir, const char *restrict rel);

#endif
