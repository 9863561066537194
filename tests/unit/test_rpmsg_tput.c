// SPDX-License-Identifier: GPL-2.0-or-later
/* The throughput loop (lib/rpmsg/rpmsg_tput.c) against stand-in remotes: a SOCK_SEQPACKET
 * socketpair per endpoint keeps message boundaries as an endpoint does, and a thread on the
 * far side echoes, swallows, corrupts or ignores. The real transport is measured in the
 * test kernel's guest (tests/vm/guest/rpmsgctl_throughput.sh); here: the counts, the check
 * of every echo, and that a remote which stops answering or a stop signal ends the run
 * (a run that hangs runs into the suite's timeout and fails). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "socbox/rpmsg.h"
#include "socbox/rpmsg_tput.h"
#include "socbox/stop.h"
#include "testutil.h"

enum remote_kind { ECHO, SINK, CORRUPT_FIFTH, SILENT };

struct remote {
	int fd;
	enum remote_kind kind;
	unsigned long got;
	pthread_t tid;
};

/* Serves one endpoint until the near side closes it. */
static void *serve(void *arg)
{
	struct remote *r = arg;
	unsigned char buf[SB_RPMSG_VIRTIO_MTU + 1];
	ssize_t n;

	while ((n = read(r->fd, buf, sizeof(buf))) > 0) {
		r->got++;
		if (r->kind == SINK || r->kind == SILENT)
			continue;
		if (r->kind == CORRUPT_FIFTH && r->got == 5)
			buf[n - 1] ^= 0x40;
		if (write(r->fd, buf, (size_t)n) != n)
			break;
	}
	return NULL;
}

struct bed {
	int near[4];
	struct remote far[4];
	size_t n;
};

static void bed_up(struct bed *b, size_t n, enum remote_kind kind)
{
	memset(b, 0, sizeof(*b));
	b->n = n;
	for (size_t i = 0; i < n; i++) {
		int sv[2];

		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
		b->near[i] = sv[0];
		b->far[i].fd = sv[1];
		b->far[i].kind = kind;
		ck_assert_int_eq(pthread_create(&b->far[i].tid, NULL, serve, &b->far[i]), 0);
	}
}

static void bed_down(struct bed *b)
{
	for (size_t i = 0; i < b->n; i++) {
		shutdown(b->near[i], SHUT_RDWR);
		pthread_join(b->far[i].tid, NULL);
		close(b->near[i]);
		close(b->far[i].fd);
	}
}

static struct sb_rpmsg_tput plan(const struct bed *b, size_t size, unsigned count, unsigned window)
{
	return (struct sb_rpmsg_tput){
		.fds = b->near,
		.nfds = b->n,
		.size = size,
		.count = count,
		.window = window,
		.stall_ms = 200,
		.cookie = 0x5eed
	};
}

START_TEST(echoed_counts_every_round_trip)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;

	bed_up(&b, 3, ECHO);
	t = plan(&b, 496, 500, 8);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), 0);
	ck_assert_uint_eq(r.sent, 1500);
	ck_assert_uint_eq(r.echoed, 1500);
	ck_assert_uint_eq(r.corrupt, 0);
	ck_assert_uint_gt(r.elapsed_ns, 0);
	bed_down(&b);
	for (size_t i = 0; i < 3; i++)
		ck_assert_uint_eq(b.far[i].got, 500);
}
END_TEST

/* A payload of 1 byte carries only the low byte of the sequence number: still checked. */
START_TEST(one_byte_payloads_and_window_one)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;

	bed_up(&b, 1, ECHO);
	t = plan(&b, 1, 300, 1);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), 0);
	ck_assert_uint_eq(r.echoed, 300);
	ck_assert_uint_eq(r.corrupt, 0);
	bed_down(&b);
}
END_TEST

START_TEST(one_way_reads_nothing)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;

	bed_up(&b, 2, SINK);
	t = plan(&b, 64, 400, 0);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), 0);
	ck_assert_uint_eq(r.sent, 800);
	ck_assert_uint_eq(r.echoed, 0);
	bed_down(&b);
	ck_assert_uint_eq(b.far[0].got + b.far[1].got, 800);
}
END_TEST

