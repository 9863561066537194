// SPDX-License-Identifier: GPL-2.0-or-later
/* The endpoint paths against a fake kernel (the ioctl seam of lib/rpmsg/rpmsg_ept.c): the fd
 * ioctl's flags and result, EINVAL/ENOTTY turning into "unsupported" and the auto fallback
 * being remembered, an EINVAL that does not come again (memory) not taken for "unsupported", flow control passing its value in the argument, destroy on a default
 * endpoint, the ioctl numbers of the uAPI notes, and ping against a remote whose echoes
 * come late (a SOCK_SEQPACKET socketpair keeps message boundaries like an endpoint). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "socbox/macro.h"
#include "socbox/rpmsg.h"
#include "testutil.h"

static struct {
	int calls_fd, calls_create, calls_destroy, calls_set, calls_get;
	int err_fd, err_create, err_destroy, err_set;
	int err_fd_times; /* with err_fd: fail only this many times (0: always) */
	uint32_t last_flags;
	char last_name[32];
	uintptr_t last_set_arg;
	int fd_to_return;
	int destroyed_fd;
} fk;

static int fake_ioctl(int fd, unsigned long req, void *arg)
{
	if (req == SB_RPMSG_CREATE_EPT_FD_IOCTL) {
		struct sb_rpmsg_endpoint_fd_info *info = arg;

		fk.calls_fd++;
		if (fk.err_fd && (!fk.err_fd_times || fk.calls_fd <= fk.err_fd_times))
			return errno = fk.err_fd, -1;
		fk.last_flags = info->flags;
		memcpy(fk.last_name, info->name, sizeof(fk.last_name));
		info->fd = fk.fd_to_return;
		return 0;
	}
	if (req == SB_RPMSG_CREATE_EPT_IOCTL) {
		fk.calls_create++;
		return fk.err_create ? (errno = fk.err_create, -1) : 0;
	}
	if (req == SB_RPMSG_DESTROY_EPT_IOCTL) {
		fk.calls_destroy++;
		fk.destroyed_fd = fd;
		return fk.err_destroy ? (errno = fk.err_destroy, -1) : 0;
	}
	if (req == SB_RPMSG_SET_INCOMING_FLOWCONTROL) {
		fk.calls_set++;
		fk.last_set_arg = (uintptr_t)arg;
		return fk.err_set ? (errno = fk.err_set, -1) : 0;
	}
	if (req == SB_RPMSG_GET_OUTGOING_FLOWCONTROL) {
		fk.calls_get++;
		*(int *)arg = 1;
		return 0;
	}
	if (req == SB_RPMSG_CREATE_DEV_IOCTL || req == SB_RPMSG_RELEASE_DEV_IOCTL)
		return errno = ENXIO, -1;
	return errno = EINVAL, -1;
}

static struct sb_rpmsg_ctl ctl;

static void setup(void)
{
	memset(&fk, 0, sizeof(fk));
	fk.fd_to_return = -1;
	memset(&ctl, 0, sizeof(ctl));
	ctl.fd = open("/dev/null", O_RDWR | O_CLOEXEC);
	ck_assert_int_ge(ctl.fd, 0);
	ctl.timeout_ms = 100;
	snprintf(ctl.path, sizeof(ctl.path), "/dev/rpmsg_ctrl0");
	sb_rpmsg_set_ioctl(fake_ioctl);
}

static void teardown(void)
{
	sb_rpmsg_ctl_close(&ctl);
	sb_rpmsg_set_ioctl(NULL);
}

START_TEST(fd_path_flags_and_fd)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	fk.fd_to_return = p[0];
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1024, SB_RPMSG_ADDR_ANY,
					     O_CLOEXEC | O_NONBLOCK, SB_RPMSG_FD, &ept, &e),
			 0);
	ck_assert_int_eq(ept.fd, p[0]);
	ck_assert_int_eq(ept.path.ran, SB_RPMSG_FD);
	ck_assert(!sb_probe_is_fallback(&ept.path));
	ck_assert_str_eq(ept.devnode, "");
	ck_assert_uint_eq(fk.last_flags, (uint32_t)(O_RDWR | O_CLOEXEC | O_NONBLOCK));
	ck_assert_str_eq(fk.last_name, "epx");
	ck_assert_int_eq(ctl.fd_probe.ran, SB_RPMSG_FD);
	ck_assert_int_eq(fk.calls_create, 0);
	/* flags other than CLOEXEC/NONBLOCK never reach the kernel (it rejects them) */
	fk.fd_to_return = p[1];
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, O_APPEND | O_CLOEXEC, SB_RPMSG_AUTO,
					     &ept, &e),
			 0);
	ck_assert_uint_eq(fk.last_flags, (uint32_t)(O_RDWR | O_CLOEXEC));
	ck_assert_int_eq(sb_rpmsg_ept_destroy(&ept, &e), 0);
	ck_assert_int_eq(fk.destroyed_fd, p[1]);
	ck_assert_int_eq(ept.fd, -1);
	close(p[0]);
}
END_TEST

