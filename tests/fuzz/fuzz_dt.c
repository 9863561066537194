// SPDX-License-Identifier: GPL-2.0-or-later
/* Device tree properties of a snapshot (/sys/firmware/devicetree/base: raw big-endian
 * cells): the input is read as a cell, as an iommu-map (then requester IDs are mapped with
 * an all-ones mask and with the mask the input's first cell gives) and as an iommus list
 * (each phandle's #iommu-cells taken from the phandle itself: 0, 1, 2 or "no IOMMU") and as
 * a GIC interrupts list. */
#include "fuzz.h"
#include "socbox/iommu_dt.h"
#include "socbox/macro.h"

static int cells_of(void *ctx, uint32_t phandle)
{
	static const int cells[] = { 0, 1, 2, -1 };

	(void)ctx;
	return cells[phandle & 3];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size + 1);
	struct sb_dt_iommus spec[8];
	uint32_t irqs[4];
	struct sb_dt_map *m = NULL;
	uint32_t mask = 0xffffffffu, v;
	size_t n = 0;

	if (!buf)
		abort();
	memcpy(buf + 1, data, size); /* a property value need not be aligned in its buffer */
	if (!sb_dt_cell(buf + 1, size, &v))
		FUZZ_ASSERT(size == 4);
	if (size >= 4)
		sb_dt_cell(buf + 1, 4, &mask);
	if (!sb_dt_parse_map(buf + 1, size, &m, &n)) {
		FUZZ_ASSERT(n * 16 == size);
		for (size_t i = 0; i < n; i++) {
			uint32_t ids[] = { m[i].id_base, m[i].id_base + m[i].length - 1,
					   m[i].id_base + m[i].length, 0 };

			for (size_t j = 0; j < ARRAY_SIZE(ids); j++) {
				uint32_t ph, out;

				sb_dt_map_id(m, n, 0xffffffffu, ids[j], &ph, &out);
				sb_dt_map_id(m, n, mask, ids[j], &ph, &out);
			}
		}
	}
	free(m);
	FUZZ_ASSERT(sb_dt_parse_iommus(buf + 1, size, cells_of, NULL, spec, 8) <= 8);
	FUZZ_ASSERT(sb_dt_gic_hwirqs(buf + 1, size, irqs, 4) <= 4);
	free(buf);
	return 0;
}
