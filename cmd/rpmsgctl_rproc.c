// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl rproc: remote processor status and control through sysfs and debugfs. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/escape.h"
#include "socbox/macro.h"
#include "socbox/rproc.h"
#include "socbox/platform.h"
#include "rpmsgctl.h"

enum {
	S_ID,
	S_NAME,
	S_STATE,
	S_RECOVERY,
	S_CRASHES,
	S_FIRMWARE,
	S_COREDUMP,
	S_DEVICE,
	S_TRACES,
	S_CHANNELS,
	S_DEVCD
};
/* The one remoteproc table: 'rpmsgctl list' and 'rpmsgctl rproc status' both print it. */
const struct sb_col rproc_cols[] = {
	[S_ID] = { "ID", SB_T_STR, 0, SB_COL_LABEL, "remoteproc class device", 0 },
	[S_NAME] = { "NAME", SB_T_STR, 0, SB_COL_LABEL, "remote processor name", 0 },
	[S_STATE] = { "STATE", SB_T_STR, 0, SB_COL_METRIC,
		      "offline, running, crashed, attached, ...; crashed also when its driver "
		      "printed a crash it did not report (the state file says running)",
		      0 },
	[S_RECOVERY] = { "RECOVERY", SB_T_STR, 0, SB_COL_METRIC, "automatic recovery after a crash",
			 0 },
	[S_CRASHES] = { "CRASHES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER,
			"crashes since boot (kernel log: the core's count, or the driver's crash "
			"lines when it reports none to the core)",
			0 },
	/* last of the shown: a board's 43-character firmware name makes its row wider than
	 * 80 columns (the identifier stays whole, as lsblk does), not the header's */
	[S_FIRMWARE] = { "FIRMWARE", SB_T_STR, 0, 0, "firmware file below /lib/firmware", 0 },
	[S_COREDUMP] = { "COREDUMP", SB_T_STR, 0, SB_COL_HIDDEN, "coredump mode", 0 },
	[S_DEVICE] = { "DEVICE", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON, "parent device", 0 },
	[S_TRACES] = { "TRACES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		       "debugfs trace buffers", 0 },
	[S_CHANNELS] = { "CHANNELS", SB_T_STRV, 0, SB_COL_WRAP | SB_COL_HIDDEN | SB_COL_JSON,
			 "rpmsg channels it announced", 0 },
	[S_DEVCD] = { "DEVCOREDUMP", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
		      "the devcoredump (devcdN) that holds its core", 0 },
};
const size_t rproc_ncols = ARRAY_SIZE(rproc_cols);

struct sb_table *rproc_table(struct sb_out *o, const char *title, bool primary)
{
	static const char *const recovery[] = { "enabled", "disabled", NULL };
	struct sb_table *t = sb_out_table(o, "remoteprocs", title, rproc_cols, rproc_ncols, primary);

	sb_table_states(t, S_STATE, sb_rproc_states);
	sb_table_states(t, S_RECOVERY, recovery);
	return t;
}

static void opt_cell(struct sb_row *row, int col, const char *s)
{
	sb_row_str(row, col, s[0] ? s : NULL);
}

void rproc_row(struct sb_table *t, const struct sb_rproc *p, const struct sb_rpmsg_state *st)
{
	struct sb_row *row = sb_table_row(t);

	sb_row_str(row, S_ID, p->id);
	opt_cell(row, S_NAME, p->name);
	opt_cell(row, S_STATE, sb_rproc_state_shown(p));
	opt_cell(row, S_FIRMWARE, p->firmware);
	opt_cell(row, S_RECOVERY, p->recovery);
	opt_cell(row, S_COREDUMP, p->coredump);
	opt_cell(row, S_DEVICE, p->device);
	sb_row_u64(row, S_TRACES, p->ntraces);
	for (size_t k = 0; st && k < st->nchannels; k++)
		if (!strcmp(st->channels[k].remoteproc, p->id))
			sb_row_strv_add(row, S_CHANNELS, st->channels[k].name);
	if (p->have_crashes)
		sb_row_u64(row, S_CRASHES, p->crashes);
	opt_cell(row, S_DEVCD, p->devcd);
}

void rproc_crash_notes(struct sb_out *o, const struct sb_rproc *p)
{
	char note[512];

	sb_rproc_state_note(p, note, sizeof(note));
	if (note[0])
		sb_out_problem(o, "%s", note);
	if (p->devcd[0])
		sb_out_note(o,
			    "%s's core is in %s: the kernel frees it %d minutes after the crash; "
			    "'socbox snapshot FILE.tar' keeps it",
			    p->id, p->devcd, SB_DEVCD_TIMEOUT_S / 60);
}

static int rproc_status(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption table[] = { SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_rpmsg_state st;
	struct sb_rproc *all = NULL, one;
	struct sb_platform plat;
	struct sb_table *t;
	struct sb_out *o;
	struct sb_err e;
	char hint[256] = "";
	size_t n = 0;
	int rc = sb_cli_parse(c, table, "[NAME]", argc, argv, rproc_cols, rproc_ncols);

	if (rc)
		return rc;
	if (c->nargs > 1)
		return sb_usage_error(c, "name at most one remote processor");
	sb_err_clear(&e);
	if (c->nargs) {
		if (sb_rproc_find(c->root, c->args[0], &one, &e) < 0)
			return sb_report(RPMSGCTL, &e);
		all = malloc(sizeof(one));
		if (all) {
			all[0] = one;
			n = 1;
		}
	} else if (sb_rproc_list(c->root, &all, &n, &e) < 0) {
		return sb_report(RPMSGCTL, &e);
	}
	if (sb_rpmsg_scan(c->root, &st, &e) < 0) {
		free(all);
		return sb_report(RPMSGCTL, &e);
	}
	rc = 0;
	if (n) { /* none: the error alone says it, no empty table and note before it */
		o = sb_out_new(&c->out, stdout);
		t = rproc_table(o, NULL, true);
		for (size_t i = 0; i < n; i++)
			rproc_row(t, &all[i], &st);
		for (size_t i = 0; i < n; i++)
			rproc_crash_notes(o, &all[i]);
		rc = sb_out_print(o) < 0 ? SB_EXIT_FAIL : 0;
		sb_out_free(o);
	}
	sb_rpmsg_state_free(&st);
	free(all);
	if (!n) {
		sb_platform_read(c->root, &plat);
		sb_rproc_missing_hint(&plat, hint, sizeof(hint));
		sb_err_set(&e, ENODEV, "remoteproc", "list", "%s", hint);
		sb_err_reason(&e, "no remote processor registered");
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		rc = sb_report(RPMSGCTL, &e);
	}
	return rc;
}

/* Parse, find the processor named by the first argument; nargs_max counts it. */
static int parse_target(struct sb_ctx *c, int argc, const char **argv, const char *args_help,
			int nargs_min, int nargs_max, struct sb_rproc *p)
{
	struct poptOption table[] = { SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_err e;
	int rc = sb_cli_parse(c, table, args_help, argc, argv, NULL, 0);

	if (rc)
		return rc;
	if (c->nargs < nargs_min || c->nargs > nargs_max)
		return sb_usage_error(c, "expected %s", args_help);
	if ((rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	if (sb_rproc_find(c->root, c->args[0], p, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	return 0;
}

static int state_cmd(struct sb_ctx *c, int argc, const char **argv, enum sb_rproc_action a)
{
	struct sb_rproc p;
	struct sb_err e;
	int rc = parse_target(c, argc, argv, "NAME", 1, 1, &p);

	if (rc)
		return rc;
	sb_err_clear(&e);
	if (sb_rproc_state_write(c->root, &p, a, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	sb_verbose(RPMSGCTL, "%s: %s done", p.id, c->cmd);
	return 0;
}

static int rproc_start(struct sb_ctx *c, int argc, const char **argv)
{
	return state_cmd(c, argc, argv, SB_RPROC_START);
}

static int rproc_stop(struct sb_ctx *c, int argc, const char **argv)
{
	return state_cmd(c, argc, argv, SB_RPROC_STOP);
}

static int rproc_detach(struct sb_ctx *c, int argc, const char **argv)
{
	return state_cmd(c, argc, argv, SB_RPROC_DETACH);
}

static int rproc_firmware(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_rproc p;
	struct sb_err e;
	int rc = parse_target(c, argc, argv, "NAME [FILE]", 1, 2, &p);

	if (rc)
		return rc;
	if (c->nargs == 1) {
		sb_fputs_escaped(stdout, p.firmware, 0);
		putchar('\n');
		return 0;
	}
	sb_err_clear(&e);
	return sb_rproc_firmware_write(c->root, &p, c->args[1], &e) < 0
		       ? sb_report(RPMSGCTL, &e)
		       : 0;
}

static int rproc_recovery(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_rproc p;
	struct sb_err e;
	bool on;
	int rc = parse_target(c, argc, argv, "NAME [on|off]", 1, 2, &p);

	if (rc)
		return rc;
	if (c->nargs == 1) {
		sb_fputs_escaped(stdout, p.recovery, 0);
		putchar('\n');
		return 0;
	}
	if (!strcmp(c->args[1], "on"))
		on = true;
	else if (!strcmp(c->args[1], "off"))
		on = false;
	else
		return sb_usage_error(c, "'%s': say on or off", c->args[1]);
	sb_err_clear(&e);
	return sb_rproc_recovery_write(c->root, &p, on, &e) < 0 ? sb_report(RPMSGCTL, &e) : 0;
}

static int rproc_crash(struct sb_ctx *c, int argc, const char **argv)
{
	static const char *const types[] = { "mmufault", "watchdog", "fatal", NULL };
	static struct sb_cli_value type = SB_CLI_ENUM_VALUE("watchdog", types);
	struct poptOption table[] = { { "type", '\0', SB_POPT_ARG_VALUE, &type, 0, NULL, "TYPE" },
				      SB_POPT_COMMON,
				      POPT_TABLEEND };
	enum sb_rproc_crash_type t = SB_RPROC_WATCHDOG;
	struct sb_rproc p;
	struct sb_err e;
	int rc;

	rc = sb_cli_parse(c, table, "NAME", argc, argv, NULL, 0);
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "expected NAME");
	if (sb_rproc_crash_type_parse(types[type.value], &t))
		return SB_EXIT_FAIL; /* a word of types[] the library does not know */
	if ((rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	if (sb_rproc_find(c->root, c->args[0], &p, &e) < 0 ||
	    sb_rproc_crash(c->root, &p, t, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	sb_verbose(RPMSGCTL, "%s: crash reported; recovery is %s", p.id, p.recovery);
	return 0;
}

static int rproc_trace(struct sb_ctx *c, int argc, const char **argv)
{
	static struct sb_cli_value index = SB_CLI_NUMBER_VALUE("0", 0, INT_MAX);
	struct poptOption table[] = {
		{ "index", '\0', SB_POPT_ARG_VALUE, &index, 0, "trace buffer number", "N" },
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct sb_rproc p;
	struct sb_err e;
	char *text = NULL;
	int rc;

	rc = sb_cli_parse(c, table, "NAME", argc, argv, NULL, 0);
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "expected NAME");
	sb_err_clear(&e);
	if (sb_rproc_find(c->root, c->args[0], &p, &e) < 0 ||
	    sb_rproc_trace(c->root, &p, (unsigned)index.value, &text, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	sb_fputs_escaped(stdout, text, SB_ESC_KEEP_LINES); /* the remote core's log */
	if (text[0] && text[strlen(text) - 1] != '\n')
		putchar('\n');
	free(text);
	return 0;
}

int rpmsgctl_rproc(struct sb_ctx *c, int argc, const char **argv)
{
	static const struct sb_cmd sub[] = {
		{ "status", rproc_status, "[NAME]", "state, firmware, recovery and channels",
		  SB_CMD_VIEW },
		{ "start", rproc_start, "NAME", "boot the firmware", SB_CMD_LIVE | SB_CMD_ROOT },
		{ "stop", rproc_stop, "NAME", "stop a running processor",
		  SB_CMD_LIVE | SB_CMD_ROOT },
		{ "detach", rproc_detach, "NAME", "detach from a processor the kernel attached to",
		  SB_CMD_LIVE | SB_CMD_ROOT },
		{ "firmware", rproc_firmware, "NAME [FILE]", "show or set the firmware file",
		  SB_CMD_VIEW },
		{ "recovery", rproc_recovery, "NAME [on|off]", "show or set crash recovery",
		  SB_CMD_VIEW },
		{ "trace", rproc_trace, "NAME", "print a debugfs trace buffer", SB_CMD_VIEW },
		{ "crash", rproc_crash, "NAME", "report a crash (debugfs), as its watchdog would",
		  SB_CMD_LIVE | SB_CMD_ROOT },
		{ "cycle", rpmsgctl_rproc_cycle, "NAME",
		  "stop/start or crash/recover N times, checking each",
		  SB_CMD_LIVE | SB_CMD_ROOT | SB_CMD_TESTS },
		{ NULL, NULL, NULL, NULL, 0 },
	};
	return sb_cli_dispatch(RPMSGCTL " rproc", "Remote processor control.", sub, "status", argc,
			       argv);
}
