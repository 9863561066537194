// SPDX-License-Identifier: GPL-2.0-or-later
/* The board's object graph (lib/kernel/devgraph.c) over small sysroots made here: device
 * links as sysfs lists them, device-tree nodes with their phandles and references. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/devgraph.h"
#include "testutil.h"

#define DT "sys/firmware/devicetree/base"
#define MU "sys/devices/platform/soc@0/30000000.bus/30aa0000.mailbox"
#define CM7 "sys/devices/platform/imx8mp-cm7"
#define SMMU "sys/devices/platform/30800000.iommu"

/* A big-endian cell, as a device-tree property holds it. */
#define CELL(v) \
	(char)((v) >> 24), (char)((v) >> 16 & 0xff), (char)((v) >> 8 & 0xff), (char)((v)&0xff)

static void device(const char *dir, const char *path, const char *name, const char *node)
{
	char rel[512], target[512];

	snprintf(rel, sizeof(rel), "sys/bus/platform/devices/%s", name);
	/* the bus link is relative, as the kernel makes it */
	snprintf(target, sizeof(target), "../../../%s", path + 4);
	tu_symlink(dir, rel, target);
	snprintf(rel, sizeof(rel), "%s/modalias", path);
	tu_write(dir, rel, "of:N\n", -1);
	if (node) {
		int depth = 0;

		for (const char *p = path; *p; p++)
			depth += *p == '/';
		snprintf(rel, sizeof(rel), "%s/of_node", path);
		target[0] = '\0';
		for (int i = 0; i <= depth; i++)
			strcat(target, "../");
		strcat(target, DT);
		strcat(target, node);
		tu_symlink(dir, rel, target);
	}
}

/* The links drivers/base/core.c devlink_add_symlinks() makes in both devices' directories. */
static void devlink(const char *dir, const char *sup_path, const char *sup, const char *con_path,
		    const char *con)
{
	char rel[512], target[256];

	snprintf(target, sizeof(target), "/sys/devices/virtual/devlink/platform:%s--platform:%s",
		 sup, con);
	snprintf(rel, sizeof(rel), "%s/consumer:platform:%s", sup_path, con);
	tu_symlink(dir, rel, target);
	snprintf(rel, sizeof(rel), "%s/supplier:platform:%s", con_path, sup);
	tu_symlink(dir, rel, target);
}

static struct sb_root *board(char **dir, bool links, bool mboxes)
{
	static const char mu_ph[] = { CELL(0x2a) };
	/* <&mu 0 1>, <&mu 1 1>, <&mu 3 1>: tx, rx, rxdb */
	static const char cm7_mboxes[] = { CELL(0x2a), CELL(0),	   CELL(1), CELL(0x2a), CELL(1),
					   CELL(1),    CELL(0x2a), CELL(3), CELL(1) };
	static const char smmu_ph[] = { CELL(0x07) };
	static const char cm7_iommus[] = { CELL(0x07), CELL(0x2a) }; /* SID 0x2a: not the MU */
	struct sb_root *r;
	struct sb_err e;

	*dir = tu_tree_new();
	tu_write(*dir, DT "/soc@0/bus@30000000/mailbox@30aa0000/phandle", mu_ph, sizeof(mu_ph));
	tu_write(*dir, DT "/soc@0/bus@30000000/mailbox@30aa0000/#mbox-cells", "\0\0\0\2", 4);
	tu_write(*dir, DT "/iommu@30800000/phandle", smmu_ph, sizeof(smmu_ph));
	tu_write(*dir, DT "/iommu@30800000/#iommu-cells", "\0\0\0\1", 4);
	if (mboxes)
		tu_write(*dir, DT "/imx8mp-cm7/mboxes", cm7_mboxes, sizeof(cm7_mboxes));
	tu_write(*dir, DT "/imx8mp-cm7/iommus", cm7_iommus, sizeof(cm7_iommus));
	device(*dir, MU, "30aa0000.mailbox", "/soc@0/bus@30000000/mailbox@30aa0000");
	device(*dir, CM7, "imx8mp-cm7", "/imx8mp-cm7");
	device(*dir, SMMU, "30800000.iommu", "/iommu@30800000");
	device(*dir, "sys/devices/platform/lonely", "lonely", NULL);
	if (links) {
		devlink(*dir, MU, "30aa0000.mailbox", CM7, "imx8mp-cm7");
		devlink(*dir, SMMU, "30800000.iommu", CM7, "imx8mp-cm7");
	}
	ck_assert_int_eq(sb_root_open(&r, *dir, &e), 0);
	return r;
}

