// SPDX-License-Identifier: GPL-2.0-or-later
/* An IOMMU group's reserved_regions ("START END KIND" per line). */
#include "fuzz.h"
#include "socbox/iommu.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sb_iommu_resv *v = NULL;
	size_t n = 0, bad = 0;

	if (!sb_iommu_parse_resv(text, &v, &n, &bad))
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(v[i].start <= v[i].end);
	free(v);
	free(text);
	return 0;
}
