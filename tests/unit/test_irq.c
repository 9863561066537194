// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_irq.h"
#include "testutil.h"

static const char x86[] =
	"            CPU0       CPU1       \n"
	"   0:         31          0   IO-APIC    2-edge      timer\n"
	"  25:          3          7  DMAR-MSI    0-edge      dmar0\n"
	"  27:          0         12  IR-PCI-MSIX-0000:17:00.0    0-edge      ice-0000:17:00.0:misc, ice2\n"
	" NMI:          0          0   Non-maskable interrupts\n"
	" ERR:          0\n";

/* arm64 before 6.13: GICv3 with the Level/Edge column. */
static const char arm64_gicv3[] =
	"           CPU0       CPU1       CPU2       CPU3       \n"
	"  11:     104331      98012     101215      99833     GICv3  27 Level     arch_timer\n"
	"  14:          0          5          0          0   ITS-pMSI 16384 Edge      arm-smmu-v3-evtq\n"
	"  15:          0          0          0          1   ITS-pMSI 16386 Edge      arm-smmu-v3-gerror\n"
	"  16:          0          0          0          0     GICv3 140 Level     arm-smmu-v3-combined-irq\n"
	"IPI0:      2231       2405       2119       2087       Rescheduling interrupts\n"
	"Err:          0\n";

/* 6.13+ (counts via seq_put_decimal_ull_width, forced space, no leading space in the chip)
 * and the 2026 rework (left-aligned chip column, two spaces), with CPU2 offline. */
static const char arm64_613[] =
	"           CPU0       CPU1       CPU3\n"
	"  70:          2          0          9 GICv3 132 Level     arm-smmu-v3-evtq\n"
	"  71:          0          0          0  GICv3     134 Level  arm-smmu-v3-priq\n"
	"  72:       1344          0          0  GICv3    120 Level  4a200000.dma\n";

START_TEST(x86_layout)
{
	struct sb_irq_table t;
	const struct sb_irq_row *r;

	ck_assert_int_eq(sb_irq_parse(x86, &t), 0);
	ck_assert_uint_eq(t.ncpus, 2);
	ck_assert_uint_eq(t.nrows, 5);
	r = sb_irq_find(&t, "25");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->total, 10);
	ck_assert_str_eq(r->chip, "DMAR-MSI");
	ck_assert_str_eq(r->actions, "dmar0");
	ck_assert_str_eq(sb_irq_iommu_kind(r), "dmar");
	r = sb_irq_find(&t, "27");
	ck_assert_str_eq(r->actions, "ice-0000:17:00.0:misc, ice2");
	ck_assert_ptr_null(sb_irq_iommu_kind(r));
	r = sb_irq_find(&t, "ERR");
	ck_assert_ptr_nonnull(r);
	ck_assert_uint_eq(r->total, 0);
	ck_assert_str_eq(r->actions, "");
	sb_irq_free(&t);
}
END_TEST

START_TEST(arm64_gicv3_level_edge)
{
	struct sb_irq_table t;
	const struct sb_irq_row *r;

	ck_assert_int_eq(sb_irq_parse(arm64_gicv3, &t), 0);
	ck_assert_uint_eq(t.ncpus, 4);
	r = sb_irq_find(&t, "14");
	ck_assert_str_eq(r->actions, "arm-smmu-v3-evtq");
	ck_assert_str_eq(sb_irq_iommu_kind(r), "evtq");
	ck_assert_uint_eq(sb_irq_count_cpu(&t, r, 1), 5);
	ck_assert_str_eq(sb_irq_iommu_kind(sb_irq_find(&t, "15")), "gerror");
	ck_assert_str_eq(sb_irq_iommu_kind(sb_irq_find(&t, "16")), "combined");
	ck_assert_ptr_null(sb_irq_iommu_kind(sb_irq_find(&t, "11")));
	r = sb_irq_find(&t, "IPI0");
	ck_assert_uint_eq(r->total, 2231 + 2405 + 2119 + 2087);
	sb_irq_free(&t);
}
END_TEST

