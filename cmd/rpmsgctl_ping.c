// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl ping: echo round trips on an endpoint, every payload checked byte for byte,
 * latency from CLOCK_MONOTONIC. Payloads carry a sequence number (lib/rpmsg/rpmsg_ping.c), so a
 * late echo is skipped and counted, not taken for the next answer. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "socbox/macro.h"
#include "socbox/progress.h"
#include "socbox/stats.h"
#include "rpmsgctl.h"

enum { L_COUNT, L_STATS, L_STDDEV = L_STATS + SB_STATS_NCOLS };
static const struct sb_col lat_cols[] = {
	[L_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT, "round trips measured", 0 },
	[L_STATS] = SB_STATS_COLS("US", 1, SB_COL_METRIC),
	[L_STDDEV] = { "STDDEV_US", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC, "standard deviation",
		       1 },
};

enum { H_LE, H_COUNT, H_BAR };
/* BAR is for people: JSON and metrics get the numbers alone (the first two columns) */
static const struct sb_col hist_cols[] = {
	[H_LE] = { "LE_US", SB_T_DBL, 0, SB_COL_RIGHT, "bucket upper bound (round trips below it)",
		   1 },
	[H_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT, "round trips in the bucket", 0 },
	[H_BAR] = { "BAR", SB_T_STR, 0, 0, "COUNT drawn to scale", 0 },
};
#define HIST_BAR_WIDTH 40

static bool for_people(const struct sb_ctx *c)
{
	return c->out.mode != SB_OUT_JSON && !sb_out_mode_is_metrics(c->out.mode);
}

/* Every bucket from the fastest to the slowest round trip, the empty ones between too, so
 * the shape of the distribution shows; bars scaled to the fullest bucket. */
static void histogram(struct sb_ctx *c, struct sb_out *o, const double *lat, size_t n)
{
	bool bars = for_people(c);
	struct sb_table *t = sb_out_table(o, "histogram", "Histogram", hist_cols,
					  bars ? ARRAY_SIZE(hist_cols) : H_BAR, false);
	uint64_t max = 0;
	int first = -1;
	struct sb_hist h;

	sb_hist_build(lat, n, 1.0, &h);
	for (int i = 0; i < h.used; i++) {
		if (h.counts[i] && first < 0)
			first = i;
		if (h.counts[i] > max)
			max = h.counts[i];
	}
	for (int i = first < 0 ? h.used : first; i < h.used; i++) {
		struct sb_row *row = sb_table_row(t);
		char bar[HIST_BAR_WIDTH + 1];

		sb_row_dbl(row, H_LE, sb_hist_upper(&h, i));
		sb_row_u64(row, H_COUNT, h.counts[i]);
		if (bars) {
			sb_bar(bar, sizeof(bar), (double)h.counts[i], (double)max, HIST_BAR_WIDTH);
			sb_row_str(row, H_BAR, bar);
		}
	}
}

/* What the run is held to: --max-lost and --max-p99 (0: not given). */
struct ping_limits {
	int max_lost;
	double max_p99_s;
	bool p99_over; /* set by render() */
};

/* --format ktap: echoes (lost within --max-lost), payload (every echo as sent), p99
 * (within --max-p99, skipped without it). */
static void ping_tests(struct sb_out *o, const struct sb_stats *st, size_t n, unsigned lost,
		       unsigned corrupt, unsigned sent, struct ping_limits *lim)
{
	sb_out_test(o, NULL, "echoes", lost > (unsigned)lim->max_lost ? SB_TEST_FAIL : SB_TEST_PASS,
		    "%u of %u requests got no echo (at most %d allowed)", lost, sent,
		    lim->max_lost);
	sb_out_test(o, NULL, "payload", corrupt ? SB_TEST_FAIL : SB_TEST_PASS,
		    "%u of %zu echoes differed from what was sent", corrupt, n + corrupt);
	if (lim->max_p99_s <= 0) {
		sb_out_test(o, NULL, "p99", SB_TEST_SKIP, "no --max-p99");
		return;
	}
	lim->p99_over = !n || st->p99 > lim->max_p99_s * 1e6;
	if (!n)
		sb_out_test(o, NULL, "p99", SB_TEST_FAIL, "no round trip measured");
	else
		sb_out_test(o, NULL, "p99", lim->p99_over ? SB_TEST_FAIL : SB_TEST_PASS,
			    "p99 %.1f us, at most %.1f us allowed", st->p99, lim->max_p99_s * 1e6);
}

