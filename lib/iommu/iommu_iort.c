// SPDX-License-Identifier: GPL-2.0-or-later
/* The ACPI IORT table (Arm DEN 0049): nodes, their ID mappings, and the walk from a root
 * complex's requester ID or a named component to an SMMU stream ID, as
 * drivers/acpi/arm64/iort.c does it. Layout (little-endian):
 *   table:  ACPI header (36 bytes; "IORT", length at 4, revision at 8), node count at 36,
 *           offset of the first node at 40;
 *   node:   type (1), length (2), revision (1), identifier (4), mapping count at 8,
 *           offset of the mapping array (from the node) at 12, node data from 16;
 *   mapping (20 bytes): input base, ID count - 1, output base, output reference (a table
 *           offset), flags (bit 0: single mapping);
 *   node data: named component name at 29 (after flags 4, memory access 8, address
 *           limit 1); root complex PCI segment at 28; SMMU / SMMUv3 base address at 16. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/byteorder.h"
#include "socbox/iommu_iort.h"
#include "socbox/limits.h"

#define IORT_HEADER_LEN 48 /* ACPI header + node count + node offset + reserved */
#define NODE_HEADER_LEN 16
#define MAP_LEN 20

static uint64_t le64(const uint8_t *p)
{
	return (uint64_t)sb_le32(p) | (uint64_t)sb_le32(p + 4) << 32;
}

static void parse_maps(const uint8_t *node, uint32_t node_len, struct sb_iort_node *n,
		       unsigned *skipped)
{
	uint32_t count = sb_le32(node + 8), off = sb_le32(node + 12);

	if (!count)
		return;
	if (off < NODE_HEADER_LEN || off > node_len || count > (node_len - off) / MAP_LEN) {
		(*skipped)++;
		return;
	}
	n->maps = calloc(count, sizeof(*n->maps));
	if (!n->maps)
		return;
	for (uint32_t i = 0; i < count; i++) {
		const uint8_t *m = node + off + (size_t)i * MAP_LEN;
		struct sb_iort_map *map = &n->maps[n->nmaps++];

		map->input_base = sb_le32(m);
		map->count = sb_le32(m + 4);
		map->output_base = sb_le32(m + 8);
		map->output_ref = sb_le32(m + 12);
		map->single = sb_le32(m + 16) & 1;
	}
}

static void parse_name(const uint8_t *node, uint32_t node_len, struct sb_iort_node *n)
{
	const uint32_t at = 29;
	size_t i;

	if (node_len <= at)
		return;
	for (i = 0; at + i < node_len && i < sizeof(n->name) - 1 && node[at + i]; i++)
		n->name[i] = (char)node[at + i];
	n->name[i] = '\0';
	if (at + i >= node_len || node[at + i]) /* not terminated inside the node, or too long */
		n->name[0] = '\0';
}

int sb_iort_parse(const void *buf, size_t len, struct sb_iort *out)
{
	const uint8_t *t = buf;
	uint32_t tlen, nnodes, off;

	memset(out, 0, sizeof(*out));
	if (len < IORT_HEADER_LEN || memcmp(t, "IORT", 4))
		return -EINVAL;
	tlen = sb_le32(t + 4);
	if (tlen < IORT_HEADER_LEN)
		return -EINVAL;
	if (tlen > len) /* a cut table: use what is there */
		tlen = (uint32_t)len;
	out->revision = t[8];
	nnodes = sb_le32(t + 36);
	off = sb_le32(t + 40);
	if (nnodes > tlen / NODE_HEADER_LEN)
		nnodes = tlen / NODE_HEADER_LEN;
	out->nodes = calloc(nnodes ? nnodes : 1, sizeof(*out->nodes));
	if (!out->nodes)
		return -ENOMEM;
	for (uint32_t i = 0; i < nnodes; i++) {
		const uint8_t *node;
		struct sb_iort_node *n;
		uint32_t node_len;

		if (off < IORT_HEADER_LEN || off > tlen || tlen - off < NODE_HEADER_LEN) {
			out->skipped += nnodes - i;
			break;
		}
		node = t + off;
		node_len = (uint32_t)node[1] | (uint32_t)node[2] << 8;
		if (node_len < NODE_HEADER_LEN || node_len > tlen - off) {
			out->skipped += nnodes - i; /* the next node cannot be found */
			break;
		}
		n = &out->nodes[out->n++];
		n->offset = off;
		n->type = node[0];
		switch (n->type) {
		case SB_IORT_SMMU:
		case SB_IORT_SMMU_V3:
			if (node_len >= 24)
				n->base = le64(node + 16);
			break;
		case SB_IORT_ROOT_COMPLEX:
			if (node_len >= 32)
				n->segment = sb_le32(node + 28);
			break;
		case SB_IORT_NAMED_COMPONENT:
			parse_name(node, node_len, n);
			break;
		}
		parse_maps(node, node_len, n, &out->skipped);
		off += node_len;
	}
	return 0;
}

void sb_iort_free(struct sb_iort *t)
{
	for (size_t i = 0; t->nodes && i < t->n; i++)
		free(t->nodes[i].maps);
	free(t->nodes);
	memset(t, 0, sizeof(*t));
}

const struct sb_iort_node *sb_iort_node_at(const struct sb_iort *t, uint32_t offset)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->nodes[i].offset == offset)
			return &t->nodes[i];
	return NULL;
}

static bool is_smmu(const struct sb_iort_node *n)
{
	return n->type == SB_IORT_SMMU || n->type == SB_IORT_SMMU_V3;
}

/* iort_id_map(): a single mapping answers for a named component or root complex whatever the
 * input; otherwise the input must lie in [input_base, input_base + count]. */
static bool map_one(const struct sb_iort_node *n, const struct sb_iort_map *m, uint32_t id,
		    uint32_t *out)
{
	if (m->single) {
		if (n->type != SB_IORT_NAMED_COMPONENT && n->type != SB_IORT_ROOT_COMPLEX)
			return false;
		*out = m->output_base;
		return true;
	}
	if (id < m->input_base || id - m->input_base > m->count)
		return false;
	*out = m->output_base + (id - m->input_base);
	return true;
}

int sb_iort_map_id(const struct sb_iort *t, const struct sb_iort_node *n, uint32_t id,
		   const struct sb_iort_node **smmu, uint32_t *sid)
{
	for (int hop = 0; n && hop < SB_IORT_MAX_HOPS; hop++) {
		const struct sb_iort_node *next = NULL;
		uint32_t out = 0;

		if (n->type == SB_IORT_ITS)
			break;
		for (size_t i = 0; i < n->nmaps && !next; i++)
			if (map_one(n, &n->maps[i], id, &out))
				next = sb_iort_node_at(t, n->maps[i].output_ref);
		if (!next)
			break;
		if (is_smmu(next)) {
			*smmu = next;
			*sid = out;
			return 0;
		}
		n = next;
		id = out;
	}
	return -ENOENT;
}

size_t sb_iort_nc_sids(const struct sb_iort *t, const struct sb_iort_node *n,
		       const struct sb_iort_node **smmu, uint32_t *sids, size_t max)
{
	size_t got = 0;

	*smmu = NULL;
	/* iort_nc_iommu_map(): mapping after mapping, each a single mapping to an SMMU */
	for (size_t i = 0; i < n->nmaps && got < max; i++) {
		const struct sb_iort_node *p = sb_iort_node_at(t, n->maps[i].output_ref);

		if (!n->maps[i].single || !p || !is_smmu(p))
			break;
		if (*smmu && *smmu != p)
			break;
		*smmu = p;
		sids[got++] = n->maps[i].output_base;
	}
	return got;
}
