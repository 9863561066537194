// SPDX-License-Identifier: GPL-2.0-or-later
/* UTC dates from seconds since the epoch, by the proleptic Gregorian calendar's arithmetic:
 * days are counted from 0000-03-01, so that the leap day ends each year and the 400-year
 * cycle (146097 days) repeats exactly. */
#include <inttypes.h>
#include <stdio.h>

#include "socbox/utc.h"

#define DAY 86400
#define ERA_DAYS 146097	   /* 400 years */
#define EPOCH_SHIFT 719468 /* days from 0000-03-01 to 1970-01-01 */

void sb_utc_iso8601(time_t t, char *buf, size_t len)
{
	int64_t s = (int64_t)t, days = s / DAY, rem = s % DAY;
	int64_t era, doe, yoe, doy, mp, year;
	int month, mday;

	if (rem < 0) { /* division truncates toward zero: before 1970 a day starts earlier */
		rem += DAY;
		days--;
	}
	days += EPOCH_SHIFT;
	era = (days >= 0 ? days : days - (ERA_DAYS - 1)) / ERA_DAYS;
	doe = days - era * ERA_DAYS;				     /* 0..146096 */
	yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365; /* 0..399 */
	doy = doe - (365 * yoe + yoe / 4 - yoe / 100);		     /* 0..365, from March */
	mp = (5 * doy + 2) / 153;				     /* 0..11, March is 0 */
	mday = (int)(doy - (153 * mp + 2) / 5 + 1);
	month = (int)(mp < 10 ? mp + 3 : mp - 9);
	year = yoe + era * 400 + (month <= 2);
	snprintf(buf, len, "%04" PRId64 "-%02d-%02dT%02d:%02d:%02dZ", year, month, mday,
		 (int)(rem / 3600), (int)(rem / 60 % 60), (int)(rem % 60));
}
