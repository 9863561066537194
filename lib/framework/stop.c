// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/stop.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
#define NSTOP ARRAY_SIZE(stop_signals)

volatile sig_atomic_t sb_stop_signal;

static void on_stop_signal(int sig)
{
	sb_stop_signal = sig;
}

void sb_catch_stop_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < NSTOP; i++) {
		struct sigaction old;

		/* a signal ignored on entry stays ignored: nohup (SIGHUP), a shell's background
		 * job (SIGINT), a service manager's SIGPIPE; then EPIPE alone ends the output */
		if (sigaction(stop_signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
			continue;
		sigaction(stop_signals[i], &sa, NULL);
	}
}

void sb_stop_signals_block(sigset_t *old)
{
	sigset_t block;

	sigemptyset(&block);
	for (size_t i = 0; i < NSTOP; i++)
		sigaddset(&block, stop_signals[i]);
	pthread_sigmask(SIG_BLOCK, &block, old);
}

const char *sb_signal_name(int sig)
{
	static const char *const names[] = {
		[SIGINT] = "SIGINT", [SIGTERM] = "SIGTERM", [SIGHUP] = "SIGHUP", [SIGPIPE] = "SIGPIPE"
	};

	if (sig > 0 && (size_t)sig < ARRAY_SIZE(names) && names[sig])
		return names[sig];
	return "a signal";
}

const char *sb_stop_text(char *buf, size_t len, const char *fmt, ...)
{
	int n = snprintf(buf, len, "stopped by %s ", sb_signal_name(sb_stop_signal));
	va_list ap;

	if (n < 0 || (size_t)n >= len)
		return buf;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - (size_t)n, fmt, ap);
	va_end(ap);
	return buf;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* seconds < 0 or INFINITY: no limit */
static int wait_stoppable(struct pollfd *fds, nfds_t n, double seconds)
{
	double end = seconds < 0 || !isfinite(seconds) ? INFINITY : now_s() + seconds;
	sigset_t old;
	int rc;

	sb_stop_signals_block(&old);
	for (;;) {
		double left = end - now_s();
		struct timespec ts;

		if (sb_stop_signal) {
			rc = -EINTR;
			break;
		}
		if (left < 0)
			left = 0;
		if (left > 3600)
			left = 3600; /* INFINITY: wait again after an hour */
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		/* the old mask comes back only inside the wait: a signal cannot slip in between */
		rc = ppoll(fds, n, &ts, &old);
		if (rc > 0)
			break;
		if (rc < 0 && errno != EINTR) {
			rc = -errno;
			break;
		}
		if (rc == 0 && end - now_s() <= 0)
			break;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return rc;
}

int sb_poll(struct pollfd *fds, nfds_t n, int timeout_ms)
{
	return wait_stoppable(fds, n, timeout_ms < 0 ? -1.0 : (double)timeout_ms / 1000.0);
}

int sb_poll_timeout(uint64_t deadline_ns, int max_ms)
{
	uint64_t now, left_ms;

	if (!deadline_ns)
		return max_ms < 0 ? -1 : max_ms;
	now = sb_now_ns();
	if (now >= deadline_ns)
		return 0;
	left_ms = (deadline_ns - now + 999999) / 1000000;
	if (max_ms >= 0 && left_ms > (uint64_t)max_ms)
		return max_ms;
	return left_ms > INT32_MAX ? INT32_MAX : (int)left_ms;
}

bool sb_sleep(double seconds)
{
	if (seconds == 0)
		return sb_stop_signal != 0;
	return wait_stoppable(NULL, 0, seconds) == -EINTR;
}
