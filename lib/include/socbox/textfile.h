/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Metrics of several views in one exposition, and the file node_exporter's textfile
 * collector reads: written whole or not at all (a temporary file in the same directory,
 * then rename), readable by the exporter's user. */
#ifndef SOCBOX_TEXTFILE_H
#define SOCBOX_TEXTFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/error.h"

/* An exposition being assembled from the outputs of several views. */
struct sb_expo {
	bool openmetrics; /* chunks end in "# EOF", the result too */
	char *text;	  /* malloc'ed, NUL-terminated */
	size_t len, cap;
	char **families; /* names seen (from HELP lines) */
	size_t nfamilies;
	size_t dropped; /* families left out because an earlier chunk had them */
};

void sb_expo_init(struct sb_expo *x, bool openmetrics);
void sb_expo_free(struct sb_expo *x);
/* Append one view's output: its "# EOF" goes, a family an earlier chunk already had is left
 * out (an exposition names each family once). -EINVAL when the chunk is cut short (an
 * OpenMetrics chunk without its "# EOF", text after it, or no final newline): nothing is
 * appended then. */
int sb_expo_add(struct sb_expo *x, const char *chunk, size_t len);
/* The whole exposition ("# EOF" added for OpenMetrics); owned by x. */
const char *sb_expo_finish(struct sb_expo *x, size_t *len);

/* Write dir/name atomically with mode 0644: .name.XXXXXX beside it, fsync, rename, fsync
 * of the directory. The temporary file is removed on every failure. */
int sb_textfile_write(const char *dir, const char *name, const char *data, size_t len,
		      struct sb_err *e);

#endif
