/* SPDX-License-Identifier: GPL-2.0-or-later */
/* smmustat: the commands (one file each) and the state they share. */
#ifndef SOCBOX_CMD_SMMUSTAT_H
#define SOCBOX_CMD_SMMUSTAT_H

#include "socbox/cli.h"
#include "socbox/iommu.h"
#include "socbox/iommu_events.h"
#include "socbox/kmsg.h"
#include "socbox/iommu_features.h"
#include "socbox/iommu_log.h"

#define SMMUSTAT "smmustat"

int smmustat_overview(struct sb_ctx *c, int argc, const char **argv);
int smmustat_groups(struct sb_ctx *c, int argc, const char **argv);
int smmustat_irq(struct sb_ctx *c, int argc, const char **argv);
int smmustat_events(struct sb_ctx *c, int argc, const char **argv);
int smmustat_pmu(struct sb_ctx *c, int argc, const char **argv);
int smmustat_stress(struct sb_ctx *c, int argc, const char **argv);
int smmustat_check(struct sb_ctx *c, int argc, const char **argv);

/* "no IOMMU instance registered" with this board's hint, exit 3: the one answer of every
 * command that finds no IOMMU (overview, irq, events). */
int smmustat_no_iommu(const struct sb_ctx *c);

/* What the overview and check read: instances, groups, the kernel log and what it says. */
struct smmu_state {
	struct sb_iommu *inst;
	size_t ninst;
	struct sb_iommu_group *groups;
	size_t ngroups;
	struct sb_iommu_log log; /* read a line at a time, not held */
	bool have_log;
	struct sb_err log_err;
	struct sb_iommu_policy policy;
	char release[128];
	unsigned version_code;
	const struct sb_smmu_feat_table *table;
};

/* Loads everything; table_override names a feature table (NULL: by kernel); events: count
 * the log's IOMMU records too (check). Returns 0 or an exit code after reporting. An
 * unreadable log is not an error (have_log false). */
int smmu_state_load(struct sb_ctx *c, struct smmu_state *s, const char *table_override, bool events);
void smmu_state_free(struct smmu_state *s);

/* Decoded features of an instance. */
#define SMMU_MAX_FEATURES 64
struct smmu_features {
	char names[SMMU_MAX_FEATURES][24];
	size_t n;
	char raw[64];	  /* "0x00008f7f" or "cap=0x..,ecap=0x..", empty when unknown */
	char unknown[24]; /* set bits without a name in the table, "0x..", empty when none */
	char table[24];	  /* feature table used (SMMUv3), empty otherwise */
	unsigned ias, oas;
	char ecmdq[128];
};
void smmu_features(const struct smmu_state *s, const struct sb_iommu *m, struct smmu_features *f);
/* The note of a sample whose interval a stop signal cut short (irq -i, pmu -i): secs into
 * an interval of interval seconds, and what the sample then covers. */
void smmustat_note_cut(struct sb_out *o, double secs, double interval, const char *covers);
/* "DMA-FQ" when every group of the instance has it, else "DMA-FQ:3,identity:1"; "-" none. */
void smmu_domain_summary(const struct sb_iommu *m, char *buf, size_t len);

#endif
