// SPDX-License-Identifier: GPL-2.0-or-later
/* XXH3 (dmabufcp --verify) compiled here from libxxhash-dev's header rather than linked
 * from libxxhash: nothing to load at run time, and with --gc-sections the static build
 * keeps only the XXH3-64 functions socbox calls (the library object carries every
 * variant, 28 KiB on aarch64). */
#define XXH_IMPLEMENTATION
#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>
