// SPDX-License-Identifier: GPL-2.0-or-later
/* Feature decoding: SMMUv3 per kernel version, VT-d cap/ecap, AMD EFR; probe lines. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_features.h"
#include "testutil.h"

static bool has(const char **names, size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return true;
	return false;
}

static bool has24(char (*names)[24], size_t n, const char *want)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], want))
			return true;
	return false;
}

START_TEST(table_by_version)
{
	ck_assert_str_eq(sb_smmu_feat_table("6.18.2-arm64", 61802, false, NULL)->name,
			 "mainline-6.16");
	ck_assert_str_eq(sb_smmu_feat_table("6.6.23", 60623, false, NULL)->name, "mainline-5.x");
	ck_assert_str_eq(sb_smmu_feat_table("6.6.0-openEuler-2403", 60600, false, NULL)->name,
			 "openeuler");
	ck_assert_str_eq(sb_smmu_feat_table("5.10.0-182.0.0.95.oe2203sp3.aarch64", 51000, false,
					    NULL)
				 ->name,
			 "openeuler");
	ck_assert_str_eq(sb_smmu_feat_table("6.9.0-marvell", 60900, true, NULL)->name, "ecmdq-v3");
	ck_assert_str_eq(sb_smmu_feat_table("6.18.0", 61800, false, "openeuler")->name, "openeuler");
	ck_assert_ptr_null(sb_smmu_feat_table("6.18.0", 61800, false, "no-such-table"));
	ck_assert_str_eq(sb_smmu_feat_table(NULL, 0, false, NULL)->name, "mainline-5.x");
}
END_TEST

START_TEST(same_value_decodes_per_table)
{
	const char *names[32];
	uint32_t unknown;
	uint32_t v = (1u << 0) | (1u << 17) | (1u << 21) | (1u << 23) | (1u << 24) | (1u << 25);
	size_t n;

	/* Bit 21 is HA in mainline 6.16, ECMDQ in the V3 vendor patch, unknown in 5.x; bit 23
	 * is S2FWB in mainline and ECMDQ in openEuler; bit 25 is known nowhere. */
	n = sb_smmu_decode(sb_smmu_feat_table(NULL, 61600, false, NULL), v, names, 32, &unknown);
	ck_assert(has(names, n, "2_LVL_STRTAB") && has(names, n, "SVA") && has(names, n, "HA"));
	ck_assert(has(names, n, "S2FWB") && has(names, n, "BBML2"));
	ck_assert_uint_eq(unknown, 1u << 25);
	n = sb_smmu_decode(sb_smmu_feat_table(NULL, 60600, false, NULL), v, names, 32, &unknown);
	ck_assert(!has(names, n, "HA"));
	ck_assert_uint_eq(unknown, (1u << 21) | (1u << 23) | (1u << 24) | (1u << 25));
	n = sb_smmu_decode(sb_smmu_feat_table(NULL, 60900, true, NULL), v, names, 32, &unknown);
	ck_assert(has(names, n, "ECMDQ"));
	ck_assert_uint_eq(unknown, (1u << 23) | (1u << 24) | (1u << 25));
	n = sb_smmu_decode(sb_smmu_feat_table("x", 0, false, "openeuler"), v, names, 32, &unknown);
	ck_assert(has(names, n, "ECMDQ") && has(names, n, "MPAM") && !has(names, n, "HA"));
	n = sb_smmu_decode(sb_smmu_feat_table(NULL, 61600, false, NULL), 0, names, 32, &unknown);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(unknown, 0);
	n = sb_smmu_decode(sb_smmu_feat_table(NULL, 61600, false, NULL), 0xffffffffu, names, 32,
			   &unknown);
	ck_assert_uint_eq(n, 25);
	ck_assert_uint_eq(unknown, 0xfe000000u);
}
END_TEST

