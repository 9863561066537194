/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The output layer. A view collects typed tables and top-level fields, then prints them in
 * one of the modes every applet shares:
 *   table (default), -r raw, -P KEY="value" pairs, -J one JSON object per
 *   print, --format openmetrics (OpenMetrics 1.0) and --format prometheus (the Prometheus
 *   text format that node_exporter's textfile collector reads); lib/framework/out_openmetrics.c
 *   says how columns become metric families.
 * JSON: one object per sb_out_print(); each table is an array under its plural key; numbers
 * are numbers, unset cells are null. Calling sb_out_print() repeatedly gives JSON Lines
 * (one object per interval for live views). */
#ifndef SOCBOX_OUT_H
#define SOCBOX_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "socbox/error.h"

enum sb_out_mode {
	SB_OUT_TABLE,
	SB_OUT_RAW,
	SB_OUT_PAIRS,
	SB_OUT_JSON,
	SB_OUT_OPENMETRICS,
	SB_OUT_PROMETHEUS,
	SB_OUT_KTAP /* --format ktap: the view's tests (sb_out_test()) as KTAP, nothing else */
};

enum sb_col_type {
	SB_T_STR,  /* string */
	SB_T_U64,  /* unsigned integer */
	SB_T_S64,  /* signed integer */
	SB_T_DBL,  /* floating point, printed with the column's precision */
	SB_T_BOOL, /* true/false; "yes"/"no" in text modes */
	SB_T_STRV, /* list of strings; JSON array, joined with "," in text modes */
	SB_T_U64V, /* list of ids or counts; JSON array of numbers, joined with "," in text */
	SB_T_OBJ,  /* named values of their own types (doctor's facts); JSON object, "key=value"
		    * joined with "," in text */
	SB_T_OBJV, /* list of records of numbers ({"cpu": 0, "count": 3}); JSON array of objects,
		    * in text each record's "key=value" joined with " ", the records with "," */
};

enum sb_col_flags {
	SB_COL_RIGHT = 1 << 0,	 /* right-aligned in tables */
	SB_COL_TRUNC = 1 << 1,	 /* may be cut to fit the terminal: never an identifier, whose
				  * whole value a person pastes into the next command */
	SB_COL_WRAP = 1 << 2,	 /* free text: wraps at word boundaries within the width */
	SB_COL_HIDDEN = 1 << 3,	 /* not in the default column set; -o COL or -o +COL shows it */
	SB_COL_LABEL = 1 << 4,	 /* openmetrics: becomes a label of every metric of the row */
	SB_COL_METRIC = 1 << 5,	 /* openmetrics: numeric column exported as a gauge; a text column
				 * as a gauge of 1 with the text as a label (a state set with
				 * sb_table_states()) */
	SB_COL_COUNTER = 1 << 6, /* openmetrics: numeric column exported as a counter */
	SB_COL_JSON = 1 << 7,	 /* JSON: in the default set even when SB_COL_HIDDEN (a value too
				 * long or nested for a table row) */
	SB_COL_BYTES = 1 << 8,	 /* a number of bytes: text modes print it as lsblk does (512B,
				  * 7.9M, 64M), exact with opts.bytes (-b); JSON and metrics keep
				  * the number */
	SB_COL_PERCENT = 1 << 9, /* SB_T_DBL ratio (1 is all): "99.0%" in text modes; JSON and
				  * metrics keep the ratio */
	SB_COL_PER_S = 1 << 10,	 /* a rate: text modes add "/s" ("12M/s" with SB_COL_BYTES) */
	SB_COL_WHOLE = 1 << 11,	 /* SB_T_STRV of things to paste (commands): in an aligned table
				  * each on a line of its own under its row ("  NAME: value"),
				  * never wrapped or cut; other modes as any list */
};

struct sb_col {
	const char *name; /* UPPER_CASE for -o and headings; lower-cased for JSON keys */
	enum sb_col_type type;
	double whint;	  /* libsmartcols width hint: < 1 is a fraction of the terminal */
	unsigned flags;	  /* enum sb_col_flags */
	const char *help; /* one line for --list-columns and --help */
	int precision;	  /* SB_T_DBL digits after the point; 0 means 2 */
};

struct sb_out_opts {
	enum sb_out_mode mode;
	bool noheadings;
	bool list_columns;	/* -H: print the primary table's columns and stop */
	const char *columns;	/* -o: "A,B" replaces the default set, "+A,B" extends it */
	bool pretty;		/* JSON indented (default on a TTY... always on: easier to read) */
	const char *metrics_ns; /* metric families are named socbox_<metrics_ns>_...: the applet */
	bool bytes;		/* -b/--bytes: SB_COL_BYTES values exact, not K/M/G */
	bool quiet;		/* -q: notes that are not problems are not printed (table mode) */
};

struct sb_out;
struct sb_table;
struct sb_row;

/* Never NULL: the output layer aborts when memory runs out, so no caller checks. */
struct sb_out *sb_out_new(const struct sb_out_opts *opts, FILE *fp);
void sb_out_free(struct sb_out *o);
enum sb_out_mode sb_out_mode(const struct sb_out *o);
bool sb_out_is_json(const struct sb_out *o);
/* --format openmetrics or prometheus */
bool sb_out_mode_is_metrics(enum sb_out_mode m);

/* Check an -o list against a column table before any work is done: unknown names give
 * -EINVAL with the name in e (usage error, exit 2). */
int sb_out_check_columns(const char *columns, const struct sb_col *cols, size_t ncols,
			 struct sb_err *e);
/* -H: print NAME, TYPE and help of each column (in the selected output mode). */
int sb_out_list_columns(const struct sb_out_opts *opts, FILE *fp, const struct sb_col *cols,
			size_t ncols);

/* A table of the view. key: plural snake_case JSON key ("instances"); title: heading shown
 * above the table in table mode when a view has several tables (NULL: none). Only a primary
 * table honours -o; the others always show their default columns. */
struct sb_table *sb_out_table(struct sb_out *o, const char *key, const char *title,
			      const struct sb_col *cols, size_t ncols, bool primary);
struct sb_row *sb_table_row(struct sb_table *t);
/* Whether the view prints column col (the -o set or the default one; metrics: every column),
 * so a cell nobody will see need not be built. */
bool sb_table_shows(const struct sb_table *t, int col);
size_t sb_table_rows(const struct sb_table *t);
/* Every value a SB_COL_METRIC text column can take (NULL-terminated, static storage): the
 * metric becomes a state set, one sample per value, 1 for the row's value and 0 for the
 * others, so a series does not vanish when the state changes. At most 4 columns a table. */
void sb_table_states(struct sb_table *t, int col, const char *const *values);
/* Cells; col is the index into the column table. Unset cells print "-" / JSON null. A setter
 * that does not match the column's type (sb_row_str on a SB_T_U64 column), or an index past
 * the table, names the table and column on stderr and aborts (the cli tests find it). sb_row_str and sb_row_fmt: SB_T_STR; u64: SB_T_U64; s64: SB_T_S64; dbl: SB_T_DBL;
 * bool: SB_T_BOOL; strv_add: SB_T_STRV; u64v_add: SB_T_U64V; obj*: SB_T_OBJ; objv: SB_T_OBJV.
 * In text modes a list is joined with ","; an item that holds a ',' or '"' is quoted. */
void sb_row_str(struct sb_row *r, int col, const char *s);
void sb_row_fmt(struct sb_row *r, int col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sb_row_u64(struct sb_row *r, int col, uint64_t v);
void sb_row_s64(struct sb_row *r, int col, int64_t v);
void sb_row_dbl(struct sb_row *r, int col, double v);
void sb_row_bool(struct sb_row *r, int col, bool v);
void sb_row_strv_add(struct sb_row *r, int col, const char *s);
void sb_row_u64v_add(struct sb_row *r, int col, uint64_t v);
/* SB_T_OBJ: sb_row_obj() makes the cell an object (JSON {} while it has no member); the
 * others add a member (and make it an object too). */
void sb_row_obj(struct sb_row *r, int col);
void sb_row_obj_str(struct sb_row *r, int col, const char *key, const char *v);
void sb_row_obj_s64(struct sb_row *r, int col, const char *key, int64_t v);
void sb_row_obj_bool(struct sb_row *r, int col, const char *key, bool v);
/* A list member (JSON array of strings), built an item at a time under key; item NULL
 * makes it (empty: []) without an item. */
void sb_row_obj_strv_add(struct sb_row *r, int col, const char *key, const char *item);
/* SB_T_OBJV: append a record of n numbers named keys[i] (the same keys for every record of
 * a column: they are its schema). A cell with no record is JSON [] and empty text. */
void sb_row_objv_add_u64(struct sb_row *r, int col, size_t n, const char *const keys[],
			 const uint64_t v[]);

/* A list as text modes print it (malloc'ed): joined with ","; an item holding ',' or '"'
 * is quoted ("linux,cma" is one heap name, not two) with its '"' doubled, so no list reads
 * two ways. */
char *sb_out_join_list(char *const *v, size_t n);

/* Top-level fields (JSON members beside the tables; "Key: value" lines in table mode,
 * before the tables). Names are snake_case; units belong in the name ("size_bytes"). */
void sb_out_field_str(struct sb_out *o, const char *key, const char *val);
void sb_out_field_u64(struct sb_out *o, const char *key, uint64_t val);
void sb_out_field_s64(struct sb_out *o, const char *key, int64_t val);
void sb_out_field_dbl(struct sb_out *o, const char *key, double val);
void sb_out_field_bool(struct sb_out *o, const char *key, bool val);
/* A number of bytes (SB_COL_BYTES formatting in text modes) and a ratio (SB_COL_PERCENT). */
void sb_out_field_bytes(struct sb_out *o, const char *key, uint64_t val);
void sb_out_field_ratio(struct sb_out *o, const char *key, double val);
/* A list (JSON array of strings) and counts by name (JSON object of numbers), built an item
 * at a time under one key; text modes print them as list cells do. */
void sb_out_field_strv_add(struct sb_out *o, const char *key, const char *item);
void sb_out_field_count(struct sb_out *o, const char *key, const char *name, uint64_t n);

/* A test the view ran, for --format ktap (the kernel's test result format, which
 * kselftest, KernelCI and LAVA read); the other modes leave tests out, their tables say the
 * same. suite groups tests into a nested KTAP test (NULL: top level); name is stable across
 * runs and boards and unique within its suite ('#' and spaces become '_'). diag: a reason,
 * printed as "# " lines before the result (a skip's reason after "# SKIP"); NULL for none. */
enum sb_test_result { SB_TEST_PASS, SB_TEST_FAIL, SB_TEST_SKIP };
void sb_out_test(struct sb_out *o, const char *suite, const char *name, enum sb_test_result r,
		 const char *diag_fmt, ...) __attribute__((format(printf, 5, 6)));

/* A note for humans (a hint or an explanation); JSON: the "notes" array. A note already
 * given in this view is not repeated. Table mode wraps notes to the width. */
void sb_out_note(struct sb_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A note that reports a problem (something failed or is missing): printed even with
 * opts.quiet, prefixed "problem: "; JSON: in "notes" like the others and in "problems". */
void sb_out_problem(struct sb_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The table (or a problem note) printed to o reaches the person who reads stderr: both are
 * terminals and the mode is the text table. A finding the output shows then needs no
 * stderr line as well (say it once); to a pipe or a file a script gets the line. */
bool sb_out_seen_with_stderr(const struct sb_out *o);
/* The width a person reads fp at: $COLUMNS, else the terminal's; 0 when fp is no terminal
 * (a pipe or file keeps every line whole, however long). */
size_t sb_out_term_width(FILE *fp);

/* A number of bytes as lsblk prints it, for text that is not a cell (a summary): "512B",
 * "7.9M", "64M" (len of 16 or more). */
void sb_out_human_bytes(char *buf, size_t len, double bytes);

/* Print everything collected since the last print and start a new, empty view. */
int sb_out_print(struct sb_out *o);

#endif
