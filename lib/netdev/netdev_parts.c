// SPDX-License-Identifier: GPL-2.0-or-later
/* The parts of a netdev state (enum sb_nd_part), one descriptor each: which dump fills it,
 * where its array lives in struct sb_nd_state, how a record parses, filters and sorts.
 * Collecting, loading a capture, keeping parts, filtering by device and freeing all
 * iterate this table, so a new part is one line here (and its bit). */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "netdev_priv.h"

/* Type-erased parsers (calling through a cast function pointer would be UB). */
#define PARSER_WRAP(name, type) \
	static int parse_##name(const struct nlmsghdr *nlh, void *out) \
	{ \
		return sb_nd_parse_##name(nlh, (type *)out); \
	}
PARSER_WRAP(dev, struct sb_nd_dev)
PARSER_WRAP(queue, struct sb_nd_queue)
PARSER_WRAP(napi, struct sb_nd_napi)
PARSER_WRAP(pool, struct sb_nd_pool)
PARSER_WRAP(pool_stats, struct sb_nd_pool_stats)
PARSER_WRAP(qstats, struct sb_nd_qstats)

/* Lookups are binary searches over arrays sorted by these, so a view of thousands of
 * queues stays linear. */
static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_pool_stats(const void *a, const void *b)
{
	return cmp_u64(((const struct sb_nd_pool_stats *)a)->id,
		       ((const struct sb_nd_pool_stats *)b)->id);
}

static int cmp_napi(const void *a, const void *b)
{
	return cmp_u64(((const struct sb_nd_napi *)a)->id, ((const struct sb_nd_napi *)b)->id);
}

static int cmp_qstats(const void *a, const void *b)
{
	const struct sb_nd_qstats *x = a, *y = b;
	int c = cmp_u64(x->ifindex, y->ifindex);

	if (!c)
		c = cmp_u64(x->queue_type, y->queue_type);
	return c ? c : cmp_u64(x->queue_id, y->queue_id);
}

/* qstats-get answers both scopes with one command: the message says which it is */
static bool per_queue(const struct nlmsghdr *nlh, bool want)
{
	struct sb_nd_qstats probe;

	return sb_nd_parse_qstats(nlh, &probe) == 0 ? probe.per_queue == want : want;
}

static bool queue_scope(const struct nlmsghdr *nlh)
{
	return per_queue(nlh, true);
}

static bool dev_scope(const struct nlmsghdr *nlh)
{
	return per_queue(nlh, false);
}

#define ARRAY(field, nfield, type) \
	.items_off = offsetof(struct sb_nd_state, field), \
	.n_off = offsetof(struct sb_nd_state, nfield), .size = sizeof(type), \
	.ifindex_off = offsetof(type, ifindex)

/* By bit number: sb_nd_parts[i].part == 1u << i (tests/unit/test_netdev.c checks). */
const struct sb_nd_part_desc sb_nd_parts[SB_ND_NPARTS] = {
	{ SB_ND_DEVS, SB_NETDEV_CMD_DEV_GET, 0, 0, NULL, parse_dev, NULL, NULL,
	  ARRAY(devs, ndevs, struct sb_nd_dev) },
	{ SB_ND_QUEUES, SB_NETDEV_CMD_QUEUE_GET, SB_NETDEV_A_QUEUE_IFINDEX, 0, NULL, parse_queue,
	  NULL, NULL, ARRAY(queues, nqueues, struct sb_nd_queue) },
	{ SB_ND_NAPIS, SB_NETDEV_CMD_NAPI_GET, SB_NETDEV_A_NAPI_IFINDEX, 0, NULL, parse_napi, NULL,
	  cmp_napi, ARRAY(napis, nnapis, struct sb_nd_napi) },
	{ SB_ND_POOLS, SB_NETDEV_CMD_PAGE_POOL_GET, 0, 0, NULL, parse_pool, NULL, NULL,
	  ARRAY(pools, npools, struct sb_nd_pool) },
	{ SB_ND_POOL_STATS, SB_NETDEV_CMD_PAGE_POOL_STATS_GET, 0, 0,
	  "page-pool stats need CONFIG_PAGE_POOL_STATS=y", parse_pool_stats, NULL, cmp_pool_stats,
	  ARRAY(pool_stats, npool_stats, struct sb_nd_pool_stats) },
	{ SB_ND_QSTATS_QUEUE, SB_NETDEV_CMD_QSTATS_GET, SB_NETDEV_A_QSTATS_IFINDEX,
	  SB_NETDEV_QSTATS_SCOPE_QUEUE, NULL, parse_qstats, queue_scope, cmp_qstats,
	  ARRAY(qstats, nqstats, struct sb_nd_qstats) },
	{ SB_ND_QSTATS_DEV, SB_NETDEV_CMD_QSTATS_GET, SB_NETDEV_A_QSTATS_IFINDEX, 0, NULL,
	  parse_qstats, dev_scope, cmp_qstats,
	  ARRAY(dev_qstats, ndev_qstats, struct sb_nd_qstats) },
};

