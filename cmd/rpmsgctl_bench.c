// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl bench: the measurement of the RPMSG_CREATE_EPT_FD_IOCTL series. N iterations of
 * create -> open -> destroy -> close through the legacy /dev/rpmsgN path and through the fd
 * ioctl, totals per run and the legacy/fd ratio, plus per-operation statistics. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/udev.h"
#include "rpmsgctl.h"

enum { R_RUN, R_LOOPS, R_LEGACY, R_FD, R_RATIO, R_FD_PATH };
static const struct sb_col run_cols[] = {
	[R_RUN] = { "RUN", SB_T_U64, 0, SB_COL_RIGHT, "run number", 0 },
	[R_LOOPS] = { "LOOPS", SB_T_U64, 0, SB_COL_RIGHT, "iterations per path", 0 },
	[R_LEGACY] = { "LEGACY_US", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		       "total time, legacy path", 0 },
	[R_FD] = { "FD_US", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC, "total time, fd path", 0 },
	[R_RATIO] = { "RATIO", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "legacy / fd", 2 },
	[R_FD_PATH] = { "FD_PATH", SB_T_STR, 0, 0, "fd ioctl: ok, unsupported or not run", 0 },
};

enum { O_METHOD, O_OP, O_STATS, O_NCOLS = O_STATS + SB_STATS_NCOLS };
static const struct sb_col op_cols[O_NCOLS] = {
	[O_METHOD] = { "METHOD", SB_T_STR, 0, 0, "legacy or fd", 0 },
	[O_OP] = { "OP", SB_T_STR, 0, 0, "create, open, destroy, close or iteration", 0 },
	[O_STATS] = SB_STATS_COLS("US", 1, 0),
};

#define NOPS 5
static const char *const op_names[NOPS] = { "create", "open", "destroy", "close", "iteration" };

struct samples {
	double *v[NOPS]; /* microseconds, one per iteration and op, over all runs */
	size_t n;
};

static double us(uint64_t a, uint64_t b)
{
	return (double)(b - a) / 1000.0;
}

/* One run of loops iterations; total in *total_us. -EINTR when a stop signal came: it is
 * seen between iterations, so no endpoint of this run is left behind. */
static int run_legacy(struct sb_rpmsg_ctl *ctl, const char *name, unsigned loops,
		      struct samples *sm, uint64_t *total_us, struct sb_err *e)
{
	uint64_t start = sb_now_ns();

	for (unsigned i = 0; i < loops; i++) {
		struct sb_rpmsg_ept ept;
		char devname[32], node[48];
		uint64_t t[5];
		size_t k;

		if (sb_stop_signal)
			return -EINTR;
		k = sm->n++;
		t[0] = sb_now_ns();
		if (sb_rpmsg_ept_create_node(ctl, name, SB_RPMSG_ADDR_ANY, SB_RPMSG_ADDR_ANY,
					     devname, sizeof(devname), e) < 0)
			return -1;
		t[1] = sb_now_ns();
		snprintf(node, sizeof(node), "/dev/%s", devname);
		if (sb_rpmsg_ept_open(node, O_RDWR | O_CLOEXEC, &ept, e) < 0) {
			/* the node exists: destroy it, or say it is left behind */
			sb_rpmsg_ept_discard(node, e);
			return -1;
		}
		t[2] = sb_now_ns();
		if (sb_rpmsg_ept_destroy_keep_fd(&ept, e) < 0) {
			sb_rpmsg_ept_close(&ept);
			return -1;
		}
		t[3] = sb_now_ns();
		sb_rpmsg_ept_close(&ept);
		t[4] = sb_now_ns();
		for (int op = 0; op < 4; op++)
			sm->v[op][k] = us(t[op], t[op + 1]);
		sm->v[4][k] = us(t[0], t[4]);
	}
	*total_us = (sb_now_ns() - start) / 1000;
	return 0;
}

