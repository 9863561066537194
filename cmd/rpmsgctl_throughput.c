// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl throughput: messages per second and bytes per second through the transport,
 * over payload sizes up to its maximum and over several endpoints at once, one way (to a
 * service that answers nothing) and echoed (every echo checked). What ADI's rpmsg-utils
 * and TI's IPC benchmarks are used for. The loop itself is lib/rpmsg/rpmsg_tput.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/macro.h"
#include "socbox/progress.h"
#include "socbox/rpmsg_tput.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "rpmsgctl.h"

enum {
	C_MODE,
	C_SIZE,
	C_ENDPOINTS,
	C_MSGS_S,
	C_MIN_MSGS_S,
	C_MAX_MSGS_S,
	C_BYTES_PER_S,
	C_CORRUPT,
	C_RUNS,
	C_MESSAGES,
	C_MEDIAN_US,
	C_MIN_US,
	C_MAX_US,
	NCOLS
};
static const struct sb_col cols[NCOLS] = {
	[C_MODE] = { "MODE", SB_T_STR, 0, 0, "echoed (each message answered) or one-way", 0 },
	[C_SIZE] = { "SIZE", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES, "payload bytes per message",
		     0 },
	[C_ENDPOINTS] = { "ENDPOINTS", SB_T_U64, 0, SB_COL_RIGHT,
			  "endpoints at once, a thread each", 0 },
	[C_MSGS_S] = { "MSGS_S", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		       "messages per second, median of the runs (echoed: round trips)", 0 },
	[C_MIN_MSGS_S] = { "MIN_MSGS_S", SB_T_U64, 0, SB_COL_RIGHT, "slowest run", 0 },
	[C_MAX_MSGS_S] = { "MAX_MSGS_S", SB_T_U64, 0, SB_COL_RIGHT, "fastest run", 0 },
	[C_BYTES_PER_S] = { "BYTES_PER_S", SB_T_DBL, 0,
			    SB_COL_RIGHT | SB_COL_BYTES | SB_COL_PER_S | SB_COL_METRIC,
			    "payload bytes per second one way, median of the runs", 0 },
	[C_CORRUPT] = { "CORRUPT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
			"echoes that differ from what was sent, all runs", 0 },
	[C_RUNS] = { "RUNS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		     "runs measured", 0 },
	[C_MESSAGES] = { "MESSAGES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
			 "messages per run, all endpoints", 0 },
	[C_MEDIAN_US] = { "MEDIAN_US", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
			  "median time of a run", 1 },
	[C_MIN_US] = { "MIN_US", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		       "fastest run", 1 },
	[C_MAX_US] = { "MAX_US", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		       "slowest run", 1 },
};

#define MAX_LIST 16
#define MAX_ENDPOINTS 64

struct plan {
	uint32_t addr[2]; /* [0] echoed, [1] one-way */
	bool mode[2];
	unsigned sizes[MAX_LIST], nsizes;
	unsigned epts[MAX_LIST], nepts, max_epts;
	unsigned count, window, runs;
	int stall_ms;
};
static const char *const mode_names[2] = { "echoed", "one-way" };

/* The endpoints of one mode, created on first use and kept for every size. */
struct pool {
	struct sb_rpmsg_ept ept[MAX_ENDPOINTS];
	int fd[MAX_ENDPOINTS];
	unsigned n;
};

/* "16,64,max" -> numbers in [1, max]; "max" is max. An empty element is an error, as a
 * typo ("16,,64") should be. 0 or -EINVAL. */
static int parse_list(const char *s, unsigned max, unsigned *out, unsigned *n)
{
	*n = 0;
	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");
		char item[16];
		uint64_t v;

		if (!len || len >= sizeof(item) || *n == MAX_LIST)
			return -EINVAL;
		memcpy(item, p, len);
		item[len] = '\0';
		if (!strcmp(item, "max"))
			v = max;
		else if (sb_parse_u64(item, 10, &v) || v < 1 || v > max)
			return -EINVAL;
		out[(*n)++] = (unsigned)v;
		p += len;
		if (!*p)
			return 0;
	}
}

