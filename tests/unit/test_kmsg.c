// SPDX-License-Identifier: GPL-2.0-or-later
/* Kernel log lines and the IOMMU event records found in them. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu.h"
#include "socbox/kmsg.h"
#include "testutil.h"

static struct sb_kmsg_line line(const char *text)
{
	static char buf[8][512];
	static int k;
	struct sb_kmsg_line l;
	char *b = buf[k++ % 8];

	snprintf(b, 512, "%s", text);
	ck_assert(sb_kmsg_parse_line(b, &l));
	return l;
}

START_TEST(line_formats)
{
	struct sb_kmsg_line l;
	char rec[] = "3,1234,412331907,-;arm-smmu-v3 x: event 0x10 received:";
	char dm[] = "[  412.331907] DMAR: IOMMU enabled";
	char sl[] = "<6>[    0.000000] Linux version 6.18";
	char plain[] = "no timestamp at all";
	char cont[] = " SUBSYSTEM=pci";
	char bad[] = "12,notanumber;text";
	char empty[] = "";

	ck_assert(sb_kmsg_parse_line(rec, &l));
	ck_assert_int_eq(l.prio, 3);
	ck_assert(l.has_ts);
	ck_assert_uint_eq(l.ts_us, 412331907);
	ck_assert_str_eq(l.text, "arm-smmu-v3 x: event 0x10 received:");
	ck_assert(sb_kmsg_parse_line(dm, &l));
	ck_assert_uint_eq(l.ts_us, 412331907);
	ck_assert_str_eq(l.text, "DMAR: IOMMU enabled");
	ck_assert(sb_kmsg_parse_line(sl, &l));
	ck_assert_int_eq(l.prio, 6);
	ck_assert_uint_eq(l.ts_us, 0);
	ck_assert_str_eq(l.text, "Linux version 6.18");
	ck_assert(sb_kmsg_parse_line(plain, &l));
	ck_assert(!l.has_ts);
	ck_assert(!sb_kmsg_parse_line(cont, &l));
	ck_assert(!sb_kmsg_parse_line(empty, &l));
	ck_assert(sb_kmsg_parse_line(bad, &l)); /* not a record: kept as plain text */
	ck_assert_str_eq(l.text, "12,notanumber;text");
}
END_TEST

START_TEST(whole_log_with_garbage)
{
	char *text = strdup("6,1,100,-;first\r\n SUBSYSTEM=pci\n\n\xff\xfe\xfd garbage\n[  1.5] second\n[ 2.x] truncated ts");
	struct sb_kmsg k;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_uint_eq(k.n, 4);
	ck_assert_str_eq(k.lines[0].text, "first");
	ck_assert_str_eq(k.lines[1].text, "\xff\xfe\xfd garbage");
	ck_assert_uint_eq(k.lines[2].ts_us, 1500000);
	ck_assert(!k.lines[3].has_ts);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(smmuv3_raw_dump)
{
	struct sb_kmsg_line h = line("arm-smmu-v3 arm-smmu-v3.0.auto: event 0x10 received:");
	struct sb_kmsg_line d0 = line("arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000010000000010");
	struct sb_kmsg_line d1 = line("arm-smmu-v3 arm-smmu-v3.0.auto: \t0x0000020000000000");
	struct sb_kmsg_line d2 = line("arm-smmu-v3 arm-smmu-v3.0.auto: \t0x00000000dead0000");
	struct sb_kmsg_line other = line("arm-smmu-v3 arm-smmu-v3.1.auto: \t0x00000000dead0000");
	struct sb_iommu_event ev;
	int dword = 0;

	ck_assert_int_eq(sb_iommu_event_parse(&h, &ev), 1);
	ck_assert_str_eq(ev.kind, "F_TRANSLATION");
	ck_assert_str_eq(ev.source, "arm-smmu-v3.0.auto");
	ck_assert(sb_iommu_event_cont(&d0, &ev, &dword));
	ck_assert(sb_iommu_event_cont(&d1, &ev, &dword));
	ck_assert(!sb_iommu_event_cont(&other, &ev, &dword)); /* another SMMU's dump */
	ck_assert(sb_iommu_event_cont(&d2, &ev, &dword));
	ck_assert_str_eq(ev.device, "sid 0x100");
	ck_assert(ev.has_addr);
	ck_assert_uint_eq(ev.addr, 0xdead0000);
	ck_assert_int_eq(sb_iommu_event_parse(&d0, &ev), 0);
	h = line("arm-smmu-v3 a: event 0x7f received:");
	ck_assert_int_eq(sb_iommu_event_parse(&h, &ev), 1);
	ck_assert_str_eq(ev.kind, "event 0x7f"); /* unknown ids stay raw */
}
END_TEST

START_TEST(smmuv3_decoded_and_errors)
{
	struct sb_kmsg_line l = line("arm-smmu-v3 arm-smmu-v3.1.auto: event: F_TRANSLATION client: 0002:01:00.1 sid: 0x10101 ssid: 0x0 iova: 0xfff00000 ipa: 0x0");
	struct sb_iommu_event ev;

	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "F_TRANSLATION");
	ck_assert_str_eq(ev.device, "0002:01:00.1");
	ck_assert_uint_eq(ev.addr, 0xfff00000);
	l = line("arm-smmu-v3 x.iommu: event: C_BAD_STE client: (unassigned sid) sid: 0x42 ssid: 0x0 iova: 0x0 ipa: 0x0");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.device, "sid 0x42");
	l = line("arm-smmu-v3 x.iommu: unexpected global error reported (0x00000001), this could be serious");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "gerror");
	l = line("arm-smmu-v3 x.iommu: CMD_SYNC timeout at 0x00000102 [hwprod 0x00000103, hwcons 0x00000100]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "cmd-sync-timeout");
	l = line("arm-smmu 5000000.iommu: Unhandled context fault: fsr=0x402, iova=0x12345000, fsynr=0x1, cbfrsynra=0x4c0, cb=3");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "context-fault");
	ck_assert_str_eq(ev.device, "sid 0x4c0");
	ck_assert_uint_eq(ev.addr, 0x12345000);
	l = line("arm-smmu-v3 arm-smmu-v3.0.auto: oas 48-bit (features 0x006fd7b7)");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0);
}
END_TEST

