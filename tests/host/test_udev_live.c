// SPDX-License-Identifier: GPL-2.0-or-later
/* Waiting for a real uevent from this machine's kernel: needs root and sysfs, so it is in
 * the host tier. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/udev.h"
#include "testutil.h"

/* A real uevent: writing "change" to a device's uevent file makes the kernel emit one. */
START_TEST(monitor_sees_a_kernel_uevent)
{
	struct sb_devmon *m;
	struct sb_devevent ev;
	struct sb_err e;
	int fd;

	ck_assert_msg(sb_devmon_open(&m, "net", &e) == 0, "open monitor: %s", e.what);
	fd = open("/sys/class/net/lo/uevent", O_WRONLY);
	ck_assert_msg(fd >= 0, "/sys/class/net/lo/uevent: needs root and sysfs");
	ck_assert_int_eq(write(fd, "change", 6), 6);
	close(fd);
	ck_assert_int_eq(sb_devmon_wait(m, "change", "lo", &ev, 5000), 0);
	ck_assert_str_eq(ev.subsystem, "net");
	ck_assert_str_eq(ev.action, "change");
	ck_assert_ptr_nonnull(strstr(ev.devpath, "/lo"));
	/* nothing else pending for a device that does not exist: times out */
	ck_assert_int_eq(sb_devmon_wait(m, "add", "socbox-none", &ev, 100), -ETIMEDOUT);
	sb_devmon_close(m);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("udev_live");
	TCase *tc = tcase_create("live");
	tcase_add_test(tc, monitor_sees_a_kernel_uevent);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