/* Returns 0, or SB_EXIT_FAIL when the output could not be written. */
static int render(struct sb_ctx *c, struct ept_session *s, double *lat, size_t n, int size,
		  unsigned lost, unsigned corrupt, unsigned late, unsigned sent,
		  struct ping_limits *lim)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_stats st;
	struct sb_table *t;
	struct sb_row *row;
	int rc;

	sb_out_field_str(o, "method", sb_rpmsg_method_name(s->ept.path.ran));
	if (s->ept.devnode[0])
		sb_out_field_str(o, "device", s->ept.devnode);
	sb_out_field_bytes(o, "size_bytes", (uint64_t)size);
	sb_out_field_u64(o, "sent", sent);
	sb_out_field_u64(o, "received", n);
	sb_out_field_u64(o, "lost", lost);
	sb_out_field_u64(o, "corrupt", corrupt);
	sb_out_field_u64(o, "late", late);
	sb_stats_compute(lat, n, &st);
	t = sb_out_table(o, "latency", "Round trip", lat_cols, ARRAY_SIZE(lat_cols), true);
	row = sb_table_row(t);
	sb_row_u64(row, L_COUNT, n);
	if (n) {
		sb_row_stats(row, L_STATS, &st);
		sb_row_dbl(row, L_STDDEV, st.stddev);
	}
	histogram(c, o, lat, n);
	ping_tests(o, &st, n, lost, corrupt, sent, lim);
	if (lim->p99_over)
		sb_out_problem(o, "p99 round trip %.1f us is over --max-p99 %.1f us", st.p99,
			       lim->max_p99_s * 1e6);
	if (lost)
		sb_out_problem(o, "%u of %u requests got no echo within the timeout", lost, sent);
	if (late)
		sb_out_note(o, "%u echoes came after their request had timed out and were skipped",
			    late);
	if (corrupt)
		sb_out_problem(o, "%u echoes differed from what was sent", corrupt);
	if (size < SB_RPMSG_PING_HDR)
		sb_out_note(o,
			    "a %d-byte payload holds only the low %d byte(s) of the sequence number and no run cookie",
			    size, size < 4 ? size : 4);
	if (sb_stop_signal) {
		char why[SB_ERR_LINE_MAX];

		sb_out_note(o, "%s",
			    sb_stop_text(why, sizeof(why),
					 "after %u request(s); the one in flight is not counted",
					 sent));
	}
	rc = sb_out_print(o) < 0 ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	return rc;
}

