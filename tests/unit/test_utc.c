// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_utc_iso8601() against the C library's gmtime_r() and strftime(), over leap days,
 * century years, the epoch's both sides and a sweep of 400 years. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "socbox/utc.h"
#include "testutil.h"

static void same_as_libc(time_t t)
{
	char got[SB_UTC_LEN], want[SB_UTC_LEN];
	struct tm tm;

	ck_assert_ptr_nonnull(gmtime_r(&t, &tm));
	strftime(want, sizeof(want), "%Y-%m-%dT%H:%M:%SZ", &tm);
	sb_utc_iso8601(t, got, sizeof(got));
	ck_assert_msg(!strcmp(got, want), "%lld: %s, libc %s", (long long)t, got, want);
}

START_TEST(known_dates)
{
	char buf[SB_UTC_LEN];

	sb_utc_iso8601(0, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1970-01-01T00:00:00Z");
	sb_utc_iso8601(951782400, buf, sizeof(buf)); /* 2000 is a leap year */
	ck_assert_str_eq(buf, "2000-02-29T00:00:00Z");
	sb_utc_iso8601(-1, buf, sizeof(buf));
	ck_assert_str_eq(buf, "1969-12-31T23:59:59Z");
	sb_utc_iso8601(4107542399, buf, sizeof(buf)); /* 2100 is not */
	ck_assert_str_eq(buf, "2100-02-28T23:59:59Z");
}
END_TEST

START_TEST(four_hundred_years_as_libc)
{
	/* every 7 hours and 13 minutes from 1900 to 2300: each month day and hour met */
	for (int64_t t = -2208988800LL; t < 10413792000LL; t += 7 * 3600 + 13 * 60 + 7)
		same_as_libc((time_t)t);
	same_as_libc((time_t)INT32_MAX);
	same_as_libc((time_t)INT32_MAX + 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("utc");
	TCase *tc = tcase_create("utc");

	tcase_add_test(tc, known_dates);
	tcase_add_test(tc, four_hundred_years_as_libc);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
