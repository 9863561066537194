// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <linux/capability.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "socbox/cli.h"
#include "cli_times.h"
#include "cli_private.h"
#include "socbox/config.h"
#include "socbox/escape.h"
#include "socbox/macro.h"
#include "socbox/suggest.h"
#include "socbox/unpack.h"

struct sb_common_opts sb_opt;

enum { OPT_HELP = 0x1001, OPT_VERSION, OPT_INTERVAL };

const struct sb_cli_format sb_cli_formats[SB_CLI_NFORMATS] = {
	{ "table", SB_OUT_TABLE },
	{ "json", SB_OUT_JSON },
	{ "raw", SB_OUT_RAW },
	{ "pairs", SB_OUT_PAIRS },
	{ "openmetrics", SB_OUT_OPENMETRICS },
	{ "prometheus", SB_OUT_PROMETHEUS },
	{ "ktap", SB_OUT_KTAP },
};

struct poptOption sb_popt_output[] = {
	{ "json", 'J', POPT_ARG_NONE, &sb_opt.json, 0, "JSON output (one object)", NULL },
	{ "output", 'o', POPT_ARG_STRING, &sb_opt.output, 0,
	  "columns to show; +COL,... adds to the default set", "LIST" },
	{ "noheadings", 'n', POPT_ARG_NONE, &sb_opt.noheadings, 0, "do not print headings", NULL },
	{ "bytes", '\0', POPT_ARG_NONE, &sb_opt.bytes, 0, "sizes in exact bytes, not K/M/G", NULL },
	{ "raw", 'r', POPT_ARG_NONE, &sb_opt.raw, 0, "raw output (no alignment)", NULL },
	{ "pairs", 'P', POPT_ARG_NONE, &sb_opt.pairs, 0, "KEY=\"value\" output for shell eval",
	  NULL },
	{ "list-columns", 'H', POPT_ARG_NONE, &sb_opt.list_columns, 0, "list the available columns",
	  NULL },
	{ "format", '\0', POPT_ARG_STRING, &sb_opt.format, 0,
	  "output format: table, json, raw, pairs, openmetrics, prometheus; ktap where the "
	  "command runs checks",
	  "FMT" },
	POPT_TABLEEND
};

/* A sub-table without a heading prints its options in the including table's group. */
struct poptOption sb_popt_count[] = {
	{ "count", 'c', POPT_ARG_INT, &sb_opt.count, 0, "stop after N samples or messages", "N" },
	POPT_TABLEEND
};

struct poptOption sb_popt_live[] = {
	{ "interval", 'i', POPT_ARG_DOUBLE, &sb_opt.interval, OPT_INTERVAL,
	  "sample at this interval (250ms, 2s, 1m)", SB_CLI_DURATION },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_count, 0, NULL, NULL },
	POPT_TABLEEND
};

struct poptOption sb_popt_live_root[] = {
	{ "quiet", 'q', POPT_ARG_NONE, &sb_opt.quiet, 0, "print nothing but results and errors",
	  NULL },
	{ "verbose", 'v', POPT_ARG_NONE, &sb_opt.verbose, 0,
	  "say what is done and which kernel path ran", NULL },
	{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION, "print the version and exit", NULL },
	{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help and exit", NULL },
	POPT_TABLEEND
};

struct poptOption sb_popt_common[] = {
	{ "sysroot", '\0', POPT_ARG_STRING, &sb_opt.sysroot, 0,
	  "read sysfs/procfs/debugfs below DIR, or in a 'socbox snapshot' .tar", "DIR" },
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, sb_popt_live_root, 0, NULL, NULL },
	POPT_TABLEEND
};

void sb_cli_version(const char *applet)
{
	printf("%s (socbox) %s\n", applet, SOCBOX_VERSION);
}

const char sb_exit_codes_help[] =
	"Exit codes: 0 ok, 1 failed, 2 usage error, 3 not supported here,\n"
	"            4 permission denied.\n";

