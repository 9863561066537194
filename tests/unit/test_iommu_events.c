// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU fault and event records from kernel log lines: one record per event, whatever the
 * number of lines the kernel spent on it. The SMMUv3 logs are what /dev/kmsg gives for
 * arm_smmu_dump_event() of Linux 7.2 (raw dump, decoded line, qualifier; dev_err, so
 * priority 3, the tab of each dword escaped as \x09, SUBSYSTEM/DEVICE dictionary lines) and
 * for the evtq thread of 6.6 (raw dump only, dev_info). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_events.h"
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

#define DICT " SUBSYSTEM=platform\n DEVICE=+platform:9050000.smmuv3\n"
/* One F_TRANSLATION of edu (0000:00:02.0, sid 0x10) at IOVA A, as 7.2 logs it. */
#define FAULT72(seq, ts, A) \
	"3," #seq "," #ts ",-;arm-smmu-v3 9050000.smmuv3: event 0x10 received:\n" DICT "3," #seq \
	"1," #ts ",-;arm-smmu-v3 9050000.smmuv3: \\x090x0000001000000010\n" DICT "3," #seq \
	"2," #ts ",-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000800000000\n" DICT "3," #seq \
	"3," #ts ",-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000" #A "\n" DICT "3," #seq \
	"4," #ts ",-;arm-smmu-v3 9050000.smmuv3: \\x090x0000000000000000\n" DICT "3," #seq \
	"5," #ts ",-;arm-smmu-v3 9050000.smmuv3: event: F_TRANSLATION client: 0000:00:02.0 " \
	"sid: 0x10 ssid: 0x0 iova: 0x" #A " ipa: 0x0\n" DICT "3," #seq "6," #ts \
	",-;arm-smmu-v3 9050000.smmuv3: unpriv data read s1 \"CD fetch\" stag: 0x0\n" DICT

static const char log72[] =
	"6,1,5,-;arm-smmu-v3 9050000.smmuv3: oas 44-bit (features 0x01008305)\n" DICT
		FAULT72(10, 90001, 100000) FAULT72(20, 90002, 101000) FAULT72(30, 90003, 102000)
			FAULT72(40, 90004, 103000) "6,50,90005,-;edu-dma: done\n";

START_TEST(one_record_per_smmuv3_fault)
{
	char *text = strdup(log72);
	struct sb_iommu_event *ev;
	struct sb_kmsg k;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n, NULL), 0);
	ck_assert_uint_eq(n, 4);
	for (size_t i = 0; i < n; i++) {
		ck_assert_str_eq(ev[i].source, "9050000.smmuv3");
		ck_assert_str_eq(ev[i].kind, "F_TRANSLATION");
		ck_assert_str_eq(ev[i].device, "0000:00:02.0");
		ck_assert(ev[i].client_known);
		ck_assert(ev[i].has_sid);
		ck_assert_uint_eq(ev[i].sid, 0x10);
		ck_assert(ev[i].has_addr);
		ck_assert_uint_eq(ev[i].addr, 0x100000 + i * 0x1000);
		ck_assert_uint_eq(ev[i].ts_us, 90001 + i);
		ck_assert_str_eq(ev[i].reason, "unpriv data read s1 \"CD fetch\" stag: 0x0");
	}
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

/* The live path (events --follow): lines one at a time; each fault is finished exactly once,
 * on its qualifier line, without waiting for the next fault. */
START_TEST(assembler_finishes_each_fault_on_its_last_line)
{
	char *text = strdup(log72);
	struct sb_iommu_event out[SB_IOMMU_EVASM_OUT];
	struct sb_iommu_evasm a;
	struct sb_kmsg k;
	size_t total = 0;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	sb_iommu_evasm_init(&a);
	for (size_t i = 0; i < k.n; i++) {
		size_t n = sb_iommu_evasm_feed(&a, &k.lines[i], out);

		if (strstr(k.lines[i].text, "stag: "))
			ck_assert_uint_eq(n, 1);
		else
			ck_assert_uint_eq(n, 0);
		total += n;
		ck_assert(!sb_iommu_evasm_pending(&a) || !strstr(k.lines[i].text, "stag: "));
	}
	ck_assert_uint_eq(total, 4);
	ck_assert(!sb_iommu_evasm_flush(&a, &out[0]));
	sb_kmsg_free(&k);
}
END_TEST

/* Before 6.15 the raw dump is all there is (dev_info); the qualifier is made from dword 1
 * the way 7.x prints it, and the record is finished by the next line of that SMMU or by
 * the end of the log. */
