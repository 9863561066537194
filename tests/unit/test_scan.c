// SPDX-License-Identifier: GPL-2.0-or-later
/* sb_sscanf() (lib/compat/scan.c) against the C library's sscanf(): every format socbox
 * parses with (lib/, cmd/, and glibc's own TZ parsing, which the static build hands to
 * sb_sscanf()), the subset's other corners, each over real lines, every truncation of them
 * and thousands of mutations of them. Same return value, same bytes in every output (the
 * outputs start as the same pattern, so a stray or missing store shows too). */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/scan.h"
#include "testutil.h"

#pragma GCC diagnostic ignored "-Wformat-nonliteral"

struct fmt_case {
	const char *fmt;
	const char *lines[6];
};

static const struct fmt_case cases[] = {
	/* lib/doctor */
	{ ": alloc failed, req-size: %lu pages, ret: %d",
	  { ": alloc failed, req-size: 256 pages, ret: -12", ": alloc failed, req-size: 1 pages",
	    ":  alloc failed,req-size:18446744073709551616 pages, ret: 99999999999" } },
	{ "%63[^: ]: probe of %95s failed with error %d",
	  { "imx-sdma: probe of 30bd0000.dma-controller failed with error -517",
	    "ahci 0000:00:1f.2: probe of 0000:00:1f.2 failed with error -22", ": probe of x" } },
	{ "probe with driver %63s failed with error %d",
	  { "probe with driver mtk-iommu failed with error -110", "probe with driver  x failed" } },
	{ "stalled pool shutdown: id %u, %d inflight %d sec",
	  { "stalled pool shutdown: id 7, 3 inflight 120 sec",
	    "stalled pool shutdown: id -1, +3 inflight" } },
	{ "stalled pool shutdown %d inflight %d sec",
	  { "stalled pool shutdown 12 inflight 60 sec",
	    "stalled pool shutdown  -0 inflight 0x10 sec" } },
	{ "Direct firmware load for %127s failed with error %d",
	  { "Direct firmware load for rproc-m4-fw failed with error -2",
	    "Direct firmware load for imx/sdma/sdma-imx7d.bin failed with error -2" } },
	{ "firmware: failed to load %127s (%d)",
	  { "firmware: failed to load qcom/sm8250/adsp.mbn (-2)",
	    "firmware: failed to load a(b) (-2)" } },
	/* lib/iommu */
	{ "%llx %llx %31s %n",
	  { "0x00000000fee00000 0x00000000feefffff msi\n", "00000000 000fffff direct",
	    "fee00000 feefffff", "0xg 1 reserved" } },
	{ "%4x:%2x:%2x.%1u%n",
	  { "0000:00:1f.2", "10000:00:1f.2", "0000:0:1.23", "ffff:ff:ff.7", "0x00:00:01.0",
	    "0000:00:01." } },
	{ "ias %lu-bit, oas %lu-bit (features 0x%lx)%n",
	  { "ias 48-bit, oas 48-bit (features 0x00001fef)",
	    "ias 44-bit, oas 44-bit (features 0x)" } },
	{ "oas %lu-bit (features 0x%lx)%n", { "oas 40-bit (features 0x0000000f)" } },
	{ "option mask 0x%lx",
	  { "option mask 0x2", "option mask 0xFFFFFFFFFFFFFFFFF", "option mask 0x-1" } },
	/* lib/dmabuf */
	{ "%llx-%llx %7s %llx %x:%x %llu %n",
	  { "7f2a4c000000-7f2a4c400000 rw-s 00000000 00:0f 1043 /dmabuf:system",
	    "ffff8000-ffff9000 r--p 00000000 fd:01 18446744073709551615   [vdso]",
	    "7f2a4c000000-7f2a4c400000 rw-s 00000000 00:0f 1043" } },
	{ "Total %llu objects, %llu bytes",
	  { "Total 12 objects, 49152 bytes", "Total -1 objects" } },
	/* lib/kernel, lib/events, lib/rpmsg */
	{ "%u.%u.%u", { "6.18.44", "7.2.13-1-arm64", "6.1", "v6.1", "6..1", "4294967296.1.1" } },
	{ ": id %u, %d inflight %d sec", { ": id 4, 2 inflight 31 sec", ":id 4,2 inflight" } },
	{ " %d inflight %d sec", { " 2 inflight 31 sec", "2 inflight" } },
	{ "%*s %*s %*s %*s %15s",
	  { "25 30 0:6 / /dev rw,nosuid shared:2 - devtmpfs udev rw",
	    "25 30 0:6 / /dev/very/long/mount/point rw", "25 30 0:6 /" } },
	/* glibc's tzset (time/tzset.c), which the static build sends to sb_sscanf() */
	{ "%hu%n:%hu%n:%hu%n", { "5", "05:30", "1:02:03", "70000:1", "-1:00", "1:" } },
	{ "M%hu.%hu.%hu%n", { "M3.2.0", "M10.5.0/3", "M3.2", "M3..0" } },
	/* the subset's other corners */
	{ "%i %o %X %hhu %c%3c %%%d", { "0x1f 017 aB 300 xyzw %5", "010 8 g", "-0x 1 0X1 256 a" } },
	{ "%[a-z0-9]%[]x]%5[^-]%jd %zu %hd %ld %lld %lln",
	  { "abc9]x]hello-world -9 18446744073709551615 70000 -2 3", "ABC", "z-y]" } },
	{ "%d%n %*d%n%hhn%hn%ln", { "1 2", "1", " " } },
	{ "%s%5s", { "", "   ", "\t\n", "a b c" } },
	{ "x%", { "x", "x%" } },
	{ "%llu",
	  { "99999999999999999999999999999999", "-1",
	    "00000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000123" } },
};