START_TEST(fd_einval_is_unsupported)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;

	fk.err_fd = EINVAL;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_FD, &ept, &e),
			 -EOPNOTSUPP);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_str_eq(e.what, "RPMSG_CREATE_EPT_FD_IOCTL");
	ck_assert_ptr_nonnull(strstr(e.reason, "EINVAL"));
	ck_assert_int_eq(ctl.fd_probe.ran, SB_RPMSG_LEGACY);
	ck_assert_int_eq(ctl.fd_probe.instead_of, SB_RPMSG_FD);
	ck_assert_int_eq(ctl.fd_probe.err, EINVAL);
	ck_assert_str_eq(ctl.fd_probe.why, "rpmsg_ctrl answered EINVAL");
	ck_assert_int_eq(fk.calls_create, 0); /* fd asked for explicitly: no fallback */
	fk.err_fd = ENOTTY;
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_FD, &ept, &e),
			 -EOPNOTSUPP);
	ck_assert_int_eq(ctl.fd_probe.err, ENOTTY);
	/* what says "no such interface" anywhere says it here too */
	fk.err_fd = EOPNOTSUPP;
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_FD, &ept, &e),
			 -EOPNOTSUPP);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(ctl.fd_probe.err, EOPNOTSUPP);
}
END_TEST

START_TEST(auto_fallback_is_remembered)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;
	int rc;

	fk.err_fd = EINVAL;
	sb_err_clear(&e);
	/* the legacy path runs; the fake kernel makes no /dev/rpmsgN, so the wait times out */
	rc = sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_AUTO, &ept, &e);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_str_eq(e.what, "wait for the new /dev/rpmsgN");
	ck_assert_int_eq(fk.calls_fd, 2); /* EINVAL twice: the kernel lacks it */
	ck_assert_int_eq(fk.calls_create, 1);
	rc = sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_AUTO, &ept, &e);
	ck_assert_int_eq(rc, -ETIMEDOUT);
	ck_assert_int_eq(fk.calls_fd, 2); /* not asked again */
	ck_assert_int_eq(fk.calls_create, 2);
}
END_TEST

/* rpmsg_create_ept() failing (memory, an address in use) is EINVAL too: once is not "the
 * kernel lacks the ioctl"; after an fd endpoint was made, EINVAL is never that. */
START_TEST(fd_einval_once_is_not_unsupported)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;

	fk.err_fd = EINVAL;
	fk.err_fd_times = 1;
	fk.fd_to_return = 7;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_FD, &ept, &e), 0);
	ck_assert_int_eq(fk.calls_fd, 2);
	ck_assert_int_eq(ept.fd, 7);
	ck_assert_int_eq(ctl.fd_probe.ran, SB_RPMSG_FD);
	fk.err_fd_times = 0;
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_FD, &ept, &e), -EINVAL);
	ck_assert_int_eq(fk.calls_fd, 3); /* not asked twice */
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_FAIL);
	ck_assert_ptr_nonnull(strstr(e.hint, "address"));
	ck_assert_int_eq(ctl.fd_probe.ran, SB_RPMSG_FD);
}
END_TEST

START_TEST(auto_other_errors_do_not_fall_back)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;

	fk.err_fd = ENOMEM;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_AUTO, &ept, &e),
			 -ENOMEM);
	ck_assert_int_eq(fk.calls_create, 0);
	ck_assert_int_eq(ctl.fd_probe.ran, 0); /* not decided */
}
END_TEST

START_TEST(legacy_create_error)
{
	struct sb_rpmsg_ept ept;
	struct sb_err e;

	fk.err_create = ENOTTY;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "epx", 1, 2, 0, SB_RPMSG_LEGACY, &ept, &e),
			 -ENOTTY);
	ck_assert_int_eq(fk.calls_fd, 0);
	ck_assert_ptr_nonnull(strstr(e.hint, "rpmsg_char"));
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
}
END_TEST

START_TEST(flow_value_in_the_argument)
{
	struct sb_err e;
	bool paused = false;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_set_incoming_flow(ctl.fd, true, &e), 0);
	ck_assert_uint_eq(fk.last_set_arg, 1);
	ck_assert_int_eq(sb_rpmsg_set_incoming_flow(ctl.fd, false, &e), 0);
	ck_assert_uint_eq(fk.last_set_arg, 0);
	ck_assert_int_eq(sb_rpmsg_get_outgoing_flow(ctl.fd, &paused, &e), 0);
	ck_assert(paused);
	fk.err_set = ENXIO;
	ck_assert_int_eq(sb_rpmsg_set_incoming_flow(ctl.fd, true, &e), -ENXIO);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(e.hint, "GLINK"));
}
END_TEST

