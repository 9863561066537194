// SPDX-License-Identifier: GPL-2.0-or-later
/* The event timeline's kernel log parsers (lib/events/events.c). The lines are composed
 * from the kernel's format strings (Linux 7.2: drivers/remoteproc/remoteproc_core.c,
 * drivers/rpmsg/rpmsg_ns.c and virtio_rpmsg_bus.c, net/core/page_pool.c, mm/cma.c; older
 * spellings where noted) with values of the AM62x and i.MX8MP fixtures; none was captured
 * from a board. The vm tier sees real ones (tests/vm/guest/events.sh). */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/events.h"
#include "testutil.h"

static bool parse(const char *record, struct sb_event *ev)
{
	static char buf[4096];
	struct sb_kmsg_line l;

	snprintf(buf, sizeof(buf), "%s", record);
	ck_assert(sb_kmsg_parse_line(buf, &l));
	return sb_ev_parse_kmsg(&l, ev);
}

#define EXPECT(rec_, subsys_, kind_, object_, detail_) \
	do { \
		struct sb_event ev_; \
		ck_assert_msg(parse(rec_, &ev_), "not recognised: %s", rec_); \
		ck_assert_str_eq(sb_ev_subsys_name(ev_.subsys), subsys_); \
		ck_assert_str_eq(ev_.kind, kind_); \
		ck_assert_str_eq(ev_.object, object_); \
		ck_assert_str_eq(ev_.detail, detail_); \
		ck_assert_str_eq(ev_.source, "kmsg"); \
	} while (0)

START_TEST(remoteproc_lifecycle)
{
	struct sb_event ev;

	EXPECT("6,100,2000000,-;remoteproc remoteproc0: powering up 5000000.m4fss", "remoteproc",
	       "power-up", "remoteproc0", "5000000.m4fss");
	EXPECT("6,101,2000100,-;remoteproc remoteproc0: Booting fw image am62-mcu-m4f0_0-fw, size 182380",
	       "remoteproc", "booting", "remoteproc0", "firmware am62-mcu-m4f0_0-fw, size 182380");
	EXPECT("6,102,2100000,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up",
	       "remoteproc", "up", "remoteproc0", "5000000.m4fss");
	EXPECT("3,103,9000000,-;remoteproc remoteproc0: crash detected in 5000000.m4fss: type watchdog",
	       "remoteproc", "crash", "remoteproc0", "5000000.m4fss, type watchdog");
	EXPECT("3,104,9000050,-;remoteproc remoteproc0: handling crash #2 in 5000000.m4fss",
	       "remoteproc", "crash-handled", "remoteproc0", "5000000.m4fss, crash #2");
	EXPECT("3,105,9000060,-;remoteproc remoteproc0: recovering 5000000.m4fss", "remoteproc",
	       "recovery", "remoteproc0", "5000000.m4fss");
	EXPECT("6,106,9500000,-;remoteproc remoteproc0: stopped remote processor 5000000.m4fss",
	       "remoteproc", "stopped", "remoteproc0", "5000000.m4fss");
	EXPECT("6,107,3000000,-;remoteproc remoteproc1: remote processor imx-rproc is now attached",
	       "remoteproc", "attached", "remoteproc1", "imx-rproc");
	EXPECT("6,108,3000000,-;remoteproc remoteproc1: detached remote processor imx-rproc",
	       "remoteproc", "detached", "remoteproc1", "imx-rproc");
	EXPECT("4,109,1500000,-;remoteproc remoteproc2: Direct firmware load for am62x-pru0-prueth-fw failed with error -2",
	       "remoteproc", "firmware-missing", "remoteproc2",
	       "am62x-pru0-prueth-fw failed with error -2");
	/* dmesg and syslog spellings carry the same text */
	EXPECT("[    9.000000] remoteproc remoteproc0: recovering 5000000.m4fss", "remoteproc",
	       "recovery", "remoteproc0", "5000000.m4fss");
	ck_assert(!parse("6,110,1,-;remoteproc remoteproc0: can't stop rproc: -22", &ev));
	ck_assert(!parse("6,111,1,-;remoteproc remoteproc0: remote processor m4 is now sleeping",
			 &ev));
	ck_assert(!parse("6,112,1,-;remoteproc remoteproc0:", &ev));
	ck_assert(!parse("6,113,1,-;remoteproc", &ev));
	ck_assert(!parse("6,114,1,-;remoteproc bad dev: recovering x", &ev));
}
END_TEST

/* TI K3 reports no crash to the core: its driver's own line is the crash
 * (ti_k3_common.c k3_rproc_mbox_callback(), "K3 rproc %s crashed\n"), named by the
 * processor's name until the root says which remoteprocN that is. */
