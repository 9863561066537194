// SPDX-License-Identifier: GPL-2.0-or-later
/* Option values as the user types them: sizes (-s 4M), numbers, booleans, CPU and queue
 * lists (0-3,8), cpulists, -o column lists, "remoteprocN" names. Each input goes through
 * every parser; what parses must satisfy the parser's contract. */
#include <errno.h>

#include "fuzz.h"
#include "socbox/cli.h"
#include "socbox/iommu_pmu.h"
#include "socbox/macro.h"
#include "socbox/out.h"
#include "socbox/sys.h"

static const struct sb_col cols[] = {
	{ "NAME", SB_T_STR, 0, 0, "name", 0 },
	{ "SIZE_BYTES", SB_T_U64, 0, SB_COL_RIGHT, "size", 0 },
	{ "FEATURES", SB_T_STRV, 0, SB_COL_HIDDEN, "features", 0 },
	{ "RATE", SB_T_DBL, 0, SB_COL_RIGHT, "rate", 3 },
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint64_t u;
	int64_t s;
	bool b;
	unsigned *list = NULL, n = 0;
	struct sb_err e;

	if (!sb_parse_size(text, &u))
		FUZZ_ASSERT(text[0] >= '0' && text[0] <= '9');
	sb_parse_u64(text, 0, &u);
	sb_parse_u64(text, 10, &u);
	sb_parse_u64(text, 16, &u);
	sb_parse_s64(text, 10, &s);
	sb_parse_bool(text, &b);
	for (unsigned max = 0; max <= 1024; max = max ? max * 32 : 1) {
		if (!sb_parse_list(text, max, &list, &n)) {
			FUZZ_ASSERT(n > 0);
			for (unsigned i = 0; i < n; i++) {
				FUZZ_ASSERT(list[i] <= max);
				for (unsigned k = 0; k < i; k++)
					FUZZ_ASSERT(list[k] != list[i]);
			}
		}
		free(list);
	}
	FUZZ_ASSERT(sb_perf_first_cpu(text) >= -1);
	sb_err_clear(&e);
	if (sb_out_check_columns(text, cols, ARRAY_SIZE(cols), &e))
		FUZZ_ASSERT(e.reason[0] || e.errnum);
	free(text);
	return 0;
}
