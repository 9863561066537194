// SPDX-License-Identifier: GPL-2.0-or-later
/* struct sb_nd_source: which origin answers (a capture file over any root, a snapshot on a
 * sysroot), --dev resolved the way each can, the names each knows, and the errors with their
 * exit codes. The capture is tests/fixtures/netlink/devmem-nic.nl: lo (1) and eth2 (3). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/netdev.h"
#include "socbox/sys.h"
#include "testutil.h"

#define CAPTURE "netlink/devmem-nic.nl"

/* A snapshot of a board with eth2 (ifindex 3); with its netdev capture when parts is set. */
static char *snapshot(const char *parts)
{
	char *dir = tu_tree_new();
	char *msgs = NULL;
	size_t len = 0;
	FILE *f = fopen(tu_fixture(CAPTURE), "rb");

	ck_assert_ptr_nonnull(f);
	msgs = malloc(1 << 16);
	len = fread(msgs, 1, 1 << 16, f);
	fclose(f);
	if (parts) {
		tu_write(dir, "sys/kernel/socbox/netdev.nlmsg", msgs, (long)len);
		tu_write(dir, "sys/kernel/socbox/netdev.parts", parts, -1);
	}
	tu_write(dir, "sys/devices/virtual/net/eth2/ifindex", "3\n", -1);
	tu_symlink(dir, "sys/class/net/eth2", "../../devices/virtual/net/eth2");
	free(msgs);
	return dir;
}

static const char parts_ok[] = "family_version=1\nboottime_s=4700\nhave=0x7f\nunsupported=0x0\n";

static struct sb_root *root_of(const char *dir)
{
	struct sb_root *r;

	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	return r;
}

START_TEST(capture_over_a_sysroot)
{
	char *dir = snapshot(parts_ok);
	struct sb_root *r = root_of(dir);
	struct sb_nd_source s = { .root = r, .capture = tu_fixture(CAPTURE), .dev = "3" };
	struct sb_nd_state st;
	struct sb_err e;
	char name[IF_NAMESIZE];

	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert_int_eq(s.origin, SB_ND_FROM_CAPTURE);
	ck_assert_uint_eq(s.ifindex, 3);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_DEVS | SB_ND_QUEUES, &st, &e), 0);
	ck_assert_uint_eq(st.ndevs, 1);
	ck_assert_uint_eq(st.devs[0].ifindex, 3);
	ck_assert_uint_eq(st.nqueues, 8);
	ck_assert_uint_eq(st.boottime_s, 0); /* another boot: pool ages unknown */
	/* the sysroot knows eth2, but the capture may come from any board */
	ck_assert_str_eq(sb_nd_source_ifname(&s, 3, name), "-");
	sb_nd_state_free(&st);
	sb_nd_source_close(&s);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(capture_dev_is_an_ifindex)
{
	struct sb_nd_source s = { .capture = tu_fixture(CAPTURE), .dev = "eth2" };
	struct sb_nd_state st;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), -EINVAL);
	ck_assert_int_eq(sb_err_exit_code(&e), 2);
	sb_nd_source_close(&s);

	s = (struct sb_nd_source){ .capture = tu_fixture(CAPTURE), .dev = "99" };
	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_ALL_PARTS, &st, &e), -ENODEV);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	ck_assert_str_eq(e.reason, "no device with ifindex 99 in the capture");
	ck_assert_uint_eq(sb_nd_state_records(&st), 0);
	sb_nd_source_close(&s);
}
END_TEST

START_TEST(capture_not_netlink)
{
	char *dir = tu_tree_new();
	char path[4096];
	struct sb_nd_source s = { .capture = path };
	struct sb_nd_state st;
	struct sb_err e;

	snprintf(path, sizeof(path), "%s/garbage.nl", dir);
	tu_write(dir, "garbage.nl", "this is not netlink\n", -1);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_ALL_PARTS, &st, &e), -EINVAL);
	ck_assert_str_eq(e.reason, "not a sequence of netlink messages");
	ck_assert_int_eq(sb_err_exit_code(&e), 1);
	sb_nd_source_close(&s);
	tu_tree_free(dir);
}
END_TEST

