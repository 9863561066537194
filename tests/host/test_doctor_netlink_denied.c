// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's netdev probe when this process may not open a netlink socket at all (under
 * qemu-user socket(AF_NETLINK, ..., NETLINK_GENERIC) gives EPROTONOSUPPORT; a seccomp
 * filter or sandbox answers what it was told to). It used to say "no 'netdev' generic
 * netlink family". A seccomp filter of this machine's kernel refuses the socket here, with
 * qemu-user's errno and with EPERM; Check runs each test in a process of its own, so the
 * filter ends with it. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/genl.h"
#include "socbox/macro.h"
#include "socbox/netdev.h"
#include "testutil.h"

#if defined(__x86_64__)
#define ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH AUDIT_ARCH_AARCH64
#elif defined(__arm__)
#define ARCH AUDIT_ARCH_ARM
#else
#error "add this architecture's AUDIT_ARCH_"
#endif

/* socket(AF_NETLINK, ...) fails with err from now on; every other call is let through. */
static void refuse_netlink(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		/* the low half of the first argument (little-endian) */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((unsigned)err & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = { .len = ARRAY_SIZE(f), .filter = f };

	ck_assert_int_eq(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0), 0);
	ck_assert_msg(prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) == 0, "seccomp: %s",
		      strerror(errno));
	ck_assert_int_eq(socket(AF_NETLINK, SOCK_RAW, 16 /* NETLINK_GENERIC */), -1);
	ck_assert_int_eq(errno, err);
}

static void probe(struct sb_doctor_sub *s)
{
	struct sb_doctor_report rep = { 0 };
	struct doctor_board b = { .rep = &rep };
	struct sb_root *r;
	struct sb_err e;

	ck_assert_int_eq(sb_root_open(&r, "/", &e), 0);
	ck_assert(sb_root_is_live(r));
	memset(s, 0, sizeof(*s));
	s->name = "netdev";
	b.root = r;
	doctor_probe_netdev(&b, s);
	free(rep.causes);
	sb_root_close(r);
}

static bool has_fact(const struct sb_doctor_sub *s, const char *key)
{
	for (int i = 0; i < s->nfacts; i++)
		if (!strcmp(s->facts[i].key, key))
			return true;
	return false;
}

START_TEST(qemu_user_errno_is_said_as_it_is)
{
	struct sb_doctor_sub s;
	struct sb_genl g;
	struct sb_err e;

	refuse_netlink(EPROTONOSUPPORT);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_open(&g, &e), -EPROTONOSUPPORT);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(e.hint, "qemu-user"));
	probe(&s);
	ck_assert_int_eq(s.status, SB_HEALTH_UNKNOWN);
	ck_assert_str_eq(s.summary,
			 "cannot ask the kernel: generic netlink: open socket: Protocol not supported");
	ck_assert_int_eq(s.nhints, 1);
	ck_assert_ptr_nonnull(strstr(s.hints[0], "qemu-user"));
	ck_assert(!has_fact(&s, "family")); /* unknown, not "false" */
	sb_doctor_sub_free(&s);
}
END_TEST

START_TEST(a_refusing_filter_is_said_as_it_is)
{
	struct sb_doctor_sub s;

	refuse_netlink(EPERM);
	probe(&s);
	ck_assert_int_eq(s.status, SB_HEALTH_UNKNOWN);
	ck_assert_str_eq(
		s.summary,
		"cannot ask the kernel: generic netlink: open socket: Operation not permitted");
	ck_assert_int_eq(s.nhints, 1);
	ck_assert_ptr_nonnull(strstr(s.hints[0], "seccomp"));
	ck_assert(!has_fact(&s, "family"));
	sb_doctor_sub_free(&s);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_netlink_denied");
	TCase *tc = tcase_create("socket refused");

	tcase_add_test(tc, qemu_user_errno_is_said_as_it_is);
	tcase_add_test(tc, a_refusing_filter_is_said_as_it_is);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
