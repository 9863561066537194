// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsg and remoteproc sysfs parsers: board dumps (TI AM62x-like, i.MX8MP-like), garbage
 * attributes, missing directories, and the checks done before any ioctl. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"
#include "testutil.h"

static struct sb_root *open_root(const char *dir)
{
	struct sb_root *r = NULL;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	return r;
}

START_TEST(devname_virtio)
{
	char parent[32], name[40];
	int64_t src, dst;

	ck_assert_int_eq(sb_rpmsg_parse_devname("virtio0.rpmsg-raw.1024.-1", parent, sizeof(parent),
						name, sizeof(name), &src, &dst),
			 0);
	ck_assert_str_eq(parent, "virtio0");
	ck_assert_str_eq(name, "rpmsg-raw");
	ck_assert_int_eq(src, 1024);
	ck_assert_int_eq(dst, -1);
	/* TI's service name has dots of its own */
	ck_assert_int_eq(sb_rpmsg_parse_devname("virtio1.ti.ipc4.ping-pong.-1.13", parent,
						sizeof(parent), name, sizeof(name), &src, &dst),
			 0);
	ck_assert_str_eq(parent, "virtio1");
	ck_assert_str_eq(name, "ti.ipc4.ping-pong");
	ck_assert_int_eq(src, -1);
	ck_assert_int_eq(dst, 13);
}
END_TEST

START_TEST(devname_garbage)
{
	static const char *const bad[] = {
		"",
		"virtio0",
		"virtio0.name",
		"virtio0.name.1",
		"virtio0.name.x.1",
		"virtio0.name.1.y",
		".name.1.2",
		"virtio0..1.2",
		"virtio0.name.1.2.",
		"virtio0.n\xff\xfe.1.99999999999999999999999",
	};
	char parent[32], name[40], huge[4096];
	int64_t src, dst;

	for (size_t i = 0; i < ARRAY_SIZE(bad); i++)
		ck_assert_msg(sb_rpmsg_parse_devname(bad[i], parent, sizeof(parent), name,
						     sizeof(name), &src, &dst) == -EINVAL,
			      "accepted '%s'", bad[i]);
	/* a name longer than the buffer is refused, not truncated */
	memset(huge, 'a', sizeof(huge));
	memcpy(huge, "virtio0.", 8);
	strcpy(huge + sizeof(huge) - 8, ".1.2");
	ck_assert_int_eq(sb_rpmsg_parse_devname(huge, parent, sizeof(parent), name, sizeof(name),
						&src, &dst),
			 -EINVAL);
	/* non-UTF-8 bytes in a name are carried as they are */
	ck_assert_int_eq(sb_rpmsg_parse_devname("v.\xc3\x28.1.2", parent, sizeof(parent), name,
						sizeof(name), &src, &dst),
			 0);
	ck_assert_str_eq(name, "\xc3\x28");
}
END_TEST

START_TEST(link_parts)
{
	char parent[128], rproc[32];

	sb_rpmsg_link_parts(
		"../../devices/platform/5000000.m4fss/remoteproc/remoteproc0/remoteproc0#vdev0buffer/"
		"virtio0/virtio0.rpmsg_ctrl.0.0/rpmsg/rpmsg_ctrl0",
		parent, sizeof(parent), rproc, sizeof(rproc));
	ck_assert_str_eq(parent, "virtio0.rpmsg_ctrl.0.0");
	ck_assert_str_eq(rproc, "remoteproc0");
	/* an endpoint device is the direct child of its control device (same class) */
	sb_rpmsg_link_parts(
		"../../devices/socbox_rpmsg_loopback/socbox_rpmsg_loopback.rpmsg_ctrl.-1.-1/rpmsg/rpmsg_ctrl0/rpmsg3",
		parent, sizeof(parent), rproc, sizeof(rproc));
	ck_assert_str_eq(parent, "rpmsg_ctrl0");
	ck_assert_str_eq(rproc, "");
	sb_rpmsg_link_parts("", parent, sizeof(parent), rproc, sizeof(rproc));
	ck_assert_str_eq(parent, "");
	sb_rpmsg_link_parts("../../..", parent, sizeof(parent), rproc, sizeof(rproc));
	ck_assert_str_eq(parent, "");
	sb_rpmsg_link_parts("remoteprocX/remoteproc/x", parent, sizeof(parent), rproc,
			    sizeof(rproc));
	ck_assert_str_eq(rproc, "");
}
END_TEST