static const char *first_prog;
static const char *const *first_words;

void sb_cli_first_words(const char *prog, const char *const *words)
{
	first_prog = prog;
	first_words = words;
}

/* "APPLET CMD: msg (see 'APPLET CMD OPT'what)" */
static int usage_see(const struct sb_ctx *c, const char *msg, const char *opt, const char *what)
{
	const char *sp = c->cmd ? " " : "", *cmd = c->cmd ? c->cmd : "";

	sb_eprintf("%s%s%s: %s (see '%s%s%s %s'%s)", c->applet, sp, cmd, msg, c->applet, sp, cmd,
		   opt, what);
	return SB_EXIT_USAGE;
}

int sb_usage_error(const struct sb_ctx *c, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	usage_see(c, n < 0 ? "bad usage" : msg, "--help", "");
	if (n >= 0)
		free(msg);
	return SB_EXIT_USAGE;
}

/* Whether the -o name (len bytes of name) is a column of another table the command prints:
 * then msg says which, and where -o selects it. */
static bool other_table(const struct sb_ctx *c, const char *name, size_t len, char *msg, size_t size)
{
	for (size_t t = 0; t < c->nothers; t++) {
		const struct sb_cli_table *o = &c->others[t];

		for (size_t i = 0; i < o->ncols; i++)
			if (strlen(o->cols[i].name) == len &&
			    !strncasecmp(o->cols[i].name, name, len)) {
				snprintf(msg, size,
					 "'%s' belongs to %s, which -o does not select here%s%s%s%s",
					 o->cols[i].name, o->what, o->where ? ": " : "",
					 o->where ? o->where : "", o->where ? " -o +" : "",
					 o->where ? o->cols[i].name : "");
				return true;
			}
	}
	return false;
}

int sb_usage_columns(const struct sb_ctx *c, const struct sb_err *e, const struct sb_col *cols,
		     size_t ncols)
{
	const char *spec = c->out.columns ? c->out.columns : "";
	struct sb_suggest s;
	char msg[sizeof(e->reason) + 96];

	snprintf(msg, sizeof(msg), "%s", e->reason[0] ? e->reason : "bad column list");
	spec += *spec == '+';
	while (*spec) { /* the first unknown name, as the output layer reported it */
		size_t len = strcspn(spec, ",");
		size_t i = 0;

		while (i < ncols &&
		       (strlen(cols[i].name) != len || strncasecmp(cols[i].name, spec, len)))
			i++;
		if (len && i == ncols && other_table(c, spec, len, msg, sizeof(msg)))
			break;
		if (len && i == ncols) {
			sb_suggest_init(&s, spec, len);
			for (i = 0; i < ncols; i++)
				sb_suggest_add(&s, cols[i].name);
			if (sb_suggest_best(&s))
				snprintf(msg, sizeof(msg), "%s; did you mean '%s'?",
					 e->reason[0] ? e->reason : "unknown column",
					 sb_suggest_best(&s));
			break;
		}
		spec += len + (spec[len] == ',');
	}
	return usage_see(c, msg, "-H", " for the columns");
}

int sb_need_live(const struct sb_ctx *c, const char *what)
{
	if (sb_root_is_live(c->root))
		return 0;
	sb_eprintf("%s%s%s: %s%sneeds the live kernel, not a sysroot (run it on the board)",
		   c->applet, c->cmd ? " " : "", c->cmd ? c->cmd : "", what ? what : "",
		   what ? " " : "");
	return SB_EXIT_UNSUPPORTED;
}

/* Whether this process may try what a root command does: root, or a process given
 * capabilities instead (a service with CAP_NET_ADMIN for a devmem binding, CAP_SYS_ADMIN,
 * CAP_DAC_OVERRIDE for sysfs's root-only files), which the kernel then judges. A plain
 * user, without any, is answered before anything is touched. */