int rpmsgctl_ping(struct sb_ctx *c, int argc, const char **argv)
{
	static int size, timeout;
	static struct ping_limits lim;
	struct poptOption table[] = {
		{ "size", 's', POPT_ARG_INT, &size, 0, "payload bytes per message (default 32)",
		  "BYTES" },
		{ "timeout", 't', POPT_ARG_INT, &timeout, 0,
		  "wait this long for each echo (default 1s)", SB_CLI_DURATION },
		{ "max-lost", '\0', POPT_ARG_INT, &lim.max_lost, 0,
		  "fail when more requests than this get no echo (default 0)", "N" },
		{ "max-p99", '\0', POPT_ARG_DOUBLE, &lim.max_p99_s, 0,
		  "fail when the 99th percentile round trip is longer (500us, 2ms)",
		  SB_CLI_DURATION },
		EPT_POPT,
		SB_POPT_LIVE,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	unsigned lost = 0, corrupt = 0, count;
	struct sb_progress pg;
	struct sb_rpmsg_ping p;
	struct ept_session s;
	double *lat = NULL;
	size_t n = 0;
	struct sb_err e;
	int rc;

	size = 32;
	timeout = 1000;
	memset(&lim, 0, sizeof(lim));
	ept_opts_reset("socbox-ping");
	rc = sb_cli_parse(c, table, NULL, argc, argv, lat_cols, ARRAY_SIZE(lat_cols));
	if (rc)
		return rc;
	count = sb_opt.count ? (unsigned)sb_opt.count : 10;
	if (size < 1 || size > SB_RPMSG_VIRTIO_MTU) {
		sb_err_clear(&e);
		sb_err_set(&e, EMSGSIZE, "ping", "check --size",
			   "give 1 to %d bytes (the virtio rpmsg MTU)", SB_RPMSG_VIRTIO_MTU);
		sb_err_reason(&e, "%d bytes does not fit one message", size);
		return size < 1 ? sb_usage_error(c, "--size must be at least 1")
				: sb_report(RPMSGCTL, &e);
	}
	if (timeout <= 0)
		return sb_usage_error(c, "--timeout must be positive");
	if (lim.max_lost < 0 || lim.max_p99_s < 0)
		return sb_usage_error(c, "--max-lost and --max-p99 cannot be negative");
	sb_err_clear(&e);
	/* the cookie tells this run's echoes from a previous run's stragglers */
	if (sb_rpmsg_ping_init(&p, (size_t)size,
			       (uint32_t)(sb_now_ns() ^ ((uint64_t)getpid() << 20)), &e) < 0)
		return sb_report(RPMSGCTL, &e);
	lat = calloc(count, sizeof(*lat));
	if (!lat) {
		sb_rpmsg_ping_free(&p);
		sb_err_set(&e, ENOMEM, "ping", "allocate", NULL);
		return sb_report(RPMSGCTL, &e);
	}
	rc = ept_session_open(c, &s, O_CLOEXEC);
	if (rc)
		goto out;
	sb_progress_start(&pg, sb_progress_wanted(c), stderr, RPMSGCTL " ping", SB_PROGRESS_ITEMS,
			  "echoes", count);
	for (unsigned i = 0; i < count; i++) {
		uint64_t rtt = 0;
		int r;

		if (i && sb_opt.interval > 0)
			sb_sleep(sb_opt.interval);
		sb_err_clear(&e);
		r = sb_stop_signal ? -EINTR : sb_rpmsg_ping_one(s.ept.fd, &p, i, timeout, &rtt, &e);
		if (r == -EINTR && sb_stop_signal) {
			/* statistics of what was answered so far, as ping(8) prints them */
			count = i;
			break;
		}
		if (r == -ETIMEDOUT) {
			lost++;
			sb_progress_line(&pg, "seq=%u: no echo within %d ms", i, timeout);
			continue;
		}
		if (r < 0) {
			rc = sb_report(RPMSGCTL, &e);
			count = i + 1;
			break;
		}
		if (r == SB_ECHO_CORRUPT) {
			corrupt++;
			sb_progress_line(&pg, "seq=%u: the echo differs from what was sent", i);
			continue;
		}
		lat[n++] = (double)rtt / 1000.0;
		sb_progress_line(&pg, "%d bytes: seq=%u time=%.1f us", size, i, lat[n - 1]);
	}
	sb_progress_end(&pg);
	rc = render(c, &s, lat, n, size, lost, corrupt, p.late, count, &lim) ?: rc;
	rc = ept_session_close(c, &s) ?: rc;
	if (!rc && (lost > (unsigned)lim.max_lost || corrupt)) {
		sb_err_clear(&e);
		sb_err_set(&e, lost ? ETIMEDOUT : EBADMSG, "ping", "echo",
			   "is the remote's echo service on --dst?");
		sb_err_reason(&e, "%u lost, %u corrupt of %u", lost, corrupt, count);
		rc = sb_report(RPMSGCTL, &e);
	} else if (!rc && lim.p99_over) {
		sb_err_clear(&e);
		sb_err_set(&e, ETIMEDOUT, "ping", "round trip", NULL);
		sb_err_reason(&e, "p99 is over --max-p99 %g us", lim.max_p99_s * 1e6);
		sb_err_exit(&e, SB_EXIT_FAIL);
		rc = sb_report(RPMSGCTL, &e);
	}
out:
	sb_rpmsg_ping_free(&p);
	free(lat);
	return sb_stop_status(rc);
}
