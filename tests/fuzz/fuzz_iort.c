// SPDX-License-Identifier: GPL-2.0-or-later
/* The ACPI IORT of a snapshot (sys/firmware/acpi/tables/IORT): the table, then every lookup
 * smmustat makes in it: each node by its offset, the stream ID of requester IDs at the
 * edges of each root complex's mappings, the stream IDs of each named component. The table
 * sits one byte into its buffer, as a file read may leave it: nothing may assume alignment. */
#include "fuzz.h"
#include "socbox/iommu_iort.h"
#include "socbox/macro.h"

static void check_smmu(const struct sb_iort_node *smmu)
{
	FUZZ_ASSERT(smmu && (smmu->type == SB_IORT_SMMU || smmu->type == SB_IORT_SMMU_V3));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *buf = malloc(size + 1);
	struct sb_iort t;

	if (!buf)
		abort();
	memcpy(buf + 1, data, size);
	if (sb_iort_parse(buf + 1, size, &t)) {
		free(buf);
		return 0;
	}
	for (size_t i = 0; i < t.n; i++) {
		const struct sb_iort_node *n = &t.nodes[i], *smmu;
		uint32_t sid, sids[8];

		FUZZ_ASSERT(sb_iort_node_at(&t, n->offset) != NULL);
		FUZZ_ASSERT(memchr(n->name, 0, sizeof(n->name)));
		for (size_t k = 0; k < n->nmaps; k++) {
			const struct sb_iort_map *m = &n->maps[k];
			uint32_t ids[] = { m->input_base, m->input_base + m->count,
					   m->input_base - 1, 0, 0xffffffffu };

			for (size_t j = 0; j < ARRAY_SIZE(ids); j++)
				if (!sb_iort_map_id(&t, n, ids[j], &smmu, &sid))
					check_smmu(smmu);
		}
		if (n->type == SB_IORT_NAMED_COMPONENT) {
			size_t got = sb_iort_nc_sids(&t, n, &smmu, sids, 8);

			FUZZ_ASSERT(got <= 8);
			if (got)
				check_smmu(smmu);
		}
	}
	sb_iort_free(&t);
	free(buf);
	return 0;
}