START_TEST(a_changed_echo_is_counted)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;

	bed_up(&b, 2, CORRUPT_FIFTH);
	t = plan(&b, 32, 50, 4);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), 0);
	ck_assert_uint_eq(r.echoed, 100);
	ck_assert_uint_eq(r.corrupt, 2);
	bed_down(&b);
}
END_TEST

/* A remote that takes the messages and never answers: the run ends after stall_ms, naming
 * the endpoint and what moved, instead of waiting for ever in read(2). */
START_TEST(a_silent_remote_ends_the_run)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;

	bed_up(&b, 2, SILENT);
	t = plan(&b, 16, 100, 4);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -ETIMEDOUT);
	ck_assert_str_eq(e.what, "wait for echoes");
	ck_assert_ptr_nonnull(strstr(e.object, "endpoint "));
	ck_assert_ptr_nonnull(strstr(e.reason, "4 sent, 0 echoed"));
	ck_assert_uint_eq(r.sent, 8);
	ck_assert_uint_eq(r.echoed, 0);
	bed_down(&b);
}
END_TEST

/* A remote gone: the write fails on that endpoint, the other endpoints stop too, and the
 * error names the endpoint that failed, not the ones woken to stop. */
START_TEST(a_failed_write_names_its_endpoint)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;
	int sv[2];

	signal(SIGPIPE, SIG_IGN);
	bed_up(&b, 1, SILENT);
	/* endpoint 1: its far side closed at once */
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
	close(sv[1]);
	b.near[1] = sv[0];
	t = plan(&b, 16, 1000, 4);
	t.nfds = 2;
	t.stall_ms = 5000;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -EPIPE);
	ck_assert_str_eq(e.object, "endpoint 1");
	ck_assert_str_eq(e.what, "write");
	ck_assert_ptr_nonnull(strstr(e.hint, "rproc status"));
	close(sv[0]);
	bed_down(&b);
}
END_TEST

static void *stop_soon(void *arg)
{
	(void)arg;
	kill(getpid(), SIGINT);
	return NULL;
}

START_TEST(a_stop_signal_ends_the_run)
{
	struct sb_rpmsg_tput_result r;
	struct sb_rpmsg_tput t;
	struct bed b;
	struct sb_err e;
	pthread_t killer;
	sigset_t old;

	sb_catch_stop_signals();
	bed_up(&b, 2, SILENT);
	t = plan(&b, 16, 100, 4);
	t.stall_ms = 60000;
	sb_stop_signals_block(&old);
	ck_assert_int_eq(pthread_create(&killer, NULL, stop_soon, NULL), 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -EINTR);
	ck_assert_int_eq(sb_stop_signal, SIGINT);
	pthread_join(killer, NULL);
	bed_down(&b);
}
END_TEST

START_TEST(bad_plans_are_refused)
{
	struct sb_rpmsg_tput_result r;
	int fd = 0;
	struct sb_rpmsg_tput t = {
		.fds = &fd, .nfds = 1, .size = SB_RPMSG_VIRTIO_MTU + 1, .count = 1, .stall_ms = 1
	};
	struct sb_err e;

	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -EINVAL);
	t.size = 1;
	t.count = 0;
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -EINVAL);
	t.count = 1;
	t.nfds = 0;
	ck_assert_int_eq(sb_rpmsg_tput_run(&t, &r, &e), -EINVAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rpmsg_tput");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, echoed_counts_every_round_trip);
	tcase_add_test(tc, one_byte_payloads_and_window_one);
	tcase_add_test(tc, one_way_reads_nothing);
	tcase_add_test(tc, a_changed_echo_is_counted);
	tcase_add_test(tc, a_silent_remote_ends_the_run);
	tcase_add_test(tc, a_failed_write_names_its_endpoint);
	tcase_add_test(tc, a_stop_signal_ends_the_run);
	tcase_add_test(tc, bad_plans_are_refused);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
