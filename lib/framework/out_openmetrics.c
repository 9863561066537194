// SPDX-License-Identifier: GPL-2.0-or-later
/* The metrics renderers: OpenMetrics 1.0 (--format openmetrics) and the Prometheus text
 * format 0.0.4 (--format prometheus; node_exporter's textfile collector reads only that).
 * One model, two spellings. They differ in three places: a counter family is named x in
 * OpenMetrics (HELP/TYPE/UNIT x, samples x_total) but x_total in Prometheus text; UNIT lines
 * and the closing "# EOF" exist in OpenMetrics only; HELP escapes '"' in OpenMetrics only.
 *
 * How a view becomes metrics (the column table is the one description of both):
 *  - family names: socbox_<ns>_<table key>_<column>, lower case, ns = the applet
 *    (sb_out_opts.metrics_ns, its first word: "rpmsgctl rproc" is rpmsgctl); every family
 *    has HELP and TYPE, even without samples;
 *  - SB_COL_LABEL columns are labels of every sample of their row;
 *  - a numeric SB_COL_METRIC column is a gauge, a SB_COL_COUNTER column a counter (a column
 *    TOTAL or COUNT names the counter after its table: irqs TOTAL -> socbox_smmustat_irqs_total);
 *  - a text SB_COL_METRIC column is a gauge of 1 with the text as a label named after the
 *    column; with sb_table_states() a state set (every value, 1 for the current one);
 *  - numeric and boolean top-level fields are gauges socbox_<ns>_<key>;
 *  - a gauge drops a _count suffix (the sample name of summaries and histograms), and a
 *    gauge column COUNT is named after its table, as a counter is;
 *  - units in base units, as suffixes: column suffixes _S, _MS, _US and _NS become _seconds
 *    (values scaled), _PER_S _per_second, _GBPS _bits_per_second; OpenMetrics gets a UNIT
 *    line for _seconds and _bytes;
 *  - label values are escaped like every text output (socbox/escape.h: control characters
 *    and bytes that are not UTF-8 as \xHH), then \, " and newline as the formats want. */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "out_model.h"
#include "socbox/escape.h"

#define NAME_MAX_LEN 192

struct unit_rule {
	const char *suffix; /* of the lower-cased column name */
	const char *to;
	double scale;
	const char *unit; /* OpenMetrics UNIT */
	const char *as;	  /* said in HELP when the value is scaled */
};

static const struct unit_rule unit_rules[] = {
	{ "_per_s", "_per_second", 1, NULL, NULL },
	{ "_gbps", "_bits_per_second", 1e9, NULL, "bits per second" },
	{ "_ns", "_seconds", 1e-9, "seconds", "seconds" },
	{ "_us", "_seconds", 1e-6, "seconds", "seconds" },
	{ "_ms", "_seconds", 1e-3, "seconds", "seconds" },
	{ "_s", "_seconds", 1, "seconds", NULL },
	{ "_seconds", "_seconds", 1, "seconds", NULL },
	{ "_bytes", "_bytes", 1, "bytes", NULL },
};

struct family {
	char name[NAME_MAX_LEN]; /* without _total */
	bool counter;
	const char *unit;
	const char *as;
	double scale;
};

static bool is_om(const struct sb_out *o)
{
	return o->opts.mode == SB_OUT_OPENMETRICS;
}

bool sb_out_mode_is_metrics(enum sb_out_mode m)
{
	return m == SB_OUT_OPENMETRICS || m == SB_OUT_PROMETHEUS;
}

void sb_table_states(struct sb_table *t, int col, const char *const *values)
{
	if (t->nstates >= sizeof(t->states) / sizeof(t->states[0]))
		abort(); /* a programming error, like a column index out of range */
	t->states[t->nstates].col = col;
	t->states[t->nstates].values = values;
	t->nstates++;
}

static void append(char *dst, size_t len, const char *src)
{
	size_t off = strlen(dst);

	for (size_t i = 0; src[i] && off + 1 < len; i++) {
		unsigned char ch = (unsigned char)src[i];
		dst[off++] = isalnum(ch) ? (char)tolower(ch) : '_';
	}
	dst[off] = '\0';
}

static bool ends_with(const char *s, const char *sfx)
{
	size_t n = strlen(s), m = strlen(sfx);
	return n >= m && !strcmp(s + n - m, sfx);
}

