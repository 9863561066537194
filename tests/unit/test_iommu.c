// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU sysfs: instances, groups, reserved regions, device lookup, invalidation policy. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "testutil.h"

/* A small SMMUv3 system laid out as the kernel does, links relative. */
static char *smmu_tree(void)
{
	char *d = tu_tree_new();

	tu_symlink(d, "sys/class/iommu/smmu3.0x0000000009050000",
		   "../../devices/platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000");
	tu_symlink(d, "sys/devices/platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000/device",
		   "../../../9050000.smmuv3");
	tu_symlink(d, "sys/devices/platform/9050000.smmuv3/driver",
		   "../../../bus/platform/drivers/arm-smmu-v3");
	tu_symlink(d,
		   "sys/devices/platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000/devices/0000:00:01.0",
		   "../../../../../pci0000:00/0000:00:01.0");
	tu_symlink(d,
		   "sys/devices/platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000/devices/0000:00:02.0",
		   "../../../../../pci0000:00/0000:00:02.0");
	tu_symlink(d, "sys/devices/pci0000:00/0000:00:01.0/driver",
		   "../../../bus/pci/drivers/virtio-pci");
	tu_symlink(d, "sys/devices/pci0000:00/0000:00:01.0/iommu",
		   "../../platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000");
	tu_symlink(d, "sys/devices/pci0000:00/0000:00:02.0/iommu",
		   "../../platform/9050000.smmuv3/iommu/smmu3.0x0000000009050000");
	tu_symlink(d, "sys/kernel/iommu_groups/0/devices/0000:00:01.0",
		   "../../../../devices/pci0000:00/0000:00:01.0");
	tu_symlink(d, "sys/kernel/iommu_groups/1/devices/0000:00:02.0",
		   "../../../../devices/pci0000:00/0000:00:02.0");
	tu_write(d, "sys/kernel/iommu_groups/0/type", "DMA-FQ\n", -1);
	tu_write(d, "sys/kernel/iommu_groups/1/type", "identity\n", -1);
	tu_write(d, "sys/kernel/iommu_groups/0/reserved_regions",
		 "0x0000000008000000 0x00000000080fffff msi\n", -1);
	tu_write(d, "sys/kernel/iommu_groups/1/reserved_regions", "", -1);
	tu_write(d, "sys/kernel/iommu_groups/10/type", "DMA\n", -1); /* natural order: 10 after 1 */
	tu_write(d, "sys/kernel/iommu_groups/README", "not a group\n", -1);
	return d;
}

