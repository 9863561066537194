// SPDX-License-Identifier: GPL-2.0-or-later
/* The driver's own reason for a generic failure (lib/doctor/doctor_reason.c): the records of
 * the same device before it, by DEVICE= or by dev_printk() prefix, at warning or worse; the
 * class of the reason makes the fix. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "testutil.h"

static const struct doctor_role mu = { "fsl,imx8mp-mu", SB_DOCTOR_RPMSG, "messaging unit (mailbox)",
				       "CONFIG_IMX_MBOX", "imx-mailbox" };

static void board(struct doctor_board *b, const char *log, bool mu_bound)
{
	static struct doctor_pdev pdevs[2];

	memset(b, 0, sizeof(*b));
	memset(pdevs, 0, sizeof(pdevs));
	snprintf(pdevs[0].name, sizeof(pdevs[0].name), "imx8mp-cm7");
	snprintf(pdevs[1].name, sizeof(pdevs[1].name), "30aa0000.mailbox");
	pdevs[1].role = &mu;
	pdevs[1].bound = mu_bound;
	b->pdevs = pdevs;
	b->npdevs = 2;
	ck_assert_int_eq(sb_kmsg_parse(strdup(log), &b->log), 0);
}

START_TEST(quotes_the_same_device_and_classifies)
{
	struct doctor_board b;
	struct doctor_reason r;
	struct sb_cause c = { 0 };

	board(&b,
	      "3,1,10,-;imx-rproc other-cm4: mailbox of another device\n"
	      " DEVICE=+platform:other-cm4\n"
	      "6,2,11,-;imx-rproc imx8mp-cm7: an info record is no reason\n"
	      "3,3,12,-;imx-rproc imx8mp-cm7: mbox_request_channel_byname() could not locate "
	      "channel named \"tx\"\n"
	      " SUBSYSTEM=platform\n"
	      " DEVICE=+platform:imx8mp-cm7\n"
	      "3,4,13,-;some prefix without the device: error -EINVAL: failed to request tx\n"
	      " DEVICE=+platform:imx8mp-cm7\n"
	      "4,5,14,-;imx-rproc: probe of imx8mp-cm7 failed with error -22\n",
	      true);
	doctor_reason_find(&b, 0, 4, "imx8mp-cm7", NULL, &r);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.line[0], 3); /* nearest first; the DEVICE= line names it */
	ck_assert_uint_eq(r.line[1], 2);
	ck_assert_str_eq(r.msg[1], "mbox_request_channel_byname() could not locate channel "
				   "named \"tx\"");
	ck_assert_ptr_nonnull(r.cls);
	ck_assert_str_eq(r.cls->name, "mailbox");
	ck_assert_uint_eq(r.quote, 1);

	snprintf(c.diagnosis, sizeof(c.diagnosis), "imx8mp-cm7: probe failed");
	snprintf(c.evidence, sizeof(c.evidence), "kernel log: %s", b.log.lines[4].text);
	doctor_reason_apply(&c, &b, &r, "imx8mp-cm7");
	ck_assert_str_eq(c.diagnosis, "imx8mp-cm7: probe failed; the driver said "
				      "\"mbox_request_channel_byname() could not locate channel "
				      "named \"tx\"\"");
	ck_assert_str_eq(c.evidence,
			 "kernel log: imx-rproc imx8mp-cm7: mbox_request_channel_byname() could "
			 "not locate channel named \"tx\" | some prefix without the device: "
			 "error -EINVAL: failed to request tx | imx-rproc: probe of imx8mp-cm7 "
			 "failed with error -22");
	ck_assert_str_eq(c.fix, "the mailbox: check the mboxes and mbox-names properties of "
				"imx8mp-cm7's device-tree node (the channels its driver requests); "
				"30aa0000.mailbox has its driver (so the node's channels are what "
				"to check)");
	sb_kmsg_free(&b.log);
}
END_TEST

