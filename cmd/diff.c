// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox diff OLD [NEW]: what differs between two snapshots, or a snapshot and the live
 * system, per subsystem. Text for people (+ added, - removed, ~ changed), -J for scripts;
 * exit 1 when something differs that no --ignore pattern covers. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/diff.h"
#include "socbox/escape.h"
#include "socbox/macro.h"
#include "socbox/out.h"

#define TEXT_WIDTH 80

enum { D_SUBSYSTEM, D_CHANGE, D_OBJECT, D_ATTRIBUTE, D_OLD, D_NEW, D_IGNORED };
static const struct sb_col diff_cols[] = {
	[D_SUBSYSTEM] = { "SUBSYSTEM", SB_T_STR, 0, 0, "doctor, rpmsg, dmabuf, iommu or netdev", 0 },
	[D_CHANGE] = { "CHANGE", SB_T_STR, 0, 0, "added, removed or changed", 0 },
	[D_OBJECT] = { "OBJECT", SB_T_STR, 0.3, SB_COL_TRUNC, "KIND:NAME (remoteproc:remoteproc0)",
		       0 },
	[D_ATTRIBUTE] = { "ATTRIBUTE", SB_T_STR, 0, 0, "the attribute that changed", 0 },
	[D_OLD] = { "OLD", SB_T_STR, 0.2, SB_COL_WRAP,
		    "value in OLD (a removed object: its attributes)", 0 },
	[D_NEW] = { "NEW", SB_T_STR, 0.2, SB_COL_WRAP,
		    "value in NEW (an added object: its attributes)", 0 },
	[D_IGNORED] = { "IGNORED", SB_T_BOOL, 0, 0, "matched an --ignore pattern", 0 },
};

static const char **opt_ignore;

static struct poptOption diff_opts[] = {
	{ "ignore", 'I', POPT_ARG_ARGV, &opt_ignore, 0,
	  "leave out differences whose SUBSYSTEM/OBJECT/ATTRIBUTE matches this glob (repeatable)",
	  "PATTERN" },
	SB_POPT_OUTPUT,
	SB_POPT_LIVE_ROOT,
	POPT_TABLEEND
};

/* "k=v k=v" of an object, escaped for a terminal when esc */
static void obj_attrs(const struct sb_diff_obj *o, char *buf, size_t len, bool esc)
{
	size_t off = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < o->nattrs && off + 1 < len; i++) {
		char v[256];

		if (esc)
			sb_escape(v, sizeof(v), o->attrs[i].val, 0);
		else
			snprintf(v, sizeof(v), "%s", o->attrs[i].val);
		off += (size_t)snprintf(buf + off, len - off, "%s%s=%s", i ? " " : "",
					o->attrs[i].key, v);
	}
}

/* Text at a terminal of width columns from column col: broken at spaces onto lines indented
 * by indent, a word wider than the line left whole. Returns the column reached. */
static size_t put_words(const char *s, size_t col, size_t width, size_t indent)
{
	while (*s) {
		size_t n = strcspn(s, " ");

		if (col > indent && col + n > width) {
			printf("\n%*s", (int)indent, "");
			col = indent;
		}
		fwrite(s, 1, n, stdout);
		col += n;
		s += n;
		if (*s == ' ') {
			s++;
			if (*s && col + 1 + strcspn(s, " ") > width) {
				printf("\n%*s", (int)indent, "");
				col = indent;
			} else if (*s) {
				putchar(' ');
				col++;
			}
		}
	}
	return col;
}

/* An added or removed object, every value whole: piped (or -v) on one line; on a terminal
 * narrower than the line its attributes go on to indented lines, broken between them, and
 * a value wider than the terminal at its spaces (never cut). */
static void print_object(const struct sb_diff_change *ch, size_t width)
{
	char id[256], v[256];
	size_t col;

	sb_escape(id, sizeof(id), ch->id, 0);
	col = (size_t)printf("  %c %s", ch->kind == SB_DIFF_ADDED ? '+' : '-', id);
	for (size_t i = 0; i < ch->obj->nattrs; i++) {
		/* bytes: never fewer than the columns they take */
		size_t w;

		sb_escape(v, sizeof(v), ch->obj->attrs[i].val, 0);
		w = strlen(ch->obj->attrs[i].key) + 1 + strlen(v);
		if (!width) {
			printf("%s%s=%s", i ? " " : "  ", ch->obj->attrs[i].key, v);
			continue;
		}
		if (col + (i ? 1 : 2) + w > width) {
			fputs("\n     ", stdout);
			col = 5;
		} else {
			fputs(i ? " " : "  ", stdout);
			col += i ? 1 : 2;
		}
		col += (size_t)printf("%s=", ch->obj->attrs[i].key);
		col = put_words(v, col, width, 7);
	}
	putchar('\n');
}

static void print_change(const struct sb_diff_change *ch)
{
	char id[256], attr[64], a[512], b[512];

	sb_escape(id, sizeof(id), ch->id, 0);
	sb_escape(attr, sizeof(attr), ch->attr, 0);
	sb_escape(a, sizeof(a), ch->old_val ? ch->old_val : "(none)", 0);
	sb_escape(b, sizeof(b), ch->new_val ? ch->new_val : "(none)", 0);
	if (6 + strlen(id) + strlen(attr) + 2 + strlen(a) + 4 + strlen(b) <= TEXT_WIDTH)
		printf("  ~ %s %s: %s -> %s\n", id, attr, a, b);
	else
		printf("  ~ %s %s:\n      - %s\n      + %s\n", id, attr, a, b);
}

