/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ACPI IO Remapping Table (IORT, Arm DEN 0049; /sys/firmware/acpi/tables/IORT): which
 * stream ID each PCI requester ID and each named component gets at which SMMU. Parsed from
 * a buffer (a snapshot's table may be anything): every offset and length is checked against
 * the table, nothing is trusted, and a malformed node is skipped, not followed. */
#ifndef SOCBOX_IOMMU_IORT_H
#define SOCBOX_IOMMU_IORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Node types (IORT table 2). */
enum sb_iort_type {
	SB_IORT_ITS = 0,
	SB_IORT_NAMED_COMPONENT = 1,
	SB_IORT_ROOT_COMPLEX = 2,
	SB_IORT_SMMU = 3, /* SMMUv1/v2 */
	SB_IORT_SMMU_V3 = 4,
	SB_IORT_PMCG = 5,
	SB_IORT_RMR = 6,
};

/* One ID mapping: input IDs [input_base, input_base + count] (the table stores the count
 * minus one, so count here is that value) map to output_base + (id - input_base) at the node
 * at output_ref (an offset into the table). single: the node's own ID is output_base. */
struct sb_iort_map {
	uint32_t input_base, count, output_base, output_ref;
	bool single;
};

struct sb_iort_node {
	uint32_t offset;  /* in the table: what mappings refer to */
	uint8_t type;	  /* enum sb_iort_type */
	uint64_t base;	  /* SMMU: MMIO base */
	uint32_t segment; /* root complex: PCI segment (domain) */
	char name[128];	  /* named component: ACPI path ("\_SB_.ETH0") */
	struct sb_iort_map *maps;
	size_t nmaps;
};

struct sb_iort {
	struct sb_iort_node *nodes;
	size_t n;
	uint8_t revision;
	unsigned skipped; /* nodes or mappings left out as malformed */
};

/* Parse a whole table. -EINVAL when it is no IORT at all (signature, header, length),
 * -ENOMEM; malformed nodes and mappings are skipped and counted. */
int sb_iort_parse(const void *buf, size_t len, struct sb_iort *out);
void sb_iort_free(struct sb_iort *t);
/* The node at a table offset, NULL when none starts there. */
const struct sb_iort_node *sb_iort_node_at(const struct sb_iort *t, uint32_t offset);
/* The SMMU (v3 or v1/v2) node and stream ID that input ID id of node n maps to, following
 * the mappings as the kernel does (first match; a single mapping for named components).
 * -ENOENT when no mapping leads to an SMMU. */
int sb_iort_map_id(const struct sb_iort *t, const struct sb_iort_node *n, uint32_t id,
		   const struct sb_iort_node **smmu, uint32_t *sid);
/* The stream IDs of a named component (its single mappings to an SMMU): up to max into
 * sids, the SMMU node of the first into *smmu; returns how many. */
size_t sb_iort_nc_sids(const struct sb_iort *t, const struct sb_iort_node *n,
		       const struct sb_iort_node **smmu, uint32_t *sids, size_t max);

#endif