START_TEST(index_names)
{
	unsigned idx;

	ck_assert_int_eq(sb_rpmsg_index("rpmsg_ctrl12", "rpmsg_ctrl", &idx), 0);
	ck_assert_uint_eq(idx, 12);
	ck_assert_int_eq(sb_rpmsg_index("rpmsg_ctrl0", "rpmsg", &idx), -EINVAL);
	ck_assert_int_eq(sb_rpmsg_index("rpmsg", "rpmsg", &idx), -EINVAL);
	ck_assert_int_eq(sb_rpmsg_index("rpmsg3a", "rpmsg", &idx), -EINVAL);
	ck_assert_int_eq(sb_rpmsg_index("rpmsg99999999999", "rpmsg", &idx), -EINVAL);
}
END_TEST

static const struct sb_rpmsg_channel *channel(const struct sb_rpmsg_state *st, const char *dev)
{
	for (size_t i = 0; i < st->nchannels; i++)
		if (!strcmp(st->channels[i].dev, dev))
			return &st->channels[i];
	ck_abort_msg("no channel %s", dev);
	return NULL;
}

START_TEST(scan_am62x)
{
	struct sb_root *r = open_root(tu_fixture("am62x"));
	const struct sb_rpmsg_channel *ch;
	struct sb_rpmsg_state st;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_scan(r, &st, &e), 0);
	ck_assert(st.bus_present && st.class_present);
	ck_assert_uint_eq(st.nchannels, 5);
	ch = channel(&st, "virtio0.ti.ipc4.ping-pong.-1.13");
	ck_assert_str_eq(ch->name, "ti.ipc4.ping-pong");
	ck_assert(ch->have_src && ch->src == SB_RPMSG_ADDR_ANY); /* bus prints 0xffffffff */
	ck_assert(ch->have_dst && ch->dst == 13);		 /* bus prints 0xd */
	ck_assert_int_eq(ch->announce, 0);
	ck_assert_str_eq(ch->driver, "");
	ck_assert_str_eq(ch->remoteproc, "remoteproc0");
	ch = channel(&st, "virtio0.rpmsg_chrdev.-1.14");
	ck_assert_str_eq(ch->driver, "rpmsg_chrdev");
	ck_assert_str_eq(channel(&st, "virtio1.rpmsg_ctrl.0.0")->remoteproc, "remoteproc1");

	ck_assert_uint_eq(st.nctrls, 2);
	ck_assert_str_eq(st.ctrls[0].name, "rpmsg_ctrl0");
	ck_assert_str_eq(st.ctrls[0].devnode, "/dev/rpmsg_ctrl0");
	ck_assert_str_eq(st.ctrls[0].channel, "virtio0.rpmsg_ctrl.0.0");
	ck_assert_str_eq(st.ctrls[1].remoteproc, "remoteproc1");

	ck_assert_uint_eq(st.nepts, 2);
	/* class endpoint devices print signed decimal: -1 is "any" */
	ck_assert_str_eq(st.epts[0].ept_name, "rpmsg_chrdev");
	ck_assert(st.epts[0].have_src && st.epts[0].src == -1);
	ck_assert_int_eq(st.epts[0].dst, 14);
	ck_assert_str_eq(st.epts[0].parent, "virtio0.rpmsg_chrdev.-1.14");
	ck_assert_str_eq(st.epts[1].name, "rpmsg1");
	ck_assert_int_eq(st.epts[1].src, 1025);
	ck_assert_str_eq(st.epts[1].parent, "rpmsg_ctrl0");
	ck_assert_str_eq(st.epts[1].remoteproc, "remoteproc0");
	sb_rpmsg_state_free(&st);
	sb_root_close(r);
}
END_TEST

