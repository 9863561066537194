// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/interrupts: the table, then what smmustat irq asks of every row. */
#include "fuzz.h"
#include "socbox/iommu_irq.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sb_irq_table t = { 0 };

	if (!sb_irq_parse(text, &t)) {
		FUZZ_ASSERT(t.ncpus > 0);
		for (size_t i = 0; i < t.nrows; i++) {
			const struct sb_irq_row *row = &t.rows[i];
			uint64_t sum = 0;

			FUZZ_ASSERT(sb_irq_find(&t, row->name) != NULL);
			for (unsigned c = 0; c < t.ncpus; c++)
				sum += sb_irq_count_cpu(&t, row, t.cpu_ids[c]);
			(void)sum;
			sb_irq_iommu_kind(row);
		}
		sb_irq_free(&t);
	}
	free(text);
	return 0;
}
