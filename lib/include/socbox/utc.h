/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Wall-clock times as socbox prints them: UTC in ISO 8601, "2026-12-05T14:38:00Z". */
#ifndef SOCBOX_UTC_H
#define SOCBOX_UTC_H

#include <stddef.h>
#include <time.h>

#define SB_UTC_LEN 32 /* room for any 64-bit time_t's year */

/* t as "YYYY-MM-DDTHH:MM:SSZ" into buf (SB_UTC_LEN bytes). Computed here, not with gmtime():
 * glibc's goes through its time-zone code (tzset.c, tzfile.c, mktime.c), 10 KiB of the
 * static binary for a conversion that needs no zone. */
void sb_utc_iso8601(time_t t, char *buf, size_t len);

#endif