START_TEST(scan_imx8mp)
{
	struct sb_root *r = open_root(tu_fixture("imx8mp"));
	struct sb_rpmsg_state st;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_scan(r, &st, &e), 0);
	ck_assert(st.bus_present);
	ck_assert(!st.class_present); /* rpmsg_char/rpmsg_ctrl not loaded */
	ck_assert_uint_eq(st.nchannels, 3);
	ck_assert_uint_eq(st.nctrls, 0);
	ck_assert_uint_eq(st.nepts, 0);
	ck_assert_str_eq(channel(&st, "virtio0.rpmsg-virtual-tty-channel.-1.30")->driver,
			 "imx_rpmsg_tty");
	ck_assert_str_eq(channel(&st, "virtio0.rpmsg-raw.-1.31")->driver, "");
	ck_assert_uint_eq(channel(&st, "virtio0.rpmsg-raw.-1.31")->dst, 31);
	sb_rpmsg_state_free(&st);
	sb_root_close(r);
}
END_TEST

START_TEST(scan_garbage)
{
	char *dir = tu_tree_new(), huge[70000];
	struct sb_rpmsg_state st;
	struct sb_root *r;
	struct sb_err e;

	tu_write(dir, "sys/devices/x/virtio0/virtio0.bad.1.2/src", "zzz\n", -1);
	tu_write(dir, "sys/devices/x/virtio0/virtio0.bad.1.2/dst", "0x1ffffffff\n", -1);
	tu_write(dir, "sys/devices/x/virtio0/virtio0.bad.1.2/announce", "maybe\n", -1);
	tu_write(dir, "sys/devices/x/virtio0/virtio0.bad.1.2/name", "\xff\xfe\n", -1);
	tu_symlink(dir, "sys/bus/rpmsg/devices/virtio0.bad.1.2",
		   "../../../devices/x/virtio0/virtio0.bad.1.2");
	/* a dangling link and a truncated, empty endpoint device */
	tu_symlink(dir, "sys/bus/rpmsg/devices/virtio0.gone.1.2", "../../../devices/x/nowhere");
	tu_write(dir, "sys/devices/y/rpmsg/rpmsg4/src", "", 0);
	tu_write(dir, "sys/devices/y/rpmsg/rpmsg4/dst", "-", -1);
	memset(huge, 'n', sizeof(huge) - 1);
	huge[sizeof(huge) - 1] = '\0';
	tu_write(dir, "sys/devices/y/rpmsg/rpmsg4/name", huge, -1);
	tu_symlink(dir, "sys/class/rpmsg/rpmsg4", "../../devices/y/rpmsg/rpmsg4");
	tu_symlink(dir, "sys/class/rpmsg/rpmsgfoo", "../../devices/y");

	r = open_root(dir);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_scan(r, &st, &e), 0);
	ck_assert_uint_eq(st.nchannels, 2);
	ck_assert(!st.channels[0].have_src);
	ck_assert(!st.channels[0].have_dst); /* over 32 bits */
	ck_assert_int_eq(st.channels[0].announce, -1);
	ck_assert_str_eq(st.channels[0].name, "\xff\xfe");
	ck_assert_str_eq(st.channels[1].name, "gone"); /* from the device name */
	ck_assert_uint_eq(st.nepts, 1);		       /* rpmsgfoo is not an endpoint */
	ck_assert(!st.epts[0].have_src && !st.epts[0].have_dst);
	ck_assert_str_eq(st.epts[0].ept_name, ""); /* too large: left empty */
	ck_assert_str_eq(st.epts[0].devnode, "/dev/rpmsg4");
	sb_rpmsg_state_free(&st);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(scan_missing)
{
	char *dir = tu_tree_new();
	struct sb_rpmsg_state st;
	struct sb_rproc *rp;
	struct sb_root *r = open_root(dir);
	struct sb_err e;
	size_t n = 7;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_scan(r, &st, &e), 0);
	ck_assert(!st.bus_present && !st.class_present);
	ck_assert_uint_eq(st.nchannels + st.nctrls + st.nepts, 0);
	ck_assert_int_eq(sb_rproc_list(r, &rp, &n, &e), 0);
	ck_assert_uint_eq(n, 0);
	free(rp);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(rproc_am62x)
{
	struct sb_root *r = open_root(tu_fixture("am62x"));
	struct sb_rproc *rp, one;
	struct sb_err e;
	size_t n;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_list(r, &rp, &n, &e), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(rp[0].name, "5000000.m4fss");
	ck_assert_str_eq(rp[0].state, "running");
	ck_assert_str_eq(rp[0].firmware, "am62-mcu-m4f0_0-fw");
	ck_assert_str_eq(rp[0].device, "5000000.m4fss");
	ck_assert_uint_eq(rp[0].ntraces, 1);
	ck_assert_str_eq(rp[1].state, "attached");
	ck_assert_str_eq(rp[2].recovery, "disabled");
	free(rp);
	ck_assert_int_eq(sb_rproc_find(r, "1", &one, &e), 0);
	ck_assert_str_eq(one.id, "remoteproc1");
	ck_assert_int_eq(sb_rproc_find(r, "30034000.pru", &one, &e), 0);
	ck_assert_str_eq(one.id, "remoteproc2");
	ck_assert_int_eq(sb_rproc_find(r, "imx-rproc", &one, &e), -ENOENT);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED); /* not here */
	/* writes never reach a snapshot */
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_state_write(r, &one, SB_RPROC_START, &e), -EROFS);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	sb_root_close(r);
}
END_TEST

