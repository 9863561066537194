/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to the output layer: the collected view (lib/framework/out.c) that the renderers
 * (lib/framework/out_render.c) print. */
#ifndef SOCBOX_OUT_MODEL_H
#define SOCBOX_OUT_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "socbox/out.h"

struct field;

struct cell {
	bool set;
	union {
		char *s;
		uint64_t u;
		int64_t i;
		double d;
		bool b;
	};
	char **v; /* SB_T_STRV, SB_T_U64V */
	size_t nv;
	struct field *m; /* SB_T_OBJ: the members; SB_T_OBJV: the records (SB_T_OBJ, key "") */
	size_t nm;
};

struct sb_row {
	struct cell *cells;
	const struct sb_table *table; /* whose column table types the cells */
};

struct sb_table {
	char *key;
	char *title;
	const struct sb_col *cols;
	size_t ncols;
	int *sel; /* selected column indexes, in output order */
	size_t nsel;
	bool all_cols; /* every column is rendered whatever the selection (metrics) */
	struct sb_row **rows;
	size_t nrows, caprows;
	struct { /* sb_table_states(): static storage, nothing to free */
		int col;
		const char *const *values;
	} states[4];
	size_t nstates;
};

struct field {
	char *key;
	enum sb_col_type type;
	unsigned flags; /* the enum sb_col_flags of its text (SB_COL_BYTES, SB_COL_PERCENT) */
	struct cell c;
};

struct sb_out {
	struct sb_out_opts opts;
	FILE *fp;
	struct sb_table **tables;
	size_t ntables;
	struct field *fields;
	size_t nfields;
	char **notes;
	bool *problem; /* notes[i] reports a problem (sb_out_problem) */
	size_t nnotes;
	struct out_test *tests; /* sb_out_test(), in the order given */
	size_t ntests;
};

struct out_test {
	char *suite; /* NULL: top level */
	char *name;
	char *diag; /* NULL: none */
	enum sb_test_result result;
};

/* Resolve an -o list into column indexes (out_columns.c); json: the default set of JSON
 * output. -EINVAL (a usage error in e) for an unknown or empty list. */
int sb_out_select_columns(const char *spec, const struct sb_col *cols, size_t ncols, bool json,
			  int *sel, size_t *nsel, struct sb_err *e);

/* --format ktap (lib/framework/out_ktap.c) */
int sb_out_render_ktap(struct sb_out *o);

/* The width text may take on fp: $COLUMNS when set (whatever fp is), else the terminal's
 * (80 when a serial console reports none), 0 (unlimited) for a pipe or a file. */
size_t sb_out_width(FILE *fp);
/* Display width of the first bytes of UTF-8 text s (code points). */
size_t sb_out_text_width(const char *s, size_t bytes);

/* How a cell's number is written: as stored (metrics labels), or for a person, with the
 * units of SB_COL_BYTES, SB_COL_PERCENT and SB_COL_PER_S (bytes exact with -b). */
enum sb_out_units { SB_UNITS_BASE, SB_UNITS_EXACT_BYTES, SB_UNITS_HUMAN };
/* The units of the text modes for the options of o. */
enum sb_out_units sb_out_text_units(const struct sb_out *o);
/* The name a column (or field) goes by in the text modes: a SB_COL_BYTES value printed as
 * K/M/G is not a number of bytes, so "SIZE_BYTES" reads "SIZE" there (buf, len bytes);
 * exact bytes (--bytes) and every other column keep their name. */
const char *sb_out_text_name(const char *name, unsigned flags, enum sb_out_units units, char *buf,
			     size_t len);
/* base (the number as stored, malloc'ed) with the units of col's flags; consumes base. */
char *sb_out_with_units(char *base, double v, const struct sb_col *col, enum sb_out_units units);
/* The text of a cell, escaped with enum sb_esc_flags (malloc'ed). */
char *sb_out_cell_text(const struct cell *c, const struct sb_col *col, unsigned esc_flags,
		       enum sb_out_units units);
/* One table in the text modes (table, raw, pairs): lib/framework/out_table.c. */
int sb_out_print_table(struct sb_out *o, struct sb_table *tb);

int sb_out_render_json(struct sb_out *o);
int sb_out_render_openmetrics(struct sb_out *o); /* both metrics modes: out_openmetrics.c */
int sb_out_render_text(struct sb_out *o);

#endif
