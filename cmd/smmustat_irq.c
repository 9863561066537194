// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat irq: the IOMMU interrupt lines of /proc/interrupts, totals and per CPU; with -i
 * the deltas and rates of each interval. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socbox/iommu.h"
#include "socbox/iommu_irq.h"
#include "socbox/iommu_names.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "smmustat.h"

enum { I_IRQ, I_INSTANCE, I_KIND, I_ACTION, I_CHIP, I_TOTAL, I_RATE, I_PER_CPU, I_CPU_COUNTS };

static const struct sb_col irq_cols[] = {
	[I_IRQ] = { "IRQ", SB_T_STR, 0, SB_COL_RIGHT | SB_COL_LABEL, "interrupt number", 0 },
	[I_INSTANCE] = { "INSTANCE", SB_T_STR, 0, SB_COL_LABEL,
			 "IOMMU instance of the line (smmustat NAME), - when the kernel does not say",
			 0 },
	[I_KIND] = { "KIND", SB_T_STR, 0, SB_COL_LABEL,
		     "evtq, gerror, priq, combined, cmdq-sync, context, global, dmar, amd-vi", 0 },
	[I_ACTION] = { "ACTION", SB_T_STR, 0, SB_COL_LABEL, "action name(s) of the line", 0 },
	[I_CHIP] = { "CHIP", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON, "interrupt chip", 0 },
	[I_TOTAL] = { "TOTAL", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER,
		      "count over all CPUs (delta of the interval with -i)", 0 },
	[I_RATE] = { "RATE_PER_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
		     "interrupts per second in the interval (-i)", 1 },
	/* PER_CPU's JSON ("0=3" strings) is kept for compatibility; CPU_COUNTS has the numbers */
	[I_PER_CPU] = { "PER_CPU", SB_T_STRV, 0.3, SB_COL_WRAP,
			"CPU=COUNT for CPUs with a non-zero count", 0 },
	[I_CPU_COUNTS] = { "CPU_COUNTS", SB_T_OBJV, 0.3, SB_COL_WRAP | SB_COL_HIDDEN | SB_COL_JSON,
			   "PER_CPU as numbers: {cpu, count} for CPUs with a non-zero count (JSON by default)",
			   0 },
};

enum { P_IRQ, P_CPU, P_COUNT, P_RATE };
static const struct sb_col percpu_cols[] = {
	[P_IRQ] = { "IRQ", SB_T_STR, 0, SB_COL_RIGHT, "interrupt number", 0 },
	[P_CPU] = { "CPU", SB_T_U64, 0, SB_COL_RIGHT, "CPU number", 0 },
	[P_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT, "count (delta with -i)", 0 },
	[P_RATE] = { "RATE_PER_S", SB_T_DBL, 0, SB_COL_RIGHT, "per second (-i)", 1 },
};

static int opt_per_cpu, opt_all;

static struct poptOption irq_opts[] = {
	{ "per-cpu", 'p', POPT_ARG_NONE, &opt_per_cpu, 0,
	  "add a table with one row per line and CPU", NULL },
	{ "all", 'a', POPT_ARG_NONE, &opt_all, 0, "every interrupt line, not only the IOMMU ones",
	  NULL },
	SB_POPT_LIVE,
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

static uint64_t prev_count(const struct sb_irq_table *prev, const char *name, unsigned cpu,
			   bool total)
{
	const struct sb_irq_row *r = prev ? sb_irq_find(prev, name) : NULL;

	if (!r)
		return 0;
	return total ? r->total : sb_irq_count_cpu(prev, r, cpu);
}

static struct sb_iommu *inst;
static size_t ninst;

static size_t iommu_lines(const struct sb_irq_table *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nrows; i++)
		n += !!sb_irq_iommu_kind(&t->rows[i]);
	return n;
}