static int grow_pool(struct sb_rpmsg_ctl *ctl, struct pool *p, unsigned n, uint32_t dst,
		     enum sb_rpmsg_method m, const char *name, struct sb_err *e)
{
	while (p->n < n) {
		if (sb_rpmsg_ept_create(ctl, name, SB_RPMSG_ADDR_ANY, dst, O_CLOEXEC, m,
					&p->ept[p->n], e) < 0)
			return -1;
		p->fd[p->n] = p->ept[p->n].fd;
		p->n++;
	}
	return 0;
}

/* Every endpoint of the pool destroyed; the first failure is reported, the rest still go. */
static int drain_pool(struct pool *p)
{
	int rc = 0;

	while (p->n) {
		struct sb_err e;

		sb_err_clear(&e);
		if (sb_rpmsg_ept_destroy(&p->ept[--p->n], &e) < 0 && !rc)
			rc = sb_report(RPMSGCTL, &e);
	}
	return rc;
}

/* messages per second, rounded: n messages in us microseconds */
static uint64_t rate(uint64_t n, double us)
{
	return (uint64_t)((double)n * 1e6 / us + 0.5);
}

static void result_row(struct sb_table *t, int mode, unsigned size, unsigned epts,
		       const struct plan *pl, double *us, size_t runs, uint64_t corrupt)
{
	uint64_t msgs = (uint64_t)pl->count * epts;
	struct sb_row *row = sb_table_row(t);
	struct sb_stats st;

	sb_stats_compute(us, runs, &st);
	sb_row_str(row, C_MODE, mode_names[mode]);
	sb_row_u64(row, C_SIZE, size);
	sb_row_u64(row, C_ENDPOINTS, epts);
	sb_row_u64(row, C_RUNS, runs);
	sb_row_u64(row, C_MESSAGES, msgs);
	sb_row_u64(row, C_CORRUPT, corrupt);
	if (!runs || st.min <= 0)
		return;
	sb_row_u64(row, C_MSGS_S, rate(msgs, st.median));
	sb_row_u64(row, C_MIN_MSGS_S, rate(msgs, st.max));
	sb_row_u64(row, C_MAX_MSGS_S, rate(msgs, st.min));
	sb_row_dbl(row, C_BYTES_PER_S, (double)msgs * size * 1e6 / st.median);
	sb_row_dbl(row, C_MEDIAN_US, st.median);
	sb_row_dbl(row, C_MIN_US, st.min);
	sb_row_dbl(row, C_MAX_US, st.max);
}

struct session {
	const struct plan *pl;
	struct sb_rpmsg_ctl ctl;
	struct pool pool[2];
	enum sb_rpmsg_method method;
	const char *name;
	struct sb_progress pg;
	uint64_t done, corrupt_total;
	double *us;
	struct sb_err e;
};

/* One row: the runs of one mode, size and endpoint count. 0, or -1 with s->e set (-EINTR
 * in its errnum when stopped). */
static int measure(struct session *s, struct sb_table *t, int mode, unsigned size, unsigned epts)
{
	const struct plan *pl = s->pl;
	struct pool *p = &s->pool[mode];
	uint64_t corrupt = 0;
	size_t runs = 0;
	int rc = 0;

	if (grow_pool(&s->ctl, p, epts, pl->addr[mode], s->method, s->name, &s->e) < 0)
		return -1;
	for (unsigned r = 0; r < pl->runs && !rc; r++) {
		struct sb_rpmsg_tput tp = {
			.fds = p->fd,
			.nfds = epts,
			.size = size,
			.count = pl->count,
			.window = mode ? 0 : pl->window,
			.stall_ms = pl->stall_ms,
			.cookie = (uint32_t)(sb_now_ns() ^ ((uint64_t)getpid() << 16)),
		};
		struct sb_rpmsg_tput_result res;

		rc = sb_rpmsg_tput_run(&tp, &res, &s->e);
		if (!rc) {
			s->us[runs++] = (double)res.elapsed_ns / 1000.0;
			corrupt += res.corrupt;
		}
		sb_progress_update(&s->pg, ++s->done);
	}
	if (runs)
		result_row(t, mode, size, epts, pl, s->us, runs, corrupt);
	s->corrupt_total += corrupt;
	return rc ? -1 : 0;
}

