// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libsocbox-failnth.so, preloaded into a command (guest/faults.sh):
 *
 *   SOCBOX_FAIL_NTH=N SOCBOX_FAIL_NTH_OUT=FILE LD_PRELOAD=.../libsocbox-failnth.so CMD...
 *
 * makes the Nth fault point of CMD's main thread fail (/proc/thread-self/fail-nth: the Nth
 * slab or page allocation, or function registered with fail_function), counting from the
 * moment the dynamic loader has mapped and relocated every library, so that the failures
 * land in the command and not in ld.so. At exit it appends to FILE how many fault points
 * were still to come: 0 when the failure was injected, N minus the points visited when it
 * was not. A command that dies by a signal or _exit() appends nothing.
 *
 * The variables are removed before anything runs, so the command's children are not armed.
 * An alarm of ALARM_S seconds ends a command that hangs (SIGALRM, exit 142 in a shell), so
 * that the walk needs no timeout(1) process per step.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ALARM_S 20

static int fail_nth_fd = -1;
static int out_fd = -1;

static void die(const char *what)
{
	dprintf(2, "libsocbox-failnth: %s: %m\n", what);
	_exit(125);
}

__attribute__((constructor)) static void arm(void)
{
	const char *nth = getenv("SOCBOX_FAIL_NTH");
	const char *out = getenv("SOCBOX_FAIL_NTH_OUT");
	char n[16];

	if (!nth || !out)
		return;
	if (snprintf(n, sizeof(n), "%s", nth) >= (int)sizeof(n))
		die("SOCBOX_FAIL_NTH too long");
	fail_nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (fail_nth_fd < 0)
		die("/proc/thread-self/fail-nth");
	out_fd = open(out, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (out_fd < 0)
		die(out);
	unsetenv("LD_PRELOAD");
	unsetenv("SOCBOX_FAIL_NTH");
	unsetenv("SOCBOX_FAIL_NTH_OUT");
	alarm(ALARM_S);
	/* from here on every fault point of this thread counts */
	if (pwrite(fail_nth_fd, n, strlen(n), 0) < 0)
		die("write fail-nth");
}

__attribute__((destructor)) static void report(void)
{
	char left[16] = "";
	ssize_t len;

	if (fail_nth_fd < 0)
		return;
	/* read, then disarm before anything of ours allocates */
	len = pread(fail_nth_fd, left, sizeof(left) - 1, 0);
	if (pwrite(fail_nth_fd, "0", 1, 0) < 0 || len <= 0)
		die("read fail-nth");
	left[len] = '\0';
	dprintf(out_fd, "%s", left);
}