START_TEST(raw_dump_alone)
{
	char *text = strdup(
		"6,7,37100400,-;arm-smmu-v3 49000000.iommu: event 0x10 received:\n"
		"6,8,37100402,-;arm-smmu-v3 49000000.iommu: \\x090x0000000300000010\n"
		"6,9,37100403,-;arm-smmu-v3 49000000.iommu: \\x090x0000008800000000\n"
		"6,10,37100404,-;arm-smmu-v3 49000000.iommu: \\x090x0000000087650000\n"
		"6,11,37100405,-;arm-smmu-v3 49000000.iommu: \\x090x0000000000000000\n"
		"6,12,37100500,-;arm-smmu-v3 49000000.iommu: event 0x13 received:\n"
		"6,13,37100502,-;arm-smmu-v3 49000000.iommu: \\x090x0000000300000013\n"
		"6,14,37100503,-;arm-smmu-v3 49000000.iommu: \\x090x0000110e8000002a\n"
		"6,15,37100504,-;arm-smmu-v3 49000000.iommu: \\x090x0000000087651000\n"
		"6,16,37100505,-;arm-smmu-v3 49000000.iommu: \\x090x0000000000000000\n");
	struct sb_iommu_event *ev;
	struct sb_kmsg k;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n, NULL), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(ev[0].kind, "F_TRANSLATION");
	ck_assert_str_eq(ev[0].device, "sid 0x3");
	ck_assert(!ev[0].client_known);
	ck_assert_uint_eq(ev[0].sid, 3);
	ck_assert_uint_eq(ev[0].addr, 0x87650000);
	ck_assert_str_eq(ev[0].reason, "unpriv data read s2 \"CD fetch\" stag: 0x0");
	ck_assert_str_eq(ev[1].kind, "F_PERMISSION");
	/* PnU, InD, RnW, class 1 (TT) with TT_READ, stall, stag 0x2a */
	ck_assert_str_eq(
		ev[1].reason,
		"priv inst read s1 \"Stage 1 translation table fetch\" ttd_read stall stag: 0x2a");
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(qualifier_from_dword1)
{
	char b[128];

	ck_assert(sb_smmu_event_qualifier(0x10, 0x0000000800000000ull, b, sizeof(b)));
	ck_assert_str_eq(b, "unpriv data read s1 \"CD fetch\" stag: 0x0");
	ck_assert(sb_smmu_event_qualifier(0x12, 0x0000020000000000ull, b, sizeof(b)));
	ck_assert_str_eq(b, "unpriv data write s1 \"Input address caused fault\" stag: 0x0");
	ck_assert(!sb_smmu_event_qualifier(0x04, 0, b, sizeof(b)));
}
END_TEST

/* Two SMMUs dumping at once, a C_BAD_STE (no qualifier: finished by its decoded line), an
 * unassigned stream id, and the rate limit's "callbacks suppressed". */
START_TEST(interleaved_smmus_and_other_events)
{
	char *text = strdup(
		"3,1,10,-;arm-smmu-v3 arm-smmu-v3.0.auto: event 0x04 received:\n"
		"3,2,11,-;arm-smmu-v3 arm-smmu-v3.1.auto: event 0x10 received:\n"
		"3,3,12,-;arm-smmu-v3 arm-smmu-v3.0.auto: \\x090x0000004200000004\n"
		"3,4,13,-;arm-smmu-v3 arm-smmu-v3.1.auto: \\x090x0001010100000010\n"
		"3,5,14,-;arm-smmu-v3 arm-smmu-v3.0.auto: \\x090x0000000000000000\n"
		"3,6,15,-;arm-smmu-v3 arm-smmu-v3.1.auto: \\x090x0000000000000000\n"
		"3,7,16,-;arm-smmu-v3 arm-smmu-v3.0.auto: \\x090x0000000000000000\n"
		"3,8,17,-;arm-smmu-v3 arm-smmu-v3.1.auto: \\x090x00000000fff00000\n"
		"3,9,18,-;arm-smmu-v3 arm-smmu-v3.0.auto: \\x090x0000000000000000\n"
		"3,10,19,-;arm-smmu-v3 arm-smmu-v3.1.auto: \\x090x0000000000000000\n"
		"3,11,20,-;arm-smmu-v3 arm-smmu-v3.0.auto: event: C_BAD_STE client: (unassigned sid) sid: 0x42 ssid: 0x0\n"
		"3,12,21,-;arm-smmu-v3 arm-smmu-v3.1.auto: event: F_TRANSLATION client: 0002:01:00.1 sid: 0x10101 ssid: 0x0 iova: 0xfff00000 ipa: 0x0\n"
		"3,13,22,-;arm-smmu-v3 arm-smmu-v3.1.auto: unpriv data write s1 \"Input address caused fault\" stag: 0x0\n"
		"4,14,23,-;arm_smmu_dump_event: 7 callbacks suppressed\n"
		"3,15,24,-;arm-smmu-v3 arm-smmu-v3.1.auto: EVTQ overflow detected -- events lost\n");
	struct sb_iommu_event *ev;
	struct sb_kmsg k;
	uint64_t suppressed;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n, &suppressed), 0);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(suppressed, 7);
	ck_assert_str_eq(ev[0].source, "arm-smmu-v3.0.auto");
	ck_assert_str_eq(ev[0].kind, "C_BAD_STE");
	ck_assert_str_eq(ev[0].device, "sid 0x42");
	ck_assert(ev[0].has_sid && !ev[0].client_known);
	ck_assert_str_eq(ev[1].device, "0002:01:00.1");
	ck_assert_uint_eq(ev[1].sid, 0x10101);
	ck_assert_uint_eq(ev[1].addr, 0xfff00000);
	ck_assert_str_eq(ev[1].reason,
			 "unpriv data write s1 \"Input address caused fault\" stag: 0x0");
	ck_assert_str_eq(ev[2].kind, "evtq-overflow");
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

