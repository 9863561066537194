// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_strtod() (lib/compat/strtod.c) against the C library's strtod(): where it stops and what
 * errno says for every input, every truncation and mutation of the ones socbox reads; the
 * same double wherever socbox/strtod.h promises it, within the last bits elsewhere. */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/strtod.h"
#include "testutil.h"

/* what socbox reads (durations, --since, /proc/uptime, the stress baseline) and the corners */
static const char *const inputs[] = {
	"0.01",
	"1",
	"10s",
	"0.5ms",
	"2h",
	"  -2.5e3x",
	"+.5",
	".",
	"-",
	"+",
	"5.",
	"1e",
	"1e+",
	"1e-2",
	"1E3",
	"12.5e-1s",
	"0x10",
	"0X1p3",
	"0x.8",
	"0x",
	"0xg",
	"0x1.8P-1",
	"0x1p",
	"inf",
	"-Infinity",
	"infinit",
	"INF",
	"nan",
	"NaN(123)",
	"nan(",
	"nan(x y)",
	"-nan",
	"1e400",
	"-1e400",
	"1e-400",
	"123456789012345",
	"0.000001",
	"3.14159265358979",
	"8423.47 33652.12\n",
	"007",
	"00.00",
	"-0",
	"1.7976931348623157e308",
	"4.9e-324",
	"123456789012345678901234567890",
	"0.1234567890123456789",
	"1e-5000",
	"1e5000",
	"\t\n 42",
	"4 2",
	"",
	"1..2",
	"1.2.3",
	"e5",
	"-.e1",
	"0x1p-1074",
	"0x1p1024",
};

static void compare(const char *s, bool exact)
{
	char *ours_end, *libc_end;
	double ours, libc;
	int ours_errno, libc_errno;

	errno = 0;
	libc = strtod(s, &libc_end);
	libc_errno = errno;
	errno = 0;
	ours = sb_strtod(s, &ours_end);
	ours_errno = errno;
	ck_assert_msg(ours_end == libc_end, "\"%s\": ends at %td, the C library at %td", s,
		      ours_end - s, libc_end - s);
	if (isnan(libc)) {
		ck_assert_msg(isnan(ours), "\"%s\": %g, the C library nan", s, ours);
		return;
	}
	if (libc == 0 || isinf(libc) || exact) {
		ck_assert_msg(ours == libc && signbit(ours) == signbit(libc),
			      "\"%s\": %.17g, the C library %.17g", s, ours, libc);
		if (libc == 0 || isinf(libc))
			ck_assert_msg(ours_errno == libc_errno,
				      "\"%s\": errno %d, the C library %d", s, ours_errno,
				      libc_errno);
		return;
	}
	ck_assert_msg(fabs(ours - libc) <= fabs(libc) * 4e-16, "\"%s\": %.17g, the C library %.17g",
		      s, ours, libc);
}

/* Up to 15 significant digits and a decimal exponent within 22 of them: the same double. */
static bool promised(const char *s)
{
	size_t digits = 0;
	const char *p = s + strspn(s, " \t\n\v\f\r+-");

	if (!strncasecmp(p, "0x", 2))
		return strspn(p + 2, "0123456789abcdefABCDEF.") <= 13;
	p += strspn(p, "0.");
	for (; *p && *p != 'e' && *p != 'E'; p++)
		digits += *p >= '0' && *p <= '9';
	return digits <= 15 && (!*p || labs(atol(p + 1)) <= 7);
}

START_TEST(same_as_the_c_library)
{
	for (size_t i = 0; i < ARRAY_SIZE(inputs); i++) {
		char buf[64];
		size_t n = strlen(inputs[i]);

		for (size_t k = 0; k <= n; k++) { /* every truncation */
			snprintf(buf, sizeof(buf), "%.*s", (int)k, inputs[i]);
			compare(buf, promised(buf));
		}
	}
}
END_TEST

/* Thousands of numbers of the kinds socbox reads, and mutations of them. */
START_TEST(random_numbers_and_mutations)
{
	static const char alphabet[] = "0123456789.eE+-xXpPinfa ";
	unsigned seed = 1;

	for (int i = 0; i < 20000; i++) {
		char buf[64];
		long long m = (long long)(rand_r(&seed) % 1000000) * (rand_r(&seed) % 1000000000);
		int places = rand_r(&seed) % 16, exp = rand_r(&seed) % 15 - 7;

		char digits[32];
		int len = snprintf(digits, sizeof(digits), "%lld", m);

		if (places && places < len) /* a fraction: the last places digits */
			snprintf(buf, sizeof(buf), "%.*s.%s", len - places, digits,
				 digits + len - places);
		else
			snprintf(buf, sizeof(buf), "%s", digits);
		if (rand_r(&seed) % 2)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "e%d", exp);
		compare(buf, promised(buf));
		buf[rand_r(&seed) % (strlen(buf) + 1)] =
			alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		compare(buf, promised(buf));
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("strtod");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, same_as_the_c_library);
	tcase_add_test(tc, random_numbers_and_mutations);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
