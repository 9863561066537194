// SPDX-License-Identifier: GPL-2.0-or-later
/* The netdev capture of a snapshot: sb_nd_state_from_root() on a sysroot with the capture
 * (present, absent, truncated, damaged) and the interface names of /sys/class/net. The
 * capture is tests/fixtures/netlink/devmem-nic.nl: lo (1) and eth2 (3) with 4+4 queues,
 * 4 NAPIs, 5 pools, pool stats and qstats. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/netdev.h"
#include "socbox/sys.h"
#include "testutil.h"

static const char parts_ok[] =
	"# socbox snapshot\n"
	"family_version=1\n"
	"boottime_s=4700\n"
	"have=0x6f\n"
	"unsupported=0x10\n"
	"unsupported.4=95 \n";

static char *fixture(long *len)
{
	FILE *f = fopen(tu_fixture("netlink/devmem-nic.nl"), "rb");
	char *buf = malloc(1 << 16);

	ck_assert_ptr_nonnull(f);
	*len = (long)fread(buf, 1, 1 << 16, f);
	fclose(f);
	ck_assert_int_gt(*len, 0);
	return buf;
}

/* A snapshot tree with the capture cut to msgs_len bytes (-1: whole, -2: no file) and the
 * parts text (NULL: no file). */
static char *snapshot(long msgs_len, const char *parts)
{
	char *dir = tu_tree_new();
	long len;
	char *msgs = fixture(&len);

	if (msgs_len != -2)
		tu_write(dir, "sys/kernel/socbox/netdev.nlmsg", msgs,
			 msgs_len >= 0 && msgs_len < len ? msgs_len : len);
	if (parts)
		tu_write(dir, "sys/kernel/socbox/netdev.parts", parts, -1);
	tu_write(dir, "proc/sys/kernel/osrelease", "6.12.0\n", -1);
	free(msgs);
	return dir;
}

static int load(const char *dir, unsigned parts, struct sb_nd_state *st, struct sb_err *e)
{
	struct sb_root *r;
	int rc;

	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	sb_err_clear(e);
	rc = sb_nd_state_from_root(r, parts, st, e);
	sb_root_close(r);
	return rc;
}

START_TEST(capture_present)
{
	char *dir = snapshot(-1, parts_ok);
	struct sb_nd_state st;
	struct sb_err e;

	int rc = load(dir, SB_ND_DEVS | SB_ND_QUEUES | SB_ND_POOLS | SB_ND_POOL_STATS, &st, &e);

	ck_assert_msg(rc == 0, "%s: %s: %s (%s)", e.object, e.what, e.reason, e.hint);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.ndevs, 2);
	ck_assert_uint_eq(st.nqueues, 8);
	ck_assert_uint_eq(st.npools, 5);
	ck_assert_uint_eq(st.nnapis, 0); /* not asked for, though in the capture */
	ck_assert_uint_eq(st.nqstats + st.ndev_qstats, 0);
	ck_assert_uint_eq(st.family_version, 1);
	ck_assert_uint_eq(st.boottime_s, 4700);
	/* have comes from the parts file (masked by what was asked), not from the messages */
	ck_assert_uint_eq(st.have, SB_ND_DEVS | SB_ND_QUEUES | SB_ND_POOLS);
	ck_assert_uint_eq(st.unsupported, SB_ND_POOL_STATS);
	ck_assert_str_eq(st.part_err[4].object, "netdev page-pool-stats-get");
	ck_assert_int_eq(st.part_err[4].errnum, EOPNOTSUPP);
	ck_assert_int_eq(sb_err_exit_code(&st.part_err[4]), 3);
	ck_assert_ptr_nonnull(strstr(st.part_err[4].hint, "CONFIG_PAGE_POOL_STATS"));
	ck_assert_ptr_nonnull(sb_nd_find_pool_stats(&st, 10)); /* the lookups were indexed */
	sb_nd_state_free(&st);

	ck_assert_int_eq(load(dir, SB_ND_NAPIS | SB_ND_QSTATS_QUEUE | SB_ND_QSTATS_DEV, &st, &e), 0);
	ck_assert_uint_eq(st.nnapis, 4);
	ck_assert_uint_eq(st.nqstats + st.ndev_qstats, 9);
	ck_assert_uint_eq(st.ndevs + st.nqueues + st.npools, 0);
	ck_assert_uint_eq(st.unsupported, 0); /* pool stats not asked for: no note */
	ck_assert_ptr_nonnull(sb_nd_find_dev_qstats(&st, 3));
	sb_nd_state_free(&st);
	tu_tree_free(dir);
}
END_TEST