/* Broken dumps: a header cut short, dwords with no header, a decoded line of another stream
 * after a dump, garbage. Nothing is counted twice and nothing is invented. */
START_TEST(broken_dumps)
{
	char *text = strdup(
		"3,1,10,-;arm-smmu-v3 s: event 0x10 received:\n"
		"3,2,11,-;arm-smmu-v3 s: \\x090x0000000500000010\n"
		"3,3,12,-;arm-smmu-v3 s: event 0x7f received:\n"
		"3,4,13,-;arm-smmu-v3 t: \\x090x0000000500000010\n"
		"3,5,14,-;arm-smmu-v3 s: \\x090x00000000000000zz\n"
		"3,6,15,-;arm-smmu-v3 s: event 0x1ff received:\n"
		"3,7,16,-;arm-smmu-v3 u: event 0x10 received:\n"
		"3,8,17,-;arm-smmu-v3 u: \\x090x0000000600000010\n"
		"3,9,18,-;arm-smmu-v3 u: \\x090x0000000000000000\n"
		"3,10,19,-;arm-smmu-v3 u: \\x090x0000000000001000\n"
		"3,11,20,-;arm-smmu-v3 u: \\x090x0000000000000000\n"
		"3,12,21,-;arm-smmu-v3 u: event: F_TRANSLATION client: 0000:00:03.0 sid: 0x7 ssid: 0x0 iova: 0x1000 ipa: 0x0\n"
		"3,13,22,-;arm-smmu-v3 u: unpriv data read s1 \"CD fetch\" stag: 0x0\n"
		"3,14,23,-;arm-smmu-v3 u: event: F_TRANSLATION client: 0000:00:03.0 sid: 0x99999999999 iova: 0x\n");
	struct sb_iommu_event *ev;
	struct sb_kmsg k;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n, NULL), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_str_eq(ev[0].kind, "F_TRANSLATION"); /* one dword only: no stream id yet */
	ck_assert(!ev[0].has_sid);
	ck_assert_str_eq(ev[1].kind, "event 0x7f");
	ck_assert_str_eq(ev[2].device, "sid 0x6"); /* the decoded line is of another stream */
	ck_assert_str_eq(ev[3].device, "0000:00:03.0");
	ck_assert_str_eq(ev[3].reason, "unpriv data read s1 \"CD fetch\" stag: 0x0");
	ck_assert(!ev[4].has_sid);
	ck_assert(!ev[4].has_addr);
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(decoded_and_errors)
{
	struct sb_kmsg_line l = line(
		"arm-smmu-v3 arm-smmu-v3.1.auto: event: F_TRANSLATION client: 0002:01:00.1 sid: 0x10101 ssid: 0x0 iova: 0xfff00000 ipa: 0x0");
	struct sb_iommu_event ev;

	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "F_TRANSLATION");
	ck_assert_str_eq(ev.device, "0002:01:00.1");
	ck_assert_uint_eq(ev.addr, 0xfff00000);
	l = line(
		"arm-smmu-v3 x.iommu: event: C_BAD_STE client: (unassigned sid) sid: 0x42 ssid: 0x0");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.device, "sid 0x42");
	l = line(
		"arm-smmu-v3 x.iommu: event: F_CD_FETCH client: 0000:00:02.0 sid: 0x10 ssid: 0x0 fetch_addr: 0x8000");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_uint_eq(ev.addr, 0x8000);
	l = line(
		"arm-smmu-v3 x.iommu: unexpected global error reported (0x00000001), this could be serious");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "gerror");
	l = line(
		"arm-smmu-v3 x.iommu: CMD_SYNC timeout at 0x00000102 [hwprod 0x00000103, hwcons 0x00000100]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "cmd-sync-timeout");
	l = line(
		"arm-smmu 5000000.iommu: Unhandled context fault: fsr=0x402, iova=0x12345000, fsynr=0x1, cbfrsynra=0x4c0, cb=3");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "context-fault");
	ck_assert_str_eq(ev.device, "sid 0x4c0");
	ck_assert(ev.has_sid);
	ck_assert_uint_eq(ev.sid, 0x4c0);
	ck_assert_uint_eq(ev.addr, 0x12345000);
	l = line("arm-smmu-v3 arm-smmu-v3.0.auto: oas 48-bit (features 0x006fd7b7)");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0);
	l = line("arm-smmu-v3 a: event 0x7f received:");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "event 0x7f"); /* unknown ids stay raw */
}
END_TEST