static int run_fd(struct sb_rpmsg_ctl *ctl, const char *name, unsigned loops, struct samples *sm,
		  uint64_t *total_us, struct sb_err *e)
{
	uint64_t start = sb_now_ns();

	for (unsigned i = 0; i < loops; i++) {
		struct sb_rpmsg_ept ept;
		uint64_t t[4];
		size_t k;

		if (sb_stop_signal)
			return -EINTR;
		k = sm->n++;
		t[0] = sb_now_ns();
		if (sb_rpmsg_ept_create(ctl, name, SB_RPMSG_ADDR_ANY, SB_RPMSG_ADDR_ANY,
					O_CLOEXEC | O_NONBLOCK, SB_RPMSG_FD, &ept, e) < 0)
			return -1;
		t[1] = sb_now_ns();
		if (sb_rpmsg_ept_destroy_keep_fd(&ept, e) < 0) {
			sb_rpmsg_ept_close(&ept);
			return -1;
		}
		t[2] = sb_now_ns();
		sb_rpmsg_ept_close(&ept);
		t[3] = sb_now_ns();
		sm->v[0][k] = us(t[0], t[1]);
		sm->v[2][k] = us(t[1], t[2]);
		sm->v[3][k] = us(t[2], t[3]);
		sm->v[4][k] = us(t[0], t[3]);
	}
	*total_us = (sb_now_ns() - start) / 1000;
	return 0;
}

static int samples_alloc(struct samples *sm, size_t n)
{
	memset(sm, 0, sizeof(*sm));
	for (int op = 0; op < NOPS; op++)
		if (!(sm->v[op] = calloc(n ? n : 1, sizeof(double))))
			return -ENOMEM;
	return 0;
}

static void samples_free(struct samples *sm)
{
	for (int op = 0; op < NOPS; op++)
		free(sm->v[op]);
}

static void op_rows(struct sb_table *t, const char *method, struct samples *sm, bool has_open)
{
	for (int op = 0; op < NOPS; op++) {
		struct sb_stats st;
		struct sb_row *row;

		if (op == 1 && !has_open)
			continue;
		sb_stats_compute(sm->v[op], sm->n, &st);
		row = sb_table_row(t);
		sb_row_str(row, O_METHOD, method);
		sb_row_str(row, O_OP, op_names[op]);
		sb_row_stats(row, O_STATS, &st);
	}
}

/* Long runs show where they are on a terminal and stay silent when piped. */
static void progress(const char *path, int run, int runs)
{
	if (sb_opt.quiet || !isatty(STDERR_FILENO))
		return;
	if (path)
		fprintf(stderr, "\r" RPMSGCTL " bench: run %d/%d, %s path...   ", run, runs, path);
	else
		fputs("\r\033[K", stderr);
}

/* Ask the kernel once, outside the timed loops, whether the fd ioctl exists. */
static int probe_fd(struct sb_rpmsg_ctl *ctl, const char *name, struct sb_err *e)
{
	struct sb_rpmsg_ept ept;
	int rc = sb_rpmsg_ept_create(ctl, name, SB_RPMSG_ADDR_ANY, SB_RPMSG_ADDR_ANY, O_CLOEXEC,
				     SB_RPMSG_FD, &ept, e);

	if (rc < 0)
		return rc;
	return sb_rpmsg_ept_destroy(&ept, e);
}

/* What the command line asks for, defaults filled in. */
struct bench_opts {
	unsigned loops, runs, ctrl;
	int wait_ms;
	bool require_fd, do_legacy, do_fd;
	const char *ept_name;
};

struct bench {
	struct bench_opts opt;
	struct sb_rpmsg_ctl ctl;
	bool fd_ok;
	struct sb_err fd_err; /* why the fd path is not measured */
	struct samples leg, fds;
};

