// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's fact list: as many facts as a probe finds (it used to abort() past 16, and the
 * IOMMU probe already produced 15). */
#include <stdio.h>
#include <stdlib.h>

#include "../../lib/doctor/doctor_probe.h"
#include "socbox/doctor.h"
#include "testutil.h"

START_TEST(facts_grow_as_needed)
{
	struct sb_doctor_report rep = { 0 };
	struct sb_doctor_sub *s = &rep.subs[SB_DOCTOR_IOMMU];
	char key[32];

	for (int i = 0; i < 100; i++) {
		snprintf(key, sizeof(key), "fact_%d", i);
		doctor_num(s, key, i, false);
	}
	doctor_str(s, "last", "text", true);
	ck_assert_int_eq(s->nfacts, 101);
	ck_assert_str_eq(s->facts[42].key, "fact_42");
	ck_assert_int_eq(s->facts[99].num, 99);
	ck_assert_str_eq(s->facts[100].str, "text");
	ck_assert(s->facts[100].live);
	sb_doctor_report_free(&rep);
	ck_assert_ptr_null(rep.subs[SB_DOCTOR_IOMMU].facts);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("doctor");
	TCase *tc = tcase_create("facts");

	tcase_add_test(tc, facts_grow_as_needed);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
