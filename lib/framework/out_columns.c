// SPDX-License-Identifier: GPL-2.0-or-later
/* Which columns a view shows: the -o list resolved against a column table, checked before
 * any work is done, and -H (--list-columns). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "out_model.h"
#include "socbox/out.h"

static int find_col(const struct sb_col *cols, size_t ncols, const char *name, size_t len)
{
	for (size_t i = 0; i < ncols; i++)
		if (strlen(cols[i].name) == len && !strncasecmp(cols[i].name, name, len))
			return (int)i;
	/* the name a bytes column goes by in text output: SIZE for SIZE_BYTES */
	for (size_t i = 0; i < ncols; i++)
		if ((cols[i].flags & SB_COL_BYTES) && strlen(cols[i].name) == len + 6 &&
		    !strncasecmp(cols[i].name, name, len) &&
		    !strcasecmp(cols[i].name + len, "_BYTES"))
			return (int)i;
	return -1;
}

int sb_out_select_columns(const char *spec, const struct sb_col *cols, size_t ncols, bool json,
			  int *sel, size_t *nsel, struct sb_err *e)
{
	size_t n = 0;

	/* "-o +" or "-o a,,b" is a typo, not a request for the default set */
	if (spec && (!spec[spec[0] == '+'] || strstr(spec, ",,") || spec[strlen(spec) - 1] == ',' ||
		     spec[spec[0] == '+'] == ',')) {
		sb_err_set(e, EINVAL, NULL, NULL, "see --list-columns");
		sb_err_reason(e, "-o needs a comma-separated list of columns, not '%s'", spec);
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	if (!spec || *spec == '+') {
		for (size_t i = 0; i < ncols; i++)
			if (!(cols[i].flags & SB_COL_HIDDEN) ||
			    (json && (cols[i].flags & SB_COL_JSON)))
				sel[n++] = (int)i;
		if (spec)
			spec++;
	}
	while (spec && *spec) {
		size_t len = strcspn(spec, ",");
		int idx;

		if (len) {
			idx = find_col(cols, ncols, spec, len);
			if (idx < 0) {
				sb_err_set(e, EINVAL, NULL, NULL, "see --list-columns");
				sb_err_reason(e, "unknown column '%.*s'", (int)len, spec);
				sb_err_exit(e, SB_EXIT_USAGE);
				return -EINVAL;
			}
			bool dup = false;
			for (size_t k = 0; k < n; k++)
				dup |= sel[k] == idx;
			if (!dup && n < ncols)
				sel[n++] = idx;
		}
		spec += len;
		if (*spec == ',')
			spec++;
	}
	if (n == 0) {
		sb_err_set(e, EINVAL, NULL, NULL, "see --list-columns");
		sb_err_reason(e, "no columns selected");
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	*nsel = n;
	return 0;
}

int sb_out_check_columns(const char *columns, const struct sb_col *cols, size_t ncols,
			 struct sb_err *e)
{
	int *sel = calloc(ncols ? ncols : 1, sizeof(int));
	size_t n;
	int rc;

	if (!sel)
		return -ENOMEM;
	rc = sb_out_select_columns(columns, cols, ncols, false, sel, &n, e);
	free(sel);
	return rc;
}

static const char *type_name(enum sb_col_type t)
{
	static const char *const names[] = {
		[SB_T_STR] = "string", [SB_T_U64] = "number",	[SB_T_S64] = "number",
		[SB_T_DBL] = "number", [SB_T_BOOL] = "boolean", [SB_T_STRV] = "array",
		[SB_T_U64V] = "array", [SB_T_OBJ] = "object",	[SB_T_OBJV] = "array",
	};
	return names[t];
}

int sb_out_list_columns(const struct sb_out_opts *opts, FILE *fp, const struct sb_col *cols,
			size_t ncols)
{
	static const struct sb_col list_cols[] = {
		{ "NAME", SB_T_STR, 0, 0, "column name", 0 },
		{ "TYPE", SB_T_STR, 0, 0, "JSON type", 0 },
		{ "DEFAULT", SB_T_BOOL, 0, 0, "shown without -o", 0 },
		{ "DESCRIPTION", SB_T_STR, 0, SB_COL_WRAP, "what the column holds", 0 },
	};
	struct sb_out_opts lo = *opts;
	struct sb_out *o;
	struct sb_table *t;
	int rc;

	lo.columns = NULL;
	/* metrics and KTAP have no form for a list of columns */
	if (sb_out_mode_is_metrics(lo.mode) || lo.mode == SB_OUT_KTAP)
		lo.mode = SB_OUT_TABLE;
	o = sb_out_new(&lo, fp);
	t = sb_out_table(o, "columns", NULL, list_cols, 4, true);
	for (size_t i = 0; i < ncols; i++) {
		struct sb_row *r = sb_table_row(t);
		sb_row_str(r, 0, cols[i].name);
		sb_row_str(r, 1, type_name(cols[i].type));
		sb_row_bool(r, 2, !(cols[i].flags & SB_COL_HIDDEN));
		sb_row_str(r, 3, cols[i].help);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc;
}