START_TEST(unclassified_quotes_without_fix_and_none_changes_nothing)
{
	struct doctor_board b;
	struct doctor_reason r;
	struct sb_cause c = { 0 };

	board(&b,
	      "3,1,10,-;k3-m4-rproc 5000000.m4fss: failed to get initial state\n"
	      "3,2,11,-;k3-m4-rproc 5000000.m4fss: probe with driver k3-m4-rproc failed with "
	      "error -5\n",
	      false);
	doctor_reason_find(&b, 0, 1, "5000000.m4fss", NULL, &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_ptr_null(r.cls);
	snprintf(c.fix, sizeof(c.fix), "the catalogue's fix");
	doctor_reason_apply(&c, &b, &r, "5000000.m4fss");
	ck_assert_str_eq(c.diagnosis, "; the driver said \"failed to get initial state\"");
	ck_assert_str_eq(c.fix, "the catalogue's fix");

	/* from the record itself on there is nothing before it */
	doctor_reason_find(&b, 1, 1, "5000000.m4fss", NULL, &r);
	ck_assert_uint_eq(r.n, 0);
	memset(&c, 0, sizeof(c));
	doctor_reason_apply(&c, &b, &r, "5000000.m4fss");
	ck_assert_str_eq(c.diagnosis, "");
	ck_assert_str_eq(c.evidence, "");
	/* an alias (the remote processor of the device) counts as the device */
	doctor_reason_find(&b, 0, 1, "remoteproc0", "5000000.m4fss", &r);
	ck_assert_uint_eq(r.n, 1);
	sb_kmsg_free(&b.log);
}
END_TEST

/* The M7 and its MU as sysfs and the device tree tie them: the device link's entries in
 * both directories, the MU node's phandle in the M7 node's mboxes. */
static struct sb_root *mu_and_m7(char **dir)
{
	static const char ph[] = { 0, 0, 0, 0x2a };
	static const char mboxes[] = { 0, 0, 0, 0x2a, 0, 0, 0, 0, 0, 0, 0, 1 };
	struct sb_root *r;
	struct sb_err e;

	*dir = tu_tree_new();
	tu_write(*dir, "sys/firmware/devicetree/base/mailbox@30aa0000/phandle", ph, sizeof(ph));
	tu_write(*dir, "sys/firmware/devicetree/base/mailbox@30aa0000/#mbox-cells", "\0\0\0\2", 4);
	tu_write(*dir, "sys/firmware/devicetree/base/imx8mp-cm7/mboxes", mboxes, sizeof(mboxes));
	tu_symlink(*dir, "sys/bus/platform/devices/30aa0000.mailbox",
		   "../../../devices/platform/30aa0000.mailbox");
	tu_symlink(*dir, "sys/bus/platform/devices/imx8mp-cm7",
		   "../../../devices/platform/imx8mp-cm7");
	tu_symlink(*dir, "sys/devices/platform/30aa0000.mailbox/of_node",
		   "../../../firmware/devicetree/base/mailbox@30aa0000");
	tu_symlink(*dir, "sys/devices/platform/imx8mp-cm7/of_node",
		   "../../../firmware/devicetree/base/imx8mp-cm7");
	tu_symlink(*dir, "sys/devices/platform/30aa0000.mailbox/consumer:platform:imx8mp-cm7",
		   "../../virtual/devlink/platform:30aa0000.mailbox--platform:imx8mp-cm7");
	tu_symlink(*dir, "sys/devices/platform/imx8mp-cm7/supplier:platform:30aa0000.mailbox",
		   "../../virtual/devlink/platform:30aa0000.mailbox--platform:imx8mp-cm7");
	ck_assert_int_eq(sb_root_open(&r, *dir, &e), 0);
	return r;
}

START_TEST(quotes_what_serves_the_device)
{
	static const char log[] =
		"3,1,10,-;imx_mu 30aa0000.mailbox: Unable to acquire IRQ 62\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:30aa0000.mailbox\n"
		"3,2,11,-;imx-rproc imx8mp-cm7: Unable to startup the chan (-16)\n"
		"3,3,12,-;imx-rproc imx8mp-cm7: error -EBUSY: failed to request tx mailbox "
		"channel\n"
		"4,4,13,-;imx-rproc: probe of imx8mp-cm7 failed with error -16\n";
	struct doctor_board b;
	struct doctor_reason r;
	struct sb_cause c = { 0 };
	char *dir;
	struct sb_root *root = mu_and_m7(&dir);

	board(&b, log, true);
	b.root = root;
	/* without the graph only the M7's own records, the mailbox class its words' */
	doctor_reason_find(&b, 0, 3, "imx8mp-cm7", NULL, &r);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_str_eq(r.cls->name, "mailbox");
	doctor_graph_init(&b);
	doctor_reason_find(&b, 0, 3, "imx8mp-cm7", NULL, &r);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.line[2], 0);
	ck_assert_str_eq(r.via[2], "mailbox 30aa0000.mailbox");
	ck_assert_str_eq(r.by[2], "30aa0000.mailbox");
	ck_assert_str_eq(r.via[0], "");
	ck_assert_str_eq(r.cls->name, "interrupt"); /* the earliest classified: the MU's */
	ck_assert_uint_eq(r.quote, 2);
	snprintf(c.diagnosis, sizeof(c.diagnosis), "imx8mp-cm7: probe failed");
	doctor_reason_apply(&c, &b, &r, "imx8mp-cm7");
	ck_assert_str_eq(c.diagnosis, "imx8mp-cm7: probe failed; via mailbox 30aa0000.mailbox: "
				      "\"Unable to acquire IRQ 62\"");
	ck_assert_str_eq(c.fix, "an interrupt: check the interrupts of 30aa0000.mailbox's "
				"device-tree node");
	/* a device that serves nothing it is asked about adds nothing */
	doctor_reason_find(&b, 0, 1, "30aa0000.mailbox", NULL, &r);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.via[0], "");
	doctor_graph_free(&b);
	sb_kmsg_free(&b.log);
	sb_root_close(root);
	tu_tree_free(dir);
}
END_TEST