START_TEST(snapshot_names_and_dev)
{
	char *dir = snapshot(parts_ok);
	struct sb_root *r = root_of(dir);
	struct sb_nd_source s = { .root = r, .dev = "eth2" };
	struct sb_nd_state st;
	struct sb_err e;
	char name[IF_NAMESIZE];

	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert_int_eq(s.origin, SB_ND_FROM_SNAPSHOT);
	ck_assert_uint_eq(s.ifindex, 3);
	ck_assert(!s.family_absent);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_POOLS, &st, &e), 0);
	ck_assert_uint_eq(st.boottime_s, 4700);
	ck_assert_uint_eq(st.npools, 4); /* eth2's; pool 9 is lo's */
	for (size_t i = 0; i < st.npools; i++)
		ck_assert_uint_eq(st.pools[i].ifindex, 3);
	ck_assert_uint_eq(st.ndevs + st.nqueues, 0); /* not asked for */
	ck_assert_str_eq(sb_nd_source_ifname(&s, 3, name), "eth2");
	ck_assert_str_eq(sb_nd_source_ifname(&s, 1, name), "-"); /* lo not in this snapshot */
	ck_assert_str_eq(sb_nd_source_ifname(&s, 0, name), "-");
	sb_nd_state_free(&st);
	sb_nd_source_close(&s);

	s = (struct sb_nd_source){ .root = r, .dev = "eth9" };
	ck_assert_int_eq(sb_nd_source_open(&s, &e), -ENODEV);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	sb_nd_source_close(&s);

	s = (struct sb_nd_source){ .root = r, .netns = "x" };
	ck_assert_int_eq(sb_nd_source_open(&s, &e), -EOPNOTSUPP);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	sb_nd_source_close(&s);

	s = (struct sb_nd_source){ .root = r };
	ck_assert_int_eq(sb_nd_source_enter(&s, &e), -EOPNOTSUPP); /* netlink: live only */
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	ck_assert_ptr_nonnull(strstr(e.reason, "needs the live kernel"));
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(snapshot_without_capture)
{
	char *dir = snapshot(NULL);
	struct sb_root *r = root_of(dir);
	struct sb_nd_source s = { .root = r };
	struct sb_nd_state st;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert(!s.family_absent);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_ALL_PARTS, &st, &e), -ENOENT);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	sb_nd_source_close(&s);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(snapshot_of_a_kernel_without_the_family)
{
	char *dir = snapshot(NULL);
	struct sb_root *r;
	struct sb_nd_source s = { 0 };
	struct sb_nd_state st;
	struct sb_err e;

	tu_write(dir, "sys/kernel/socbox/netdev.parts", "# no family\n" SB_ND_SNAP_ABSENT "\n", -1);
	r = root_of(dir);
	s.root = r;
	sb_err_clear(&e);
	ck_assert_int_eq(sb_nd_source_open(&s, &e), 0);
	ck_assert(s.family_absent);
	ck_assert_int_eq(sb_nd_source_load(&s, SB_ND_ALL_PARTS, &st, &e), -ENOENT);
	ck_assert_str_eq(e.reason, "the snapshot's kernel had no netdev generic netlink family");
	sb_nd_source_close(&s);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("netdev_source");
	TCase *t = tcase_create("core");

	tcase_add_test(t, capture_over_a_sysroot);
	tcase_add_test(t, capture_dev_is_an_ifindex);
	tcase_add_test(t, capture_not_netlink);
	tcase_add_test(t, snapshot_names_and_dev);
	tcase_add_test(t, snapshot_without_capture);
	tcase_add_test(t, snapshot_of_a_kernel_without_the_family);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