static bool privileged(void)
{
	struct __user_cap_header_struct hdr = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3];

	if (geteuid() == 0 || syscall(SYS_capget, &hdr, data))
		return true; /* unknown: the kernel decides, and the command reports it */
	return data[0].effective || data[1].effective;
}

int sb_cli_live(const struct sb_ctx *c)
{
	int rc;

	if (!c->desc || !(c->desc->flags & SB_CMD_LIVE))
		return 0;
	if ((rc = sb_need_live(c, NULL)))
		return rc;
	if ((c->desc->flags & SB_CMD_ROOT) && !privileged()) {
		sb_eprintf("%s%s%s: needs %s%s: it changes the kernel's state (run it as root)",
			   c->applet, c->cmd ? " " : "", c->cmd ? c->cmd : "",
			   c->desc->flags & SB_CMD_NET_ADMIN ? "CAP_NET_ADMIN" : "root",
			   c->desc->flags & SB_CMD_NET_ADMIN ? " (root has it)" : "");
		return SB_EXIT_PERM;
	}
	return 0;
}

int sb_report(const char *applet, const struct sb_err *e)
{
	char buf[1024];

	sb_err_format(e, buf, sizeof(buf));
	sb_eprintf("%s: %s", applet, buf);
	return sb_err_exit_code(e);
}

void sb_verbose(const char *applet, const char *fmt, ...)
{
	va_list ap;
	char *msg;
	int n;

	if (!sb_opt.verbose || sb_opt.quiet)
		return;
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sb_eprintf("%s: %s", applet, msg);
	free(msg);
}

static int output_mode(struct sb_ctx *c)
{
	int n = !!sb_opt.json + !!sb_opt.raw + !!sb_opt.pairs + !!sb_opt.format;

	if (n > 1)
		return sb_usage_error(c, "-J, -r, -P and --format exclude each other");
	c->out.mode = SB_OUT_TABLE;
	if (sb_opt.json)
		c->out.mode = SB_OUT_JSON;
	else if (sb_opt.raw)
		c->out.mode = SB_OUT_RAW;
	else if (sb_opt.pairs)
		c->out.mode = SB_OUT_PAIRS;
	else if (sb_opt.format) {
		const struct sb_cli_format *formats = sb_cli_formats;
		size_t i;
		for (i = 0; i < SB_CLI_NFORMATS; i++)
			if (!strcmp(sb_opt.format, formats[i].name))
				break;
		if (i == SB_CLI_NFORMATS) {
			struct sb_suggest s;

			sb_suggest_init(&s, sb_opt.format, (size_t)-1);
			for (i = 0; i < SB_CLI_NFORMATS; i++)
				if (formats[i].mode != SB_OUT_KTAP || c->tests)
					sb_suggest_add(&s, formats[i].name);
			if (sb_suggest_best(&s))
				return sb_usage_error(c, "unknown format '%s'; did you mean '%s'?",
						      sb_opt.format, sb_suggest_best(&s));
			return sb_usage_error(c,
					      "unknown format '%s' (table, json, raw, pairs, "
					      "openmetrics%s)",
					      sb_opt.format,
					      c->tests ? ", prometheus or ktap" : " or prometheus");
		}
		if (formats[i].mode == SB_OUT_KTAP && !c->tests)
			return sb_usage_error(c,
					      "--format ktap: this command runs no checks (socbox "
					      "doctor, smmustat check, rpmsgctl ping, rproc cycle and "
					      "dmabufcp copy do)");
		c->out.mode = formats[i].mode;
	}
	c->out.noheadings = sb_opt.noheadings;
	c->out.quiet = sb_opt.quiet;
	c->out.bytes = sb_opt.bytes;
	c->out.columns = sb_opt.output;
	c->out.list_columns = sb_opt.list_columns;
	if (!c->out.metrics_ns)
		c->out.metrics_ns = c->applet;
	return 0;
}

