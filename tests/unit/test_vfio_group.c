// SPDX-License-Identifier: GPL-2.0-or-later
/* Who else is in a VFIO device's IOMMU group (lib/iommu/vfio_group.c): the devices a
 * kernel driver holds are named, those with vfio-pci, pci-stub or pcieport, or no driver,
 * are not; a group that cannot be read is an error, not "nobody". */
#include <stdlib.h>
#include <string.h>

#include "socbox/iommufd.h"
#include "socbox/sys.h"
#include "testutil.h"

/* vfio0 is 0000:00:03.0; its group also holds 04.0 (e1000e), 05.0 (vfio-pci), 06.0 (no
 * driver), 07.0 (pcieport), 08.0 (snd_hda_intel) */
static char *board(void)
{
	char *d = tu_tree_new();
	static const char *const members[][2] = {
		{ "0000:00:03.0", "vfio-pci" }, { "0000:00:04.0", "e1000e" },
		{ "0000:00:05.0", "vfio-pci" }, { "0000:00:06.0", NULL },
		{ "0000:00:07.0", "pcieport" }, { "0000:00:08.0", "snd_hda_intel" },
	};
	char rel[160], target[160];

	tu_symlink(d, "sys/class/vfio-dev/vfio0/device",
		   "../../../devices/pci0000:00/0000:00:03.0");
	for (size_t i = 0; i < sizeof(members) / sizeof(members[0]); i++) {
		snprintf(rel, sizeof(rel), "sys/kernel/iommu_groups/5/devices/%s", members[i][0]);
		snprintf(target, sizeof(target), "../../../../devices/pci0000:00/%s",
			 members[i][0]);
		tu_symlink(d, rel, target);
		snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/iommu_group", members[i][0]);
		tu_symlink(d, rel, "../../../../kernel/iommu_groups/5");
		if (members[i][1]) {
			snprintf(rel, sizeof(rel), "sys/bus/pci/devices/%s/driver", members[i][0]);
			snprintf(target, sizeof(target), "../../../../bus/pci/drivers/%s",
				 members[i][1]);
			tu_symlink(d, rel, target);
		}
	}
	return d;
}

START_TEST(names_the_kernel_drivers)
{
	char *d = board(), buf[256];
	struct sb_root *r;
	struct sb_err e = { 0 };

	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_vfio_group_others(r, "/dev/vfio/devices/vfio0", buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "0000:00:04.0 (e1000e), 0000:00:08.0 (snd_hda_intel)");
	/* no such cdev: an error, never "nobody else" */
	ck_assert_int_lt(sb_vfio_group_others(r, "/dev/vfio/devices/vfio9", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

START_TEST(alone_or_all_vfio)
{
	char *d = tu_tree_new(), buf[64];
	struct sb_root *r;
	struct sb_err e = { 0 };

	tu_symlink(d, "sys/class/vfio-dev/vfio1/device",
		   "../../../devices/pci0000:00/0000:00:03.0");
	tu_symlink(d, "sys/bus/pci/devices/0000:00:03.0/iommu_group",
		   "../../../../kernel/iommu_groups/1");
	tu_symlink(d, "sys/kernel/iommu_groups/1/devices/0000:00:03.0",
		   "../../../../devices/pci0000:00/0000:00:03.0");
	ck_assert_int_eq(sb_root_open(&r, d, &e), 0);
	ck_assert_int_eq(sb_vfio_group_others(r, "vfio1", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "");
	sb_root_close(r);
	tu_tree_free(d);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("vfio_group");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, names_the_kernel_drivers);
	tcase_add_test(tc, alone_or_all_vfio);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
