// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <time.h>

#include "socbox/stop.h"

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };

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
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaction(stop_signals[i], &sa, NULL);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool sb_sleep(double seconds)
{
	double end = seconds < 0 ? INFINITY : now_s() + seconds;
	sigset_t block, old;

	sigemptyset(&block);
	for (size_t i = 0; i < sizeof(stop_signals) / sizeof(stop_signals[0]); i++)
		sigaddset(&block, stop_signals[i]);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (;;) {
		double left = end - now_s();
		struct timespec ts;

		if (sb_stop_signal || left <= 0)
			break;
		if (left > 3600)
			left = 3600;
		ts.tv_sec = (time_t)left;
		ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
		/* the old mask comes back only inside the wait: a signal cannot slip in between */
		if (ppoll(NULL, 0, &ts, &old) < 0 && errno != EINTR)
			break;
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	return sb_stop_signal != 0;
}
