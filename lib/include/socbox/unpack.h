/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A snapshot tarball ('socbox snapshot OUT.tar') unpacked to be read as a sysroot: by
 * socbox diff for its operands and by --sysroot in every command. */
#ifndef SOCBOX_UNPACK_H
#define SOCBOX_UNPACK_H

#include <stddef.h>

#include "socbox/error.h"

/* Unpack tarball with tar(1), the tool that packed it, into a new private directory
 * (mkdtemp: mode 0700, a name nobody else holds) below $TMPDIR or /tmp, named
 * PREFIX-XXXXXX. tar runs with stdin from /dev/null and refuses absolute names and '..';
 * what is then read below the directory goes through the sysroot resolver (openat2
 * RESOLVE_IN_ROOT, or its walk), as for any sysroot. dir (len bytes) gets the directory,
 * "" on failure (nothing is left behind then). Returns 0 or -errno with e set. */
int sb_unpack_tar(const char *tarball, const char *prefix, char *dir, size_t len, struct sb_err *e);
/* Remove the directory sb_unpack_tar() made and everything in it, following nothing (a
 * tree tar may have left read-only is made the owner's first); dir becomes "". */
void sb_unpack_remove(char *dir);

#endif
