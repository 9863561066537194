// SPDX-License-Identifier: GPL-2.0-or-later
/* debugfs cma/AREA/bitmap (a u32 array as fs/debugfs/file.c prints it) and /proc/meminfo's
 * CMA lines. A bitmap that parses is scanned at every length its words allow, and what the
 * scan says must fit that length. */
#include <errno.h>
#include <stdlib.h>

#include "fuzz.h"
#include "socbox/cma.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	uint32_t *w = NULL;
	size_t n = 0;
	uint64_t t, f;

	if (sb_cma_bitmap_parse(text, &w, &n) == 0) {
		FUZZ_ASSERT(n > 0 && w);
		for (uint64_t bits = (uint64_t)(n - 1) * 32 + 1; bits <= (uint64_t)n * 32;
		     bits += 7) {
			uint64_t lo, set;

			FUZZ_ASSERT(sb_cma_bitmap_scan(w, n, bits, &lo, &set) == 0);
			FUZZ_ASSERT(lo + set <= bits);
		}
		FUZZ_ASSERT(sb_cma_bitmap_scan(w, n, (uint64_t)n * 32 + 1, &t, &f) == -EINVAL);
	} else {
		FUZZ_ASSERT(!w && !n);
	}
	free(w);
	if (sb_cma_meminfo_parse(text, &t, &f) == 0)
		FUZZ_ASSERT(t % 1024 == 0 && f % 1024 == 0);
	free(text);
	return 0;
}