START_TEST(capture_absent)
{
	char *dir = snapshot(-2, NULL);
	struct sb_nd_state st;
	struct sb_err e;

	ck_assert_int_eq(load(dir, SB_ND_ALL_PARTS, &st, &e), -ENOENT);
	ck_assert_int_eq(sb_err_exit_code(&e), 3);
	ck_assert_str_eq(e.reason,
			 "this snapshot has no netdev capture (taken by an older socbox or a "
			 "kernel without the netdev family)");
	ck_assert_ptr_nonnull(strstr(e.hint, "--save-netlink"));
	ck_assert_uint_eq(st.ndevs, 0);
	tu_tree_free(dir);
}
END_TEST

START_TEST(capture_truncated)
{
	char *dir = snapshot(1000, parts_ok);
	struct sb_nd_state st;
	struct sb_err e;

	/* What parsed is kept, the cut is counted for the views' note. */
	ck_assert_int_eq(load(dir, SB_ND_ALL_PARTS, &st, &e), 0);
	ck_assert_uint_ge(st.malformed, 1);
	ck_assert_uint_eq(st.ndevs, 2);
	ck_assert_uint_lt(st.nqueues + st.npools + st.nqstats, 8 + 5 + 8);
	sb_nd_state_free(&st);
	tu_tree_free(dir);

	dir = snapshot(0, parts_ok); /* a kernel that had nothing to report */
	ck_assert_int_eq(load(dir, SB_ND_ALL_PARTS, &st, &e), 0);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.ndevs, 0);
	ck_assert_uint_eq(st.have, 0x6f);
	sb_nd_state_free(&st);
	tu_tree_free(dir);
}
END_TEST

START_TEST(capture_damaged)
{
	static const char *bad[] = {
		"family_version=1\nboottime_s=1\nunsupported=0x0\n",	       /* no have */
		"family_version=x\nboottime_s=1\nhave=0x1\nunsupported=0x0\n", /* not a number */
		"family_version=1\nboottime_s=1\nhave=0x1\nunsupported=0x1\nunsupported.9=95 x\n",
		"family_version=1\nboottime_s=1\nhave=0x1\nunsupported=0x1\nunsupported.0=abc\n",
		"",
	};
	struct sb_nd_state st;
	struct sb_err e;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		char *dir = snapshot(-1, bad[i]);
		ck_assert_int_eq(load(dir, SB_ND_ALL_PARTS, &st, &e), -EINVAL);
		ck_assert_ptr_nonnull(strstr(e.hint, "damaged"));
		ck_assert_uint_eq(st.ndevs, 0);
		tu_tree_free(dir);
	}
	/* the parts file without the messages beside it */
	char *dir = snapshot(-2, parts_ok);
	ck_assert_int_eq(load(dir, SB_ND_ALL_PARTS, &st, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.reason, "missing"));
	tu_tree_free(dir);
}
END_TEST

START_TEST(ifnames)
{
	char *dir = tu_tree_new();
	struct sb_nd_ifname *v;
	struct sb_root *r;
	size_t n;

	tu_write(dir, "sys/devices/virtual/net/lo/ifindex", "1\n", -1);
	tu_write(dir, "sys/devices/pci0000:00/0000:00:03.0/net/eth2/ifindex", "3\n", -1);
	tu_write(dir, "sys/devices/virtual/net/bad0/ifindex", "garbage\n", -1);
	tu_symlink(dir, "sys/class/net/lo", "../../devices/virtual/net/lo");
	tu_symlink(dir, "sys/class/net/eth2", "../../devices/pci0000:00/0000:00:03.0/net/eth2");
	tu_symlink(dir, "sys/class/net/bad0", "../../devices/virtual/net/bad0");
	tu_symlink(dir, "sys/class/net/gone0", "../../devices/virtual/net/gone0");
	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	ck_assert_int_eq(sb_nd_read_ifnames(r, &v, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(sb_nd_ifname_of(v, n, 3), "eth2");
	ck_assert_str_eq(sb_nd_ifname_of(v, n, 1), "lo");
	ck_assert_ptr_null(sb_nd_ifname_of(v, n, 2));
	ck_assert_uint_eq(sb_nd_ifindex_of(v, n, "eth2"), 3);
	ck_assert_uint_eq(sb_nd_ifindex_of(v, n, "bad0"), 0);
	free(v);
	sb_root_close(r);
	tu_tree_free(dir);

	dir = tu_tree_new(); /* no /sys/class/net at all */
	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	ck_assert_int_eq(sb_nd_read_ifnames(r, &v, &n), -ENOENT);
	ck_assert_uint_eq(n, 0);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("netdev_snap");
	TCase *t = tcase_create("core");

	tcase_add_test(t, capture_present);
	tcase_add_test(t, capture_absent);
	tcase_add_test(t, capture_truncated);
	tcase_add_test(t, capture_damaged);
	tcase_add_test(t, ifnames);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
