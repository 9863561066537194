/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Command-line conventions shared by every applet: common popt options, sub-command
 * dispatch (verbs matched exactly, never by prefix), help, usage errors and the one-line
 * error format "APPLET: OBJECT: what failed: reason (hint)". */
#ifndef SOCBOX_CLI_H
#define SOCBOX_CLI_H

#include <popt.h>
#include <stdbool.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/out.h"
#include "socbox/stop.h"
#include "socbox/sys.h"

/* Values of the common options. One instance per process (popt tables need fixed
 * addresses); reset by sb_cli_parse() before each parse. */
struct sb_common_opts {
	int json, raw, pairs, noheadings, list_columns, bytes;
	char *output;
	char *format; /* "table", "json", "raw", "pairs", "openmetrics" */
	char *sysroot;
	double interval; /* -i SEC; 0 = not given */
	int count;	 /* -c N; 0 = not given */
	int follow;	 /* -f of the commands that have it (SB_POPT_FOLLOW) */
	int quiet, verbose;
};
extern struct sb_common_opts sb_opt;

/* Option tables to include in a command's popt table, e.g.
 *   { NULL, 0, POPT_ARG_INCLUDE_TABLE, sb_popt_output, 0, "Output options:", NULL } */
extern struct poptOption sb_popt_output[]; /* -J -o -n -r -P -H --format */
extern struct poptOption sb_popt_live[];   /* -i -c */
extern struct poptOption sb_popt_common[]; /* --sysroot -q -v -V -h */
extern struct poptOption sb_popt_count[];  /* -c, for what waits for records but never samples */
/* -q -v -V -h, for what reads the live system only (snapshot) */
extern struct poptOption sb_popt_live_root[];
#define SB_POPT_OUTPUT \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_output, 0, "Output options:", NULL \
	}
#define SB_POPT_LIVE \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_live, 0, "Sampling options:", NULL \
	}
#define SB_POPT_COMMON \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_common, 0, "Common options:", NULL \
	}

#define SB_POPT_COUNT \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_count, 0, "Sampling options:", NULL \
	}
#define SB_POPT_LIVE_ROOT \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_live_root, 0, "Common options:", NULL \
	}

/* --follow, for commands that wait for new records; its help names what is followed. */
#define SB_POPT_FOLLOW(help) \
	{ \
		"follow", 'f', POPT_ARG_NONE, &sb_opt.follow, 0, help, NULL \
	}

/* The argument name of a duration option ("250ms", "2s", "1m"; a bare number is seconds in
 * every applet): sb_cli_parse() converts it in popt's loop into the option's int
 * (milliseconds) or double (seconds). */
#define SB_CLI_DURATION "DURATION"

/* Options with a real type, converted like durations in popt's own loop, their default and
 * bounds written once, in the value the entry points to:
 *   static struct sb_cli_value chunk = SB_CLI_SIZE_VALUE("32M", 1, SB_CLI_NO_MAX);
 *   { "chunk-size", 's', SB_POPT_ARG_VALUE, &chunk, 0, "bytes per buffer", "SIZE" },
 * sb_cli_parse() sets .value to the default before it parses (.given says whether the command
 * line gave one), refuses a value of the wrong form or outside the bounds with one usage
 * error naming the option, the value and the bounds (exit 2), and --help appends
 * "(default X)" to the option's help. NUMBER: a whole number, decimal or hex after 0x; SIZE:
 * a number of bytes with K, M, G, T (powers of 1024, as sb_parse_size); ENUM: one word of
 * names, .value its index (the help lists them after the option's help, if any). */
enum sb_cli_kind { SB_CLI_NUMBER, SB_CLI_SIZE, SB_CLI_ENUM };
struct sb_cli_value {
	enum sb_cli_kind kind;
	const char *def;	  /* the default as a user writes it; NULL: none (0) */
	uint64_t min, max;	  /* NUMBER and SIZE */
	const char *const *names; /* ENUM: NULL-terminated */
	uint64_t value;
	bool given;
};
/* The argInfo of an entry whose arg is a struct sb_cli_value (a type popt does not use; only
 * sb_cli_parse() gives such a table to popt). */
#define SB_POPT_ARG_VALUE 0x70U
#define SB_CLI_NO_MAX UINT64_MAX
#define SB_CLI_NUMBER_VALUE(d, lo, hi) \
	{ \
		.kind = SB_CLI_NUMBER, .def = (d), .min = (lo), .max = (hi) \
	}
#define SB_CLI_SIZE_VALUE(d, lo, hi) \
	{ \
		.kind = SB_CLI_SIZE, .def = (d), .min = (lo), .max = (hi) \
	}
/* a default from a numeric constant: SB_CLI_NUMBER_VALUE(SB_CLI_TEXT(SB_RPMSG_VIRTIO_MTU), ...) */
#define SB_CLI_TEXT(n) SB_CLI_TEXT_(n)
#define SB_CLI_TEXT_(n) #n
#define SB_CLI_ENUM_VALUE(d, list) \
	{ \
		.kind = SB_CLI_ENUM, .def = (d), .names = (list) \
	}

