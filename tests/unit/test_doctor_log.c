// SPDX-License-Identifier: GPL-2.0-or-later
/* No silent ok (lib/doctor/cause_log.c): each record at err or worse is tied to an object
 * and a subsystem; what another cause explains, what a later record answered, warnings,
 * known harmless records and records of no subsystem socbox covers raise nothing; the rest
 * is one log.errors cause per subsystem. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "socbox/limits.h"
#include "testutil.h"

static void board(struct doctor_board *b, struct sb_doctor_report *rep, const char *log)
{
	static struct sb_rproc procs[1];

	memset(b, 0, sizeof(*b));
	memset(rep, 0, sizeof(*rep));
	memset(procs, 0, sizeof(procs));
	snprintf(procs[0].id, sizeof(procs[0].id), "remoteproc0");
	snprintf(procs[0].name, sizeof(procs[0].name), "5000000.m4fss");
	snprintf(procs[0].device, sizeof(procs[0].device), "5000000.m4fss");
	b->procs = procs;
	b->nprocs = 1;
	b->rep = rep;
	doctor_log_load_text(b, log);
}

static void done(struct doctor_board *b, struct sb_doctor_report *rep)
{
	sb_kmsg_free(&b->log);
	free(b->log_count);
	free(b->log_first);
	free(b->evgroups);
	sb_doctor_report_free(rep);
}

START_TEST(unexplained_errors_are_a_cause_per_subsystem)
{
	struct doctor_board b;
	struct sb_doctor_report rep;

	board(&b, &rep,
	      "3,1,0,-;cma: Failed to reserve 512 MiB\n"
	      "3,2,5,-;DMAR: DRHD: handling fault status reg 2\n"
	      "3,3,6,-;mmcblk0: error -110 transferring data\n"
	      "4,4,7,-;iommu: Failed to allocate default IOMMU domain of type 4 for group "
	      "(null) - Falling back to IOMMU_DOMAIN_DMA\n"
	      "3,5,8,-;rpmsg_chrdev virtio0.rpmsg_chrdev.-1.14: timeout waiting for a tx "
	      "buffer\n"
	      " SUBSYSTEM=rpmsg\n"
	      " DEVICE=+rpmsg:virtio0.rpmsg_chrdev.-1.14\n"
	      "3,6,9,-;remoteproc remoteproc0: crash detected in 5000000.m4fss: type watchdog\n"
	      "6,7,10,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up\n");
	doctor_causes_log(&b);
	ck_assert_uint_eq(rep.ncauses, 2); /* in the order of the subsystems */
	ck_assert_str_eq(rep.causes[1].def->code, "log.errors");
	ck_assert_str_eq(rep.causes[1].object, "cma");
	ck_assert_int_eq(rep.causes[1].sub, SB_DOCTOR_DMABUF);
	ck_assert_str_eq(rep.causes[1].diagnosis,
			 "cma: 1 kernel error no other cause explains, first \"cma: Failed to "
			 "reserve 512 MiB\"");
	ck_assert_str_eq(rep.causes[1].evidence,
			 "kernel log: cma: Failed to reserve 512 MiB (mm/cma.c, "
			 "cma_declare_contiguous_nid(), pr_err \"Failed to reserve %ld MiB\")");
	ck_assert_str_eq(rep.causes[0].object, "virtio0.rpmsg_chrdev.-1.14");
	ck_assert_int_eq(rep.causes[0].sub, SB_DOCTOR_RPMSG);
	ck_assert_ptr_nonnull(strstr(rep.causes[0].diagnosis, "first \"timeout waiting for a "
							      "tx buffer\""));
	ck_assert_ptr_nonnull(strstr(rep.causes[0].fix, "stopped returning tx buffers"));
	ck_assert_int_eq(rep.subs[SB_DOCTOR_IOMMU].nfacts, 0);
	done(&b, &rep);
}
END_TEST

