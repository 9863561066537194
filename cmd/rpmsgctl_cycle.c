// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl rproc cycle: N stop/start (or crash/recover) cycles of a remote processor, each
 * checked (running, rpmsg devices back, optional ping), with per-phase time statistics. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/macro.h"
#include "socbox/progress.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "rpmsgctl.h"

enum { P_PHASE, P_CYCLES, P_STATS, P_NCOLS = P_STATS + SB_STATS_NCOLS };
static const struct sb_col phase_cols[P_NCOLS] = {
	[P_PHASE] = { "PHASE", SB_T_STR, 0, 0,
		      "down (stop, or until the crash is taken), up (start or recovery), devices, ping, cycle (all)",
		      0 },
	[P_CYCLES] = { "CYCLES", SB_T_U64, 0, SB_COL_RIGHT, "cycles measured", 0 },
	[P_STATS] = SB_STATS_COLS("MS", 2, 0),
};
#define NPCOLS ARRAY_SIZE(phase_cols)

/* --format ktap: a test per cycle, "cycle_1" ... */
__attribute__((format(printf, 4, 5))) static void cycle_test(
	struct sb_out *o, unsigned i, enum sb_test_result r, const char *fmt, ...)
{
	char name[32], diag[SB_ERR_LINE_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(diag, sizeof(diag), fmt, ap);
	va_end(ap);
	snprintf(name, sizeof(name), "cycle_%u", i + 1);
	sb_out_test(o, NULL, name, r, "%s", diag);
}

struct cycle_cmd {
	struct sb_rproc_cycle_opts opt;
	const char *name;
	unsigned count;
};

static int cycle_parse(struct sb_ctx *c, int argc, const char **argv, struct cycle_cmd *cmd)
{
	static const char *const types[] = { "mmufault", "watchdog", "fatal", NULL };
	static struct sb_cli_value count = SB_CLI_NUMBER_VALUE("10", 1, INT_MAX);
	static struct sb_cli_value ping_count = SB_CLI_NUMBER_VALUE("3", 1, INT_MAX);
	static struct sb_cli_value ping_size = SB_CLI_NUMBER_VALUE("64", 1, SB_RPMSG_VIRTIO_MTU);
	static struct sb_cli_value crash_type = SB_CLI_ENUM_VALUE("watchdog", types);
	static int crash, timeout_ms;
	static char *ping;
	struct poptOption table[] = {
		{ "count", 'c', SB_POPT_ARG_VALUE, &count, 0, "cycles", "N" },
		{ "crash", '\0', POPT_ARG_NONE, &crash, 0,
		  "crash it (debugfs) and let the core recover it, instead of stop/start", NULL },
		{ "crash-type", '\0', SB_POPT_ARG_VALUE, &crash_type, 0, "with --crash", "TYPE" },
		{ "ping", '\0', POPT_ARG_STRING, &ping, 0,
		  "after each cycle, ping this channel of the processor", "CHANNEL" },
		{ "ping-count", '\0', SB_POPT_ARG_VALUE, &ping_count, 0, "requests per ping check",
		  "N" },
		{ "size", 's', SB_POPT_ARG_VALUE, &ping_size, 0, "ping payload bytes", "BYTES" },
		{ "timeout", 't', POPT_ARG_INT, &timeout_ms, 0, "for each wait (default 10s)",
		  SB_CLI_DURATION },
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct sb_rproc_cycle_opts *o = &cmd->opt;
	int rc;

	crash = 0, timeout_ms = 10000;
	ping = NULL;
	rc = sb_cli_parse(c, table, "NAME", argc, argv, phase_cols, NPCOLS);
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "expected NAME");
	if (timeout_ms < 1)
		return sb_usage_error(c, "--timeout must be positive");
	o->crash = crash;
	if (crash_type.given && !crash)
		return sb_usage_error(c, "--crash-type goes with --crash");
	if (sb_rproc_crash_type_parse(types[crash_type.value], &o->crash_type))
		return SB_EXIT_FAIL; /* a word of types[] the library does not know */
	if ((rc = sb_cli_live(c)))
		return rc;
	o->ping_channel = ping;
	o->ping_count = (unsigned)ping_count.value;
	o->ping_size = (size_t)ping_size.value;
	o->timeout_ms = timeout_ms;
	cmd->name = c->args[0];
	cmd->count = (unsigned)count.value;
	return 0;
}

/* What the cycles measured: milliseconds per phase and cycle, the crash numbers the kernel
 * gave, the failure that ended them. */
struct cycle_log {
	double *ms[SB_CYCLE_NPHASES];
	unsigned first_crash, last_crash;
	bool failed;
	struct sb_err fail;
};

static int cycle_log_alloc(struct cycle_log *log, unsigned count)
{
	for (int ph = 0; ph < SB_CYCLE_NPHASES; ph++)
		if (!(log->ms[ph] = calloc(count, sizeof(double))))
			return -ENOMEM;
	return 0;
}

static void cycle_log_free(struct cycle_log *log)
{
	for (int ph = 0; ph < SB_CYCLE_NPHASES; ph++)
		free(log->ms[ph]);
}

/* The cycles, a KTAP test each in out, until count, the first failure or a stop signal. */
static void cycle_loop(struct sb_ctx *c, const struct cycle_cmd *cmd, struct sb_rproc_cycle *cy,
		       struct cycle_log *log, struct sb_out *out)
{
	struct sb_progress pg;