START_TEST(dmar_and_amd)
{
	struct sb_kmsg_line l = line(
		"DMAR: [DMA Read NO_PASID] Request device [17:00.0] fault addr 0xfffff000 [fault reason 0x06] PTE Read access is not set");
	struct sb_iommu_event ev;

	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "DMA Read");
	ck_assert_str_eq(ev.device, "17:00.0");
	ck_assert(ev.client_known);
	ck_assert_uint_eq(ev.addr, 0xfffff000);
	ck_assert_str_eq(ev.reason, "0x06 PTE Read access is not set");
	/* Older kernels: no 0x on the address, PASID in the bracket. */
	l = line(
		"DMAR: [DMA Write] Request device [00:02.0] PASID ffffffff fault addr fffe0000 [fault reason 05] PTE Write access is not set");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "DMA Write");
	ck_assert_uint_eq(ev.addr, 0xfffe0000);
	l = line(
		"DMAR: [INTR-REMAP] Request device [f0:1f.0] fault index 0x0 [fault reason 0x25] Blocked a compatibility format interrupt request");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "INTR-REMAP");
	ck_assert(!ev.has_addr);
	l = line(
		"vfio-pci 0000:05:00.0: AMD-Vi: Event logged [IO_PAGE_FAULT domain=0x000e address=0xfffff000 flags=0x0020]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.kind, "IO_PAGE_FAULT");
	ck_assert_str_eq(ev.device, "0000:05:00.0");
	ck_assert_str_eq(ev.reason, "flags=0x0020");
	l = line(
		"AMD-Vi: Event logged [IO_PAGE_FAULT device=05:00.0 domain=0x0000 address=0x0 flags=0x0000]");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 1);
	ck_assert_str_eq(ev.device, "05:00.0");
	l = line("DMAR: [DMA Read NO_PASID] Request dev");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0); /* truncated */
	l = line("DMAR: DRHD: handling fault status reg 2");
	ck_assert_int_eq(sb_iommu_event_parse(&l, &ev), 0);
}
END_TEST

START_TEST(huge_and_empty_lines)
{
	size_t big = 1 << 20;
	char *text = malloc(big + 64);
	struct sb_iommu_event *ev;
	struct sb_kmsg k;
	size_t n, off;

	strcpy(text, "3,1,1,-;arm-smmu-v3 s: event 0x");
	off = strlen(text);
	memset(text + off, '1', big);
	strcpy(text + off + big, " received:\n\n\n");
	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_iommu_events(&k, &ev, &n, NULL), 0);
	ck_assert_uint_eq(n, 0);
	free(ev);
	sb_kmsg_free(&k);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("iommu_events");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, one_record_per_smmuv3_fault);
	tcase_add_test(tc, assembler_finishes_each_fault_on_its_last_line);
	tcase_add_test(tc, raw_dump_alone);
	tcase_add_test(tc, qualifier_from_dword1);
	tcase_add_test(tc, interleaved_smmus_and_other_events);
	tcase_add_test(tc, broken_dumps);
	tcase_add_test(tc, decoded_and_errors);
	tcase_add_test(tc, dmar_and_amd);
	tcase_add_test(tc, huge_and_empty_lines);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
