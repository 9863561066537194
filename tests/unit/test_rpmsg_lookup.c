// SPDX-License-Identifier: GPL-2.0-or-later
/* Which /dev/rpmsgN a legacy create made, from the ctrl device's children in sysfs
 * (lib/rpmsg/rpmsg_lookup.c), on a made-up sysfs: the one new child is ours, and when its open
 * is refused (EBUSY: another process creating an identical endpoint at the same moment took
 * it), the other process's own node is taken, even when it was made before our listing. */
#include <stdio.h>
#include <string.h>

#include "../../lib/rpmsg/rpmsg_lookup.h"
#include "socbox/sys.h"
#include "testutil.h"

/* An endpoint device below rpmsg_ctrl0 as rpmsg_char makes it: the class link, its name and
 * its addresses in signed decimal. */
static void endpoint(const char *d, unsigned id, const char *name)
{
	char rel[96], target[64];

	snprintf(rel, sizeof(rel), "sys/class/rpmsg/rpmsg_ctrl0/rpmsg%u/name", id);
	tu_write(d, rel, name, -1);
	snprintf(rel, sizeof(rel), "sys/class/rpmsg/rpmsg_ctrl0/rpmsg%u/src", id);
	tu_write(d, rel, "1024\n", -1);
	snprintf(rel, sizeof(rel), "sys/class/rpmsg/rpmsg_ctrl0/rpmsg%u/dst", id);
	tu_write(d, rel, "-1\n", -1);
	snprintf(rel, sizeof(rel), "sys/class/rpmsg/rpmsg%u", id);
	snprintf(target, sizeof(target), "rpmsg_ctrl0/rpmsg%u", id);
	tu_symlink(d, rel, target);
}

START_TEST(busy_pick_takes_the_others_node)
{
	char *d = tu_tree_new(), dev[32];
	struct sb_root *r;
	struct sb_err e = { 0 };
	struct sb_rpmsg_ctl ctl = { .fd = -1 };
	struct sb_rpmsg_endpoint_info info = { .name = "twice", .src = 1024, .dst = 0xffffffff };

	tu_write(d, "proc/self/mountinfo",
		 "21 26 0:20 / /sys rw - sysfs sysfs rw\n"
		 "22 26 0:5 / /dev rw,nosuid - devtmpfs udev rw,mode=755\n",
		 -1);
	endpoint(d, 3, "other\n");
	/* the other process made its identical endpoint before our listing */
	endpoint(d, 4, "twice\n");
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ctl.root = r;
	ck_assert_int_eq(rpmsg_lookup_start(&ctl), 0);
	/* our ioctl made rpmsg5: the one new child */
	endpoint(d, 5, "twice\n");
	ck_assert_int_eq(rpmsg_lookup_pick(&ctl, &info, dev, sizeof(dev), &e), 0);
	ck_assert_str_eq(dev, "rpmsg5");
	/* the other process's listing saw rpmsg5 new too, took it and holds it open: ours is
	 * rpmsg4, which our listing knew before the create; never rpmsg3, another name */
	ck_assert_int_eq(rpmsg_lookup_next(&ctl, "twice", 1024, 0xffffffff, dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "rpmsg4");
	/* busy as well: the search walks down the inode numbers and ends, never at rpmsg3
	 * (kernfs numbers grow, so it ends at once; this directory's file system may have
	 * given rpmsg5 a smaller number than rpmsg4, and then it is offered once more) */
	int tries = 0, rc;

	while ((rc = rpmsg_lookup_next(&ctl, "twice", 1024, 0xffffffff, dev, sizeof(dev))) == 0) {
		ck_assert_str_ne(dev, "rpmsg3");
		ck_assert_int_lt(++tries, 2);
	}
	ck_assert_int_eq(rc, -ENOENT);
	/* the next create starts afresh: its one new child */
	endpoint(d, 6, "twice\n");
	ck_assert_int_eq(rpmsg_lookup_pick(&ctl, &info, dev, sizeof(dev), &e), 0);
	ck_assert_str_eq(dev, "rpmsg6");
	rpmsg_lookup_free(&ctl);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("rpmsg_lookup");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, busy_pick_takes_the_others_node);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
