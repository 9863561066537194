// SPDX-License-Identifier: GPL-2.0-or-later
/* The stop mechanism (lib/framework/stop.c): a stop signal ends every wait, whenever it
 * arrives. The signals here come from a helper thread that blocks them, so the kernel
 * delivers them to the thread under test; no test waits for the other side by sleeping:
 * a wait that misses the signal runs into the suite's timeout and fails. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "socbox/rpmsg.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "testutil.h"

static void *send_signal(void *arg)
{
	kill(getpid(), (int)(intptr_t)arg);
	return NULL;
}

/* A thread that sends sig to this process as soon as it runs; the stop signals are blocked
 * in it, so the signal goes to the calling thread, before or during its wait. */
static pthread_t signal_soon(int sig)
{
	sigset_t old;
	pthread_t t;

	sb_stop_signals_block(&old);
	ck_assert_int_eq(pthread_create(&t, NULL, send_signal, (void *)(intptr_t)sig), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return t;
}

START_TEST(sleep_returns_at_once_when_stopped)
{
	sb_stop_signal = SIGINT;
	ck_assert(sb_sleep(3600));
	ck_assert(sb_sleep(-1));
}
END_TEST

START_TEST(sleep_runs_out_without_stop)
{
	uint64_t t0 = sb_now_ns();

	ck_assert(!sb_sleep(0.03));
	ck_assert_uint_ge(sb_now_ns() - t0, 30 * 1000 * 1000);
}
END_TEST

/* Each stop signal ends an endless sleep and names itself; before stop.c every applet's
 * own loop restarted nanosleep on EINTR and slept on. */
START_TEST(each_stop_signal_ends_a_sleep)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	int sig = sigs[_i];
	pthread_t t;

	sb_catch_stop_signals();
	t = signal_soon(sig);
	ck_assert(sb_sleep(-1));
	ck_assert_int_eq(sb_stop_signal, sig);
	pthread_join(t, NULL);
}
END_TEST

static void ignore(int sig)
{
	(void)sig;
}

/* Other caught signals (SIGCHLD, SIGWINCH ...) interrupt the wait with EINTR, but do not
 * end it early. */
START_TEST(other_signals_do_not_end_a_sleep)
{
	struct sigaction sa = { .sa_handler = ignore };
	uint64_t t0 = sb_now_ns();
	pthread_t t;

	sb_catch_stop_signals();
	sigaction(SIGUSR1, &sa, NULL);
	t = signal_soon(SIGUSR1);
	ck_assert(!sb_sleep(0.05));
	pthread_join(t, NULL);
	ck_assert_uint_ge(sb_now_ns() - t0, 50 * 1000 * 1000);
	ck_assert_int_eq(sb_stop_signal, 0);
}
END_TEST

static void *write_event(void *arg)
{
	uint64_t one = 1;

	ck_assert_int_eq(write((int)(intptr_t)arg, &one, sizeof(one)), (int)sizeof(one));
	return NULL;
}

/* The wake-up of smmustat stress: a failing worker writes an eventfd, the main thread's
 * wait for --duration ends at once (it used to sleep the whole duration). */
START_TEST(poll_returns_on_a_ready_descriptor)
{
	struct pollfd p = { .fd = eventfd(0, EFD_CLOEXEC), .events = POLLIN };
	pthread_t t;

	ck_assert_int_ge(p.fd, 0);
	ck_assert_int_eq(pthread_create(&t, NULL, write_event, (void *)(intptr_t)p.fd), 0);
	ck_assert_int_eq(sb_poll(&p, 1, -1), 1);
	pthread_join(t, NULL);
	ck_assert_int_eq(sb_poll(&p, 1, 0), 1);
	close(p.fd);
}
END_TEST

START_TEST(poll_times_out_and_stops)
{
	struct pollfd p = { .fd = eventfd(0, EFD_CLOEXEC), .events = POLLIN };
	pthread_t t;

	ck_assert_int_eq(sb_poll(&p, 1, 20), 0);
	sb_catch_stop_signals();
	t = signal_soon(SIGTERM);
	ck_assert_int_eq(sb_poll(&p, 1, -1), -EINTR);
	pthread_join(t, NULL);
	close(p.fd);
}
END_TEST