void **sb_nd_part_items(struct sb_nd_state *st, const struct sb_nd_part_desc *d)
{
	return (void **)((char *)st + d->items_off);
}

size_t *sb_nd_part_count(struct sb_nd_state *st, const struct sb_nd_part_desc *d)
{
	return (size_t *)((char *)st + d->n_off);
}

const struct sb_nd_part_desc *sb_nd_part_of_msg(const struct nlmsghdr *nlh)
{
	int cmd = sb_nd_msg_cmd(nlh);

	for (size_t i = 0; i < SB_ND_NPARTS; i++)
		if (sb_nd_parts[i].cmd == cmd &&
		    (!sb_nd_parts[i].takes || sb_nd_parts[i].takes(nlh)))
			return &sb_nd_parts[i];
	return NULL;
}

void sb_nd_part_drop(struct sb_nd_state *st, const struct sb_nd_part_desc *d)
{
	void **items = sb_nd_part_items(st, d);

	free(*items);
	*items = NULL;
	*sb_nd_part_count(st, d) = 0;
}

void sb_nd_state_free(struct sb_nd_state *st)
{
	for (size_t i = 0; i < SB_ND_NPARTS; i++)
		sb_nd_part_drop(st, &sb_nd_parts[i]);
	memset(st, 0, sizeof(*st));
}

void sb_nd_state_index(struct sb_nd_state *st)
{
	for (size_t i = 0; i < SB_ND_NPARTS; i++) {
		const struct sb_nd_part_desc *d = &sb_nd_parts[i];
		size_t n = *sb_nd_part_count(st, d);

		if (d->cmp && n)
			qsort(*sb_nd_part_items(st, d), n, d->size, d->cmp);
	}
}

void sb_nd_state_keep_ifindex(struct sb_nd_state *st, uint32_t ifindex)
{
	if (!ifindex)
		return;
	for (size_t i = 0; i < SB_ND_NPARTS; i++) {
		const struct sb_nd_part_desc *d = &sb_nd_parts[i];
		char *v = *sb_nd_part_items(st, d);
		size_t *n = sb_nd_part_count(st, d), k = 0;

		for (size_t j = 0; j < *n; j++) {
			uint32_t idx;

			memcpy(&idx, v + j * d->size + d->ifindex_off, sizeof(idx));
			if (idx != ifindex)
				continue;
			if (k != j)
				memcpy(v + k * d->size, v + j * d->size, d->size);
			k++;
		}
		*n = k;
	}
}

size_t sb_nd_state_records(const struct sb_nd_state *st)
{
	size_t total = 0;

	for (size_t i = 0; i < SB_ND_NPARTS; i++)
		total += *(const size_t *)((const char *)st + sb_nd_parts[i].n_off);
	return total;
}