START_TEST(mailbox_serves_the_remote_processor)
{
	char *dir;
	struct sb_root *r = board(&dir, true, true);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[4];
	struct sb_err e;

	sb_devgraph_init(&g, r);
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30aa0000.mailbox", out, 4, &e), 1);
	ck_assert_str_eq(out[0].supplier, "30aa0000.mailbox");
	ck_assert_str_eq(out[0].consumer, "imx8mp-cm7");
	ck_assert_str_eq(out[0].via, "mboxes");
	ck_assert_str_eq(sb_devgraph_role(out[0].via), "mailbox");
	/* the other way, and the SMMU whose SID equals the MU's phandle is still the IOMMU */
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "imx8mp-cm7", out, 4, &e), 2);
	for (int i = 0; i < 2; i++)
		if (!strcmp(out[i].supplier, "30800000.iommu"))
			ck_assert_str_eq(out[i].via, "iommus");
		else
			ck_assert_str_eq(out[i].via, "mboxes");
	/* asked again: the same edges, not twice */
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30aa0000.mailbox", out, 4, &e), 1);
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30800000.iommu", out, 4, &e), 1);
	ck_assert_str_eq(out[0].consumer, "imx8mp-cm7");
	ck_assert_str_eq(out[0].via, "iommus");
	ck_assert_uint_eq(g.nedges, 2);
	/* max 0: counted only */
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "imx8mp-cm7", out, 0, &e), 2);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(a_link_the_tree_does_not_explain)
{
	char *dir;
	struct sb_root *r = board(&dir, true, false);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[2];
	struct sb_err e;

	sb_devgraph_init(&g, r);
	/* the CM7's node names the SMMU but not the MU (the SMMU's stream ID 0x2a equals the
	 * MU's phandle, but the MU is no IOMMU): the device link alone ties them */
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30aa0000.mailbox", out, 2, &e), 1);
	ck_assert_str_eq(out[0].via, SB_DEVGRAPH_VIA_LINK);
	ck_assert_str_eq(sb_devgraph_role(out[0].via), "supplier");
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* No device link at all (fw_devlink=off): the device tree's references alone, each phandle
 * followed by as many arguments as its provider's node says */
START_TEST(no_links_the_tree_alone)
{
	char *dir;
	struct sb_root *r = board(&dir, false, true);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[4];
	struct sb_err e;

	sb_devgraph_init(&g, r);
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30aa0000.mailbox", out, 4, &e), 1);
	ck_assert_str_eq(out[0].consumer, "imx8mp-cm7");
	ck_assert_str_eq(out[0].via, "mboxes");
	/* the SMMU through iommus; its argument, stream ID 0x2a, is the MU's phandle but an
	 * argument, so no second edge to the MU through iommus */
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "imx8mp-cm7", out, 4, &e), 2);
	for (int i = 0; i < 2; i++)
		ck_assert_str_eq(out[i].via,
				 strcmp(out[i].supplier, "30800000.iommu") ? "mboxes" : "iommus");
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "lonely", out, 4, &e), 0);
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "not-a-device", out, 4, &e), 0);
	ck_assert_uint_eq(g.nedges, 2);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* A provider whose node gives no count, or an absurd one, ends the property: where its
 * arguments end is unknown. A board without a device tree has no edges. */
START_TEST(no_links_and_a_tree_that_cannot_say)
{
	char *dir;
	struct sb_root *r = board(&dir, false, true);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[4];
	struct sb_err e;

	tu_write(dir, DT "/soc@0/bus@30000000/mailbox@30aa0000/#mbox-cells", "\xff\xff\xff\xff", 4);
	tu_write(dir, DT "/iommu@30800000/#iommu-cells", "\0\0\1", 3);
	sb_devgraph_init(&g, r);
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "imx8mp-cm7", out, 4, &e), 0);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);

	r = board(&dir, false, true);
	{
		char *tree = malloc(strlen(dir) + sizeof("/" DT));

		ck_assert_ptr_nonnull(tree);
		strcat(strcpy(tree, dir), "/" DT);
		tu_tree_free(tree); /* the device tree gone: of_node links lead nowhere */
	}
	sb_devgraph_init(&g, r);
	ck_assert_int_eq(sb_devgraph_consumers(&g, "30aa0000.mailbox", out, 4, &e), 0);
	ck_assert(g.dt_scanned);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

