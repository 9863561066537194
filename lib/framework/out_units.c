// SPDX-License-Identifier: GPL-2.0-or-later
/* Numbers for a person in the text modes: bytes with a binary suffix as lsblk prints them,
 * ratios as percentages, rates with "/s". JSON and metrics never come here: they keep the
 * base units their keys name. */
#define _GNU_SOURCE
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "out_model.h"

void sb_out_human_bytes(char *buf, size_t len, double bytes)
{
	static const char suffix[] = "BKMGTPE";
	size_t u = 0;
	double x = bytes < 0 ? 0 : bytes;

	while (u + 1 < sizeof(suffix) - 1 && x >= 1024) {
		x /= 1024;
		u++;
	}
	/* one decimal, dropped when it is 0; 1023.96K is 1024.0K after rounding: say 1M */
	x = round(x * 10) / 10;
	if (u && x >= 1024 && u + 1 < sizeof(suffix) - 1) {
		x /= 1024;
		u++;
	}
	if (u == 0 || x == floor(x))
		snprintf(buf, len, "%.0f%c", x, suffix[u]);
	else
		snprintf(buf, len, "%.1f%c", x, suffix[u]);
}

enum sb_out_units sb_out_text_units(const struct sb_out *o)
{
	return o->opts.bytes ? SB_UNITS_EXACT_BYTES : SB_UNITS_HUMAN;
}

const char *sb_out_text_name(const char *name, unsigned flags, enum sb_out_units units, char *buf,
			     size_t len)
{
	static const char suffix[] = "_bytes";
	size_t n = strlen(name), k = sizeof(suffix) - 1;

	if (!(flags & SB_COL_BYTES) || units != SB_UNITS_HUMAN || n <= k || n - k >= len ||
	    strcasecmp(name + n - k, suffix))
		return name;
	memcpy(buf, name, n - k);
	buf[n - k] = '\0';
	return buf;
}

/* base: the cell's number as printed without units (malloc'ed, consumed). */
char *sb_out_with_units(char *base, double v, const struct sb_col *col, enum sb_out_units units)
{
	char num[32], *s = NULL;

	if (!base || units == SB_UNITS_BASE ||
	    !(col->flags & (SB_COL_BYTES | SB_COL_PERCENT | SB_COL_PER_S)) || !strcmp(base, "-"))
		return base;
	if ((col->flags & SB_COL_BYTES) && units == SB_UNITS_HUMAN)
		sb_out_human_bytes(num, sizeof(num), v);
	else if (col->flags & SB_COL_PERCENT)
		snprintf(num, sizeof(num), "%.1f%%", v * 100);
	else if ((col->flags & SB_COL_BYTES) && strchr(base, '.'))
		snprintf(num, sizeof(num), "%.0f", v); /* exact bytes are whole */
	else
		snprintf(num, sizeof(num), "%s", base);
	if (asprintf(&s, "%s%s", num, (col->flags & SB_COL_PER_S) ? "/s" : "") < 0)
		s = NULL;
	free(base);
	return s;
}
