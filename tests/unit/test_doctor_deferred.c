// SPDX-License-Identifier: GPL-2.0-or-later
/* Deferred probe from the kernel log alone (lib/doctor/doctor_board.c, cause_probe.c): on a
 * board without debugfs the records drivers/base/dd.c deferred_probe_timeout_work_func()
 * prints for each device still waiting, 6.1's without a reason and 7.2's with it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "testutil.h"

static const struct sb_cause *cause(const struct sb_doctor_report *rep, const char *code,
				    const char *object)
{
	for (size_t i = 0; i < rep->ncauses; i++)
		if (!strcmp(rep->causes[i].def->code, code) &&
		    !strcmp(rep->causes[i].object, object))
			return &rep->causes[i];
	return NULL;
}

/* An AM62x-like board: the M4F platform device, the log given, debugfs when asked. */
static void run(const char *log, const char *debugfs, bool m4_bound, struct sb_doctor_report *rep)
{
	struct sb_doctor_opts opts = { 0 };
	struct sb_root *r;
	struct sb_err e;
	char *dir = tu_tree_new();

	tu_write(dir, "proc/version", "Linux version 7.2.13\n", -1);
	tu_write(dir, "dev/kmsg", log, -1);
	tu_write(dir, "sys/devices/platform/bus@f0000/5000000.m4fss/modalias",
		 "of:Nm4fssT(null)Cti,am64-m4fss\n", -1);
	tu_symlink(dir, "sys/bus/platform/devices/5000000.m4fss",
		   "../../../devices/platform/bus@f0000/5000000.m4fss");
	if (m4_bound)
		tu_symlink(dir, "sys/devices/platform/bus@f0000/5000000.m4fss/driver",
			   "../../../../bus/platform/drivers/k3-m4-rproc");
	if (debugfs)
		tu_write(dir, "sys/kernel/debug/devices_deferred", debugfs, -1);
	ck_assert_int_eq(sb_root_open(&r, dir, &e), 0);
	sb_doctor_run(r, &opts, rep);
	sb_root_close(r);
	tu_tree_free(dir);
}

START_TEST(deferred_from_the_log)
{
	static const char log72[] =
		"4,90,10563190,-;platform 5000000.m4fss: deferred probe pending: platform: wait "
		"for supplier /bus@f0000/mailbox@29000000\n"
		" SUBSYSTEM=platform\n"
		" DEVICE=+platform:5000000.m4fss\n";
	struct sb_doctor_report rep;
	const struct sb_cause *c;

	run(log72, NULL, false, &rep);
	c = cause(&rep, "probe.deferred", "5000000.m4fss");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->diagnosis, "5000000.m4fss (M4F remote processor) waits in deferred "
				       "probe: wait for supplier /bus@f0000/mailbox@29000000");
	ck_assert_str_eq(c->evidence, "kernel log: platform 5000000.m4fss: deferred probe "
				      "pending: platform: wait for supplier "
				      "/bus@f0000/mailbox@29000000");
	sb_doctor_report_free(&rep);

	/* 6.1: an info record without a reason; 7.2 without one says "(reason unknown)" */
	run("6,90,10563190,-;platform 5000000.m4fss: deferred probe pending\n", NULL, false, &rep);
	c = cause(&rep, "probe.deferred", "5000000.m4fss");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_nonnull(strstr(c->diagnosis, "waits in deferred probe: no reason given"));
	sb_doctor_report_free(&rep);
	run("4,90,1,-;platform 5000000.m4fss: deferred probe pending: (reason unknown)\n", NULL,
	    false, &rep);
	c = cause(&rep, "probe.deferred", "5000000.m4fss");
	ck_assert_ptr_nonnull(strstr(c->diagnosis, "no reason given"));
	sb_doctor_report_free(&rep);

	/* bound since the timeout ran: it came up, nothing to say */
	run(log72, NULL, true, &rep);
	ck_assert_ptr_null(cause(&rep, "probe.deferred", "5000000.m4fss"));
	sb_doctor_report_free(&rep);

	/* debugfs, when there, is what is read: the log's record is not */
	run(log72, "", false, &rep);
	ck_assert_ptr_null(cause(&rep, "probe.deferred", "5000000.m4fss"));
	sb_doctor_report_free(&rep);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_deferred");
	TCase *tc = tcase_create("log");

	tcase_add_test(tc, deferred_from_the_log);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