START_TEST(rproc_trace_missing)
{
	struct sb_root *r = open_root(tu_fixture("imx8mp"));
	struct sb_rproc p;
	struct sb_err e;
	char *text = NULL;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_find(r, "imx-rproc", &p, &e), 0);
	ck_assert_int_eq(sb_rproc_trace(r, &p, 0, &text, &e), -ENOENT);
	ck_assert_ptr_null(text);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_ptr_nonnull(strstr(e.hint, "trace0"));
	sb_root_close(r);
}
END_TEST

/* The crash count comes from the kernel log: the lines as the remoteproc core prints them
 * (dev_err on the rproc device), in /dev/kmsg record format as a snapshot stores it. */
START_TEST(rproc_crash_count)
{
	char *dir = tu_tree_new();
	struct sb_rproc *rp, one;
	enum sb_rproc_crash_type t;
	struct sb_root *r;
	struct sb_err e;
	unsigned n;
	size_t np;

	tu_write(dir, "sys/devices/p/remoteproc/remoteproc0/name", "socbox-remote\n", -1);
	tu_write(dir, "sys/devices/p/remoteproc/remoteproc0/state", "running\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc0",
		   "../../devices/p/remoteproc/remoteproc0");
	tu_write(dir, "sys/devices/q/remoteproc/remoteproc1/name", "other\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc1",
		   "../../devices/q/remoteproc/remoteproc1");
	tu_write(dir, "dev/kmsg",
		 "3,900,5000000,-;remoteproc remoteproc0: crash detected in socbox-remote: type watchdog\n"
		 "3,901,5000100,-;remoteproc remoteproc0: handling crash #1 in socbox-remote\n"
		 "3,902,5000200,-;remoteproc remoteproc0: recovering socbox-remote\n"
		 "3,950,6000100,-;remoteproc remoteproc0: handling crash #12 in socbox-remote\n"
		 "3,951,6000100,-;remoteproc remoteproc10: handling crash #99 in x\n"
		 "3,952,6000200,-;remoteproc remoteproc0: handling crash #x in socbox-remote\n",
		 -1);
	r = open_root(dir);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_find(r, "socbox-remote", &one, &e), 0);
	ck_assert(one.have_crashes);
	ck_assert_uint_eq(one.crashes, 12); /* the highest, not remoteproc10's */
	/* the one parser of the core's crash line */
	ck_assert_str_eq(sb_rproc_log_msg("remoteproc remoteproc0: handling crash #3 in m4",
					  "remoteproc0"),
			 "handling crash #3 in m4");
	ck_assert_ptr_null(sb_rproc_log_msg("remoteproc remoteproc10: handling crash #3 in m4",
					    "remoteproc1"));
	ck_assert_ptr_null(
		sb_rproc_log_msg("imx-rproc remoteproc0: handling crash #3 in m4", "remoteproc0"));
	{
		const char *name = NULL;

		ck_assert(sb_rproc_crash_msg("handling crash #3 in 5000000.m4fss", &n, &name));
		ck_assert_uint_eq(n, 3);
		ck_assert_str_eq(name, "5000000.m4fss");
	}
	ck_assert(!sb_rproc_crash_msg("handling crash #x in m4", &n, NULL));
	ck_assert(!sb_rproc_crash_msg("handling crash #-1 in m4", &n, NULL));
	ck_assert(!sb_rproc_crash_msg("handling crash #3x in m4", &n, NULL));
	ck_assert(!sb_rproc_crash_msg("handling crash #99999999999 in m4", &n, NULL));
	ck_assert(!sb_rproc_crash_msg("handling crash #3", &n, NULL));
	ck_assert_int_eq(sb_rproc_list(r, &rp, &np, &e), 0);
	ck_assert_uint_eq(np, 2);
	ck_assert(rp[0].have_crashes && rp[1].have_crashes);
	ck_assert_uint_eq(rp[0].crashes, 12);
	ck_assert_uint_eq(rp[1].crashes, 0);
	free(rp);
	/* a crash report is a write: never to a snapshot */
	ck_assert_int_eq(sb_rproc_crash(r, &one, SB_RPROC_WATCHDOG, &e), -EROFS);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(sb_rproc_crash_type_parse("fatal", &t), 0);
	ck_assert_int_eq(t, SB_RPROC_FATAL_ERROR);
	ck_assert_int_eq(sb_rproc_crash_type_parse("mmufault", &t), 0);
	ck_assert_int_eq(t, SB_RPROC_MMUFAULT);
	ck_assert_int_eq(sb_rproc_crash_type_parse("Fatal", &t), -EINVAL);
	ck_assert_int_eq(sb_rproc_crash_type_parse("", &t), -EINVAL);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(rproc_garbage)
{
	char *dir = tu_tree_new();
	struct sb_rproc *rp;
	struct sb_root *r;
	struct sb_err e;
	size_t n;

	tu_write(dir, "sys/devices/p/remoteproc/remoteproc0/state",
		 "\x80\x81garbage-state-that-is-much-longer-than-any-real-one\n", -1);
	tu_write(dir, "sys/devices/p/remoteproc/remoteproc0/name", "", 0);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc0",
		   "../../devices/p/remoteproc/remoteproc0");
	tu_symlink(dir, "sys/class/remoteproc/notaproc", "../../devices/p");
	r = open_root(dir);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_list(r, &rp, &n, &e), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(rp[0].name, "");
	ck_assert_str_eq(rp[0].firmware, "");
	ck_assert_str_eq(rp[0].device, "p");
	ck_assert_uint_lt(strlen(rp[0].state), sizeof(rp[0].state));
	free(rp);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* devcoredump: each devcdN is tied to its processor by its failing_device link
 * (drivers/base/devcoredump.c dev_coredumpm_timeout()); a core of another device, a link
 * that is missing and a name that is not devcdN tie nothing. */
