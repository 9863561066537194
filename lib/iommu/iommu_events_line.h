/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the IOMMU event parser (iommu_events.c) tells the record assembler (iommu_evasm.c)
 * about one line of the kernel log: for lib/iommu only. */
#ifndef SOCBOX_IOMMU_EVENTS_LINE_H
#define SOCBOX_IOMMU_EVENTS_LINE_H

#include <stdbool.h>
#include <stdint.h>

#include "socbox/iommu_events.h"

/* What one line of the log is to the record assembler. */
enum line_kind {
	L_NONE,	      /* nothing to do with IOMMU events */
	L_RECORD,     /* a whole record in one line */
	L_RAW_HEADER, /* SMMUv3 "event 0x10 received:" */
	L_DWORD,      /* SMMUv3 "\t0x%016llx" dump line */
	L_DECODED,    /* SMMUv3 "event: F_TRANSLATION client: ..." */
	L_QUALIFIER,  /* SMMUv3 'unpriv data read s1 "CD fetch" stag: 0x0' */
	L_SUPPRESSED, /* "arm_smmu_dump_event: 3 callbacks suppressed" */
};

/* Translation, address size, access and permission faults carry an IOVA and a qualifier. */
static inline bool is_translation_class(unsigned id)
{
	return id >= 0x10 && id <= 0x13;
}

static inline bool is_fetch_class(unsigned id)
{
	return id == 0x03 || id == 0x09 || id == 0x25;
}

/* Parse one line into ev (cleared first); val gets a dump line's dword or a suppressed
 * count. */
enum line_kind iommu_event_line(const struct sb_kmsg_line *l, struct sb_iommu_event *ev,
				uint64_t *val);

#endif