START_TEST(instances)
{
	char *d = smmu_tree();
	struct sb_root *r;
	struct sb_iommu *m;
	struct sb_err e;
	size_t n;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_iommu_list(r, &m, &n, &e), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(m[0].kind, SB_IOMMU_SMMUV3);
	ck_assert_str_eq(sb_iommu_kind_name(m[0].kind), "arm-smmu-v3");
	ck_assert(m[0].has_base);
	ck_assert_uint_eq(m[0].base, 0x9050000);
	ck_assert_str_eq(m[0].hwdev, "9050000.smmuv3");
	ck_assert_str_eq(m[0].driver, "arm-smmu-v3");
	ck_assert_uint_eq(m[0].ndevices, 2);
	free(m);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

START_TEST(groups_and_counts)
{
	char *d = smmu_tree();
	struct sb_root *r;
	struct sb_iommu *m;
	struct sb_iommu_group *g;
	struct sb_err e;
	size_t n, ng, gi, di;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_iommu_groups(r, &g, &ng, &e), 0);
	ck_assert_uint_eq(ng, 3);
	ck_assert_uint_eq(g[2].id, 10);
	ck_assert_str_eq(g[0].type, "DMA-FQ");
	ck_assert_uint_eq(g[0].ndevs, 1);
	ck_assert_str_eq(g[0].devs[0].driver, "virtio-pci");
	ck_assert_str_eq(g[0].devs[0].iommu, "smmu3.0x0000000009050000");
	ck_assert_str_eq(g[1].devs[0].driver, "");
	ck_assert_uint_eq(g[0].nresv, 1);
	ck_assert_uint_eq(g[0].resv[0].end, 0x080fffff);
	ck_assert_uint_eq(g[1].nresv, 0);
	ck_assert_int_eq(sb_iommu_find_device(g, ng, "00:02.0", &gi, &di), 0);
	ck_assert_uint_eq(g[gi].id, 1);
	ck_assert_int_eq(sb_iommu_find_device(g, ng, "0000:00:02.0", &gi, &di), 0);
	ck_assert_int_eq(sb_iommu_find_device(g, ng, "0000:00:03.0", &gi, &di), -ENOENT);
	ck_assert_int_eq(sb_iommu_list(r, &m, &n, &e), 0);
	sb_iommu_count_groups(m, n, g, ng);
	ck_assert_uint_eq(m[0].ngroups, 2);
	ck_assert_uint_eq(m[0].ntypes[SB_IOMMU_DOMAIN_DMA_FQ], 1);
	ck_assert_uint_eq(m[0].ntypes[SB_IOMMU_DOMAIN_IDENTITY], 1);
	free(m);
	sb_iommu_groups_free(g, ng);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

/* The brief read (doctor's) has the same groups and types, and nothing it did not read. */
/* The group types by name, each at its enum sb_iommu_domain_type. */
START_TEST(domain_types_by_name)
{
	for (int t = 0; t < SB_IOMMU_NDOMAIN_TYPES; t++)
		ck_assert_int_eq(sb_iommu_type_index(sb_iommu_group_types[t]), t);
	ck_assert_int_eq(sb_iommu_type_index("DMA-FQ"), SB_IOMMU_DOMAIN_DMA_FQ);
	ck_assert_int_eq(sb_iommu_type_index("identity"), SB_IOMMU_DOMAIN_IDENTITY);
	ck_assert_int_eq(sb_iommu_type_index("dma"), SB_IOMMU_DOMAIN_UNKNOWN);
	ck_assert_int_eq(sb_iommu_type_index(""), SB_IOMMU_DOMAIN_UNKNOWN);
}
END_TEST

START_TEST(groups_brief_has_ids_and_types_only)
{
	char *d = smmu_tree();
	struct sb_root *r;
	struct sb_iommu_group *g, *b;
	struct sb_err e;
	size_t ng, nb;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_iommu_groups(r, &g, &ng, &e), 0);
	ck_assert_int_eq(sb_iommu_groups_brief(r, &b, &nb, &e), 0);
	ck_assert_uint_eq(nb, ng);
	for (size_t k = 0; k < nb; k++) {
		ck_assert_uint_eq(b[k].id, g[k].id);
		ck_assert_str_eq(b[k].type, g[k].type);
		ck_assert_uint_eq(b[k].ndevs + b[k].nresv, 0);
	}
	ck_assert_uint_gt(g[0].ndevs + g[0].nresv, 0);
	sb_iommu_groups_free(g, ng);
	sb_iommu_groups_free(b, nb);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

START_TEST(no_iommu_is_empty)
{
	char *d = tu_tree_new();
	struct sb_root *r;
	struct sb_iommu *m;
	struct sb_iommu_group *g;
	struct sb_err e;
	size_t n = 9, ng = 9;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_iommu_list(r, &m, &n, &e), 0);
	ck_assert_int_eq(sb_iommu_groups(r, &g, &ng, &e), 0);
	ck_assert_uint_eq(n + ng, 0);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

START_TEST(reserved_regions_parser)
{
	struct sb_iommu_resv *v;
	size_t n, bad;

	ck_assert_int_eq(sb_iommu_parse_resv("0x00000000fee00000 0x00000000feefffff msi\n"
					     "0x000000006f5f8000 0x000000006f7fffff direct-relaxable\n"
					     "garbage line\n"
					     "0x10 0x0f reserved\n" /* end before start */
					     "0x0000000008000000 0x00000000080fffff", /* truncated */
					     &v, &n, &bad),
			 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(bad, 3);
	ck_assert_str_eq(v[1].kind, "direct-relaxable");
	ck_assert_uint_eq(v[0].start, 0xfee00000);
	free(v);
	ck_assert_int_eq(sb_iommu_parse_resv("", &v, &n, NULL), 0);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(sb_iommu_parse_resv("\xff\xfe\n0x1 0x2 \xff\xfe\n", &v, &n, &bad), 0);
	ck_assert_uint_eq(n, 1);
	free(v);
}
END_TEST

START_TEST(kinds)
{
	ck_assert_int_eq(sb_iommu_kind_guess("dmar3", ""), SB_IOMMU_VTD);
	ck_assert_int_eq(sb_iommu_kind_guess("ivhd0", ""), SB_IOMMU_AMD);
	ck_assert_int_eq(sb_iommu_kind_guess("smmu.0x0000000012c00000", ""), SB_IOMMU_SMMU);
	ck_assert_int_eq(sb_iommu_kind_guess("virtio1", "virtio_iommu"), SB_IOMMU_VIRTIO);
	ck_assert_int_eq(sb_iommu_kind_guess("15000000.iommu", "mtk-iommu"), SB_IOMMU_OTHER);
}
END_TEST

START_TEST(policy_sources)
{
	char *d = tu_tree_new();
	struct sb_root *r;
	struct sb_iommu_policy p;
	struct sb_iommu_group g[2] = { { .id = 0, .type = "DMA-FQ" }, { .id = 1, .type = "DMA" } };
	char logtext[] =
		"iommu: Default domain type: Translated\niommu: DMA domain TLB invalidation policy: strict mode\n";
	struct sb_kmsg log;
	struct sb_err e;
	char *cmdline;

	sb_err_clear(&e);
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	sb_iommu_policy(NULL, NULL, g, 2, &p);
	ck_assert_str_eq(p.mode, "lazy");
	ck_assert_str_eq(p.source, "groups");
	ck_assert_int_eq(sb_kmsg_parse(strdup(logtext), &log), 0);
	sb_iommu_policy(NULL, &log, g, 2, &p);
	ck_assert_str_eq(p.mode, "strict");
	ck_assert_str_eq(p.source, "log");
	ck_assert_str_eq(p.domain_default, "Translated");
	tu_write(d, "proc/cmdline", "root=/dev/vda iommu.strict=1 iommu.strict=0\n", -1);
	cmdline = sb_cmdline_read(r);
	ck_assert_ptr_nonnull(cmdline);
	sb_iommu_policy(cmdline, &log, g, 2, &p);
	free(cmdline);
	ck_assert_str_eq(p.mode, "lazy"); /* the last occurrence wins */
	ck_assert_str_eq(p.source, "cmdline");
	tu_write(d, "proc/cmdline", "iommu.passthrough=1\n", -1);
	cmdline = sb_cmdline_read(r);
	ck_assert_ptr_nonnull(cmdline);
	sb_iommu_policy(cmdline, &log, g, 2, &p);
	free(cmdline);
	ck_assert_str_eq(p.mode, "passthrough");
	sb_kmsg_free(&log);
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("iommu");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, instances);
	tcase_add_test(tc, groups_and_counts);
	tcase_add_test(tc, domain_types_by_name);
	tcase_add_test(tc, groups_brief_has_ids_and_types_only);
	tcase_add_test(tc, no_iommu_is_empty);
	tcase_add_test(tc, reserved_regions_parser);
	tcase_add_test(tc, kinds);
	tcase_add_test(tc, policy_sources);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