START_TEST(k3_unreported_crash)
{
	struct sb_event ev;
	struct sb_root *r;
	char *dir = tu_tree_new();

	EXPECT("3,3,1003702,-;k3-m4-rproc 5000000.m4fss: K3 rproc 5000000.m4fss crashed",
	       "remoteproc", "crash", "5000000.m4fss",
	       "5000000.m4fss: not reported to the remoteproc core (no recovery)");
	ck_assert(!parse("3,4,1,-;k3-m4-rproc 5000000.m4fss: K3 rproc  crashed", &ev));
	ck_assert(
		!parse("3,5,1,-;k3-m4-rproc 5000000.m4fss: K3 rproc 5000000.m4fss crashed!", &ev));
	ck_assert(!parse("3,6,1,-;k3-m4-rproc 5000000.m4fss: K3 rproc crashed", &ev));

	tu_write(dir, "sys/class/remoteproc/remoteproc1/name", "78000000.r5f\n", -1);
	tu_write(dir, "sys/class/remoteproc/remoteproc0/name", "5000000.m4fss\n", -1);
	ck_assert_int_eq(sb_root_open(&r, dir, NULL), 0);
	ck_assert(parse("3,3,1003702,-;k3-m4-rproc 5000000.m4fss: K3 rproc 5000000.m4fss crashed",
			&ev));
	sb_ev_name_rproc(r, &ev);
	ck_assert_str_eq(ev.object, "remoteproc0");
	/* a name the root does not have stays as the log wrote it */
	ck_assert(parse("3,7,1,-;k3-r5-rproc 79000000.r5f: K3 rproc 79000000.r5f crashed", &ev));
	sb_ev_name_rproc(r, &ev);
	ck_assert_str_eq(ev.object, "79000000.r5f");
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(rpmsg_channels)
{
	struct sb_event ev;

	EXPECT("6,200,2200000,-;rpmsg_ns virtio0.rpmsg_ns.53.53: creating channel ti.ipc4.ping-pong addr 0xd",
	       "rpmsg", "channel-add", "ti.ipc4.ping-pong",
	       "addr 0xd (announced on virtio0.rpmsg_ns.53.53)");
	EXPECT("6,201,2300000,-;rpmsg_ns virtio0.rpmsg_ns.53.53: destroying channel rpmsg-tty addr 0x400",
	       "rpmsg", "channel-remove", "rpmsg-tty",
	       "addr 0x400 (announced on virtio0.rpmsg_ns.53.53)");
	EXPECT("6,202,2150000,-;virtio_rpmsg_bus virtio0: rpmsg host is online", "rpmsg", "online",
	       "virtio0", "rpmsg host is online");
	ck_assert(!parse("6,203,1,-;rpmsg_ns virtio0.rpmsg_ns.53.53: rpmsg_create_channel failed",
			 &ev));
	ck_assert(!parse("6,204,1,-;creating channel x addr 0x1", &ev));
}
END_TEST

START_TEST(page_pools_and_cma)
{
	struct sb_event ev;

	EXPECT("4,300,70000000,-;page_pool_release_retry() stalled pool shutdown: id 12, 1 inflight 60 sec",
	       "netdev", "pool-stalled", "pool 12", "1 pages in flight 60 s after its netdev went");
	/* before 6.8: no pool id */
	EXPECT("4,301,130000000,-;page_pool_release_retry() stalled pool shutdown 3 inflight 120 sec",
	       "netdev", "pool-stalled", "pool ?", "3 pages in flight 120 s after its netdev went");
	EXPECT("3,302,5000000,-;__cma_alloc_frozen: linux,cma: alloc failed, req-size: 2025 pages, ret: -12",
	       "dmabuf", "alloc-failed", "linux,cma", "CMA req-size: 2025 pages, ret: -12");
	EXPECT("3,303,5000000,-;cma_alloc: reserved: alloc failed, req-size: 8 pages, ret: -16",
	       "dmabuf", "alloc-failed", "reserved", "CMA req-size: 8 pages, ret: -16");
	/* 5.x: "cma: cma_alloc: alloc failed, ..." */
	EXPECT("3,304,5000000,-;cma: cma_alloc: alloc failed, req-size: 2025 pages, ret: -12",
	       "dmabuf", "alloc-failed", "cma", "CMA req-size: 2025 pages, ret: -12");
	ck_assert(!parse("4,305,1,-;page_pool_release_retry() stalled pool shutdown: id x", &ev));
	ck_assert(!parse("4,306,1,-;foo: bar: alloc failed, req-size: 1 pages, ret: -12", &ev));
	ck_assert(!parse("4,307,1,-;stalled pool shutdown: id 1, 1 inflight 60 sec", &ev));
}
END_TEST

START_TEST(hostile_lines_stay_bounded)
{
	static char big[20000];
	struct sb_event ev;

	snprintf(big, sizeof(big), "3,1,1,-;remoteproc remoteproc0: crash detected in ");
	memset(big + strlen(big), 'A', sizeof(big) - strlen(big) - 20);
	strcat(big, ": type \xff\x1b]0;");
	ck_assert(parse(big, &ev));
	ck_assert_uint_lt(strlen(ev.detail), sizeof(ev.detail));
	snprintf(big, sizeof(big), "6,2,1,-;rpmsg_ns d: creating channel ");
	memset(big + strlen(big), 'B', 10000);
	ck_assert(parse(big, &ev));
	ck_assert_uint_lt(strlen(ev.object), sizeof(ev.object));
	ck_assert(!parse("6,3,1,-;", &ev));
}
END_TEST

START_TEST(pools_uevents_and_order)
{
	struct sb_nd_pool p = {
		.id = 9,
		.ifindex = 0,
		.inflight = 12,
		.inflight_mem = 49152,
		.detach_time = 41,
		.has = SB_ND_POOL_DETACHED | SB_ND_POOL_INFLIGHT | SB_ND_POOL_INFLIGHT_MEM
	};
	struct sb_ev_list l = { 0 };
	struct sb_event ev;
	unsigned mask;
	char bad[16];

	ck_assert(sb_ev_from_pool(&p, NULL, &ev));
	ck_assert_str_eq(ev.kind, "pool-not-drained");
	ck_assert_str_eq(ev.object, "pool 9");
	ck_assert_uint_eq(ev.ts_us, 41000000);
	ck_assert_str_eq(ev.detail,
			 "detached from its netdev with 12 pages (49152 bytes) still in flight");
	p.inflight = 0;
	ck_assert(!sb_ev_from_pool(&p, NULL, &ev)); /* drained: nothing to say */
	p.inflight = 1;
	p.has = SB_ND_POOL_INFLIGHT;
	ck_assert(!sb_ev_from_pool(&p, NULL, &ev)); /* attached */

	ck_assert(sb_ev_from_uevent("add", "/devices/virtual/rpmsg_ctrl0/rpmsg/rpmsg3", "rpmsg3", 5,
				    &ev));
	ck_assert_str_eq(ev.kind, "endpoint-add");
	ck_assert_str_eq(ev.detail, "/dev/rpmsg3");
	ck_assert(sb_ev_from_uevent("remove", "/devices/x/virtio0.rpmsg-tty.-1.1024", "", 5, &ev));
	ck_assert_str_eq(ev.kind, "channel-remove");
	ck_assert_str_eq(ev.object, "virtio0.rpmsg-tty.-1.1024");
	ck_assert(sb_ev_from_uevent("add", "/devices/x/rpmsg/rpmsg_ctrl0", "rpmsg_ctrl0", 5, &ev));
	ck_assert_str_eq(ev.kind, "ctrl-add");
	ck_assert(!sb_ev_from_uevent("change", "/devices/x/rpmsg/rpmsg3", "rpmsg3", 5, &ev));

	/* time order, arrival order for equal times */
	for (unsigned i = 0; i < 3; i++) {
		memset(&ev, 0, sizeof(ev));
		ev.has_ts = true;
		ev.ts_us = i == 1 ? 5 : 9;
		snprintf(ev.object, sizeof(ev.object), "e%u", i);
		ck_assert_int_eq(sb_ev_add(&l, &ev), 0);
	}
	sb_ev_sort(&l);
	ck_assert_str_eq(l.v[0].object, "e1");
	ck_assert_str_eq(l.v[1].object, "e0");
	ck_assert_str_eq(l.v[2].object, "e2");
	sb_ev_list_free(&l);

	/* printk times may step back across CPUs: kernel log records keep the log's order */
	{
		static const struct {
			uint64_t ts;
			const char *source;
			enum sb_ev_subsys s;
		} in[] = {
			{ 10, "kmsg", SB_EV_REMOTEPROC },
			{ 8, "kmsg", SB_EV_REMOTEPROC },
			{ 9, "uevent", SB_EV_RPMSG },
			{ 7, "kmsg", SB_EV_IOMMU },
		};
		for (unsigned i = 0; i < 4; i++) {
			memset(&ev, 0, sizeof(ev));
			ev.has_ts = true;
			ev.ts_us = in[i].ts;
			ev.source = in[i].source;
			ev.subsys = in[i].s;
			snprintf(ev.object, sizeof(ev.object), "k%u", i);
			ck_assert_int_eq(sb_ev_add(&l, &ev), 0);
		}
		sb_ev_sort(&l);
		ck_assert_str_eq(l.v[0].object, "k3"); /* an IOMMU record by its own time */
		ck_assert_str_eq(l.v[1].object, "k2");
		ck_assert_str_eq(l.v[2].object, "k0");
		ck_assert_str_eq(l.v[3].object, "k1"); /* logged after k0, so after it */
		ck_assert_uint_eq(l.v[3].ts_us, 8);    /* and shown with the time the kernel gave */
		sb_ev_list_free(&l);
	}

	ck_assert_int_eq(sb_ev_subsys_mask("iommu,netdev", &mask, bad, sizeof(bad)), 0);
	ck_assert_uint_eq(mask, (1u << SB_EV_IOMMU) | (1u << SB_EV_NETDEV));
	ck_assert_int_eq(sb_ev_subsys_mask("iommu,gpu", &mask, bad, sizeof(bad)), -EINVAL);
	ck_assert_str_eq(bad, "gpu");
	ck_assert_int_eq(sb_ev_subsys_mask(",", &mask, bad, sizeof(bad)), -EINVAL);
}
END_TEST

static int collect_kinds(void *arg, const struct sb_event *ev)
{
	char *out = arg;
	size_t n = strlen(out);

	snprintf(out + n, 256 - n, "%s@%llu ", ev->kind, (unsigned long long)ev->ts_us);
	return 0;
}

/* sb_ev_each: an SMMUv3 dump (the 7.2 format of the qemu-virt-arm64 fixture) is finished
 * lines after it began, with a crash logged in between: it still goes first, at its time;
 * a record whose time steps back stays after the one logged before it. Counting keeps the
 * order each key was first seen. */
START_TEST(streamed_in_time_order)
{
	static const char log[] =
		"3,1,10000000,-;arm-smmu-v3 9050000.smmuv3: event 0x10 received:\n"
		"3,2,10000001,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000001800000010\n"
		"3,3,10000002,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000800000000\n"
		"3,4,10000003,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000100000\n"
		"3,5,10000004,-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000000000\n"
		"3,6,11000000,-;remoteproc remoteproc0: crash detected in 5000000.m4fss: type watchdog\n"
		"3,7,12000000,-;arm-smmu-v3 9050000.smmuv3: event: F_TRANSLATION client: 0000:00:03.0 "
		"sid: 0x18 ssid: 0x0 iova: 0x100000 ipa: 0x0\n"
		"3,8,12000001,-;arm-smmu-v3 9050000.smmuv3: unpriv data read s1 \"CD fetch\" stag: 0x0\n"
		"3,9,10500000,-;remoteproc remoteproc0: recovering 5000000.m4fss\n";
	char *dir = tu_tree_new(), got[256] = "";
	struct sb_ev_each_info info;
	struct sb_ev_counts counts = { 0 };
	struct sb_event ev;
	struct sb_root *r;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	tu_write(dir, "dev/kmsg", log, -1);
	ck_assert_int_eq(sb_ev_each(r, SB_EV_ALL, collect_kinds, got, &info, &e), 0);
	ck_assert_str_eq(got, "fault@10000000 crash@11000000 recovery@10500000 ");
	ck_assert_uint_eq(info.last_ts_us, 12000001);
	ck_assert_str_eq(info.log_source, "sysroot");

	memset(&ev, 0, sizeof(ev));
	for (unsigned i = 0; i < 5; i++) {
		ev.subsys = i == 2 ? SB_EV_RPMSG : SB_EV_REMOTEPROC;
		snprintf(ev.kind, sizeof(ev.kind), "%s", i % 2 ? "crash" : "up");
		snprintf(ev.object, sizeof(ev.object), "remoteproc0");
		ev.has_ts = i != 4;
		ev.ts_us = i;
		ck_assert_int_eq(sb_ev_counts_add(&counts, &ev), 0);
	}
	ck_assert_uint_eq(counts.n, 3); /* up, crash, rpmsg up */
	ck_assert_str_eq(counts.v[0].kind, "up");
	ck_assert_uint_eq(counts.v[0].n, 2);
	ck_assert(!counts.v[0].last_has_ts); /* the last one had no time */
	ck_assert_str_eq(counts.v[1].kind, "crash");
	ck_assert_uint_eq(counts.v[1].n, 2);
	ck_assert_uint_eq(counts.v[1].last_ts_us, 3);
	ck_assert_uint_eq(counts.v[2].subsys, SB_EV_RPMSG);
	sb_ev_counts_free(&counts);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("events");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, remoteproc_lifecycle);
	tcase_add_test(tc, k3_unreported_crash);
	tcase_add_test(tc, rpmsg_channels);
	tcase_add_test(tc, page_pools_and_cma);
	tcase_add_test(tc, hostile_lines_stay_bounded);
	tcase_add_test(tc, pools_uevents_and_order);
	tcase_add_test(tc, streamed_in_time_order);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