/* rpmsgctl recv waits in sb_rpmsg_recv(): a stop signal must end that wait (it restarted
 * poll on EINTR, so 'rpmsgctl recv' never got to destroy its endpoint). A pipe stands in
 * for the endpoint: the wait is the same poll and read. */
START_TEST(rpmsg_recv_ends_on_a_stop_signal)
{
	char buf[16];
	struct sb_err e;
	pthread_t t;
	int fds[2];

	ck_assert_int_eq(pipe(fds), 0);
	sb_err_clear(&e);
	sb_catch_stop_signals();
	t = signal_soon(SIGINT);
	ck_assert_int_eq(sb_rpmsg_recv(fds[0], buf, sizeof(buf), -1, &e), -EINTR);
	ck_assert_str_eq(e.reason, "stopped by SIGINT");
	pthread_join(t, NULL);
	/* a message that is there is still read after the flag is cleared */
	sb_stop_signal = 0;
	ck_assert_int_eq(write(fds[1], "hi", 2), 2);
	ck_assert_int_eq(sb_rpmsg_recv(fds[0], buf, sizeof(buf), 1000, &e), 2);
	close(fds[0]);
	close(fds[1]);
}
END_TEST

/* nohup sets SIGHUP to ignored, a script's background job SIGINT: catching must keep that */
START_TEST(a_signal_ignored_on_entry_stays_ignored)
{
	struct sigaction sa = { .sa_handler = SIG_IGN }, now;
	pthread_t t;

	sigaction(SIGHUP, &sa, NULL);
	sb_catch_stop_signals();
	sigaction(SIGHUP, NULL, &now);
	ck_assert(now.sa_handler == SIG_IGN);
	sigaction(SIGTERM, NULL, &now);
	ck_assert(now.sa_handler != SIG_IGN && now.sa_handler != SIG_DFL);
	t = signal_soon(SIGHUP);
	pthread_join(t, NULL);
	ck_assert_int_eq(sb_stop_signal, 0);
}
END_TEST

START_TEST(poll_timeout_of_a_deadline)
{
	uint64_t now = sb_now_ns();

	ck_assert_int_eq(sb_poll_timeout(0, 500), 500);
	ck_assert_int_eq(sb_poll_timeout(0, -1), -1);
	ck_assert_int_eq(sb_poll_timeout(now - 1, 500), 0);
	ck_assert_int_eq(sb_poll_timeout(now - 1, -1), 0);
	/* 10 s away: capped by max_ms, or the time left rounded up */
	ck_assert_int_eq(sb_poll_timeout(now + 10000000000ull, 500), 500);
	ck_assert_int_le(sb_poll_timeout(now + 10000000000ull, -1), 10000);
	ck_assert_int_ge(sb_poll_timeout(now + 10000000000ull, -1), 9000);
}
END_TEST

START_TEST(signal_names)
{
	ck_assert_str_eq(sb_signal_name(SIGPIPE), "SIGPIPE");
	ck_assert_str_eq(sb_signal_name(SIGHUP), "SIGHUP");
	ck_assert_str_eq(sb_signal_name(SIGUSR1), "a signal");
	ck_assert_str_eq(sb_signal_name(-3), "a signal");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stop");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 10);
	tcase_add_test(tc, sleep_returns_at_once_when_stopped);
	tcase_add_test(tc, sleep_runs_out_without_stop);
	tcase_add_loop_test(tc, each_stop_signal_ends_a_sleep, 0, 4);
	tcase_add_test(tc, other_signals_do_not_end_a_sleep);
	tcase_add_test(tc, poll_returns_on_a_ready_descriptor);
	tcase_add_test(tc, poll_times_out_and_stops);
	tcase_add_test(tc, rpmsg_recv_ends_on_a_stop_signal);
	tcase_add_test(tc, a_signal_ignored_on_entry_stays_ignored);
	tcase_add_test(tc, poll_timeout_of_a_deadline);
	tcase_add_test(tc, signal_names);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
