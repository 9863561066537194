/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A small streaming JSON writer. Strings are escaped so the output is always valid JSON:
 * control characters become \u00XX and bytes that are not valid UTF-8 become U+FFFD. */
#ifndef SOCBOX_JSON_H
#define SOCBOX_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define SB_JSON_MAX_DEPTH 32

struct sb_json {
	FILE *fp;
	bool pretty;
	int depth;
	bool need_comma[SB_JSON_MAX_DEPTH];
};

void sb_json_init(struct sb_json *j, FILE *fp, bool pretty);
/* key is the member name inside an object and must be NULL inside an array. */
void sb_json_obj_begin(struct sb_json *j, const char *key);
void sb_json_obj_end(struct sb_json *j);
void sb_json_arr_begin(struct sb_json *j, const char *key);
void sb_json_arr_end(struct sb_json *j);
void sb_json_str(struct sb_json *j, const char *key, const char *val); /* NULL -> null */
void sb_json_u64(struct sb_json *j, const char *key, uint64_t val);
void sb_json_s64(struct sb_json *j, const char *key, int64_t val);
void sb_json_dbl(struct sb_json *j, const char *key, double val); /* NaN/inf -> null */
void sb_json_bool(struct sb_json *j, const char *key, bool val);
void sb_json_null(struct sb_json *j, const char *key);
/* Write just the escaped string with quotes (used by other writers). */
void sb_json_write_string(FILE *fp, const char *s);

#endif
