// SPDX-License-Identifier: GPL-2.0-or-later
/* Device nodes from uevent files (the real uevent is tests/host/test_udev_live.c). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/udev.h"
#include "testutil.h"

START_TEST(devnode_from_uevent)
{
	char *dir = tu_tree_new(), buf[64];
	struct sb_root *r;

	tu_write(dir, "sys/class/rpmsg/rpmsg3/uevent", "MAJOR=237\nMINOR=3\nDEVNAME=rpmsg3\n", -1);
	tu_write(dir, "sys/class/dma_heap/system/uevent",
		 "MAJOR=245\nMINOR=0\nDEVNAME=dma_heap/system\n", -1);
	tu_write(dir, "sys/class/rpmsg/nonode/uevent", "DRIVER=x\n", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	ck_assert_int_eq(sb_devnode(r, "/sys/class/rpmsg/rpmsg3", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/dev/rpmsg3");
	ck_assert_int_eq(sb_devnode(r, "/sys/class/dma_heap/system", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/dev/dma_heap/system");
	ck_assert_int_eq(sb_devnode(r, "/sys/class/rpmsg/nonode", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(sb_devnode(r, "/sys/class/rpmsg/gone", buf, sizeof(buf)), -ENOENT);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("udev");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, devnode_from_uevent);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