/* popt hands string options over as malloc'ed copies. */
static void free_common_strings(void)
{
	free(sb_opt.output);
	free(sb_opt.format);
	free(sb_opt.sysroot);
	sb_opt.output = sb_opt.format = sb_opt.sysroot = NULL;
}

/* popt reads an empty string as the number 0: "--pid ''" would mean "no filter" and
 * "--count ''" "no limit". Numeric options given an empty value are found here, before
 * popt parses (the forms "--long ''", "--long=" and "-x ''"). */
static const struct poptOption *numeric_option(const struct poptOption *t, const char *arg)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		unsigned type = t->argInfo & POPT_ARG_MASK;

		if (type == POPT_ARG_INCLUDE_TABLE) {
			const struct poptOption *o = numeric_option(t->arg, arg);
			if (o)
				return o;
			continue;
		}
		if (type != POPT_ARG_INT && type != POPT_ARG_LONG && type != POPT_ARG_DOUBLE &&
		    type != POPT_ARG_LONGLONG && type != POPT_ARG_SHORT && type != POPT_ARG_FLOAT)
			continue;
		if (arg[1] == '-' ? t->longName && !strcmp(arg + 2, t->longName)
				  : t->shortName && arg[1] == t->shortName && !arg[2])
			return t;
	}
	return NULL;
}

static void offer_options(struct sb_suggest *s, const struct poptOption *t)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++) {
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE)
			offer_options(s, t->arg);
		else if (t->longName && !(t->argInfo & POPT_ARGFLAG_DOC_HIDDEN))
			sb_suggest_add(s, t->longName);
	}
}

/* popt's "--jsn: unknown option", with the long option meant when one is close */
static int bad_option(const struct sb_ctx *c, const struct poptOption *table, int rc)
{
	const char *bad = poptBadOption(c->popt, POPT_BADOPTION_NOALIAS);
	struct sb_suggest s;

	if (rc != POPT_ERROR_BADOPT || strncmp(bad, "--", 2))
		return sb_usage_error(c, "%s: %s", bad, poptStrerror(rc));
	sb_suggest_init(&s, bad + 2, strcspn(bad + 2, "="));
	offer_options(&s, table);
	if (!sb_suggest_best(&s))
		return sb_usage_error(c, "%s: %s", bad, poptStrerror(rc));
	return sb_usage_error(c, "%s: %s; did you mean '--%s'?", bad, poptStrerror(rc),
			      sb_suggest_best(&s));
}

static bool has_option(const struct poptOption *t, const char *name)
{
	for (; t && (t->longName || t->shortName || t->argInfo || t->arg); t++)
		if ((t->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE
			    ? has_option(t->arg, name)
			    : t->longName && !strcmp(t->longName, name))
			return true;
	return false;
}

/* -J's help says what this command prints (the JSON shape is decided below) */
static void json_help(const struct sb_ctx *c, const struct poptOption *table)
{
	bool i = has_option(table, "interval"), f = has_option(table, "follow");

	sb_popt_output[0].descrip =
		c->streams ? "JSON Lines output (one object per line)"
		: i && f   ? "JSON output (one object; JSON Lines with -i, -c or -f)"
		: i	   ? "JSON output (one object; JSON Lines with -i or -c)"
		: f	   ? "JSON output (one object; JSON Lines with -f)"
			   : "JSON output (one object)";
}

static int empty_numeric_value(const struct sb_ctx *c, const struct poptOption *table, int argc,
			       const char **argv)
{
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const struct poptOption *o;
		const char *eq = strchr(argv[i], '=');
		char name[128];

		if (argv[i][0] != '-' || !argv[i][1])
			continue;
		if (argv[i][1] == '-' && eq && !eq[1]) {
			snprintf(name, sizeof(name), "%.*s", (int)(eq - argv[i]), argv[i]);
			o = numeric_option(table, name);
		} else {
			o = i + 1 < argc && !argv[i + 1][0] ? numeric_option(table, argv[i]) : NULL;
		}
		if (o) {
			if (o->longName)
				return sb_usage_error(c, "--%s needs a number, not an empty string",
						      o->longName);
			return sb_usage_error(c, "-%c needs a number, not an empty string",
					      o->shortName);
		}
	}
	return 0;
}