/* Outputs: the same room and pattern for both; an output slot is big enough for any type
 * and any string the formats above can store. */
#define SLOTS 8
#define SLOT 160

static void run(const char *fmt, const char *line)
{
	static unsigned char a[SLOTS][SLOT], b[SLOTS][SLOT];
	int ra, rb;

	memset(a, 0xa5, sizeof(a));
	memset(b, 0xa5, sizeof(b));
	ra = sscanf(line, fmt, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]);
	rb = sb_sscanf(line, fmt, b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]);
	if (ra != rb || memcmp(a, b, sizeof(a))) {
		int slot = 0;

		while (slot < SLOTS && !memcmp(a[slot], b[slot], SLOT))
			slot++;
		ck_abort_msg("format \"%s\", input \"%s\": sscanf %d, sb_sscanf %d, first output that "
			     "differs: %d",
			     fmt, line, ra, rb, slot < SLOTS ? slot : -1);
	}
}

START_TEST(real_lines_and_their_truncations)
{
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		for (size_t j = 0; j < ARRAY_SIZE(cases[i].lines) && cases[i].lines[j]; j++) {
			char line[SLOT];
			size_t len = strlen(cases[i].lines[j]);

			ck_assert_uint_lt(len, sizeof(line));
			for (size_t cut = 0; cut <= len; cut++) {
				memcpy(line, cases[i].lines[j], cut);
				line[cut] = '\0';
				run(cases[i].fmt, line);
			}
		}
}
END_TEST

/* Each line with characters replaced, inserted and removed, from an alphabet of what the
 * formats care about (digits of every base, signs, white space, the literal characters). */
START_TEST(mutations)
{
	static const char alphabet[] = "0123456789abcdefxX-+ \t\n:.,()%[]^-MTzZ\x7f\xc3";
	unsigned long long rnd = 0x2545f4914f6cdd1dull;

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++)
		for (size_t j = 0; j < ARRAY_SIZE(cases[i].lines) && cases[i].lines[j]; j++)
			for (int round = 0; round < 400; round++) {
				char line[SLOT];
				size_t len = strlen(cases[i].lines[j]);

				memcpy(line, cases[i].lines[j], len + 1);
				for (int edits = 1 + round % 3; edits; edits--) {
					size_t at;

					rnd ^= rnd << 13;
					rnd ^= rnd >> 7;
					rnd ^= rnd << 17;
					at = len ? rnd % (len + 1) : 0;
					char c = alphabet[(rnd >> 20) % (sizeof(alphabet) - 1)];

					if ((rnd >> 40) % 3 == 0 && len + 1 < sizeof(line)) {
						memmove(line + at + 1, line + at, len - at + 1);
						line[at] = c;
						len++;
					} else if ((rnd >> 40) % 3 == 1 && at < len) {
						memmove(line + at, line + at + 1, len - at);
						len--;
					} else if (at < len) {
						line[at] = c;
					}
				}
				run(cases[i].fmt, line);
			}
}
END_TEST

START_TEST(values)
{
	unsigned dom, bus, dev, fn;
	unsigned long long start, end;
	char kind[32];
	int used = 0;

	ck_assert_int_eq(sb_sscanf("0000:00:1f.2", "%4x:%2x:%2x.%1u%n", &dom, &bus, &dev, &fn,
				   &used),
			 4);
	ck_assert_uint_eq(bus, 0);
	ck_assert_uint_eq(dev, 0x1f);
	ck_assert_uint_eq(fn, 2);
	ck_assert_int_eq(used, 12);
	ck_assert_int_eq(sb_sscanf("0xfee00000 0xfeefffff msi ", "%llx %llx %31s %n", &start, &end,
				   kind, &used),
			 3);
	ck_assert_uint_eq(start, 0xfee00000ull);
	ck_assert_uint_eq(end, 0xfeefffffull);
	ck_assert_str_eq(kind, "msi");
	ck_assert_int_eq(used, 26);
	ck_assert_int_eq(sb_sscanf("", "%u", &fn), EOF);
	ck_assert_int_eq(sb_sscanf("x", "%u", &fn), 0);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("scan");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, values);
	tcase_add_test(tc, real_lines_and_their_truncations);
	tcase_add_test(tc, mutations);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