START_TEST(layout_613_and_offline_cpu)
{
	struct sb_irq_table t;
	const struct sb_irq_row *r;

	ck_assert_int_eq(sb_irq_parse(arm64_613, &t), 0);
	ck_assert_uint_eq(t.ncpus, 3);
	ck_assert_uint_eq(t.cpu_ids[2], 3);
	r = sb_irq_find(&t, "70");
	ck_assert_uint_eq(sb_irq_count_cpu(&t, r, 3), 9);
	ck_assert_uint_eq(sb_irq_count_cpu(&t, r, 2), 0);
	ck_assert_str_eq(r->chip, "GICv3");
	ck_assert_str_eq(sb_irq_iommu_kind(r), "evtq");
	r = sb_irq_find(&t, "71");
	ck_assert_str_eq(r->actions, "arm-smmu-v3-priq");
	ck_assert_str_eq(sb_irq_iommu_kind(r), "priq");
	sb_irq_free(&t);
}
END_TEST

START_TEST(garbage_truncated_empty)
{
	struct sb_irq_table t;
	const struct sb_irq_row *r;

	ck_assert_int_eq(sb_irq_parse("", &t), -EINVAL);
	ck_assert_int_eq(sb_irq_parse("no header here\n 1: 2 3\n", &t), -EINVAL);
	ck_assert_int_eq(sb_irq_parse("\xff\xfe CPU0\n", &t), -EINVAL);
	/* A row cut in the middle keeps what it has; lines without "NAME:" are skipped. */
	ck_assert_int_eq(
		sb_irq_parse("   CPU0   CPU1\n  14:    7\nrandom text\n : 5\n  1 5: 3 4\n  20:  1  2  \xff\xfe  arm-smmu-v3-evtq",
			     &t),
		0);
	ck_assert_uint_eq(t.nrows, 2);
	r = sb_irq_find(&t, "14");
	ck_assert_uint_eq(r->total, 7);
	ck_assert_uint_eq(r->counts[1], 0);
	r = sb_irq_find(&t, "20");
	ck_assert_uint_eq(r->total, 3);
	ck_assert_str_eq(sb_irq_iommu_kind(r), "evtq");
	sb_irq_free(&t);
}
END_TEST

START_TEST(huge_table)
{
	size_t rows = 20000, len = 64 + rows * 96, o = 0;
	char *text = malloc(len);
	struct sb_irq_table t;

	o += (size_t)snprintf(text + o, len - o, "  CPU0  CPU1\n");
	for (size_t i = 0; i < rows; i++)
		o += (size_t)snprintf(text + o, len - o, "%6zu:  %zu  1  ITS-MSI %zu Edge  %s\n", i,
				      i, i, i % 1000 == 0 ? "arm-smmu-v3-evtq" : "eth0-rx");
	ck_assert_int_eq(sb_irq_parse(text, &t), 0);
	ck_assert_uint_eq(t.nrows, rows);
	ck_assert_uint_eq(t.rows[rows - 1].total, rows);
	ck_assert_str_eq(sb_irq_iommu_kind(&t.rows[1000]), "evtq");
	sb_irq_free(&t);
	free(text);
}
END_TEST

START_TEST(read_through_sysroot)
{
	char *dir = tu_tree_new();
	struct sb_root *r;
	struct sb_irq_table t;
	struct sb_err e;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	ck_assert_int_eq(sb_irq_read(r, &t, &e), -ENOENT);
	ck_assert_str_eq(e.object, "/proc/interrupts");
	tu_write(dir, "proc/interrupts", arm64_gicv3, -1);
	ck_assert_int_eq(sb_irq_read(r, &t, &e), 0);
	ck_assert_uint_eq(t.nrows, 6);
	sb_irq_free(&t);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("irq");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, x86_layout);
	tcase_add_test(tc, arm64_gicv3_level_edge);
	tcase_add_test(tc, layout_613_and_offline_cpu);
	tcase_add_test(tc, garbage_truncated_empty);
	tcase_add_test(tc, huge_table);
	tcase_add_test(tc, read_through_sysroot);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
