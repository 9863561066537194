// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox metrics: the metrics of every subsystem in one exposition, on stdout or as the
 * .prom file of node_exporter's textfile collector. Each view runs in a child process of its
 * own (the view's code, state and failures stay its own; a view that hangs on a file is
 * killed after COLLECTOR_TIMEOUT_S), and its --format output becomes part of the exposition.
 * Which views: the ones whose labels stay bounded on a running board (no per-pool or
 * per-buffer series; see man socbox). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/escape.h"
#include "socbox/limits.h"
#include "socbox/macro.h"
#include "socbox/textfile.h"

#define COLLECTOR_TIMEOUT_S 30
#define TEXTFILE_NAME "socbox.prom"

/* A view socbox metrics runs: a descriptor marked SB_CMD_COLLECTOR (cmd/applets.def for
 * socbox's own commands, <applet>_cmds[] for the applets'), labelled with its command line
 * or, under SB_CMD_APPLET_LABEL, the applet's name (tests/cli/views.sh holds the labels to
 * tests/views and the samples to the views' own). */
struct collector {
	char name[48];			/* its label */
	const struct sb_applet *applet; /* NULL: one of socbox's own commands */
	const struct sb_cmd *cmd;
};
#define COLLECTORS_MAX 32
static struct collector collectors[COLLECTORS_MAX];
static size_t ncollectors;

static void add_collector(const struct sb_applet *a, const struct sb_cmd *k)
{
	struct collector *x = &collectors[ncollectors];

	if (ncollectors == COLLECTORS_MAX)
		abort(); /* a registry this large is a mistake of the build, not of the board */
	x->applet = a;
	x->cmd = k;
	if (!a)
		snprintf(x->name, sizeof(x->name), "%s", k->name);
	else if (k->flags & SB_CMD_APPLET_LABEL)
		snprintf(x->name, sizeof(x->name), "%s", a->name);
	else
		snprintf(x->name, sizeof(x->name), "%s %s", a->name, k->name);
	ncollectors++;
}

/* The collectors, in the order of applets.def */
static void find_collectors(void)
{
	static const char *const order[] = {
#define SB_COMMAND(name, flags, summary) #name,
#define SB_APPLET(name, summary) #name,
#include "applets.def"
#undef SB_APPLET
#undef SB_COMMAND
	};

	ncollectors = 0;
	for (size_t i = 0; i < ARRAY_SIZE(order); i++) {
		for (const struct sb_cmd *k = socbox_cmds; k->name; k++)
			if (!strcmp(k->name, order[i]) && (k->flags & SB_CMD_COLLECTOR))
				add_collector(NULL, k);
		for (const struct sb_applet *a = socbox_applets; a->name; a++)
			if (!strcmp(a->name, order[i]))
				for (const struct sb_cmd *k = a->cmds; k->name; k++)
					if (k->flags & SB_CMD_COLLECTOR)
						add_collector(a, k);
	}
}

enum { K_COLLECTOR, K_SUCCESS, K_EXIT, K_DURATION };
static const struct sb_col collector_cols[] = {
	[K_COLLECTOR] = { "COLLECTOR", SB_T_STR, 0, SB_COL_LABEL,
			  "the view (command line) that was run", 0 },
	[K_SUCCESS] = { "SUCCESS", SB_T_BOOL, 0, SB_COL_METRIC,
			"it answered: exit 0 or 1 for a failed check (its metrics are here), or 3 (not on this system)",
			0 },
	[K_EXIT] = { "EXIT_CODE", SB_T_S64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		     "its exit status (3: not on this system, 4: permission; -1: killed)", 0 },
	[K_DURATION] = { "DURATION_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "how long it ran",
			 3 },
};