START_TEST(hostile_entries_and_properties)
{
	char *dir;
	struct sb_root *r = board(&dir, false, false);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[4];
	struct sb_err e;
	static const char short_ph[] = { 0, 0, 0x2a }; /* three bytes: no phandle */

	tu_symlink(dir, CM7 "/supplier:platform", "/x");	  /* no name */
	tu_symlink(dir, CM7 "/supplier::30aa0000.mailbox", "/x"); /* no bus */
	tu_symlink(dir, CM7 "/suppliers:platform:x", "/x");	  /* not a link entry */
	tu_symlink(dir, CM7 "/supplier:platform:30aa0000.mailbox", "/x");
	tu_write(dir, DT "/soc@0/bus@30000000/mailbox@30aa0000/phandle", short_ph,
		 sizeof(short_ph));
	sb_devgraph_init(&g, r);
	ck_assert_int_eq(sb_devgraph_suppliers(&g, "imx8mp-cm7", out, 4, &e), 1);
	ck_assert_str_eq(out[0].supplier, "30aa0000.mailbox");
	ck_assert_str_eq(out[0].via, SB_DEVGRAPH_VIA_LINK);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* A reserved-memory node by the name the log gives it: the devices whose memory-region holds
 * its phandle; a name that is no node's, or that would leave the directory, names none. */
START_TEST(reserved_memory_and_its_users)
{
	char *dir;
	struct sb_root *r = board(&dir, true, true);
	struct sb_devgraph g;
	struct sb_devgraph_edge out[1];
	struct sb_err e;
	static const char ph[] = { CELL(0x33) }, other_ph[] = { CELL(0x34) };
	static const char cm7_regions[] = { CELL(0x34), CELL(0x33) };

	tu_write(dir, DT "/reserved-memory/vdevbuffer@55400000/phandle", ph, sizeof(ph));
	tu_write(dir, DT "/reserved-memory/rsc-table@550ff000/phandle", other_ph, sizeof(other_ph));
	tu_write(dir, DT "/reserved-memory/unused@56000000/reg", "\0\0\0\0", 4);
	tu_write(dir, DT "/imx8mp-cm7/memory-region", cm7_regions, sizeof(cm7_regions));
	tu_write(dir, DT "/iommu@30800000/memory-region", ph, sizeof(ph));
	sb_devgraph_init(&g, r);
	/* two devices name it; one edge fits, both are counted */
	ck_assert_int_eq(sb_devgraph_region_users(&g, "vdevbuffer@55400000", out, 1, &e), 2);
	ck_assert_str_eq(out[0].supplier, "vdevbuffer@55400000");
	ck_assert_str_eq(out[0].via, "memory-region");
	ck_assert(!strcmp(out[0].consumer, "imx8mp-cm7") ||
		  !strcmp(out[0].consumer, "30800000.iommu"));
	ck_assert_int_eq(sb_devgraph_region_users(&g, "rsc-table@550ff000", out, 1, &e), 1);
	ck_assert_str_eq(out[0].consumer, "imx8mp-cm7");
	ck_assert_int_eq(sb_devgraph_region_users(&g, "unused@56000000", out, 1, &e), 0);
	ck_assert_int_eq(sb_devgraph_region_users(&g, "absent@1", out, 1, &e), 0);
	ck_assert_int_eq(sb_devgraph_region_users(&g, "../imx8mp-cm7", out, 1, &e), 0);
	ck_assert_int_eq(sb_devgraph_region_users(&g, "..", out, 1, &e), 0);
	ck_assert_int_eq(sb_devgraph_region_users(&g, "", out, 1, &e), 0);
	sb_devgraph_free(&g);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("devgraph");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, mailbox_serves_the_remote_processor);
	tcase_add_test(tc, a_link_the_tree_does_not_explain);
	tcase_add_test(tc, no_links_the_tree_alone);
	tcase_add_test(tc, no_links_and_a_tree_that_cannot_say);
	tcase_add_test(tc, hostile_entries_and_properties);
	tcase_add_test(tc, reserved_memory_and_its_users);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
