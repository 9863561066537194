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
	size_t nnotes;
};

/* The text of a cell for the text modes, escaped with enum sb_esc_flags (malloc'ed). */
char *sb_out_cell_text(const struct cell *c, const struct sb_col *col, unsigned esc_flags);
/* One table in the text modes (table, raw, pairs): lib/framework/out_table.c. */
int sb_out_print_table(struct sb_out *o, struct sb_table *tb);

int sb_out_render_json(struct sb_out *o);
int sb_out_render_openmetrics(struct sb_out *o); /* both metrics modes: out_openmetrics.c */
int sb_out_render_text(struct sb_out *o);

#endif