/* A reserved-memory node's record, printed without a device, is the reason of the device
 * whose memory-region names the node, and of no other; the fix stays the device's. */
START_TEST(quotes_the_reserved_memory_the_device_uses)
{
	static const char log[] =
		"3,1,0,-;OF: reserved mem: failed to allocate memory for node "
		"'vdevbuffer': size 1 MiB\n"
		"3,2,0,-;OF: reserved mem: failed to allocate memory for node 'other': size 1 MiB\n"
		"3,3,0,-;OF: reserved mem: failed to allocate memory for node '../imx8mp-cm7': "
		"size 1 MiB\n"
		"3,4,10,-;imx-rproc imx8mp-cm7: unable to acquire memory-region\n"
		"4,5,13,-;imx-rproc: probe of imx8mp-cm7 failed with error -22\n";
	static const char ph[] = { 0, 0, 0, 0x33 }, other[] = { 0, 0, 0, 0x34 };
	struct doctor_board b;
	struct doctor_reason r;
	struct sb_cause c = { 0 };
	char *dir, node[64];
	struct sb_root *root = mu_and_m7(&dir);

	tu_write(dir, "sys/firmware/devicetree/base/reserved-memory/vdevbuffer/phandle", ph,
		 sizeof(ph));
	tu_write(dir, "sys/firmware/devicetree/base/reserved-memory/other/phandle", other,
		 sizeof(other));
	tu_write(dir, "sys/firmware/devicetree/base/imx8mp-cm7/memory-region", ph, sizeof(ph));
	tu_write(dir, "sys/firmware/devicetree/base/mailbox@30aa0000/memory-region", other,
		 sizeof(other));
	board(&b, log, true);
	b.root = root;
	doctor_graph_init(&b);
	doctor_reason_find(&b, 0, 4, "imx8mp-cm7", NULL, &r);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_uint_eq(r.line[1], 0);
	ck_assert_str_eq(r.via[1], "reserved memory vdevbuffer");
	ck_assert_str_eq(r.by[1], "imx8mp-cm7");
	ck_assert_str_eq(r.cls->name, "reserved memory");
	ck_assert_uint_eq(r.quote, 1);
	snprintf(c.diagnosis, sizeof(c.diagnosis), "imx8mp-cm7: probe failed");
	doctor_reason_apply(&c, &b, &r, "imx8mp-cm7");
	ck_assert_str_eq(c.diagnosis,
			 "imx8mp-cm7: probe failed; via reserved memory vdevbuffer: \"OF: reserved "
			 "mem: failed to allocate memory for node 'vdevbuffer': size 1 MiB\"");
	ck_assert_str_eq(c.via, "reserved memory vdevbuffer");
	ck_assert_ptr_nonnull(strstr(c.fix, "memory-region property of imx8mp-cm7's"));
	/* the names a record may give */
	ck_assert(doctor_region_of("OF: fdt: Reserved memory: failed to reserve memory for node "
				   "'m7@80000000': base 0x0000000080000000, size 16 MiB",
				   node, sizeof(node)));
	ck_assert_str_eq(node, "m7@80000000");
	ck_assert(!doctor_region_of("OF: reserved mem: node '..'", node, sizeof(node)));
	ck_assert(!doctor_region_of("OF: reserved mem: node ''", node, sizeof(node)));
	ck_assert(!doctor_region_of("OF: reserved mem: node 'x", node, sizeof(node)));
	ck_assert(!doctor_region_of("cma: node 'x'", node, sizeof(node)));
	doctor_graph_free(&b);
	sb_kmsg_free(&b.log);
	sb_root_close(root);
	tu_tree_free(dir);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_reason");
	TCase *tc = tcase_create("reason");

	tcase_add_test(tc, quotes_the_same_device_and_classifies);
	tcase_add_test(tc, unclassified_quotes_without_fix_and_none_changes_nothing);
	tcase_add_test(tc, quotes_what_serves_the_device);
	tcase_add_test(tc, quotes_the_reserved_memory_the_device_uses);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