static int run_plan(struct session *s, struct sb_out *o)
{
	const struct plan *pl = s->pl;
	struct sb_table *t = sb_out_table(o, "throughput", NULL, cols, NCOLS, true);

	for (int mode = 0; mode < 2; mode++)
		for (unsigned i = 0; pl->mode[mode] && i < pl->nsizes; i++)
			for (unsigned k = 0; k < pl->nepts; k++)
				if (measure(s, t, mode, pl->sizes[i], pl->epts[k]) < 0)
					return -1;
	return 0;
}

static int parse_plan(struct sb_ctx *c, struct plan *pl, const char *echo, const char *sink,
		      const char *sizes, const char *epts, int window, int runs, int stall_ms)
{
	memset(pl, 0, sizeof(*pl));
	if (!echo && !sink)
		return sb_usage_error(c, "give --echo ADDR, --sink ADDR or both: the remote's "
					 "echo service, a service that answers nothing");
	if ((echo && (parse_addr(echo, &pl->addr[0]) || pl->addr[0] == SB_RPMSG_ADDR_ANY)) ||
	    (sink && (parse_addr(sink, &pl->addr[1]) || pl->addr[1] == SB_RPMSG_ADDR_ANY)))
		return sb_usage_error(c, "--echo and --sink take an address (number or 0xHEX)");
	pl->mode[0] = echo != NULL;
	pl->mode[1] = sink != NULL;
	if (parse_list(sizes ? sizes : "16,64,256,max", SB_RPMSG_VIRTIO_MTU, pl->sizes, &pl->nsizes))
		return sb_usage_error(c, "--sizes: up to %d sizes of 1 to %d bytes, or max",
				      MAX_LIST, SB_RPMSG_VIRTIO_MTU);
	if (parse_list(epts ? epts : "1,4", MAX_ENDPOINTS, pl->epts, &pl->nepts))
		return sb_usage_error(c, "--endpoints: up to %d counts of 1 to %d", MAX_LIST,
				      MAX_ENDPOINTS);
	for (unsigned k = 0; k < pl->nepts; k++)
		if (pl->epts[k] > pl->max_epts)
			pl->max_epts = pl->epts[k];
	if (window < 1 || runs < 1 || stall_ms < 1 || sb_opt.count < 0)
		return sb_usage_error(c, "--window, --runs, --count and --timeout must be positive");
	pl->count = sb_opt.count ? (unsigned)sb_opt.count : 1000;
	pl->window = (unsigned)window;
	pl->runs = (unsigned)runs;
	pl->stall_ms = stall_ms;
	return 0;
}

