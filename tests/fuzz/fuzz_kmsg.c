// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log as a snapshot's dev/kmsg holds it (any of the formats sb_kmsg_parse()
 * knows), then every reader of its lines: SMMUv3/arm-smmu/DMAR/AMD-Vi event records, the
 * arm-smmu-v3 probe lines and their feature decoding, the invalidation policy lines. */
#include "fuzz.h"
#include "socbox/iommu.h"
#include "socbox/iommu_features.h"
#include "socbox/kmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_kmsg log = { 0 };
	struct sb_iommu_event *ev = NULL;
	struct sb_smmu_probe *probes = NULL;
	struct sb_iommu_policy pol;
	size_t nev = 0, nprobes = 0;

	if (sb_kmsg_parse(fuzz_text(data, size), &log))
		return 0;
	for (size_t i = 0; i < log.n; i++)
		FUZZ_ASSERT(log.lines[i].text && log.lines[i].prio >= -1 && log.lines[i].prio <= 7);
	if (!sb_iommu_events(&log, &ev, &nev))
		for (size_t i = 0; i < nev; i++)
			FUZZ_ASSERT(memchr(ev[i].source, 0, sizeof(ev[i].source)) &&
				    memchr(ev[i].device, 0, sizeof(ev[i].device)) &&
				    memchr(ev[i].kind, 0, sizeof(ev[i].kind)) &&
				    memchr(ev[i].reason, 0, sizeof(ev[i].reason)));
	free(ev);
	if (!sb_smmu_probes(&log, &probes, &nprobes)) {
		for (size_t i = 0; i < nprobes; i++) {
			const struct sb_smmu_feat_table *t =
				sb_smmu_feat_table(NULL, 61600, probes[i].ecmdq[0] != '\0', NULL);
			const char *names[32];
			uint32_t unknown;
			size_t n = sb_smmu_decode(t, probes[i].features, names, 32, &unknown);

			FUZZ_ASSERT(n <= 32);
		}
	}
	free(probes);
	sb_iommu_policy(fuzz_root(), &log, NULL, 0, &pol);
	FUZZ_ASSERT(memchr(pol.mode, 0, sizeof(pol.mode)) && memchr(pol.domain_default, 0, sizeof(pol.domain_default)));
	sb_kmsg_free(&log);
	return 0;
}
