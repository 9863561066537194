// SPDX-License-Identifier: GPL-2.0-or-later
/* Chains of causes (lib/doctor/doctor_chain.c): a cause that follows from another comes
 * right after it, root first, wherever the best-ranked cause of the chain was; a link to a
 * cause doctor did not name is none, and a cycle is cut. */
#include <stdlib.h>
#include <string.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "testutil.h"

static void add(struct sb_doctor_report *rep, const char *code, const char *object)
{
	struct sb_cause *c;

	rep->causes = realloc(rep->causes, (rep->ncauses + 1) * sizeof(*rep->causes));
	ck_assert_ptr_nonnull(rep->causes);
	c = &rep->causes[rep->ncauses++];
	memset(c, 0, sizeof(*c));
	c->def = sb_cause_find(code);
	ck_assert_ptr_nonnull(c->def);
	snprintf(c->object, sizeof(c->object), "%s", object);
}

START_TEST(chains_root_first)
{
	struct sb_doctor_report rep;

	memset(&rep, 0, sizeof(rep));
	add(&rep, "probe.deferred", "5000000.m4fss");	    /* follows the mailbox's cause */
	add(&rep, "dmabuf.no-heap", "dma_heap");	    /* a cause of its own */
	add(&rep, "rpmsg.firmware-missing", "remoteproc0"); /* follows the crash */
	add(&rep, "probe.no-driver", "29000000.mailbox");
	add(&rep, "rpmsg.crashed", "remoteproc0");
	add(&rep, "rpmsg.no-bus", "rpmsg"); /* follows a cause nobody named */
	add(&rep, "iommu.faults", "a");	    /* a cycle */
	add(&rep, "iommu.faults", "b");
	doctor_cause_follows(&rep.causes[0], NULL, "29000000.mailbox");
	doctor_cause_follows(&rep.causes[2], "rpmsg.crashed", "remoteproc0");
	doctor_cause_follows(&rep.causes[5], NULL, "nothing");
	doctor_cause_follows(&rep.causes[6], NULL, "b");
	doctor_cause_follows(&rep.causes[7], NULL, "a");
	doctor_causes_chain(&rep);
	ck_assert_uint_eq(rep.ncauses, 8);
	ck_assert_str_eq(rep.causes[0].def->code, "probe.no-driver");
	ck_assert_uint_eq(rep.causes[0].depth, 0);
	ck_assert_str_eq(rep.causes[0].follows, "");
	ck_assert_str_eq(rep.causes[1].def->code, "probe.deferred");
	ck_assert_uint_eq(rep.causes[1].depth, 1);
	ck_assert_str_eq(rep.causes[1].follows, "probe.no-driver 29000000.mailbox");
	ck_assert_str_eq(rep.causes[2].def->code, "dmabuf.no-heap");
	ck_assert_str_eq(rep.causes[3].def->code, "rpmsg.crashed");
	ck_assert_str_eq(rep.causes[4].def->code, "rpmsg.firmware-missing");
	ck_assert_str_eq(rep.causes[4].follows, "rpmsg.crashed remoteproc0");
	ck_assert_str_eq(rep.causes[5].def->code, "rpmsg.no-bus");
	ck_assert_str_eq(rep.causes[5].follows, "");
	ck_assert_uint_eq(rep.causes[5].depth, 0);
	/* a cycle: cut at the first of it, which then leads */
	ck_assert_str_eq(rep.causes[6].object, "a");
	ck_assert_str_eq(rep.causes[6].follows, "");
	ck_assert_str_eq(rep.causes[7].object, "b");
	ck_assert_str_eq(rep.causes[7].follows, "iommu.faults a");
	free(rep.causes);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor_chain");
	TCase *tc = tcase_create("chain");

	tcase_add_test(tc, chains_root_first);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