START_TEST(probe_lines)
{
	struct sb_smmu_probe p;

	memset(&p, 0, sizeof(p));
	ck_assert(sb_smmu_probe_line(
		"arm-smmu-v3 arm-smmu-v3.0.auto: ias 48-bit, oas 44-bit (features 0x00001fef)", &p));
	ck_assert_str_eq(p.dev, "arm-smmu-v3.0.auto");
	ck_assert_uint_eq(p.ias, 48);
	ck_assert_uint_eq(p.oas, 44);
	ck_assert_uint_eq(p.features, 0x1fef);
	memset(&p, 0, sizeof(p));
	ck_assert(sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: oas 48-bit (features 0x006fd7b7)",
				     &p));
	ck_assert_uint_eq(p.ias, 0);
	ck_assert_uint_eq(p.oas, 48);
	ck_assert_uint_eq(p.features, 0x006fd7b7);
	ck_assert(sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: option mask 0x2", &p));
	ck_assert(p.has_options && p.options == 2);
	ck_assert(
		sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: suppress ecmdq feature, errno=-28",
				   &p));
	ck_assert_str_eq(p.ecmdq, "suppress ecmdq feature, errno=-28");
	ck_assert(sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: ecmdq[3] init failed", &p));
	/* another device, other drivers, garbage, truncation */
	ck_assert(!sb_smmu_probe_line("arm-smmu-v3 other.dev: oas 48-bit (features 0x1)", &p));
	ck_assert(!sb_smmu_probe_line("arm-smmu 5000000.iommu: probing hardware configuration...",
				      &p));
	ck_assert(!sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: oas 48-bit (features 0x", &p));
	ck_assert(!sb_smmu_probe_line("arm-smmu-v3 9050000.smmuv3: ias 48-bit, oas", &p));
	ck_assert(!sb_smmu_probe_line("arm-smmu-v3 \xff\xfe", &p));
	ck_assert(!sb_smmu_probe_line("", &p));
	ck_assert_uint_eq(p.features, 0x006fd7b7);
}
END_TEST

START_TEST(probes_of_a_log)
{
	char *text = strdup("arm-smmu-v3 a: ias 48-bit, oas 48-bit (features 0x1)\n"
			    "arm-smmu-v3 b: oas 44-bit (features 0x2)\n"
			    "arm-smmu-v3 a: ias 48-bit, oas 48-bit (features 0x3)\n");
	struct sb_kmsg k;
	struct sb_smmu_probe *p;
	size_t n;

	ck_assert_int_eq(sb_kmsg_parse(text, &k), 0);
	ck_assert_int_eq(sb_smmu_probes(&k, &p, &n), 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(p[0].dev, "a");
	ck_assert_uint_eq(p[0].features, 3); /* the last probe wins (rebind) */
	ck_assert_uint_eq(p[1].oas, 44);
	free(p);
	sb_kmsg_free(&k);
}
END_TEST

START_TEST(vtd_cap_ecap)
{
	char out[64][24];
	uint64_t unknown;
	size_t n;

	/* A Xeon server unit: cap d2008c40660462, ecap f050da. */
	n = sb_vtd_decode_cap(0xd2008c40660462ull, out, 64);
	ck_assert(has24(out, n, "nd=256"));
	ck_assert(has24(out, n, "sagaw=48"));
	ck_assert(has24(out, n, "mgaw=39"));
	ck_assert(has24(out, n, "psi"));
	ck_assert(has24(out, n, "sllps=4k/2m/1g"));
	ck_assert(!has24(out, n, "pi"));
	n = sb_vtd_decode_ecap(0xf050daull, out, 64, &unknown);
	ck_assert(has24(out, n, "qi") && has24(out, n, "ir") && has24(out, n, "eim") &&
		  has24(out, n, "pt"));
	ck_assert(!has24(out, n, "c") && !has24(out, n, "pasid"));
	ck_assert_uint_eq(unknown, 0);
	/* Scalable mode with PASID (QEMU x-scalable-mode) and an unknown high bit. */
	n = sb_vtd_decode_ecap((1ull << 43) | (1ull << 40) | (19ull << 35) | (1ull << 47) |
				       (1ull << 62),
			       out, 64, &unknown);
	ck_assert(has24(out, n, "smts") && has24(out, n, "pasid") && has24(out, n, "flts"));
	ck_assert(has24(out, n, "pss=20"));
	ck_assert_uint_eq(unknown, 1ull << 62);
	n = sb_vtd_decode_cap(0, out, 2); /* capacity respected */
	ck_assert_uint_eq(n, 2);
}
END_TEST

START_TEST(amd_efr)
{
	char out[16][24];
	uint64_t unknown;
	size_t n = sb_amd_decode_features((1ull << 0) | (1ull << 1) | (1ull << 7) | (1ull << 63) |
						  (1ull << 40),
					  out, 16, &unknown);

	ck_assert(has24(out, n, "pref") && has24(out, n, "ppr") && has24(out, n, "ga") &&
		  has24(out, n, "snp"));
	ck_assert_uint_eq(unknown, 1ull << 40);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("smmu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, table_by_version);
	tcase_add_test(tc, same_value_decodes_per_table);
	tcase_add_test(tc, probe_lines);
	tcase_add_test(tc, probes_of_a_log);
	tcase_add_test(tc, vtd_cap_ecap);
	tcase_add_test(tc, amd_efr);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
