/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Text read from files goes to a terminal: a remoteproc name holding ESC ] 0 ; ... BEL
 * would retitle it, a newline would break a table row or an error line. Every text output
 * (tables, raw, pairs, fields, notes, error lines) passes through here, as util-linux does:
 * C0 and C1 control characters, DEL and bytes that are not valid UTF-8 are written as
 * \xHH. JSON output has its own escaping (socbox/json.h). */
#ifndef SOCBOX_ESCAPE_H
#define SOCBOX_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

enum sb_esc_flags {
	SB_ESC_KEEP_LINES = 1 << 0, /* multi-line text (a trace, a log): keep \n and \t */
	SB_ESC_SHELL = 1 << 1,	    /* inside "..." of KEY="value": also " $ ` and \ */
	SB_ESC_RAW = 1 << 2,	    /* a field of space-separated raw output: also space and \ */
};

/* Escape src into dst (len bytes, always NUL-terminated, cut at a whole character).
 * Returns dst. */
char *sb_escape(char *dst, size_t len, const char *src, unsigned flags);
/* Write s escaped. */
void sb_fputs_escaped(FILE *fp, const char *s, unsigned flags);
/* Write one error or diagnostic line: escaped, newlines included, and cut in the middle
 * when longer than SB_ERR_LINE_MAX (a 100 kB argument is not echoed whole), then "\n". */
void sb_put_error_line(FILE *fp, const char *line);
/* sb_put_error_line() on stderr of a printf format (without the "\n"). */
void sb_eprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
