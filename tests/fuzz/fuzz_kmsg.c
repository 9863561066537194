// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel log as a snapshot's dev/kmsg holds it (any of the formats sb_kmsg_parse()
 * knows), then every reader of its lines: SMMUv3/arm-smmu/DMAR/AMD-Vi event records, the
 * arm-smmu-v3 probe lines and their feature decoding, the invalidation policy lines; the
 * event assembler is also fed line by line and flushed, as smmustat events --follow does. */
#include "fuzz.h"
#include "socbox/iommu.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_features.h"
#include "socbox/kmsg.h"

static void check_event(const struct sb_iommu_event *ev)
{
	char q[128];

	FUZZ_ASSERT(
		memchr(ev->source, 0, sizeof(ev->source)) &&
		memchr(ev->device, 0, sizeof(ev->device)) &&
		memchr(ev->kind, 0, sizeof(ev->kind)) && memchr(ev->reason, 0, sizeof(ev->reason)));
	if (ev->has_sid)
		sb_smmu_event_qualifier(ev->sid & 0xff, ev->addr, q, sizeof(q));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_kmsg log = { 0 };
	struct sb_iommu_event *ev = NULL;
	struct sb_smmu_probe *probes = NULL;
	struct sb_iommu_policy pol;
	size_t nev = 0, nprobes = 0;
	struct sb_iommu_evasm asm_;
	uint64_t suppressed = 0;

	if (sb_kmsg_parse(fuzz_text(data, size), &log))
		return 0;
	for (size_t i = 0; i < log.n; i++)
		FUZZ_ASSERT(log.lines[i].text && log.lines[i].prio >= -1 && log.lines[i].prio <= 7);
	if (!sb_iommu_events(&log, &ev, &nev, &suppressed))
		for (size_t i = 0; i < nev; i++)
			check_event(&ev[i]);
	free(ev);
	sb_iommu_evasm_init(&asm_);
	for (size_t i = 0; i < log.n; i++) {
		struct sb_iommu_event out[SB_IOMMU_EVASM_OUT], one;
		size_t k = sb_iommu_evasm_feed(&asm_, &log.lines[i], out);

		FUZZ_ASSERT(k <= SB_IOMMU_EVASM_OUT);
		while (k--)
			check_event(&out[k]);
		if (sb_iommu_event_parse(&log.lines[i], &one) == 1)
			check_event(&one);
	}
	for (struct sb_iommu_event one; sb_iommu_evasm_flush(&asm_, &one);)
		check_event(&one);
	FUZZ_ASSERT(!sb_iommu_evasm_pending(&asm_));
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
	sb_iommu_policy(NULL, &log, NULL, 0, &pol);
	FUZZ_ASSERT(memchr(pol.mode, 0, sizeof(pol.mode)) &&
		    memchr(pol.domain_default, 0, sizeof(pol.domain_default)));
	sb_kmsg_free(&log);
	return 0;
}
