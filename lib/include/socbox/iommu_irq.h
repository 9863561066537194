/* SPDX-License-Identifier: GPL-2.0-or-later */
/* /proc/interrupts, parsed by whitespace tokens (the column layout changed in 6.13 and again
 * in 2026): "NAME:" then one count per online CPU, then chip/hwirq/type text and the action
 * names, which the kernel prints after two spaces. */
#ifndef SOCBOX_IRQ_H
#define SOCBOX_IRQ_H

#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

struct sb_irq_row {
	char name[32];	   /* "45", or "NMI", "LOC", "IPI0", "Err" for arch rows */
	char chip[64];	   /* first token after the counts ("ITS-MSI", "DMAR-MSI", "GICv3") */
	char desc[160];	   /* everything after the counts, single-spaced */
	char actions[128]; /* the action names ("arm-smmu-v3-evtq", "dmar0"), may be empty */
	uint64_t *counts;  /* one per CPU of the header (ncpus); missing counts are 0 */
	uint64_t total;
};

struct sb_irq_table {
	unsigned ncpus;
	unsigned *cpu_ids; /* from the header ("CPU0 CPU2" -> 0, 2): offline CPUs have no column */
	struct sb_irq_row *rows;
	size_t nrows;
};

/* Parse the text of /proc/interrupts. -EINVAL when there is no CPU header. */
int sb_irq_parse(const char *text, struct sb_irq_table *t);
/* Read and parse /proc/interrupts of the root. */
int sb_irq_read(const struct sb_root *r, struct sb_irq_table *t, struct sb_err *e);
void sb_irq_free(struct sb_irq_table *t);
/* The row with the same name, or NULL. */
const struct sb_irq_row *sb_irq_find(const struct sb_irq_table *t, const char *name);
/* Count of a row for a CPU id (0 when the CPU has no column). */
uint64_t sb_irq_count_cpu(const struct sb_irq_table *t, const struct sb_irq_row *row, unsigned cpu);

/* The IOMMU role of a row from its action and chip names: "evtq", "gerror", "priq",
 * "combined", "cmdq-sync" (SMMUv3), "context"/"global" (arm-smmu), "dmar" (VT-d fault or
 * its DMAR-MSI chip), "amd-vi"; NULL for other interrupts. */
const char *sb_irq_iommu_kind(const struct sb_irq_row *row);

#endif