/* socbox_<ns>_<part>[_<part2>] with the unit rules applied to the last part. */
static void family_name(struct family *f, const struct sb_out *o, const char *part,
			const char *part2, bool counter)
{
	char last[NAME_MAX_LEN] = "";

	_Static_assert(sizeof(last) == sizeof(f->name), "the unit rules edit either buffer");
	memset(f, 0, sizeof(*f));
	f->counter = counter;
	f->scale = 1;
	snprintf(f->name, sizeof(f->name), "socbox_");
	if (o->opts.metrics_ns) { /* "rpmsgctl rproc" (a nested command) names as rpmsgctl */
		char ns[64];

		snprintf(ns, sizeof(ns), "%.*s", (int)strcspn(o->opts.metrics_ns, " "),
			 o->opts.metrics_ns);
		append(f->name, sizeof(f->name), ns);
		append(f->name, sizeof(f->name), "_");
	}
	append(f->name, sizeof(f->name), part);
	if (part2)
		append(last, sizeof(last), part2);
	if (counter) {
		/* the sample's _total says it: TOTAL_REQUESTS -> requests, TOTAL and COUNT -> "" */
		if (!strcmp(last, "total") || !strcmp(last, "count"))
			last[0] = '\0';
		else if (!strncmp(last, "total_", 6))
			memmove(last, last + 6, strlen(last + 6) + 1);
		else if (ends_with(last, "_total"))
			last[strlen(last) - 6] = '\0';
	}
	/* _count, _sum and _bucket are the samples of summaries and histograms; a gauge COUNT
	 * is named after its table, as a counter is (cause COUNT -> socbox_doctor_cause) */
	if (!counter && !strcmp(last, "count"))
		last[0] = '\0';
	if (!counter && ends_with(last[0] ? last : f->name, "_count"))
		(last[0] ? last : f->name)[strlen(last[0] ? last : f->name) - 6] = '\0';
	for (size_t i = 0; i < sizeof(unit_rules) / sizeof(unit_rules[0]); i++) {
		const struct unit_rule *u = &unit_rules[i];
		char *full = last[0] ? last : f->name;

		if (!ends_with(full, u->suffix))
			continue;
		full[strlen(full) - strlen(u->suffix)] = '\0';
		append(full, NAME_MAX_LEN, u->to); /* last or f->name: both NAME_MAX_LEN */
		f->scale = u->scale;
		f->unit = u->unit;
		f->as = u->as;
		break;
	}
	if (last[0]) {
		append(f->name, sizeof(f->name), "_");
		append(f->name, sizeof(f->name), last);
	}
}

/* HELP text: \ and newline always, " in OpenMetrics only. */
static void put_help(FILE *fp, const char *s, bool om)
{
	char esc[512];

	sb_escape(esc, sizeof(esc), s ? s : "", 0);
	for (const char *p = esc; *p; p++) {
		if (*p == '\\')
			fputs("\\\\", fp);
		else if (*p == '"' && om)
			fputs("\\\"", fp);
		else
			fputc(*p, fp);
	}
}

static void header(const struct sb_out *o, const struct family *f, const char *ctx, const char *help)
{
	bool om = is_om(o);
	const char *sfx = f->counter && !om ? "_total" : "";

	fprintf(o->fp, "# HELP %s%s ", f->name, sfx);
	if (ctx) {
		put_help(o->fp, ctx, om);
		fputs(": ", o->fp);
	}
	put_help(o->fp, help, om);
	if (f->as)
		fprintf(o->fp, " (in %s)", f->as);
	fprintf(o->fp, "\n# TYPE %s%s %s\n", f->name, sfx, f->counter ? "counter" : "gauge");
	if (om && f->unit)
		fprintf(o->fp, "# UNIT %s %s\n", f->name, f->unit);
}

static void put_label_value(FILE *fp, const char *s)
{
	size_t len = strlen(s) * 4 + 1;
	char *esc = malloc(len);

	if (!esc)
		abort(); /* out of memory while formatting output (see out.c) */
	sb_escape(esc, len, s, 0);
	fputc('"', fp);
	for (const char *p = esc; *p; p++) {
		if (*p == '\\' || *p == '"')
			fputc('\\', fp);
		fputc(*p, fp);
	}
	fputc('"', fp);
	free(esc);
}

static void put_label(FILE *fp, bool *first, const char *colname, const char *value)
{
	char key[64] = "";

	append(key, sizeof(key), colname);
	fprintf(fp, "%s%s=", *first ? "{" : ",", key);
	put_label_value(fp, value);
	*first = false;
}

/* The row's labels; extra (a state column) last. Ends with "} " or " ". */
static void put_labels(FILE *fp, const struct sb_table *tb, const struct sb_row *row,
		       const char *extra_col, const char *extra_val)
{
	bool first = true;

	for (size_t c = 0; c < tb->ncols; c++) {
		char *txt;

		if (!(tb->cols[c].flags & SB_COL_LABEL) || !row->cells[c].set)
			continue;
		txt = sb_out_cell_text(&row->cells[c], &tb->cols[c], 0, SB_UNITS_BASE);
		if (!txt)
			abort();
		put_label(fp, &first, tb->cols[c].name, txt);
		free(txt);
	}
	if (extra_col)
		put_label(fp, &first, extra_col, extra_val);
	fputs(first ? " " : "} ", fp);
}