struct result {
	char *out;
	size_t len;
	int exit_code; /* -1: killed or died of a signal */
	double seconds;
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void child(const struct collector *k, int fd, const char *format, const char *sysroot)
{
	const char *argv[8];
	int argc = 0;

	dup2(fd, STDOUT_FILENO);
	if (!sb_opt.verbose) { /* "no IOMMU here" is an answer (exit 3), not noise */
		int nul = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (nul >= 0)
			dup2(nul, STDERR_FILENO);
	}
	signal(SIGPIPE, SIG_DFL);
	if (k->applet)
		argv[argc++] = k->applet->name;
	argv[argc++] = k->cmd->name;
	argv[argc++] = "--format";
	argv[argc++] = format;
	if (sysroot) {
		argv[argc++] = "--sysroot";
		argv[argc++] = sysroot;
	}
	argv[argc] = NULL;
	int rc = k->applet ? k->applet->main(argc, argv)
			   : sb_cli_run("socbox", NULL, k->cmd, argc, argv);
	fflush(stdout);
	_exit(rc);
}

/* Read the child's output until EOF, the size limit or the deadline. */
static int drain(int fd, struct result *r, double deadline)
{
	size_t cap = 0;

	for (;;) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		double left = deadline - now();
		ssize_t n;

		if (left <= 0 || sb_stop_signal)
			return -ETIMEDOUT;
		n = sb_poll(&p, 1, (int)(left * 1000) + 1);
		if (n == -EINTR) /* a stop signal: seen above */
			continue;
		if (n < 0)
			return (int)n;
		if (r->len + 65536 + 1 > cap) {
			char *t;

			if (cap >= SB_READ_PROC_MAX)
				return -EFBIG;
			cap = cap ? cap * 2 : 65536 * 2;
			t = realloc(r->out, cap);
			if (!t)
				return -ENOMEM;
			r->out = t;
		}
		n = read(fd, r->out + r->len, cap - r->len - 1);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 0;
		r->len += (size_t)n;
	}
}

static void run(const struct collector *k, const char *format, const char *sysroot, struct result *r)
{
	double start = now();
	int pfd[2], status, rc;
	pid_t pid;

	memset(r, 0, sizeof(*r));
	r->exit_code = -1;
	if (pipe2(pfd, O_CLOEXEC) < 0)
		return;
	fflush(NULL); /* nothing buffered may be written twice */
	pid = fork();
	if (pid < 0) {
		close(pfd[0]);
		close(pfd[1]);
		return;
	}
	if (pid == 0)
		child(k, pfd[1], format, sysroot);
	close(pfd[1]);
	rc = drain(pfd[0], r, start + COLLECTOR_TIMEOUT_S);
	close(pfd[0]);
	if (rc) {
		kill(pid, SIGKILL);
		if (rc == -ETIMEDOUT && !sb_stop_signal)
			sb_eprintf("socbox: metrics: %s: killed after %d s", k->name,
				   COLLECTOR_TIMEOUT_S);
		else if (rc != -ETIMEDOUT)
			sb_eprintf("socbox: metrics: %s: %s", k->name, sb_strerror(-rc));
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!rc && WIFEXITED(status))
		r->exit_code = WEXITSTATUS(status);
	r->seconds = now() - start;
}

static int render_collectors(const struct sb_ctx *c, const struct result *res, const bool *answered,
			     struct sb_expo *x)
{
	struct sb_out_opts oo = c->out;
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *o;
	struct sb_table *t;
	int rc;

	if (!fp)
		return -ENOMEM;
	oo.metrics_ns = "metrics";
	o = sb_out_new(&oo, fp);
	t = sb_out_table(o, "collectors", NULL, collector_cols, 4, true);
	for (size_t i = 0; i < ncollectors; i++) {
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, K_COLLECTOR, collectors[i].name);
		sb_row_bool(r, K_SUCCESS, answered[i]);
		sb_row_s64(r, K_EXIT, res[i].exit_code);
		sb_row_dbl(r, K_DURATION, res[i].seconds);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	fclose(fp);
	if (!rc)
		rc = sb_expo_add(x, buf, len);
	free(buf);
	return rc;
}