static const char *operand_name(const char *arg)
{
	return arg ? arg : "live system";
}

static void print_text(const struct sb_diff_result *res, const char *old_name, const char *new_name)
{
	size_t width = sb_opt.verbose ? 0 : sb_out_term_width(stdout);
	int sub = -1;
	size_t shown = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct sb_diff_change *ch = &res->v[i];

		if (ch->ignored)
			continue;
		if (!shown++) {
			printf("--- ");
			sb_fputs_escaped(stdout, old_name, 0);
			printf("\n+++ ");
			sb_fputs_escaped(stdout, new_name, 0);
			putchar('\n');
		}
		if ((int)ch->sub != sub) {
			sub = (int)ch->sub;
			printf("%s:\n", sb_diff_sub_names[sub]);
		}
		if (ch->kind == SB_DIFF_CHANGED)
			print_change(ch);
		else
			print_object(ch, width);
	}
	if (res->nignored)
		printf("(%zu difference%s ignored by --ignore)\n", res->nignored,
		       res->nignored == 1 ? "" : "s");
}

static int print_table(struct sb_ctx *c, const struct sb_diff_result *res, const char *old_name,
		       const char *new_name)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	int rc;

	sb_out_field_str(o, "old", old_name);
	sb_out_field_str(o, "new", new_name);
	sb_out_field_bool(o, "equal", res->n == res->nignored);
	sb_out_field_u64(o, "ignored_count", res->nignored);
	t = sb_out_table(o, "differences", NULL, diff_cols, ARRAY_SIZE(diff_cols), true);
	for (size_t i = 0; i < res->n; i++) {
		const struct sb_diff_change *ch = &res->v[i];
		struct sb_row *r = sb_table_row(t);
		char attrs[1024];

		sb_row_str(r, D_SUBSYSTEM, sb_diff_sub_names[ch->sub]);
		sb_row_str(r, D_CHANGE, sb_diff_kind_names[ch->kind]);
		sb_row_str(r, D_OBJECT, ch->id);
		sb_row_bool(r, D_IGNORED, ch->ignored);
		if (ch->kind != SB_DIFF_CHANGED) {
			obj_attrs(ch->obj, attrs, sizeof(attrs), false);
			sb_row_str(r, ch->kind == SB_DIFF_ADDED ? D_NEW : D_OLD, attrs);
			continue;
		}
		sb_row_str(r, D_ATTRIBUTE, ch->attr);
		if (ch->old_val)
			sb_row_str(r, D_OLD, ch->old_val);
		if (ch->new_val)
			sb_row_str(r, D_NEW, ch->new_val);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc;
}

static int collect(struct sb_ctx *c, const char *path, struct sb_diff_operand *op,
		   struct sb_diff_set *set)
{
	struct sb_err e;

	sb_err_clear(&e);
	if (sb_diff_operand_open(op, path ? path : "/", &e) || sb_diff_collect(op->root, set, &e))
		return sb_report(c->applet, &e);
	return 0;
}

int diff_run(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_diff_operand a = { 0 }, b = { 0 };
	struct sb_diff_set sa = { 0 }, sb = { 0 };
	struct sb_diff_result res = { 0 };
	const char *old_path, *new_path;
	bool text;
	int rc;

	opt_ignore = NULL;
	rc = sb_cli_parse(c, diff_opts, "OLD [NEW]", argc, argv, diff_cols, ARRAY_SIZE(diff_cols));
	if (rc)
		return rc;
	if (c->nargs < 1 || c->nargs > 2)
		return sb_usage_error(c, "needs a snapshot to compare (OLD), and NEW or nothing "
					 "for the live system");
	if (!sb_root_is_live(c->root))
		return sb_usage_error(c,
				      "--sysroot does not apply; name the snapshots as OLD and NEW");
	if (sb_out_mode_is_metrics(c->out.mode))
		return sb_usage_error(c, "a comparison has no metrics; use -J");
	old_path = c->args[0];
	new_path = c->nargs == 2 ? c->args[1] : NULL;
	rc = collect(c, old_path, &a, &sa);
	if (!rc)
		rc = collect(c, new_path, &b, &sb);
	if (!rc && sb_diff_compare(&sa, &sb, opt_ignore, &res)) {
		sb_eprintf("socbox diff: compare: %s", strerror(ENOMEM));
		rc = SB_EXIT_FAIL;
	}
	if (!rc) {
		text = c->out.mode == SB_OUT_TABLE && !c->out.columns && !c->out.noheadings;
		if (sb_opt.quiet)
			;
		else if (text)
			print_text(&res, old_path, operand_name(new_path));
		else if (print_table(c, &res, old_path, new_path ? new_path : "/"))
			rc = SB_EXIT_FAIL;
		if (!rc && res.n > res.nignored)
			rc = SB_EXIT_FAIL;
	}
	sb_diff_result_free(&res);
	sb_diff_set_free(&sa);
	sb_diff_set_free(&sb);
	sb_diff_operand_close(&a);
	sb_diff_operand_close(&b);
	for (size_t i = 0; opt_ignore && opt_ignore[i]; i++)
		free((void *)opt_ignore[i]);
	free(opt_ignore);
	return rc;
}