static int bench_parse(struct sb_ctx *c, int argc, const char **argv, struct bench_opts *opt)
{
	enum { LEGACY, FD, BOTH };
	static const char *const methods[] = { "legacy", "fd", "both", NULL };
	static struct sb_cli_value loops = SB_CLI_NUMBER_VALUE("1000", 1, INT_MAX);
	static struct sb_cli_value runs = SB_CLI_NUMBER_VALUE("1", 1, INT_MAX);
	static struct sb_cli_value method = SB_CLI_ENUM_VALUE("both", methods);
	static struct sb_cli_value ctrl = SB_CLI_NUMBER_VALUE("0", 0, INT_MAX);
	static int require_fd, wait_ms;
	static char *name;
	struct poptOption table[] = {
		{ "loops", 'l', SB_POPT_ARG_VALUE, &loops, 0, "iterations per path and run", "N" },
		{ "runs", '\0', SB_POPT_ARG_VALUE, &runs, 0, "runs, one table row each", "N" },
		{ "method", 'm', SB_POPT_ARG_VALUE, &method, 0, "paths to measure", "METHOD" },
		{ "require-fd", '\0', POPT_ARG_NONE, &require_fd, 0,
		  "exit 3 when the kernel lacks the fd path", NULL },
		{ "ctrl", '\0', SB_POPT_ARG_VALUE, &ctrl, 0, "control device /dev/rpmsg_ctrlN",
		  "N" },
		{ "name", '\0', POPT_ARG_STRING, &name, 0, "endpoint name (default epx)", "NAME" },
		{ "wait", '\0', POPT_ARG_INT, &wait_ms, 0,
		  "wait this long for /dev/rpmsgN (default 5s)", SB_CLI_DURATION },
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	int rc;

	require_fd = 0, wait_ms = 5000;
	name = NULL;
	rc = sb_cli_parse(c, table, NULL, argc, argv, run_cols, ARRAY_SIZE(run_cols));
	if (rc)
		return rc;
	if (wait_ms < 1)
		return sb_usage_error(c, "--wait must be positive");
	if ((rc = sb_cli_live(c)))
		return rc;
	opt->loops = (unsigned)loops.value;
	opt->runs = (unsigned)runs.value;
	opt->ctrl = (unsigned)ctrl.value;
	opt->wait_ms = wait_ms;
	opt->require_fd = require_fd;
	opt->do_legacy = method.value != FD;
	opt->do_fd = method.value != LEGACY;
	opt->ept_name = name ? name : "epx";
	return 0;
}

/* On an open control device: which paths can be measured, the uevent watch, the samples.
 * Returns an exit code. */
static int bench_setup(struct bench *b, struct sb_err *e)
{
	const struct bench_opts *opt = &b->opt;
	size_t n = (size_t)opt->loops * (size_t)opt->runs;

	b->ctl.timeout_ms = opt->wait_ms;
	if (opt->do_fd) {
		b->fd_ok = probe_fd(&b->ctl, opt->ept_name, &b->fd_err) == 0;
		if (!b->fd_ok && (opt->require_fd || !opt->do_legacy ||
				  sb_err_exit_code(&b->fd_err) != SB_EXIT_UNSUPPORTED))
			return sb_report(RPMSGCTL, &b->fd_err);
		if (!b->fd_ok)
			sb_verbose(RPMSGCTL,
				   "fd path unsupported by this kernel; measuring legacy only");
	}
	if (opt->do_legacy && sb_rpmsg_ctl_watch(&b->ctl, e) < 0)
		return sb_report(RPMSGCTL, e);
	if (samples_alloc(&b->leg, n) || samples_alloc(&b->fds, n)) {
		sb_err_set(e, ENOMEM, "bench", "allocate samples", NULL);
		return sb_report(RPMSGCTL, e);
	}
	return 0;
}

static void run_row(struct sb_table *t, const struct bench *b, unsigned run, uint64_t legacy_us,
		    uint64_t fd_us)
{
	struct sb_row *row = sb_table_row(t);

	sb_row_u64(row, R_RUN, (uint64_t)run);
	sb_row_u64(row, R_LOOPS, (uint64_t)b->opt.loops);
	if (b->opt.do_legacy)
		sb_row_u64(row, R_LEGACY, legacy_us);
	if (b->fd_ok)
		sb_row_u64(row, R_FD, fd_us);
	if (b->opt.do_legacy && b->fd_ok && fd_us)
		sb_row_dbl(row, R_RATIO, (double)legacy_us / (double)fd_us);
	sb_row_str(row, R_FD_PATH, b->fd_ok ? "ok" : b->opt.do_fd ? "unsupported" : "not run");
}

/* The runs, a row each in t; a stop signal ends them with a note. Returns an exit code. */
static int bench_runs(struct bench *b, struct sb_out *o, struct sb_table *t, struct sb_err *e)
{
	const struct bench_opts *opt = &b->opt;

	sb_verbose(RPMSGCTL, "%s: measuring %u run(s) of %u iterations", b->ctl.path, opt->runs,
		   opt->loops);
	for (unsigned r = 0; r < opt->runs; r++) {
		uint64_t legacy_us = 0, fd_us = 0;
		int ran = 0;

		if (opt->do_legacy) {
			progress("legacy", (int)r + 1, (int)opt->runs);
			ran = run_legacy(&b->ctl, opt->ept_name, opt->loops, &b->leg, &legacy_us, e);
		}
		if (b->fd_ok && !ran) {
			progress("fd", (int)r + 1, (int)opt->runs);
			ran = run_fd(&b->ctl, opt->ept_name, opt->loops, &b->fds, &fd_us, e);
		}
		if (ran == -EINTR) {
			char why[SB_ERR_LINE_MAX];

			progress(NULL, 0, 0);
			sb_out_note(o, "%s",
				    sb_stop_text(why, sizeof(why),
						 "during run %d: the runs table shows the runs "
						 "completed, the operations table every iteration measured",
						 (int)r + 1));
			break;
		}
		if (ran < 0) {
			progress(NULL, 0, 0);
			return sb_report(RPMSGCTL, e);
		}
		run_row(t, b, r + 1, legacy_us, fd_us);
	}
	progress(NULL, 0, 0);
	return 0;
}

/* What was measured after the runs: node lookups, per-operation statistics, why the fd
 * path was left out. */
static void bench_summary(struct bench *b, struct sb_out *o)
{
	struct sb_table *ops;

	if (b->opt.do_legacy) {
		uint64_t by_inotify, by_listing;

		sb_rpmsg_ctl_lookup_counts(&b->ctl, &by_inotify, &by_listing);
		sb_out_field_u64(o, "lookups_by_inotify", by_inotify);
		sb_out_field_u64(o, "lookups_by_listing", by_listing);
	}
	ops = sb_out_table(o, "operations", "Per operation", op_cols, ARRAY_SIZE(op_cols), false);
	if (b->opt.do_legacy)
		op_rows(ops, "legacy", &b->leg, true);
	if (b->fd_ok)
		op_rows(ops, "fd", &b->fds, false);
	if (b->opt.do_fd && !b->fd_ok) {
		char msg[512];

		sb_err_format(&b->fd_err, msg, sizeof(msg));
		sb_out_note(o, "fd path unsupported: %s", msg);
	}
}

static int bench_measure(struct sb_ctx *c, struct bench *b, struct sb_err *e)
{
	bool legacy = b->opt.do_legacy;
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_table *t;
	int rc;

	sb_out_field_str(o, "control_device", b->ctl.path);
	sb_out_field_str(o, "uevent_source",
			 legacy && b->ctl.mon ? sb_devmon_source(b->ctl.mon) : "none");
	sb_out_field_str(o, "node_lookup", legacy ? sb_rpmsg_ctl_lookup_name(&b->ctl) : "none");
	t = sb_out_table(o, "runs", "Runs", run_cols, ARRAY_SIZE(run_cols), true);
	rc = bench_runs(b, o, t, e);
	if (!rc) {
		bench_summary(b, o);
		rc = sb_out_print(o) < 0 ? SB_EXIT_FAIL : 0;
	}
	sb_out_free(o);
	return rc;
}

int rpmsgctl_bench(struct sb_ctx *c, int argc, const char **argv)
{
	struct bench b = { .ctl = { .fd = -1 } };
	struct sb_err e;
	int rc;

	rc = bench_parse(c, argc, argv, &b.opt);
	if (rc)
		return rc;
	sb_err_clear(&e);
	sb_err_clear(&b.fd_err);
	/* a stop signal ends the runs between two iterations; the completed runs are printed */
	sb_catch_stop_signals();
	if (sb_rpmsg_ctl_open(c->root, b.opt.ctrl, &b.ctl, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	rc = bench_setup(&b, &e);
	if (!rc)
		rc = bench_measure(c, &b, &e);
	samples_free(&b.leg);
	samples_free(&b.fds);
	sb_rpmsg_ctl_close(&b.ctl);
	return sb_stop_status(rc);
}