static unsigned emit(struct sb_ctx *c, struct sb_out *o, const struct sb_irq_table *cur,
		     const struct sb_irq_table *prev, double secs)
{
	/* one reading has no rate: the column is "-" in every row, left to JSON and -o */
	static struct sb_col cols[ARRAY_SIZE(irq_cols)];
	struct sb_table *t, *pt = NULL;
	/* a person reads the CPUs that took interrupts; scripts get every row */
	bool hide_idle = c->out.mode == SB_OUT_TABLE && !c->out.columns;
	unsigned rows = 0, idle = 0;

	memcpy(cols, irq_cols, sizeof(cols));
	if (!prev)
		cols[I_RATE].flags |= SB_COL_HIDDEN | SB_COL_JSON;
	t = sb_out_table(o, "irqs", opt_per_cpu ? "Interrupts" : NULL, cols, ARRAY_SIZE(cols), true);
	if (opt_per_cpu)
		pt = sb_out_table(o, "per_cpu", "Per CPU", percpu_cols, ARRAY_SIZE(percpu_cols),
				  false);
	for (size_t i = 0; i < cur->nrows; i++) {
		const struct sb_irq_row *r = &cur->rows[i];
		const char *kind = sb_irq_iommu_kind(r), *in;
		struct sb_row *row;
		uint64_t total;

		if (!kind && !opt_all)
			continue;
		rows++;
		row = sb_table_row(t);
		total = r->total - prev_count(prev, r->name, 0, true);
		sb_row_str(row, I_IRQ, r->name);
		in = kind ? sb_iommu_irq_instance(c->root, inst, ninst, r, kind) : NULL;
		if (in)
			sb_row_str(row, I_INSTANCE, in);
		if (kind)
			sb_row_str(row, I_KIND, kind);
		if (r->actions[0])
			sb_row_str(row, I_ACTION, r->actions);
		if (r->chip[0])
			sb_row_str(row, I_CHIP, r->chip);
		sb_row_u64(row, I_TOTAL, total);
		if (prev)
			sb_row_dbl(row, I_RATE, secs > 0 ? (double)total / secs : 0);
		for (unsigned k = 0; k < cur->ncpus; k++) {
			uint64_t v = r->counts[k] -
				     prev_count(prev, r->name, cur->cpu_ids[k], false);

			if (v) {
				static const char *const keys[] = { "cpu", "count" };
				const uint64_t rec[] = { cur->cpu_ids[k], v };
				char cell[48];

				snprintf(cell, sizeof(cell), "%u=%llu", cur->cpu_ids[k],
					 (unsigned long long)v);
				sb_row_strv_add(row, I_PER_CPU, cell);
				sb_row_objv_add_u64(row, I_CPU_COUNTS, 2, keys, rec);
			}
			if (pt && !v && hide_idle)
				idle++;
			else if (pt) {
				struct sb_row *pr = sb_table_row(pt);

				sb_row_str(pr, P_IRQ, r->name);
				sb_row_u64(pr, P_CPU, cur->cpu_ids[k]);
				sb_row_u64(pr, P_COUNT, v);
				if (prev)
					sb_row_dbl(pr, P_RATE, secs > 0 ? (double)v / secs : 0);
			}
		}
	}
	if (idle)
		sb_out_note(o, "%u idle per-CPU rows (count 0) not shown; -r or -J lists every row",
			    idle);
	return rows;
}

int smmustat_irq(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_irq_table cur, prev;
	struct sb_out *o;
	struct sb_err e;
	uint64_t t_prev;
	unsigned rows;
	int rc;

	opt_per_cpu = opt_all = 0;
	rc = sb_cli_parse(c, irq_opts, NULL, argc, argv, irq_cols, ARRAY_SIZE(irq_cols));
	if (rc)
		return rc;
	sb_err_clear(&e);
	if (sb_opt.interval > 0 && (rc = sb_need_live(c, "-i")))
		return rc;
	if (sb_irq_read(c->root, &cur, &e)) {
		/* a snapshot without it cannot answer; a live system without it lacks procfs */
		if (e.errnum == ENOENT && !sb_root_is_live(c->root)) {
			sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
			sb_err_hint(&e, "the sysroot holds no /proc/interrupts");
		}
		return sb_report(c->applet, &e);
	}
	if (sb_iommu_list(c->root, &inst, &ninst, NULL))
		ninst = 0; /* the lines are still shown, with no instance */
	if (!ninst && !iommu_lines(&cur) && !opt_all) { /* --all: every line, IOMMU or not */
		sb_irq_free(&cur);
		free(inst);
		return smmustat_no_iommu(c);
	}
	o = sb_out_new(&c->out, stdout);
	if (!(sb_opt.interval > 0)) {
		rows = emit(c, o, &cur, NULL, 0);
		sb_out_field_u64(o, "cpus", cur.ncpus);
		if (!rows)
			sb_out_note(
				o,
				"no IOMMU interrupt lines in /proc/interrupts (no IOMMU, or its driver uses no wired/MSI lines)");
		rc = sb_out_print(o);
		sb_out_free(o);
		sb_irq_free(&cur);
		free(inst);
		return rc ? SB_EXIT_FAIL : 0;
	}
	sb_catch_stop_signals();
	t_prev = sb_now_ns();
	sb_verbose(c->applet, "sampling /proc/interrupts every %g s", sb_opt.interval);
	/* a stop signal cuts the interval short: it is printed with its real length and a
	 * note, then the run ends with 0 */
	for (int n = 0; !sb_opt.count || n < sb_opt.count; n++) {
		uint64_t now;
		double secs;
		bool cut;

		prev = cur;
		cut = sb_sleep(sb_opt.interval);
		if (sb_irq_read(c->root, &cur, &e)) {
			sb_irq_free(&prev);
			sb_out_free(o);
			free(inst);
			return sb_report(c->applet, &e);
		}
		now = sb_now_ns();
		secs = (double)(now - t_prev) / 1e9;
		t_prev = now;
		sb_out_field_dbl(o, "interval_s", secs);
		emit(c, o, &cur, &prev, secs);
		if (cut)
			smmustat_note_cut(o, secs, sb_opt.interval,
					  "its counts and rates cover that time");
		sb_irq_free(&prev);
		if (sb_out_print(o)) {
			rc = SB_EXIT_FAIL;
			break;
		}
		fflush(stdout);
		if (sb_stop_signal)
			break;
	}
	sb_irq_free(&cur);
	sb_out_free(o);
	free(inst);
	return sb_stop_status(rc);
}