/* --sysroot DIR, or the tarball 'socbox snapshot OUT.tar' wrote: unpacked as socbox diff
 * unpacks its operands (socbox/unpack.h), read as any sysroot, removed by sb_ctx_done() */
static int open_root(struct sb_ctx *c, struct sb_err *e)
{
	const char *sysroot = sb_opt.sysroot;
	struct stat st;
	int rc;

	if (!sysroot || !*sysroot)
		sysroot = getenv("SOCBOX_SYSROOT");
	if (!sysroot || !*sysroot || stat(sysroot, &st) || !S_ISREG(st.st_mode))
		return sb_root_open(&c->root, sysroot, e);
	c->unpacked = malloc(PATH_MAX);
	if (!c->unpacked)
		return sb_err_set(e, ENOMEM, sysroot, "unpack snapshot", NULL);
	rc = sb_unpack_tar(sysroot, "socbox-sysroot", c->unpacked, PATH_MAX, e);
	if (rc)
		return rc;
	sb_verbose(c->applet, "%s: unpacked into %s", sysroot, c->unpacked);
	/* SIGINT, SIGTERM, SIGHUP and SIGPIPE end the run through sb_ctx_done(), which
	 * removes the directory, instead of ending the process past it */
	sb_catch_stop_signals();
	return sb_root_open(&c->root, c->unpacked, e);
}