/* -i above a day is a typo, not a sampling plan (and NaN or infinity never is one). */
#define SB_INTERVAL_MAX 86400

/* What a command gets. */
/* A table a command prints besides the one its -o selects: an -o name of it is told where
 * it belongs. */
struct sb_cli_table {
	const char *what;  /* "the remote processors" */
	const char *where; /* the command whose -o selects it ("rpmsgctl rproc status"), or NULL */
	const struct sb_col *cols;
	size_t ncols;
};

struct sb_ctx {
	const char *applet;   /* "rpmsgctl" */
	const char *cmd;      /* "list" */
	struct sb_root *root; /* opened by sb_cli_parse() from --sysroot/$SOCBOX_SYSROOT */
	struct sb_out_opts out;
	poptContext popt;  /* kept until sb_ctx_done() so argument strings stay valid */
	const char **args; /* positional arguments after the options */
	int nargs;
	bool streams;		   /* the command's SB_CMD_STREAMS */
	bool tests;		   /* the command's SB_CMD_TESTS: --format ktap is offered */
	const struct sb_cmd *cmds; /* the applet's commands, for usage errors */
	const struct sb_cmd *desc; /* the command's own descriptor (NULL: none) */
	char *unpacked; /* a --sysroot tarball's private directory, removed by sb_ctx_done() */
	const struct sb_cli_table *others; /* set before sb_cli_parse(): its other tables */
	size_t nothers;
};

/* What a command is and needs: the flags of its descriptor (struct sb_cmd). The dispatcher,
 * socbox metrics, `socbox --list-commands` (and through it tests/views, completions and the
 * manual pages' checks) read them from there and nowhere else. */
enum sb_cmd_flags {
	SB_CMD_STREAMS = 1 << 0, /* prints record after record until stopped (monitor, top) */
	SB_CMD_TESTS = 1 << 1,	 /* runs checks and reports them with sb_out_test() (ktap) */
	SB_CMD_VIEW = 1 << 2,	 /* reads the live system or a --sysroot and changes nothing */
	SB_CMD_LIVE = 1 << 3,	 /* needs the live kernel: on a sysroot, sb_cli_live() answers */
	SB_CMD_ROOT = 1 << 4,	 /* needs root (writes sysfs, binds, maps): sb_cli_live() answers */
	SB_CMD_COLLECTOR =
		1 << 5, /* socbox metrics runs it (bounded labels), labelled "APPLET CMD" */
	SB_CMD_APPLET_LABEL = 1 << 6, /* ... labelled with the applet's name alone (older label) */
	SB_CMD_GROUP = 1 << 7,	      /* has commands of its own ("rpmsgctl rproc") */
	SB_CMD_OWN_METRICS = 1 << 8,  /* its metric families are named after it, not the applet */
	SB_CMD_NET_ADMIN = 1 << 9,    /* with SB_CMD_ROOT: CAP_NET_ADMIN does instead (the answer
				    * to a plain user names it) */
};

/* A command's descriptor: an applet's table of them is its registry (cmd/<applet>.c), socbox's
 * own commands are the SB_COMMAND lines of cmd/applets.def. */
struct sb_cmd {
	const char *name;
	int (*run)(struct sb_ctx *c, int argc, const char **argv);
	const char *args; /* positional arguments for usage ("NAME"), NULL when none */
	const char *summary;
	unsigned flags; /* enum sb_cmd_flags */
};

struct sb_applet {
	const char *name;
	int (*main)(int argc, const char **argv);
	const char *summary;
	const struct sb_cmd *cmds; /* its commands' descriptors */
};

/* Common options before the command ("rpmsgctl --sysroot DIR rproc status"): the index in
 * argv of the word is_command() accepts after only common options (--sysroot, -J, -o, -q,
 * -v, --netns, --format, --bytes), or 0 when argv[1] is not such an option or none follows. */
int sb_cli_command_after_options(
	int argc, const char **argv, bool (*is_command)(const char *word, const void *arg),
	const void *arg);
/* A copy of argv (the array, not the strings) with argv[at] moved to argv[1]; NULL when out
 * of memory. Free it with free() once the command has run. */
const char **sb_cli_command_first(int argc, const char **argv, int at);

/* The exit codes every --help ends with (the one list; two lines, for 80 columns). */
extern const char sb_exit_codes_help[];

/* Dispatch "APPLET [COMMAND] [OPTIONS] [ARGS]": argv[1] names the command when it does not
 * start with '-' and matches a command exactly; otherwise the default command runs with all
 * arguments (an unknown word is a usage error unless the default command takes arguments).
 * Handles "APPLET --help" (commands listed) and "APPLET --version". The command's run()
 * gets argv with argv[0] = the command name and must call sb_cli_parse(). */
int sb_cli_dispatch(const char *applet, const char *summary, const struct sb_cmd *cmds,
		    const char *default_cmd, int argc, const char **argv);