START_TEST(destroy_default_endpoint)
{
	struct sb_rpmsg_ept ept = { .fd = -1 };
	struct sb_err e;

	ept.fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
	snprintf(ept.devnode, sizeof(ept.devnode), "/dev/rpmsg0");
	fk.err_destroy = EINVAL;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_destroy(&ept, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.hint, "default endpoint"));
	ck_assert_str_eq(e.object, "/dev/rpmsg0");
	ck_assert_int_eq(ept.fd, -1); /* closed even when the ioctl failed */
}
END_TEST

START_TEST(dev_ioctls_enxio)
{
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_dev_create(&ctl, "x", 1, 2, &e), -ENXIO);
	ck_assert_ptr_nonnull(strstr(e.hint, "cannot create"));
	ck_assert_int_eq(sb_rpmsg_dev_release(&ctl, "x", 1, 2, &e), -ENXIO);
	ck_assert_ptr_nonnull(strstr(e.hint, "cannot release"));
}
END_TEST

START_TEST(ioctl_numbers)
{
	/* asm-generic _IOC layout (x86-64, arm64, riscv), as in the uAPI notes */
	ck_assert_uint_eq(SB_RPMSG_CREATE_EPT_IOCTL, 0x4028b501u);
	ck_assert_uint_eq(SB_RPMSG_DESTROY_EPT_IOCTL, 0x0000b502u);
	ck_assert_uint_eq(SB_RPMSG_CREATE_DEV_IOCTL, 0x4028b503u);
	ck_assert_uint_eq(SB_RPMSG_RELEASE_DEV_IOCTL, 0x4028b504u);
	ck_assert_uint_eq(SB_RPMSG_GET_OUTGOING_FLOWCONTROL, 0x8004b505u);
	ck_assert_uint_eq(SB_RPMSG_SET_INCOMING_FLOWCONTROL, 0x8004b506u);
	ck_assert_uint_eq(SB_RPMSG_CREATE_EPT_FD_IOCTL, 0xc030b507u);
}
END_TEST

START_TEST(discard_destroys_or_names_the_node)
{
	struct sb_err e;

	sb_err_clear(&e);
	/* /dev/null stands in for the new node: opened, DESTROY through the fake */
	ck_assert_int_eq(sb_rpmsg_ept_discard("/dev/null", &e), 0);
	ck_assert_int_eq(fk.calls_destroy, 1);
	ck_assert_str_eq(e.hint, "");
	fk.err_destroy = EINVAL;
	sb_err_set(&e, EBUSY, "/dev/null", "open endpoint", "held elsewhere");
	ck_assert_int_eq(sb_rpmsg_ept_discard("/dev/null", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.hint, "held elsewhere; /dev/null left behind"));
	ck_assert_ptr_nonnull(strstr(e.hint, "rpmsgctl ept destroy null"));
	ck_assert_int_eq(e.errnum, EBUSY); /* the error stays the open's */
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ept_discard("/nonexistent/rpmsg9", &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.hint, "/nonexistent/rpmsg9 left behind (destroy: ENOENT)"));
}
END_TEST

START_TEST(lasting_endpoint_is_legacy_even_with_fd_ioctl)
{
	enum sb_rpmsg_method m = SB_RPMSG_FD;
	struct sb_rpmsg_ept ept;
	struct sb_err e;
	int p[2];

	/* this fake kernel has the fd ioctl: auto alone would take it */
	ck_assert_int_eq(pipe(p), 0);
	fk.fd_to_return = p[0];
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_method_lasting(SB_RPMSG_AUTO, &m, &e), 0);
	ck_assert_int_eq(m, SB_RPMSG_LEGACY);
	/* the legacy path runs (and times out: the fake makes no /dev/rpmsgN) */
	ck_assert_int_eq(sb_rpmsg_ept_create(&ctl, "keep", 1, 2, O_CLOEXEC, m, &ept, &e),
			 -ETIMEDOUT);
	ck_assert_int_eq(fk.calls_fd, 0);
	ck_assert_int_eq(fk.calls_create, 1);
	ck_assert_int_eq(sb_rpmsg_method_lasting(SB_RPMSG_LEGACY, &m, &e), 0);
	ck_assert_int_eq(m, SB_RPMSG_LEGACY);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_method_lasting(SB_RPMSG_FD, &m, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.reason, "last file descriptor"));
	ck_assert_int_eq(fk.calls_fd, 0);
	close(p[0]);
	close(p[1]);
}
END_TEST