START_TEST(what_a_cause_names_or_quotes_is_explained)
{
	struct doctor_board b;
	struct sb_doctor_report rep;
	struct sb_cause *c;

	board(&b, &rep,
	      "3,1,0,-;k3-m4-rproc 5000000.m4fss: error -EBUSY: mbox_request_channel failed\n"
	      " DEVICE=+platform:5000000.m4fss\n"
	      "3,2,1,-;remoteproc remoteproc0: request_firmware failed: -2\n"
	      "3,3,2,-;arm-smmu-v3 arm-smmu-v3.0.auto: event 0x10 received:\n");
	c = doctor_cause(&b, "probe.failed", SB_DOCTOR_RPMSG, "5000000.m4fss");
	ck_assert_ptr_nonnull(c);
	c = doctor_cause(&b, "iommu.faults", SB_DOCTOR_IOMMU, "0000:00:03.0");
	ck_assert_ptr_nonnull(c);
	cause_evidence(c, "kernel log of arm-smmu-v3.0.auto: F_TRANSLATION fault");
	doctor_causes_log(&b);
	/* the device's probe failure names it, remoteproc0 is its remote processor, the SMMU's
	 * records are what the fault cause quotes */
	ck_assert_uint_eq(rep.ncauses, 2);
	done(&b, &rep);
}
END_TEST

/* A mailbox that serves one remote processor, as sysfs and the device tree tie them (the
 * device link's entries; the M4F node's mboxes hold the cluster's phandle). */
static struct sb_root *mailbox_and_m4(char **dir)
{
	static const char ph[] = { 0, 0, 0, 0x11 };
	static const char mboxes[] = { 0, 0, 0, 0x11, 0, 0, 0, 0x12 }; /* <&cluster0 &mbox_m4_0> */
	struct sb_root *r;
	struct sb_err e;

	*dir = tu_tree_new();
	tu_write(*dir, "sys/firmware/devicetree/base/mailbox@29000000/phandle", ph, sizeof(ph));
	tu_write(*dir, "sys/firmware/devicetree/base/mailbox@29000000/#mbox-cells", "\0\0\0\1", 4);
	tu_write(*dir, "sys/firmware/devicetree/base/m4fss@5000000/mboxes", mboxes, sizeof(mboxes));
	tu_symlink(*dir, "sys/bus/platform/devices/29000000.mailbox",
		   "../../../devices/platform/29000000.mailbox");
	tu_symlink(*dir, "sys/bus/platform/devices/5000000.m4fss",
		   "../../../devices/platform/5000000.m4fss");
	tu_symlink(*dir, "sys/devices/platform/29000000.mailbox/of_node",
		   "../../../firmware/devicetree/base/mailbox@29000000");
	tu_symlink(*dir, "sys/devices/platform/5000000.m4fss/of_node",
		   "../../../firmware/devicetree/base/m4fss@5000000");
	tu_symlink(*dir, "sys/devices/platform/29000000.mailbox/consumer:platform:5000000.m4fss",
		   "../../virtual/devlink/platform:29000000.mailbox--platform:5000000.m4fss");
	tu_symlink(*dir, "sys/devices/platform/5000000.m4fss/supplier:platform:29000000.mailbox",
		   "../../virtual/devlink/platform:29000000.mailbox--platform:5000000.m4fss");
	ck_assert_int_eq(sb_root_open(&r, *dir, &e), 0);
	return r;
}

START_TEST(a_record_of_what_serves_an_object_is_the_objects)
{
	static const char mbox_err[] =
		"3,1,0,-;omap-mailbox 29000000.mailbox: fifo 1 has unexpected unread messages\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:29000000.mailbox\n";
	struct doctor_board b;
	struct sb_doctor_report rep;
	static struct doctor_pdev mbox = { .name = "29000000.mailbox", .bound = true };
	char *dir, log[512];
	struct sb_root *r = mailbox_and_m4(&dir);

	/* without the graph the mailbox is the object */
	board(&b, &rep, mbox_err);
	doctor_causes_log(&b);
	ck_assert_uint_eq(rep.ncauses, 1);
	ck_assert_str_eq(rep.causes[0].object, "29000000.mailbox");
	done(&b, &rep);

	board(&b, &rep, mbox_err);
	b.root = r;
	b.pdevs = &mbox;
	b.npdevs = 1;
	doctor_graph_init(&b);
	doctor_causes_log(&b);
	ck_assert_uint_eq(rep.ncauses, 1);
	ck_assert_str_eq(rep.causes[0].object, "5000000.m4fss");
	ck_assert_int_eq(rep.causes[0].sub, SB_DOCTOR_RPMSG);
	ck_assert_str_eq(rep.causes[0].diagnosis,
			 "5000000.m4fss (via mailbox 29000000.mailbox): 1 kernel error no other "
			 "cause explains, first \"fifo 1 has unexpected unread messages\"");
	doctor_graph_free(&b);
	done(&b, &rep);

	/* the remote processor up again after it: answered, as its own records are */
	snprintf(log, sizeof(log), "%s%s", mbox_err,
		 "6,2,1,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up\n"
		 " SUBSYSTEM=remoteproc\n"
		 " DEVICE=+remoteproc:remoteproc0\n");
	board(&b, &rep, log);
	b.root = r;
	b.pdevs = &mbox;
	b.npdevs = 1;
	doctor_graph_init(&b);
	doctor_causes_log(&b);
	ck_assert_uint_eq(rep.ncauses, 0);
	doctor_graph_free(&b);
	done(&b, &rep);
	sb_root_close(r);
	tu_tree_free(dir);
}
END_TEST