START_TEST(dmar_and_amd)
{
	struct sb_kmsg_line l = line("DMAR: [DMA Read NO_PASID] Request device [17:00.0] fault addr 0xfffff000 [fault reason 0x06] PTE Read access is not set");
	struct sb_iommu_event ev;

	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "DMA Read");
	ck_assert_str_eq(ev.device, "17:00.0");
	ck_assert_uint_eq(ev.addr, 0xfffff000);
	ck_assert_str_eq(ev.reason, "0x06 PTE Read access is not set");
	/* Older kernels: no 0x on the address, PASID in the bracket. */
	l = line("DMAR: [DMA Write] Request device [00:02.0] PASID ffffffff fault addr fffe0000 [fault reason 05] PTE Write access is not set");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "DMA Write");
	ck_assert_uint_eq(ev.addr, 0xfffe0000);
	l = line("DMAR: [INTR-REMAP] Request device [f0:1f.0] fault index 0x0 [fault reason 0x25] Blocked a compatibility format interrupt request");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "INTR-REMAP");
	ck_assert(!ev.has_addr);
	l = line("vfio-pci 0000:05:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0xfffff000 flags=0x0020]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "IO_PAGE_FAULT");
	ck_assert_str_eq(ev.device, "0000:05:00.0");
	ck_assert_str_eq(ev.reason, "flags=0x0020");
	l = line("AMD-Vi: Event logged [IO_PAGE_FAULT device=05:00.0 domain=0x0000 address=0x0 flags=0x0000]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.device, "05:00.0");
	l = line("DMAR: [DMA Read NO_PASID] Request dev");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0); /* truncated */
	l = line("DMAR: DRHD: handling fault status reg 2");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0);
}
END_TEST

START_TEST(events_of_a_log)
{
	char *text = strdup("3,1,10,-;arm-smmu-v3 s: event 0x10 received:\n"
			    "3,2,11,-;arm-smmu-v3 s: \t0x0000000300000010\n"
			    "3,3,12,-;arm-smmu-v3 s: \t0x0000000000000000\n"
			    "3,4,13,-;arm-smmu-v3 s: \t0x0000000087650000\n"
			    "3,5,14,-;arm-smmu-v3 s: \t0x0000000000000000\n"
			    "3,6,15,-;arm-smmu-v3 s: \t0x1111111111111111\n"
			    "3,7,20,-;DMAR: [DMA Read NO_PASID] Request device [17:00.0] fault addr 0x1000 [fault reason 0x06] x\n");
	struct sb_kmsg k;
	struct sb_iommu_event *ev;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ev[0].device, "sid 0x3");
	ck_assert_uint_eq(ev[0].addr, 0x87650000);
	ck_assert_uint_eq(ev[0].ts_us, 10);
	ck_assert_str_eq(ev[1].source, "DMAR");
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(sysroot_log)
{
	char *dir = tu_tree_new();
	struct sb_root *r;
	struct sb_kmsg k;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_kmsg_read(r, &k, &e), -ENOENT);
	ck_assert_str_eq(e.object, "/dev/kmsg");
	tu_write(dir, "dev/kmsg", "[    0.1] a\n[    0.2] b\n", -1);
	ck_assert_int_eq(sb_kmsg_read(r, &k, &e), 0);
	ck_assert_uint_eq(k.n, 2);
	ck_assert_str_eq(k.source, "sysroot");
	sb_kmsg_free(&k);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmsg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, line_formats);
	tcase_add_test(tc, whole_log_with_garbage);
	tcase_add_test(tc, smmuv3_raw_dump);
	tcase_add_test(tc, smmuv3_decoded_and_errors);
	tcase_add_test(tc, dmar_and_amd);
	tcase_add_test(tc, events_of_a_log);
	tcase_add_test(tc, sysroot_log);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