int sb_cli_parse(struct sb_ctx *c, struct poptOption *table, const char *args_help, int argc,
		 const char **argv, const struct sb_col *cols, size_t ncols)
{
	char name[128], other[256];
	struct sb_cli_times times;
	const char *fake_argv0;
	struct sb_err e;
	bool interval_given = false;
	int rc;

	free_common_strings();
	memset(&sb_opt, 0, sizeof(sb_opt));
	if (argc >= 2 && !strcmp(argv[1], SB_CLI_COMPLETE_WORDS))
		return sb_cli_complete_words(c, table, argc > 2 ? argv[2] : "");
	snprintf(name, sizeof(name), "%s%s%s", c->applet, c->cmd ? " " : "", c->cmd ? c->cmd : "");
	snprintf(other, sizeof(other), "[OPTION...]%s%s", args_help ? " " : "",
		 args_help ? args_help : "");
	rc = empty_numeric_value(c, table, argc, argv);
	if (rc)
		return rc;
	json_help(c, table);
	fake_argv0 = argv[0];
	argv[0] = name;
	c->popt = poptGetContext(name, argc, argv, table, 0);
	poptSetOtherOptionHelp(c->popt, other);
	sb_cli_times_begin(&times, table);
	while ((rc = poptGetNextOpt(c->popt)) > 0) {
		rc = sb_cli_times_take(c, &times, rc);
		if (rc < 0 || rc == OPT_HELP || rc == OPT_VERSION)
			break;
		if (rc == OPT_INTERVAL)
			interval_given = true;
	}
	if (rc == OPT_HELP) { /* popt names the program after argv[0]; typed options' help
			       * carries their defaults while lent */
		poptPrintHelp(c->popt, stdout, 0);
		fputs(sb_exit_codes_help, stdout);
	}
	sb_cli_times_end(&times);
	argv[0] = fake_argv0;
	if (rc == -SB_EXIT_USAGE)
		return SB_EXIT_USAGE;
	if (rc == OPT_HELP)
		return SB_CLI_DONE;
	if (rc == OPT_VERSION) {
		sb_cli_version(c->applet);
		return SB_CLI_DONE;
	}
	if (rc < -1)
		return bad_option(c, table, rc);
	c->args = poptGetArgs(c->popt);
	for (c->nargs = 0; c->args && c->args[c->nargs]; c->nargs++)
		;
	/* "devmemstat --netns X queues": only for commands without arguments, where a
	 * command name cannot be a value */
	for (int i = 0; c->cmds && !args_help && i < c->nargs; i++)
		for (const struct sb_cmd *k = c->cmds; k->name; k++)
			if (!strcmp(k->name, c->args[i]))
				return sb_usage_error(
					c,
					"'%s' is a command: it comes first, before the options "
					"('%s %s ...')",
					k->name, c->applet, k->name);
	/* "socbox --sysroot X doctor": the same mistake one level up */
	for (int i = 0; first_words && !args_help && i < c->nargs; i++)
		for (const char *const *w = first_words; *w; w++)
			if (!strcmp(*w, c->args[i])) {
				sb_eprintf("%s: '%s' is a command: it comes first, before the "
					   "options ('%s %s ...') (see '%s --help')",
					   first_prog, *w, first_prog, *w, first_prog);
				return SB_EXIT_USAGE;
			}
	if (!args_help && c->nargs)
		return sb_usage_error(c, "unexpected argument '%s'", c->args[0]);
	rc = output_mode(c);
	if (rc)
		return rc;
	/* The one place that decides the JSON shape: a command that repeats (-i, -c, --follow,
	 * or one that streams by nature) prints one compact object per line (JSON Lines), so a
	 * line-by-line reader can follow it; anything else prints one indented object. */
	c->out.pretty = !(c->streams || interval_given || sb_opt.count > 0 || sb_opt.follow);
	/* -i 0 would mean "one sample" to one command and "1 s" to another: not a value */
	if (interval_given && (!(sb_opt.interval > 0) || sb_opt.interval > SB_INTERVAL_MAX))
		return sb_usage_error(c,
				      "--interval must be a number of seconds above 0, at most %d",
				      SB_INTERVAL_MAX);
	if (sb_opt.sysroot && !*sb_opt.sysroot)
		return sb_usage_error(
			c,
			"--sysroot needs a directory (without --sysroot the live system is read)");
	if (sb_opt.count < 0)
		return sb_usage_error(c, "--count must not be negative");
	if (cols) {
		if (c->out.list_columns) {
			sb_out_list_columns(&c->out, stdout, cols, ncols);
			return SB_CLI_DONE;
		}
		sb_err_clear(&e);
		if (sb_out_check_columns(c->out.columns, cols, ncols, &e))
			return sb_usage_columns(c, &e, cols, ncols);
	}
	sb_err_clear(&e);
	rc = open_root(c, &e);
	if (rc) {
		sb_report(c->applet, &e);
		/* a --sysroot that is no directory is the command line's fault; the kernel
		 * failing to open one (ENOMEM) is not */
		return e.errnum == ENOENT || e.errnum == ENOTDIR
			       ? SB_EXIT_USAGE
			       : sb_err_exit_code(&e);
	}
	/* the walk where the kernel lacks openat2: said, as every probe's fallback is */
	if (sb_probe_is_fallback(sb_root_resolver(c->root))) {
		char line[SB_ERR_LINE_MAX];

		sb_root_resolver_text(c->root, line, sizeof(line));
		sb_verbose(c->applet, "%s", line);
	}
	return 0;
}

int sb_cli_exit(const struct sb_ctx *c, int rc)
{
	if (rc >= 0)
		return rc;
	if (rc == SB_CLI_DONE)
		return 0;
	sb_eprintf("%s%s%s: %s", c->applet, c->cmd ? " " : "", c->cmd ? c->cmd : "",
		   sb_strerror(-rc));
	return sb_exit_from_errno(rc);
}

void sb_ctx_done(struct sb_ctx *c)
{
	if (c->popt)
		poptFreeContext(c->popt);
	c->popt = NULL;
	sb_root_close(c->root);
	c->root = NULL;
	sb_unpack_remove(c->unpacked);
	free(c->unpacked);
	c->unpacked = NULL;
	c->out.columns = NULL;
	free_common_strings();
}