	sb_progress_start(&pg, sb_progress_wanted(c), stderr, RPMSGCTL " rproc cycle",
			  SB_PROGRESS_ITEMS, "cycles", (uint64_t)cmd->count);
	for (unsigned i = 0; i < cmd->count && !sb_stop_signal; i++) {
		struct sb_rproc_cycle_result res;

		sb_progress_update(&pg, i);
		if (sb_rproc_cycle_run(cy, &res, &log->fail) < 0) {
			char msg[SB_ERR_LINE_MAX];

			sb_err_format(&log->fail, msg, sizeof(msg));
			cycle_test(out, i, SB_TEST_FAIL, "%s", msg);
			log->failed = true;
			break;
		}
		cycle_test(out, i, SB_TEST_PASS, "%.1f ms", res.ms[SB_CYCLE_TOTAL]);
		for (int ph = 0; ph < SB_CYCLE_NPHASES; ph++)
			log->ms[ph][i] = res.ms[ph];
		if (cmd->opt.crash) {
			if (!log->first_crash)
				log->first_crash = res.crash_no;
			log->last_crash = res.crash_no;
		}
		sb_verbose(RPMSGCTL, "cycle %u: %.1f ms", i + 1, res.ms[SB_CYCLE_TOTAL]);
	}
	sb_progress_end(&pg);
}

static void cycle_render(const struct cycle_cmd *cmd, const struct sb_rproc_cycle *cy,
			 const struct cycle_log *log, struct sb_out *out)
{
	const char *ping = cmd->opt.ping_channel;
	bool crash = cmd->opt.crash;
	struct sb_table *t;

	/* KTAP plans every cycle asked for: the ones a failure or a signal cut off are skipped */
	for (unsigned i = cy->done + log->failed; i < cmd->count; i++)
		cycle_test(out, i, SB_TEST_SKIP, "%s",
			   log->failed ? "not run: an earlier cycle failed"
				       : "not run: interrupted");
	sb_out_field_str(out, "remoteproc", cy->p.id);
	sb_out_field_str(out, "name", cy->p.name);
	sb_out_field_str(out, "mode", crash ? "crash" : "stop-start");
	sb_out_field_u64(out, "cycles_requested", (uint64_t)cmd->count);
	sb_out_field_u64(out, "cycles_completed", cy->done);
	sb_out_field_u64(out, "channels", cy->nchannels);
	sb_out_field_u64(out, "control_devices", cy->nctrls);
	if (ping)
		sb_out_field_str(out, "ping_channel", ping);
	if (crash && cy->done) {
		sb_out_field_u64(out, "first_crash", log->first_crash);
		sb_out_field_u64(out, "last_crash", log->last_crash);
	}
	t = sb_out_table(out, "phases", "Per phase", phase_cols, NPCOLS, true);
	for (int ph = 0; ph < SB_CYCLE_NPHASES && cy->done; ph++) {
		struct sb_row *row;
		struct sb_stats st;

		if (ph == SB_CYCLE_PING && !ping)
			continue;
		sb_stats_compute(log->ms[ph], cy->done, &st);
		row = sb_table_row(t);
		sb_row_str(row, P_PHASE, sb_rproc_phase_name((enum sb_rproc_phase)ph));
		sb_row_u64(row, P_CYCLES, cy->done);
		sb_row_stats(row, P_STATS, &st);
	}
	if (log->failed) {
		char msg[SB_ERR_LINE_MAX];

		sb_err_format(&log->fail, msg, sizeof(msg));
		sb_out_field_str(out, "failure", msg);
	}
}

/* After the output: the failure, or the signal that cut the cycles short. */
static int cycle_status(const struct cycle_cmd *cmd, const struct sb_rproc_cycle *cy,
			const struct cycle_log *log, int rc)
{
	struct sb_err e;

	if (log->failed)
		return sb_report(RPMSGCTL, &log->fail);
	if (!sb_stop_signal)
		return rc;
	sb_err_set(&e, EINTR, cy->p.id, "cycle", NULL);
	sb_err_reason(&e, "interrupted after %u of %u cycles", cy->done, cmd->count);
	sb_err_exit(&e, SB_EXIT_FAIL);
	return sb_report(RPMSGCTL, &e);
}

int rpmsgctl_rproc_cycle(struct sb_ctx *c, int argc, const char **argv)
{
	struct cycle_cmd cmd = { 0 };
	struct cycle_log log = { 0 };
	struct sb_rproc_cycle cy;
	struct sb_out *out;
	struct sb_err e;
	int rc;

	rc = cycle_parse(c, argc, argv, &cmd);
	if (rc)
		return rc;
	sb_err_clear(&e);
	sb_err_clear(&log.fail);
	if (sb_rproc_cycle_init(&cy, c->root, cmd.name, &cmd.opt, &e) < 0) {
		sb_rproc_cycle_free(&cy);
		return sb_report(RPMSGCTL, &e);
	}
	if (cycle_log_alloc(&log, cmd.count)) {
		sb_err_set(&e, ENOMEM, "cycle", "allocate samples", NULL);
		rc = sb_report(RPMSGCTL, &e);
		goto out;
	}
	sb_catch_stop_signals();
	sb_verbose(RPMSGCTL,
		   "%s (%s): %u %s cycles; baseline %zu channel(s), %zu control device(s)", cy.p.id,
		   cy.p.name, cmd.count, cmd.opt.crash ? "crash/recover" : "stop/start",
		   cy.nchannels, cy.nctrls);
	out = sb_out_new(&c->out, stdout);
	cycle_loop(c, &cmd, &cy, &log, out);
	cycle_render(&cmd, &cy, &log, out);
	rc = sb_out_print(out) < 0 ? SB_EXIT_FAIL : 0;
	rc = cycle_status(&cmd, &cy, &log, rc);
	sb_out_free(out);
out:
	cycle_log_free(&log);
	sb_rproc_cycle_free(&cy);
	return rc;
}