static void put_double(FILE *fp, double v)
{
	if (isnan(v))
		fputs("NaN\n", fp);
	else if (isinf(v))
		fputs(v > 0 ? "+Inf\n" : "-Inf\n", fp);
	else
		fprintf(fp, "%.15g\n", v);
}

/* The value of a numeric or boolean cell; false when there is none to print. */
static bool put_value(FILE *fp, const struct cell *c, enum sb_col_type t, double scale)
{
	if (!c->set)
		return false;
	switch (t) {
	case SB_T_U64:
		if (scale == 1)
			fprintf(fp, "%" PRIu64 "\n", c->u);
		else
			put_double(fp, (double)c->u * scale);
		return true;
	case SB_T_S64:
		if (scale == 1)
			fprintf(fp, "%" PRId64 "\n", c->i);
		else
			put_double(fp, (double)c->i * scale);
		return true;
	case SB_T_DBL:
		put_double(fp, c->d * scale);
		return true;
	case SB_T_BOOL:
		fprintf(fp, "%d\n", c->b ? 1 : 0);
		return true;
	default:
		return false;
	}
}

static bool numeric(enum sb_col_type t)
{
	return t == SB_T_U64 || t == SB_T_S64 || t == SB_T_DBL || t == SB_T_BOOL;
}

static const char *const *states_of(const struct sb_table *tb, size_t col)
{
	for (size_t i = 0; i < tb->nstates; i++)
		if ((size_t)tb->states[i].col == col)
			return tb->states[i].values;
	return NULL;
}

static void state_samples(FILE *fp, const struct family *f, const struct sb_table *tb,
			  const struct sb_row *row, size_t c)
{
	const struct sb_col *col = &tb->cols[c];
	const char *const *states = states_of(tb, c);
	char *cur = row->cells[c].set ? sb_out_cell_text(&row->cells[c], col, 0, SB_UNITS_BASE)
				      : NULL;
	bool known = false;

	for (size_t i = 0; states && states[i]; i++) {
		bool is = cur && !strcmp(cur, states[i]);

		known |= is;
		fputs(f->name, fp);
		put_labels(fp, tb, row, col->name, states[i]);
		fprintf(fp, "%d\n", is ? 1 : 0);
	}
	if (!states || (cur && !known)) { /* a value no list has (a newer kernel's state) */
		fputs(f->name, fp);
		put_labels(fp, tb, row, col->name, cur ? cur : "");
		fputs("1\n", fp);
	}
	free(cur);
}

static void table_families(struct sb_out *o, const struct sb_table *tb)
{
	for (size_t c = 0; c < tb->ncols; c++) {
		const struct sb_col *col = &tb->cols[c];
		bool counter = (col->flags & SB_COL_COUNTER) && numeric(col->type) &&
			       col->type != SB_T_BOOL;
		bool text = col->type == SB_T_STR && (col->flags & SB_COL_METRIC);
		struct family f;

		if (!counter && !text && !((col->flags & SB_COL_METRIC) && numeric(col->type)))
			continue;
		family_name(&f, o, tb->key, col->name, counter);
		if (text)
			f.scale = 1, f.unit = f.as = NULL;
		header(o, &f, tb->key, col->help);
		for (size_t r = 0; r < tb->nrows; r++) {
			const struct sb_row *row = tb->rows[r];

			if (text) {
				state_samples(o->fp, &f, tb, row, c);
				continue;
			}
			if (!row->cells[c].set)
				continue;
			fprintf(o->fp, "%s%s", f.name, counter ? "_total" : "");
			put_labels(o->fp, tb, row, NULL, NULL);
			put_value(o->fp, &row->cells[c], col->type, f.scale);
		}
	}
}

int sb_out_render_openmetrics(struct sb_out *o)
{
	for (size_t i = 0; i < o->nfields; i++) {
		const struct field *fl = &o->fields[i];
		struct family f;
		char help[160];

		if (!numeric(fl->type) || !fl->c.set)
			continue;
		family_name(&f, o, fl->key, NULL, false);
		snprintf(help, sizeof(help), "%s, as in the JSON output of %s", fl->key,
			 o->opts.metrics_ns ? o->opts.metrics_ns : "socbox");
		header(o, &f, NULL, help);
		fputs(f.name, o->fp);
		fputc(' ', o->fp);
		put_value(o->fp, &fl->c, fl->type, f.scale);
	}
	for (size_t t = 0; t < o->ntables; t++)
		table_families(o, o->tables[t]);
	if (is_om(o))
		fputs("# EOF\n", o->fp);
	return fflush(o->fp) ? -errno : 0;
}