int rpmsgctl_throughput(struct sb_ctx *c, int argc, const char **argv)
{
	static char *echo, *sink, *sizes, *epts, *name;
	static struct sb_cli_value method = SB_CLI_ENUM_VALUE("auto", sb_rpmsg_method_names);
	static int window, runs, wait_ms, stall_ms;
	static struct sb_cli_value ctrl = SB_CLI_NUMBER_VALUE("0", 0, INT_MAX);
	struct poptOption table[] = {
		{ "echo", '\0', POPT_ARG_STRING, &echo, 0,
		  "measure echoed: the remote's echo service at this address", "ADDR" },
		{ "sink", '\0', POPT_ARG_STRING, &sink, 0,
		  "measure one way: a remote service at this address that answers nothing",
		  "ADDR" },
		{ "sizes", '\0', POPT_ARG_STRING, &sizes, 0,
		  "payload sizes in bytes (default 16,64,256,max; max is 496)", "LIST" },
		{ "endpoints", '\0', POPT_ARG_STRING, &epts, 0,
		  "endpoints at once, a thread each (default 1,4)", "LIST" },
		{ "window", '\0', POPT_ARG_INT, &window, 0,
		  "echoed: messages in flight per endpoint (default 16)", "N" },
		{ "runs", '\0', POPT_ARG_INT, &runs, 0, "runs of each measurement (default 3)",
		  "N" },
		{ "timeout", 't', POPT_ARG_INT, &stall_ms, 0,
		  "fail when nothing moves on an endpoint for this long (default 2s)",
		  SB_CLI_DURATION },
		{ "ctrl", '\0', SB_POPT_ARG_VALUE, &ctrl, 0, "control device /dev/rpmsg_ctrlN",
		  "N" },
		{ "method", 'm', SB_POPT_ARG_VALUE, &method, 0,
		  "the endpoints' path (auto: fd where the kernel has it, else legacy)", "METHOD" },
		{ "name", '\0', POPT_ARG_STRING, &name, 0, "endpoint name (default socbox-tput)",
		  "NAME" },
		{ "wait", '\0', POPT_ARG_INT, &wait_ms, 0,
		  "wait this long for /dev/rpmsgN to appear (default 5s)", SB_CLI_DURATION },
		SB_POPT_COUNT,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct session s = { 0 };
	struct sb_out *o = NULL;
	struct plan pl;
	bool stopped;
	uint64_t total;
	int rc;

	echo = sink = sizes = epts = name = NULL;
	window = 16, runs = 3, wait_ms = 5000, stall_ms = 2000;
	rc = sb_cli_parse(c, table, NULL, argc, argv, cols, NCOLS);
	if (rc)
		return rc;
	if ((rc = parse_plan(c, &pl, echo, sink, sizes, epts, window, runs, stall_ms)))
		return rc;
	if (wait_ms < 1)
		return sb_usage_error(c, "--wait must be positive");
	s.method = (enum sb_rpmsg_method)method.value;
	if (name && strlen(name) >= SB_RPMSG_NAME_SIZE)
		return sb_usage_error(c, "--name is longer than %d bytes", SB_RPMSG_NAME_SIZE - 1);
	if ((rc = sb_cli_live(c)))
		return rc;
	s.pl = &pl;
	s.name = name ? name : "socbox-tput";
	s.ctl.fd = -1;
	s.us = calloc(pl.runs, sizeof(*s.us));
	sb_err_clear(&s.e);
	if (!s.us) {
		sb_err_set(&s.e, ENOMEM, "throughput", "allocate", NULL);
		return sb_report(RPMSGCTL, &s.e);
	}
	/* caught before the first endpoint exists: every way out destroys them */
	sb_catch_stop_signals();
	if (sb_rpmsg_ctl_open(c->root, (unsigned)ctrl.value, &s.ctl, &s.e) < 0) {
		rc = sb_report(RPMSGCTL, &s.e);
		goto out;
	}
	s.ctl.timeout_ms = wait_ms;
	o = sb_out_new(&c->out, stdout);
	sb_out_field_str(o, "control_device", s.ctl.path);
	sb_out_field_u64(o, "count", pl.count);
	sb_out_field_u64(o, "window", pl.window);
	total = (uint64_t)(pl.mode[0] + pl.mode[1]) * pl.nsizes * pl.nepts * pl.runs;
	sb_progress_start(&s.pg, sb_progress_wanted(c), stderr, RPMSGCTL " throughput",
			  SB_PROGRESS_ITEMS, "runs", total);
	rc = run_plan(&s, o);
	sb_progress_end(&s.pg);
	for (int m = 0; m < 2; m++)
		if (s.pool[m].n) {
			sb_out_field_str(o, "method",
					 sb_rpmsg_method_name(s.pool[m].ept[0].path.ran));
			break;
		}
	stopped = rc < 0 && s.e.errnum == EINTR && sb_stop_signal;
	if (stopped) {
		char why[SB_ERR_LINE_MAX];

		sb_out_note(o, "%s",
			    sb_stop_text(why, sizeof(why), "%s",
					 "the table shows the measurements completed"));
	}
	/* what was measured is printed before the error that ended the plan */
	if (sb_out_print(o) < 0)
		rc = SB_EXIT_FAIL;
	else if (rc < 0)
		rc = stopped ? 0 : sb_report(RPMSGCTL, &s.e);
	if (!rc && s.corrupt_total) {
		sb_err_clear(&s.e);
		sb_err_set(&s.e, EBADMSG, "throughput", "echo",
			   "is the remote's echo service on --echo?");
		sb_err_reason(&s.e, "%" PRIu64 " echoes differ from what was sent",
			      s.corrupt_total);
		rc = sb_report(RPMSGCTL, &s.e);
	}
out:
	for (int m = 0; m < 2; m++) {
		int drained = drain_pool(&s.pool[m]);

		if (!rc)
			rc = drained;
	}
	sb_rpmsg_ctl_close(&s.ctl);
	sb_out_free(o);
	free(s.us);
	return sb_stop_status(rc);
}