int metrics_run(struct sb_ctx *c, int argc, const char **argv)
{
	static char *textfile, *textfile_t, *format;
	struct poptOption opts[] = {
		{ "textfile", '\0', POPT_ARG_STRING, &textfile, 0,
		  "write DIR/" TEXTFILE_NAME
		  " atomically (node_exporter's --collector.textfile.directory)",
		  "DIR" },
		/* -t means --timeout everywhere else; kept for the scripts that wrote -t DIR */
		{ NULL, 't', POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &textfile_t, 0, NULL,
		  "DIR" },
		{ "format", '\0', POPT_ARG_STRING, &format, 0,
		  "prometheus (default; what the textfile collector reads) or openmetrics", "FMT" },
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	struct result res[COLLECTORS_MAX];
	bool taken[COLLECTORS_MAX], answered[COLLECTORS_MAX];
	const char *sysroot, *text;
	struct sb_expo x;
	struct sb_err e;
	size_t len;
	bool ran;
	int rc;

	textfile = textfile_t = format = NULL;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, collector_cols, 4);
	if (rc)
		goto out;
	if (textfile_t && !textfile) {
		if (!sb_opt.quiet)
			sb_eprintf("socbox metrics: -t is the old spelling of --textfile (-t is "
				   "--timeout in every other command)");
		textfile = textfile_t;
		textfile_t = NULL;
	}
	if (c->nargs) {
		rc = sb_usage_error(c, "takes no arguments ('%s')", c->args[0]);
		goto out;
	}
	if (!format || !strcmp(format, "prometheus")) {
		c->out.mode = SB_OUT_PROMETHEUS;
	} else if (!strcmp(format, "openmetrics")) {
		c->out.mode = SB_OUT_OPENMETRICS;
	} else {
		rc = sb_usage_error(c, "--format is prometheus or openmetrics, not '%s'", format);
		goto out;
	}
	if (textfile && c->out.mode != SB_OUT_PROMETHEUS) {
		rc = sb_usage_error(
			c,
			"node_exporter's textfile collector reads the Prometheus text format only");
		goto out;
	}
	if (textfile && !*textfile) {
		rc = sb_usage_error(c, "--textfile needs a directory");
		goto out;
	}
	memset(res, 0, sizeof(res));
	find_collectors();
	sb_catch_stop_signals();
	sysroot = sb_root_is_live(c->root) ? NULL : sb_root_path(c->root);
	sb_expo_init(&x, c->out.mode == SB_OUT_OPENMETRICS);
	for (size_t i = 0; i < ncollectors && !sb_stop_signal; i++) {
		run(&collectors[i], format ? format : "prometheus", sysroot, &res[i]);
		/* exit 1 is a failed check (a leaked pool) when there is output, else an error */
		ran = res[i].exit_code == 0 || (res[i].exit_code == 1 && res[i].len);
		taken[i] = ran && sb_expo_add(&x, res[i].out ? res[i].out : "", res[i].len) == 0;
		/* "no IOMMU on this board" is an answer, not a failure to alert on */
		answered[i] = taken[i] || res[i].exit_code == SB_EXIT_UNSUPPORTED;
		if (ran && !taken[i])
			sb_eprintf("socbox: metrics: %s: its output was cut short; left out",
				   collectors[i].name);
		sb_verbose("socbox", "metrics: %s: exit %d, %zu bytes, %.3f s", collectors[i].name,
			   res[i].exit_code, res[i].len, res[i].seconds);
	}
	if (sb_stop_signal) {
		rc = SB_EXIT_FAIL;
		goto free_all;
	}
	rc = render_collectors(c, res, answered, &x);
	text = rc ? NULL : sb_expo_finish(&x, &len);
	if (!text) {
		sb_eprintf("socbox: metrics: %s", sb_strerror(rc ? -rc : ENOMEM));
		rc = SB_EXIT_FAIL;
	} else if (textfile) {
		sb_err_clear(&e);
		rc = sb_textfile_write(textfile, TEXTFILE_NAME, text, len, &e)
			     ? sb_report(c->applet, &e)
			     : 0;
	} else {
		rc = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : SB_EXIT_FAIL;
	}
free_all:
	for (size_t i = 0; i < ncollectors; i++)
		free(res[i].out);
	sb_expo_free(&x);
out:
	free(textfile);
	free(textfile_t);
	free(format);
	return rc;
}
