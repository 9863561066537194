// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat stress --baseline FILE: the JSON of an earlier run. */
#include "fuzz.h"
#include "socbox/iommu_stress_baseline.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	sb_err_clear(&e);
	/* the reader takes a length: the text need not end in NUL */
	if (!sb_stress_baseline_parse((const char *)data, size, "baseline.json", &b, &e))
		FUZZ_ASSERT(b.duration_s > 0 && memchr(b.label, 0, sizeof(b.label)) &&
			    memchr(b.path, 0, sizeof(b.path)));
	else
		FUZZ_ASSERT(e.errnum != 0);
	return 0;
}
