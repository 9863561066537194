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
	ck_assert_int_eq(sb_kmsg_parse(strdup(log), &b->log), 0);
}

static void done(struct doctor_board *b, struct sb_doctor_report *rep)
{
	sb_kmsg_free(&b->log);
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

int main(void)
{
	Suite *s = suite_create("doctor_log");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, unexplained_errors_are_a_cause_per_subsystem);
	tcase_add_test(tc, what_a_cause_names_or_quotes_is_explained);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