/* The log kept by doctor (doctor_log.c) is bounded however long the log is: distinct
 * records once, where they came last, with their count and first place; informational
 * records only when a detector reads them; past SB_DOCTOR_LOG_KEEP the one that came last
 * longest ago goes. IOMMU events are grouped with their count. */
START_TEST(the_kept_log_is_bounded)
{
	struct doctor_board b;
	struct sb_doctor_report rep;
	size_t len = 0, cap = 4u << 20;
	char *log = malloc(cap);
	int seq = 0;

	for (int r = 0; r < 3; r++) {
		len += (size_t)sprintf(log + len, "3,%d,1,-;cma: Failed to reserve 512 MiB\n",
				       seq++);
		len += (size_t)sprintf(log + len, "6,%d,1,-;info nobody reads %d\n", seq++, r);
		len += (size_t)
			sprintf(log + len,
				"6,%d,1,-;remoteproc remoteproc0: powering up 5000000.m4fss\n",
				seq++);
		len += (size_t)sprintf(log + len, "3,%d,1,-;x y: z\n", seq++);
	}
	board(&b, &rep, log);
	ck_assert_uint_eq(b.log.n, 3);
	ck_assert_str_eq(b.log.lines[0].text, "cma: Failed to reserve 512 MiB");
	ck_assert_uint_eq(b.log_count[0], 3);
	ck_assert_uint_eq(b.log_first[0], 0);
	ck_assert_str_eq(b.log.lines[1].text, "remoteproc remoteproc0: powering up 5000000.m4fss");
	ck_assert_uint_eq(b.log_first[1], 2);
	ck_assert_str_eq(b.log.lines[2].text, "x y: z");
	ck_assert_uint_eq(b.log.lines[2].seq, 11); /* where it came last */
	done(&b, &rep);

	len = 0;
	for (unsigned i = 0; i < SB_DOCTOR_LOG_KEEP + 100; i++)
		len += (size_t)sprintf(log + len, "4,%u,1,-;distinct warning %u\n", i, i);
	for (int i = 0; i < 5; i++)
		len += (size_t)
			sprintf(log + len,
				"3,%d,2,-;arm-smmu-v3 arm-smmu-v3.0.auto: event: F_TRANSLATION "
				"client: 0000:00:03.0 sid: 0x18 ssid: 0x0 iova: 0x%x ipa: 0x0\n",
				90000 + i, 0x1000 * i);
	board(&b, &rep, log);
	ck_assert_uint_eq(b.log.n, SB_DOCTOR_LOG_KEEP);
	ck_assert_uint_eq(b.log_dropped, 100 + 5);
	ck_assert_str_eq(b.log.lines[0].text, "distinct warning 105");
	ck_assert_uint_eq(b.nevgroups, 1);
	ck_assert_uint_eq(b.evgroups[0].count, 5);
	ck_assert_str_eq(b.evgroups[0].ev.kind, "F_TRANSLATION");
	ck_assert_uint_eq(b.evgroups[0].ev.addr, 0);
	done(&b, &rep);
	free(log);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, unexplained_errors_are_a_cause_per_subsystem);
	tcase_add_test(tc, what_a_cause_names_or_quotes_is_explained);
	tcase_add_test(tc, a_record_of_what_serves_an_object_is_the_objects);
	tcase_add_test(tc, the_kept_log_is_bounded);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
