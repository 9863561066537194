// SPDX-License-Identifier: GPL-2.0-or-later
/* Remote processor lifecycle stress: stop/start or crash/recover cycles, each checked for
 * the processor running again, its rpmsg channels and control devices back, and a channel
 * answering pings. A crash is followed in the kernel log: the core prints "handling crash
 * #N" when it takes the crash and "remote processor NAME is now up" when recovery booted
 * it, which is the only precise signal (the crashed state can last microseconds). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/kmsg.h"
#include "socbox/limits.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"
#include "socbox/stats.h"
#include "socbox/stop.h"

#define POLL_S 0.005 /* between sysfs scans while waiting for devices */

static const char *const phase_names[SB_CYCLE_NPHASES] = {
	[SB_CYCLE_DOWN] = "down", [SB_CYCLE_UP] = "up",	      [SB_CYCLE_DEVICES] = "devices",
	[SB_CYCLE_PING] = "ping", [SB_CYCLE_TOTAL] = "cycle",
};

const char *sb_rproc_phase_name(enum sb_rproc_phase ph)
{
	return ph < SB_CYCLE_NPHASES ? phase_names[ph] : "?";
}

static double ms_since(uint64_t t0)
{
	return (double)(sb_now_ns() - t0) / 1e6;
}

/* The failure of cycle N: object "ID (NAME)", what "cycle N". */
static int cycle_fail(struct sb_rproc_cycle *cy, struct sb_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static int cycle_fail(struct sb_rproc_cycle *cy, struct sb_err *e, int err, const char *fmt, ...)
{
	char object[sizeof(cy->p.id) + sizeof(cy->p.name) + 4], what[32];
	va_list ap;

	snprintf(object, sizeof(object), "%s (%s)", cy->p.id, cy->p.name);
	snprintf(what, sizeof(what), "cycle %u", cy->done + 1);
	sb_err_set(e, err, object, what, NULL);
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
	sb_err_exit(e, SB_EXIT_FAIL);
	return -err;
}

static int read_state(struct sb_rproc_cycle *cy, char *state, size_t len)
{
	return sb_attr_str(cy->root, state, len, "/sys/class/remoteproc/%s/state", cy->p.id);
}

/* Channel names and the number of control devices below the processor. */
static int scan_below(struct sb_rproc_cycle *cy, char ***names, size_t *n, size_t *nctrls,
		      uint32_t *dst_of_ping, struct sb_err *e)
{
	struct sb_rpmsg_state st;
	int rc = sb_rpmsg_scan(cy->root, &st, e);

	*n = *nctrls = 0;
	if (names)
		*names = NULL;
	if (rc < 0)
		return rc;
	if (names && st.nchannels && !(*names = calloc(st.nchannels, sizeof(char *)))) {
		sb_rpmsg_state_free(&st);
		return sb_err_set(e, ENOMEM, "rpmsg", "scan", NULL);
	}
	for (size_t i = 0; i < st.nchannels; i++) {
		if (strcmp(st.channels[i].remoteproc, cy->p.id))
			continue;
		if (names)
			(*names)[*n] = strdup(st.channels[i].name);
		(*n)++;
		if (dst_of_ping && cy->o.ping_channel &&
		    !strcmp(st.channels[i].name, cy->o.ping_channel) && st.channels[i].have_dst)
			*dst_of_ping = st.channels[i].dst;
	}
	for (size_t i = 0; i < st.nctrls; i++)
		if (!strcmp(st.ctrls[i].remoteproc, cy->p.id))
			(*nctrls)++;
	sb_rpmsg_state_free(&st);
	return 0;
}

static void free_names(char **names, size_t n)
{
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int sb_rproc_cycle_init(struct sb_rproc_cycle *cy, const struct sb_root *r, const char *spec,
			const struct sb_rproc_cycle_opts *o, struct sb_err *e)
{
	uint32_t dst = SB_RPMSG_ADDR_ANY;
	int rc;

	memset(cy, 0, sizeof(*cy));
	cy->root = r;
	cy->o = *o;
	cy->cookie = (uint32_t)getpid() ^ (uint32_t)sb_now_ns();
	if (sb_rproc_find(r, spec, &cy->p, e) < 0)
		return -ENOENT;
	if (!sb_root_is_live(r)) {
		sb_err_set(e, EOPNOTSUPP, cy->p.id, "cycle", NULL);
		sb_err_reason(e, "needs the live kernel (not possible with --sysroot)");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -EOPNOTSUPP;
	}
	if (strcmp(cy->p.state, "running")) {
		sb_err_set(e, EINVAL, cy->p.id, "cycle", "start it first: rpmsgctl rproc start %s",
			   cy->p.id);
		sb_err_reason(e, "it is %s, not running",
			      cy->p.state[0] ? cy->p.state : "in an unknown state");
		sb_err_exit(e, SB_EXIT_FAIL);
		return -EINVAL;
	}
	if (o->crash && strcmp(cy->p.recovery, "enabled")) {
		sb_err_set(e, EINVAL, cy->p.id, "cycle --crash",
			   "enable it first: rpmsgctl rproc recovery %s on", cy->p.id);
		sb_err_reason(e, "recovery is %s: a crash would leave it crashed",
			      cy->p.recovery[0] ? cy->p.recovery : "unknown");
		sb_err_exit(e, SB_EXIT_FAIL);
		return -EINVAL;
	}
	rc = scan_below(cy, &cy->channels, &cy->nchannels, &cy->nctrls, &dst, e);
	if (rc < 0)
		return rc;
	if (o->ping_channel && (dst == SB_RPMSG_ADDR_ANY || !cy->nctrls)) {
		sb_err_set(e, ENOENT, o->ping_channel, "find the channel to ping",
			   "'rpmsgctl rproc status %s' lists its channels", cy->p.id);
		sb_err_reason(e,
			      !cy->nctrls ? "%s has no rpmsg control device to make an endpoint on"
					  : "%s has no channel of that name with a remote address",
			      cy->p.id);
		sb_err_exit(e, SB_EXIT_FAIL);
		return -ENOENT;
	}
	cy->ping_dst = dst;
	if (o->crash) {
		cy->kmsg = calloc(1, sizeof(*cy->kmsg));
		if (!cy->kmsg)
			return sb_err_set(e, ENOMEM, "/dev/kmsg", "follow", NULL);
		if ((rc = sb_kmsg_follow_open(cy->kmsg, e)) < 0) {
			free(cy->kmsg);
			cy->kmsg = NULL;
			return rc;
		}
	}
	return 0;
}

void sb_rproc_cycle_free(struct sb_rproc_cycle *cy)
{
	free_names(cy->channels, cy->nchannels);
	cy->channels = NULL;
	if (cy->kmsg) {
		sb_kmsg_follow_close(cy->kmsg);
		free(cy->kmsg);
	}
	cy->kmsg = NULL;
}

/* Follow the kernel log until a line about our processor starts with want, or with want
 * NULL until the core's crash line, whose crash number goes to *n. */
static int wait_kmsg(struct sb_rproc_cycle *cy, const char *want, unsigned *n, uint64_t deadline)
{
	for (;;) {
		struct sb_kmsg_line line;
		int left = sb_poll_timeout(deadline, -1), rc;
		const char *msg;

		if (sb_stop_signal)
			return -EINTR;
		if (!left)
			return -ETIMEDOUT;
		rc = sb_kmsg_follow_next(cy->kmsg, &line, left);
		if (rc == -EINTR)
			continue;
		if (rc < 0)
			return rc;
		msg = sb_rproc_log_msg(line.text, cy->p.id);
		if (msg &&
		    (want ? !strncmp(msg, want, strlen(want)) : sb_rproc_crash_msg(msg, n, NULL)))
			return 0;
	}
}

static int crash_and_recover(struct sb_rproc_cycle *cy, struct sb_rproc_cycle_result *res,
			     uint64_t t0, struct sb_err *e)
{
	uint64_t deadline = t0 + (uint64_t)cy->o.timeout_ms * 1000000ull;
	char up[96];
	int rc;

	if ((rc = sb_rproc_crash(cy->root, &cy->p, cy->o.crash_type, e)) < 0)
		return rc;
	rc = wait_kmsg(cy, NULL, &res->crash_no, deadline);
	res->ms[SB_CYCLE_DOWN] = ms_since(t0);
	if (rc == -EINTR)
		return cycle_fail(cy, e, EINTR,
				  "interrupted while waiting for the crash to be handled");
	if (rc < 0)
		return cycle_fail(cy, e, -rc, "the kernel did not take the crash within %d ms",
				  cy->o.timeout_ms);
	deadline = sb_now_ns() + (uint64_t)cy->o.timeout_ms * 1000000ull;
	snprintf(up, sizeof(up), "remote processor %s is now up", cy->p.name);
	rc = wait_kmsg(cy, up, NULL, deadline);
	res->ms[SB_CYCLE_UP] = ms_since(t0) - res->ms[SB_CYCLE_DOWN];
	if (rc == -EINTR)
		return cycle_fail(cy, e, EINTR, "interrupted while waiting for the recovery");
	if (rc < 0) {
		char state[24] = "";

		read_state(cy, state, sizeof(state));
		return cycle_fail(cy, e, -rc,
				  "not recovered within %d ms after crash #%u (state: %s)",
				  cy->o.timeout_ms, res->crash_no, state[0] ? state : "unknown");
	}
	return 0;
}

static int stop_and_start(struct sb_rproc_cycle *cy, struct sb_rproc_cycle_result *res, uint64_t t0,
			  struct sb_err *e)
{
	uint64_t t1;
	int rc;

	if ((rc = sb_rproc_state_write(cy->root, &cy->p, SB_RPROC_STOP, e)) < 0)
		return cycle_fail(cy, e, -rc, "stop failed: %s", strerror(-rc));
	t1 = sb_now_ns();
	res->ms[SB_CYCLE_DOWN] = ms_since(t0);
	if ((rc = sb_rproc_state_write(cy->root, &cy->p, SB_RPROC_START, e)) < 0)
		return cycle_fail(cy, e, -rc,
				  "start after the stop failed: %s (it is left offline)",
				  strerror(-rc));
	res->ms[SB_CYCLE_UP] = ms_since(t1);
	return 0;
}

/* Until the channels and control devices of the baseline are all there again. */
static int wait_devices(struct sb_rproc_cycle *cy, struct sb_err *e)
{
	uint64_t deadline = sb_now_ns() + (uint64_t)cy->o.timeout_ms * 1000000ull;
	const char *missing = NULL;
	size_t nctrls = 0;

	for (;;) {
		char **names = NULL;
		size_t n;
		struct sb_err scan_e;

		sb_err_clear(&scan_e);
		missing = NULL;
		if (scan_below(cy, &names, &n, &nctrls, NULL, &scan_e) == 0) {
			/* every baseline name, counted with multiplicity */
			for (size_t i = 0; i < cy->nchannels && !missing; i++) {
				size_t want = 0, got = 0;

				for (size_t j = 0; j < cy->nchannels; j++)
					want += !strcmp(cy->channels[j], cy->channels[i]);
				for (size_t j = 0; j < n; j++)
					got += names[j] && !strcmp(names[j], cy->channels[i]);
				if (got < want)
					missing = cy->channels[i];
			}
			free_names(names, n);
			if (!missing && nctrls >= cy->nctrls)
				return 0;
		}
		if (sb_now_ns() >= deadline)
			break;
		if (sb_sleep(POLL_S))
			return cycle_fail(cy, e, EINTR,
					  "interrupted while waiting for its rpmsg devices");
	}
	if (missing)
		return cycle_fail(cy, e, ETIMEDOUT,
				  "rpmsg channel %s did not come back within %d ms", missing,
				  cy->o.timeout_ms);
	return cycle_fail(cy, e, ETIMEDOUT,
			  "%zu of %zu rpmsg control devices came back within %d ms", nctrls,
			  cy->nctrls, cy->o.timeout_ms);
}

/* An endpoint on the processor's control device, addressed to the channel, and pings. */
static int ping_channel(struct sb_rproc_cycle *cy, struct sb_err *e)
{
	struct sb_rpmsg_state st;
	struct sb_rpmsg_ctl ctl = { .fd = -1 };
	struct sb_rpmsg_ping ping = { 0 };
	struct sb_rpmsg_ept ept = { .fd = -1 };
	struct sb_err ie;
	unsigned ctrl = 0;
	bool found = false;
	int rc;

	sb_err_clear(&ie);
	if (sb_rpmsg_scan(cy->root, &st, &ie) == 0) {
		for (size_t i = 0; i < st.nctrls && !found; i++)
			if (!strcmp(st.ctrls[i].remoteproc, cy->p.id)) {
				ctrl = st.ctrls[i].index;
				found = true;
			}
		sb_rpmsg_state_free(&st);
	}
	if (!found)
		return cycle_fail(cy, e, ENODEV, "no rpmsg control device to ping %s through",
				  cy->o.ping_channel);
	rc = sb_rpmsg_ctl_open(cy->root, ctrl, &ctl, &ie);
	if (rc == 0) {
		ctl.timeout_ms = cy->o.timeout_ms;
		rc = sb_rpmsg_ept_create(&ctl, "socbox-cycle", SB_RPMSG_ADDR_ANY, cy->ping_dst,
					 O_CLOEXEC, SB_RPMSG_AUTO, &ept, &ie);
	}
	if (rc == 0)
		rc = sb_rpmsg_ping_init(&ping, cy->o.ping_size, cy->cookie, &ie);
	for (unsigned i = 0; rc == 0 && i < cy->o.ping_count; i++) {
		uint64_t rtt;
		uint32_t seq = cy->done * cy->o.ping_count + i;

		rc = sb_rpmsg_ping_one(ept.fd, &ping, seq, cy->o.timeout_ms, &rtt, &ie);
		if (rc == SB_ECHO_OK)
			continue;
		if (rc == SB_ECHO_CORRUPT)
			sb_err_set(&ie, EBADMSG, "echo", "compare",
				   "the echo differs from the request");
		if (rc >= 0)
			rc = -EBADMSG;
	}
	sb_rpmsg_ping_free(&ping);
	if (ept.fd >= 0)
		sb_rpmsg_ept_destroy(&ept, NULL);
	sb_rpmsg_ctl_close(&ctl);
	if (rc < 0) {
		char why[SB_ERR_LINE_MAX];

		sb_err_format(&ie, why, sizeof(why));
		return cycle_fail(cy, e, -rc, "channel %s did not answer: %s", cy->o.ping_channel,
				  why);
	}
	return 0;
}

int sb_rproc_cycle_run(struct sb_rproc_cycle *cy, struct sb_rproc_cycle_result *res,
		       struct sb_err *e)
{
	uint64_t t0 = sb_now_ns(), t;
	char state[24] = "";
	int rc;

	memset(res, 0, sizeof(*res));
	rc = cy->o.crash ? crash_and_recover(cy, res, t0, e) : stop_and_start(cy, res, t0, e);
	if (rc < 0)
		return rc;
	if (read_state(cy, state, sizeof(state)) < 0 || strcmp(state, "running"))
		return cycle_fail(cy, e, EIO, "it is %s after the %s, not running",
				  state[0] ? state : "in an unknown state",
				  cy->o.crash ? "recovery" : "start");
	t = sb_now_ns();
	if ((rc = wait_devices(cy, e)) < 0)
		return rc;
	res->ms[SB_CYCLE_DEVICES] = ms_since(t);
	if (cy->o.ping_channel) {
		t = sb_now_ns();
		if ((rc = ping_channel(cy, e)) < 0)
			return rc;
		res->ms[SB_CYCLE_PING] = ms_since(t);
	}
	res->ms[SB_CYCLE_TOTAL] = ms_since(t0);
	cy->done++;
	return 0;
}
