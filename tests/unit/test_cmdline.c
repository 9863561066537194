// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel command line, parsed as the kernel does. */
#include <string.h>

#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "testutil.h"

START_TEST(last_occurrence_wins)
{
	char v[32];

	/* doctor used to take the first, smmustat the last: they disagreed */
	ck_assert(sb_cmdline_param("ro iommu.strict=0 quiet iommu.strict=1\n", "iommu.strict", v,
				   sizeof(v)));
	ck_assert_str_eq(v, "1");
	ck_assert(
		!sb_cmdline_param("iommu.strictx=1 xiommu.strict=1", "iommu.strict", v, sizeof(v)));
}
END_TEST

START_TEST(quotes_bare_words_and_options)
{
	char v[32];

	ck_assert(sb_cmdline_param("a=1 dyndbg=\"file x.c +p\" b=2", "dyndbg", v, sizeof(v)));
	ck_assert_str_eq(v, "file x.c +p");
	ck_assert(sb_cmdline_param("a=1 dyndbg=\"file x.c +p\" b=2", "b", v, sizeof(v)));
	ck_assert_str_eq(v, "2");
	ck_assert(!sb_cmdline_param("dyndbg=\"b=3\"", "b", v, sizeof(v)));
	ck_assert(sb_cmdline_param("ro quiet", "quiet", v, sizeof(v)));
	ck_assert_str_eq(v, "");
	ck_assert(sb_cmdline_param("x=0123456789012345678901234567890123456789", "x", v, 8));
	ck_assert_str_eq(v, "0123456");
	ck_assert(sb_cmdline_has_option("on,strict,sm_on", "strict"));
	ck_assert(!sb_cmdline_has_option("on,strictly", "strict"));
	ck_assert(!sb_cmdline_param("", "x", v, sizeof(v)));
}
END_TEST

START_TEST(iommu_policy_from_the_command_line)
{
	char m[16];

	ck_assert(sb_iommu_cmdline_policy("iommu.strict=1 iommu.strict=0", m, sizeof(m)));
	ck_assert_str_eq(m, "lazy");
	/* the drivers force strict mode after the early parameters (iommu.h documented these,
	 * the code ignored them) */
	ck_assert(sb_iommu_cmdline_policy("iommu.strict=0 intel_iommu=on,strict", m, sizeof(m)));
	ck_assert_str_eq(m, "strict");
	ck_assert(sb_iommu_cmdline_policy("amd_iommu=fullflush", m, sizeof(m)));
	ck_assert_str_eq(m, "strict");
	ck_assert(sb_iommu_cmdline_policy("iommu.strict=1 iommu.passthrough=1", m, sizeof(m)));
	ck_assert_str_eq(m, "passthrough");
	ck_assert(!sb_iommu_cmdline_policy("intel_iommu=on quiet", m, sizeof(m)));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cmdline");
	TCase *tc = tcase_create("cmdline");

	tcase_add_test(tc, last_occurrence_wins);
	tcase_add_test(tc, quotes_bare_words_and_options);
	tcase_add_test(tc, iommu_policy_from_the_command_line);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