START_TEST(rproc_devcoredump)
{
	char *dir = tu_tree_new(), dev[64];
	struct sb_rproc *rp;
	struct sb_root *r;
	struct sb_err e;
	size_t n;

	tu_write(dir, "sys/devices/p/remoteproc/remoteproc0/name", "m7\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc0",
		   "../../devices/p/remoteproc/remoteproc0");
	tu_write(dir, "sys/devices/q/remoteproc/remoteproc1/name", "m4\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc1",
		   "../../devices/q/remoteproc/remoteproc1");
	r = open_root(dir);
	sb_err_clear(&e);
	/* the healthy control: no devcoredump class at all */
	ck_assert_int_eq(sb_rproc_list(r, &rp, &n, &e), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(rp[0].devcd, "");
	ck_assert_str_eq(rp[1].devcd, "");
	free(rp);

	tu_write(dir, "sys/devices/virtual/devcoredump/devcd7/data",
		 "\x7f"
		 "ELF",
		 4);
	tu_symlink(dir, "sys/devices/virtual/devcoredump/devcd7/failing_device",
		   "../../../q/remoteproc/remoteproc1");
	tu_symlink(dir, "sys/class/devcoredump/devcd7", "../../devices/virtual/devcoredump/devcd7");
	tu_write(dir, "sys/devices/virtual/devcoredump/devcd8/data", "x", 1);
	tu_symlink(dir, "sys/devices/virtual/devcoredump/devcd8/failing_device",
		   "../../../pci0000:00/0000:00:14.3");
	tu_symlink(dir, "sys/class/devcoredump/devcd8", "../../devices/virtual/devcoredump/devcd8");
	tu_write(dir, "sys/devices/virtual/devcoredump/devcd9/data", "x", 1);
	tu_symlink(dir, "sys/class/devcoredump/devcd9", "../../devices/virtual/devcoredump/devcd9");
	tu_symlink(dir, "sys/class/devcoredump/devcdx", "../../devices/virtual/devcoredump/devcd7");
	tu_write(dir, "sys/class/devcoredump/disabled", "0\n", -1);
	ck_assert_int_eq(sb_rproc_list(r, &rp, &n, &e), 0);
	ck_assert_str_eq(rp[0].devcd, "");
	ck_assert_str_eq(rp[1].devcd, "devcd7");
	free(rp);
	ck_assert_int_eq(sb_devcd_failing_device(r, "devcd8", dev, sizeof(dev)), 0);
	ck_assert_str_eq(dev, "0000:00:14.3");
	ck_assert_int_lt(sb_devcd_failing_device(r, "devcd9", dev, sizeof(dev)), 0);
	ck_assert_int_eq(sb_devcd_failing_device(r, "devcd7", dev, 4), -ENAMETOOLONG);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* A crash the driver printed and never reported to the core (TI K3: "K3 rproc %s
 * crashed"): the state attribute says running, every view says crashed, until the core
 * says the processor is up again. */
START_TEST(rproc_unreported_crash)
{
	static const char crash[] =
		"3,10,1003702,-;k3-m4-rproc 5000000.m4fss: K3 rproc 5000000.m4fss crashed\n";
	static const char up[] =
		"6,11,2000000,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up\n";
	char *dir = tu_tree_new(), log[512], note[512];
	struct sb_rproc one;
	struct sb_root *r;
	struct sb_err e;

	tu_write(dir, "sys/devices/p/5000000.m4fss/remoteproc/remoteproc0/name", "5000000.m4fss\n",
		 -1);
	tu_write(dir, "sys/devices/p/5000000.m4fss/remoteproc/remoteproc0/state", "running\n", -1);
	tu_symlink(dir, "sys/class/remoteproc/remoteproc0",
		   "../../devices/p/5000000.m4fss/remoteproc/remoteproc0");
	/* another processor's name that ends the same is not this one */
	tu_write(dir, "dev/kmsg",
		 "3,9,1000000,-;k3-m4-rproc 6000000.m4fss: K3 rproc x5000000.m4fss crashed\n", -1);
	r = open_root(dir);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rproc_find(r, "remoteproc0", &one, &e), 0);
	ck_assert(!one.crash_unreported);
	ck_assert_str_eq(sb_rproc_state_shown(&one), "running");
	sb_rproc_state_note(&one, note, sizeof(note));
	ck_assert_str_eq(note, "");
	sb_root_close(r);

	tu_write(dir, "dev/kmsg", crash, -1);
	r = open_root(dir);
	ck_assert_int_eq(sb_rproc_find(r, "remoteproc0", &one, &e), 0);
	ck_assert(one.crash_unreported);
	ck_assert_uint_eq(one.crashes, 1);
	ck_assert_str_eq(one.state, "running");
	ck_assert_str_eq(sb_rproc_state_shown(&one), "crashed");
	ck_assert_str_eq(one.crash_line,
			 "k3-m4-rproc 5000000.m4fss: K3 rproc 5000000.m4fss crashed");
	sb_rproc_state_note(&one, note, sizeof(note));
	ck_assert_ptr_nonnull(strstr(note, "state file says running"));
	ck_assert_ptr_nonnull(strstr(note, one.crash_line));
	sb_root_close(r);

	/* started again by hand: the core's "is now up" answers the crash */
	snprintf(log, sizeof(log), "%s%s", crash, up);
	tu_write(dir, "dev/kmsg", log, -1);
	r = open_root(dir);
	ck_assert_int_eq(sb_rproc_find(r, "remoteproc0", &one, &e), 0);
	ck_assert(!one.crash_unreported);
	ck_assert_str_eq(sb_rproc_state_shown(&one), "running");
	ck_assert_uint_eq(one.crashes, 1); /* it still crashed once since boot */
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(send_over_mtu)
{
	char buf[SB_RPMSG_VIRTIO_MTU + 1];
	struct sb_err e;

	memset(buf, 'x', sizeof(buf));
	sb_err_clear(&e);
	/* fd -1: the check happens before any write */
	ck_assert_int_eq(sb_rpmsg_send(-1, buf, sizeof(buf), SB_RPMSG_VIRTIO_MTU, &e), -EMSGSIZE);
	ck_assert_ptr_nonnull(strstr(e.reason, "497 bytes"));
	ck_assert_uint_eq(sb_rpmsg_chunks(997, 496), 3);
	ck_assert_uint_eq(sb_rpmsg_chunks(496, 496), 1);
	ck_assert_uint_eq(sb_rpmsg_chunks(0, 496), 1);
}
END_TEST

START_TEST(methods_and_sysroot)
{
	struct sb_root *r = open_root(tu_fixture("am62x"));
	enum sb_rpmsg_method m;
	struct sb_rpmsg_ctl ctl;
	struct sb_err e;

	ck_assert_int_eq(sb_rpmsg_method_parse("fd", &m), 0);
	ck_assert_int_eq(m, SB_RPMSG_FD);
	ck_assert_int_eq(sb_rpmsg_method_parse("legacy", &m), 0);
	ck_assert_str_eq(sb_rpmsg_method_name(m), "legacy");
	ck_assert_int_eq(sb_rpmsg_method_parse("Legacy", &m), -EINVAL);
	ck_assert_int_eq(sb_rpmsg_method_parse("", &m), -EINVAL);
	sb_err_clear(&e);
	ck_assert_int_eq(sb_rpmsg_ctl_open(r, 0, &ctl, &e), -EOPNOTSUPP);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(ctl.fd, -1);
	sb_root_close(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("rpmsg");
	TCase *t = tcase_create("parsers");

	tcase_add_test(t, devname_virtio);
	tcase_add_test(t, devname_garbage);
	tcase_add_test(t, link_parts);
	tcase_add_test(t, index_names);
	tcase_add_test(t, scan_am62x);
	tcase_add_test(t, scan_imx8mp);
	tcase_add_test(t, scan_garbage);
	tcase_add_test(t, scan_missing);
	tcase_add_test(t, rproc_am62x);
	tcase_add_test(t, rproc_trace_missing);
	tcase_add_test(t, rproc_garbage);
	tcase_add_test(t, rproc_crash_count);
	tcase_add_test(t, rproc_devcoredump);
	tcase_add_test(t, rproc_unreported_crash);
	tcase_add_test(t, send_over_mtu);
	tcase_add_test(t, methods_and_sysroot);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
