/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What smmustat's overview and check take from the kernel log, in one pass that does not
 * hold it (sb_kmsg_each()): the SMMUv3 probe lines, the lines that say the invalidation
 * policy, and with events the IOMMU fault and event records counted. */
#ifndef SOCBOX_IOMMU_LOG_H
#define SOCBOX_IOMMU_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/iommu.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_features.h"
#include "socbox/sys.h"

struct sb_iommu_log {
	const char *source;	      /* as in struct sb_kmsg */
	uint64_t lines;		      /* lines read (as many as sb_kmsg_read() gives) */
	struct sb_smmu_probe *probes; /* as sb_smmu_probes() */
	size_t nprobes;
	struct sb_iommu_policy policy; /* the log's part (sb_iommu_policy_line()) */
	uint64_t nevents;	       /* records, as sb_iommu_events() gives them */
	struct sb_iommu_event first;   /* sb_iommu_events()'s first one, when nevents */
};

/* Reads the log of a root into l (events: count the records too). 0, or -errno with e set
 * when the log cannot be read (l then holds nothing). */
int sb_iommu_log_read(const struct sb_root *r, bool events, struct sb_iommu_log *l,
		      struct sb_err *e);
void sb_iommu_log_free(struct sb_iommu_log *l);

#endif