/* The remote's side of a ping: queue the echo of request seq (as the remote would send it). */
static void echo(int peer, size_t size, uint32_t cookie, uint32_t seq)
{
	unsigned char b[SB_RPMSG_VIRTIO_MTU];

	sb_rpmsg_ping_fill(b, size, cookie, seq);
	ck_assert_int_eq(write(peer, b, size), (ssize_t)size);
}

START_TEST(ping_delayed_echo_is_late_not_corrupt)
{
	const size_t sizes[] = { 32, 1, 4, 8 };

	for (size_t z = 0; z < ARRAY_SIZE(sizes); z++) {
		struct sb_rpmsg_ping p;
		struct sb_err e;
		uint64_t rtt = 0;
		int sv[2];

		ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv), 0);
		sb_err_clear(&e);
		ck_assert_int_eq(sb_rpmsg_ping_init(&p, sizes[z], 0xc0ffee11u, &e), 0);
		/* request 0: the remote is slow, no echo within the timeout */
		ck_assert_int_eq(sb_rpmsg_ping_one(sv[0], &p, 0, 20, &rtt, &e), -ETIMEDOUT);
		/* request 1: the late echo of 0 arrives first, then the echo of 1 */
		echo(sv[1], sizes[z], 0xc0ffee11u, 0);
		echo(sv[1], sizes[z], 0xc0ffee11u, 1);
		ck_assert_int_eq(sb_rpmsg_ping_one(sv[0], &p, 1, 1000, &rtt, &e), SB_ECHO_OK);
		ck_assert_uint_eq(p.late, 1);
		ck_assert_uint_gt(rtt, 0);
		/* request 2: only a late echo of 1 (again): skipped, then the timeout */
		echo(sv[1], sizes[z], 0xc0ffee11u, 1);
		ck_assert_int_eq(sb_rpmsg_ping_one(sv[0], &p, 2, 20, &rtt, &e), -ETIMEDOUT);
		ck_assert_uint_eq(p.late, 2);
		/* request 3: its own echo with one payload byte flipped is corrupt */
		{
			unsigned char b[64];

			sb_rpmsg_ping_fill(b, sizes[z], 0xc0ffee11u, 3);
			b[sizes[z] - 1] ^= 0x40;
			ck_assert_int_eq(write(sv[1], b, sizes[z]), (ssize_t)sizes[z]);
		}
		ck_assert_int_eq(sb_rpmsg_ping_one(sv[0], &p, 3, 1000, &rtt, &e), SB_ECHO_CORRUPT);
		ck_assert_uint_eq(p.late, 2);
		sb_rpmsg_ping_free(&p);
		close(sv[0]);
		close(sv[1]);
	}
}
END_TEST

START_TEST(ping_check_rules)
{
	unsigned char b[64];

	sb_rpmsg_ping_fill(b, 32, 7, 5);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 32, 32, 7, 5), SB_ECHO_OK);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 31, 32, 7, 5), SB_ECHO_CORRUPT); /* short */
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 32, 32, 8, 5), SB_ECHO_CORRUPT); /* another run */
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 32, 32, 7, 9), SB_ECHO_LATE);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 32, 32, 7, 4),
			 SB_ECHO_CORRUPT); /* from the future */
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 3, 32, 7, 9), SB_ECHO_CORRUPT); /* no header */
	/* one byte holds the low 8 bits of the number: 300 is 44, and 299 (43) is late */
	sb_rpmsg_ping_fill(b, 1, 7, 299);
	ck_assert_uint_eq(b[0], 299 & 0xff);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 1, 1, 7, 300), SB_ECHO_LATE);
	sb_rpmsg_ping_fill(b, 1, 7, 300);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 1, 1, 7, 300), SB_ECHO_OK);
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 1, 1, 99, 300),
			 SB_ECHO_OK); /* no room for a cookie */
	ck_assert_int_eq(sb_rpmsg_ping_check(b, 2, 1, 7, 300), SB_ECHO_CORRUPT); /* too long */
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rpmsg_fake");
	TCase *t = tcase_create("fake kernel");

	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, fd_path_flags_and_fd);
	tcase_add_test(t, fd_einval_is_unsupported);
	tcase_add_test(t, auto_fallback_is_remembered);
	tcase_add_test(t, fd_einval_once_is_not_unsupported);
	tcase_add_test(t, auto_other_errors_do_not_fall_back);
	tcase_add_test(t, legacy_create_error);
	tcase_add_test(t, flow_value_in_the_argument);
	tcase_add_test(t, destroy_default_endpoint);
	tcase_add_test(t, dev_ioctls_enxio);
	tcase_add_test(t, ioctl_numbers);
	tcase_add_test(t, ping_delayed_echo_is_late_not_corrupt);
	tcase_add_test(t, ping_check_rules);
	tcase_add_test(t, discard_destroys_or_names_the_node);
	tcase_add_test(t, lasting_endpoint_is_legacy_even_with_fd_ioctl);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