/* Run one command of cmds as "APPLET CMD": a context made from its descriptor, its run(), the
 * exit status (sb_cli_exit()) and the release of what it took. What the dispatcher does once
 * it has found the command; socbox's own commands and socbox metrics' collectors run so. */
int sb_cli_run(const char *applet, const struct sb_cmd *cmds, const struct sb_cmd *cmd, int argc,
	       const char **argv);
/* The hidden "--list-commands" of every dispatcher: a line per command of cmds on stdout,
 * "PREFIX CMD<TAB>FLAGS<TAB>LABEL" (FLAGS: view, live, root, checks, streams, collector,
 * default, comma-separated, or "-"; LABEL: its socbox metrics collector label, or "-"); a
 * group's commands (SB_CMD_GROUP) come from its own dispatcher. */
void sb_cli_list_commands(const char *prefix, const struct sb_cmd *cmds, const char *default_cmd);
/* ... the line of one command k */
void sb_cli_list_command(const char *prefix, const struct sb_cmd *k, bool is_default);

/* Parse a command's options. table must end with POPT_TABLEEND and should include
 * SB_POPT_COMMON (and SB_POPT_OUTPUT for views). args_help is shown in usage
 * ("NAME --src A --dst B"). Fills c (root opened, output options set, positional arguments
 * in c->args). Returns 0 to go on, or an exit code (> 0) after printing the problem, or
 * SB_CLI_DONE after --help/--version was printed (exit 0). With cols non-NULL, -o is
 * checked and -H is handled here (returns SB_CLI_DONE after listing). */
int sb_cli_parse(struct sb_ctx *c, struct poptOption *table, const char *args_help, int argc,
		 const char **argv, const struct sb_col *cols, size_t ncols);
/* What a command returns when it printed what was asked (--help, --version, -H) and has
 * nothing else to do: exit 0. Far below any -errno, so never taken for one. */
#define SB_CLI_DONE (-0x10000)
/* The exit status of a command's return value rc: rc itself when >= 0, 0 for SB_CLI_DONE,
 * and for an -errno that nobody reported one line ("APPLET CMD: reason") and its code from
 * sb_exit_from_errno() (1 for a failed operation, 3 for an absent device or feature, 4 for
 * a denied permission): a negative return never exits 0. */
int sb_cli_exit(const struct sb_ctx *c, int rc);
/* Release what sb_cli_parse() took. */
void sb_ctx_done(struct sb_ctx *c);

/* "APPLET CMD: message (see 'APPLET CMD --help')" on stderr; returns SB_EXIT_USAGE. */
int sb_usage_error(const struct sb_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* What needs the running kernel (ioctls, netlink, perf, following the log) asked of a
 * sysroot: 0 on the live system, else "APPLET CMD: WHAT needs the live kernel, not a
 * sysroot" on stderr and SB_EXIT_UNSUPPORTED (not possible here, whatever the command line). */
int sb_need_live(const struct sb_ctx *c, const char *what);
/* Where a command starts to act, once its command line is known to be valid (a usage error
 * is still 2 on a sysroot) and before anything is read or opened: the framework's one answer
 * when the command's descriptor says SB_CMD_LIVE and the root is a sysroot, "APPLET CMD: needs
 * the live kernel, not a sysroot (run it on the board)" and SB_EXIT_UNSUPPORTED; when it
 * also says SB_CMD_ROOT and the process is neither root nor holds any capability (a plain
 * user), "APPLET CMD: needs root: ..." and SB_EXIT_PERM; else 0. The descriptor
 * decides, so a command that is a view in one form calls it all the same. */
int sb_cli_live(const struct sb_ctx *c);
/* An -o list the output layer refused (e from sb_out_check_columns()): the reason, the
 * column meant when one is close, and a pointer to -H, which lists them. SB_EXIT_USAGE. */
int sb_usage_columns(const struct sb_ctx *c, const struct sb_err *e, const struct sb_col *cols,
		     size_t ncols);
/* The words of the program above the applets ("socbox" and its applets and commands): one
 * given after the options is explained as a misplaced command (NULL-terminated list). */
void sb_cli_first_words(const char *prog, const char *const *words);
/* "APPLET: OBJECT: what: reason (hint)" on stderr; returns the exit code for e. */
int sb_report(const char *applet, const struct sb_err *e);
/* Progress and --verbose messages on stderr (suppressed by -q). */
void sb_verbose(const char *applet, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Parse helpers for option values: sizes with K/M/G suffixes (powers of 1024; the number
 * decimal, or hex after 0x, never octal, as sb_parse_u64) and CPU or queue lists ("0-3,8").
 * Return 0 or -EINVAL. */
int sb_parse_size(const char *s, uint64_t *out);
/* A duration: a number with a unit (us, ms, s, m, h, d: "500ms", "1.5s") or a bare number
 * of bare_unit_s seconds; never negative, never NaN or infinite. Options whose argument is
 * named DURATION in --help take these from sb_cli_parse() without code of their own. */
int sb_parse_duration(const char *s, double bare_unit_s, double *out_s);
int sb_parse_list(const char *s, unsigned max, unsigned **out, unsigned *n);

#endif
