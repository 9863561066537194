// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev family requests: dumps into a struct sb_nd_state. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/netdev.h"
#include "netdev_priv.h"

static const struct {
	int cmd;
	const char *name;
	const char *since;
} cmd_info[] = {
	{ SB_NETDEV_CMD_DEV_GET, "dev-get", "6.3" },
	{ SB_NETDEV_CMD_PAGE_POOL_GET, "page-pool-get", "6.8" },
	{ SB_NETDEV_CMD_PAGE_POOL_STATS_GET, "page-pool-stats-get", "6.8" },
	{ SB_NETDEV_CMD_QUEUE_GET, "queue-get", "6.9" },
	{ SB_NETDEV_CMD_NAPI_GET, "napi-get", "6.9" },
	{ SB_NETDEV_CMD_QSTATS_GET, "qstats-get", "6.9" },
	{ SB_NETDEV_CMD_BIND_RX, "bind-rx", "6.12" },
	{ SB_NETDEV_CMD_BIND_TX, "bind-tx", "6.16" },
};

const char *sb_nd_cmd_min_kernel(int cmd)
{
	for (size_t i = 0; i < sizeof(cmd_info) / sizeof(cmd_info[0]); i++)
		if (cmd_info[i].cmd == cmd)
			return cmd_info[i].since;
	return "?";
}

const char *sb_nd_cmd_name(int cmd)
{
	for (size_t i = 0; i < sizeof(cmd_info) / sizeof(cmd_info[0]); i++)
		if (cmd_info[i].cmd == cmd)
			return cmd_info[i].name;
	return "?";
}

int sb_nd_open(struct sb_genl *g, struct sb_err *e)
{
	int rc = sb_genl_open(g, SB_NETDEV_FAMILY, e);

	if (rc == -ENOENT)
		sb_err_hint(e, "the netdev netlink family needs Linux 6.3; queues and NAPIs 6.9, "
			       "devmem bind-rx 6.12");
	return rc;
}

/* A growable array of fixed-size records. */
struct collector {
	void **items;
	size_t *n;
	size_t size, cap;
	int (*parse)(const struct nlmsghdr *, void *);
	unsigned *malformed;
};

static FILE *capture_fp;

void sb_nd_set_capture(FILE *fp)
{
	capture_fp = fp;
}

static int collect_cb(const struct nlmsghdr *nlh, void *data)
{
	struct collector *c = data;
	char *slot;

	if (capture_fp)
		fwrite(nlh, 1, nlh->nlmsg_len, capture_fp);

	if (*c->n == c->cap) {
		size_t cap = c->cap ? c->cap * 2 : 16;
		void *p = realloc(*c->items, cap * c->size);
		if (!p)
			return SB_NL_CB_ERROR;
		*c->items = p;
		c->cap = cap;
	}
	slot = (char *)*c->items + *c->n * c->size;
	if (c->parse(nlh, slot) == 0)
		(*c->n)++;
	else
		(*c->malformed)++;
	return SB_NL_CB_OK;
}

/* Type-erased parsers for the collector (calling through a cast pointer would be UB). */
#define PARSER_WRAP(name, type) \
	static int parse_##name(const struct nlmsghdr *nlh, void *out) \
	{ return sb_nd_parse_##name(nlh, (type *)out); }
PARSER_WRAP(dev, struct sb_nd_dev)
PARSER_WRAP(queue, struct sb_nd_queue)
PARSER_WRAP(napi, struct sb_nd_napi)
PARSER_WRAP(pool, struct sb_nd_pool)
PARSER_WRAP(pool_stats, struct sb_nd_pool_stats)
PARSER_WRAP(qstats, struct sb_nd_qstats)
#define PARSER(fn) parse_##fn

static int dump(struct sb_genl *g, int cmd, uint32_t ifindex, int ifindex_attr, uint32_t scope,
		struct collector *c, struct sb_err *e)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;

	sb_genl_msg(g, &m, buf, sizeof(buf), (uint8_t)cmd, NLM_F_DUMP);
	if (ifindex && ifindex_attr)
		sb_nl_put_u32(&m, (uint16_t)ifindex_attr, ifindex);
	if (scope)
		sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_SCOPE, scope);
	return sb_genl_talk(g, &m, collect_cb, c, e);
}

static int part_bit(unsigned part)
{
	return __builtin_ctz(part);
}

/* The command that dumps a part, by bit number. */
static const int part_cmd[] = {
	SB_NETDEV_CMD_DEV_GET, SB_NETDEV_CMD_QUEUE_GET, SB_NETDEV_CMD_NAPI_GET,
	SB_NETDEV_CMD_PAGE_POOL_GET, SB_NETDEV_CMD_PAGE_POOL_STATS_GET, SB_NETDEV_CMD_QSTATS_GET,
	SB_NETDEV_CMD_QSTATS_GET,
};

void sb_nd_mark_unsupported(struct sb_nd_state *st, unsigned part, const struct sb_err *pe)
{
	int bit = part_bit(part);
	struct sb_err *pr;
	int cmd;

	if (bit >= (int)(sizeof(part_cmd) / sizeof(part_cmd[0])))
		return;
	cmd = part_cmd[bit];
	pr = &st->part_err[bit];
	*pr = *pe;
	snprintf(pr->object, sizeof(pr->object), "netdev %s", sb_nd_cmd_name(cmd));
	snprintf(pr->what, sizeof(pr->what), "dump");
	if (part == SB_ND_POOL_STATS)
		sb_err_hint(pr, "page-pool stats need CONFIG_PAGE_POOL_STATS=y");
	else
		sb_err_hint(pr, "needs Linux %s", sb_nd_cmd_min_kernel(cmd));
	sb_err_exit(pr, SB_EXIT_UNSUPPORTED);
	st->unsupported |= part;
}

int sb_nd_collect(struct sb_genl *g, unsigned parts, uint32_t ifindex, struct sb_nd_state *st,
		  struct sb_err *e)
{
	struct {
		unsigned part;
		int cmd;
		void *items;
		size_t *n;
		size_t size;
		int (*parse)(const struct nlmsghdr *, void *);
		int ifindex_attr;
		uint32_t scope;
	} plan[] = {
		{ SB_ND_DEVS, SB_NETDEV_CMD_DEV_GET, &st->devs, &st->ndevs, sizeof(*st->devs),
		  PARSER(dev), 0, 0 },
		{ SB_ND_QUEUES, SB_NETDEV_CMD_QUEUE_GET, &st->queues, &st->nqueues, sizeof(*st->queues),
		  PARSER(queue), SB_NETDEV_A_QUEUE_IFINDEX, 0 },
		{ SB_ND_NAPIS, SB_NETDEV_CMD_NAPI_GET, &st->napis, &st->nnapis, sizeof(*st->napis),
		  PARSER(napi), SB_NETDEV_A_NAPI_IFINDEX, 0 },
		{ SB_ND_POOLS, SB_NETDEV_CMD_PAGE_POOL_GET, &st->pools, &st->npools, sizeof(*st->pools),
		  PARSER(pool), 0, 0 },
		{ SB_ND_POOL_STATS, SB_NETDEV_CMD_PAGE_POOL_STATS_GET, &st->pool_stats, &st->npool_stats,
		  sizeof(*st->pool_stats), PARSER(pool_stats), 0, 0 },
		{ SB_ND_QSTATS_QUEUE, SB_NETDEV_CMD_QSTATS_GET, &st->qstats, &st->nqstats,
		  sizeof(*st->qstats), PARSER(qstats), SB_NETDEV_A_QSTATS_IFINDEX,
		  SB_NETDEV_QSTATS_SCOPE_QUEUE },
		{ SB_ND_QSTATS_DEV, SB_NETDEV_CMD_QSTATS_GET, &st->dev_qstats, &st->ndev_qstats,
		  sizeof(*st->dev_qstats), PARSER(qstats), SB_NETDEV_A_QSTATS_IFINDEX, 0 },
	};

	for (size_t i = 0; i < sizeof(plan) / sizeof(plan[0]); i++) {
		struct collector c = { .items = plan[i].items, .n = plan[i].n, .size = plan[i].size,
				       .parse = plan[i].parse, .malformed = &st->malformed };
		struct sb_err pe;
		int rc;

		if (!(parts & plan[i].part))
			continue;
		/* Appending to what an earlier call collected is not supported: start empty. */
		free(*(void **)plan[i].items);
		*(void **)plan[i].items = NULL;
		*plan[i].n = 0;
		sb_err_clear(&pe);
		rc = dump(g, plan[i].cmd, ifindex, plan[i].ifindex_attr, plan[i].scope, &c, &pe);
		if (rc == -EOPNOTSUPP || (rc == -EINVAL && plan[i].cmd != SB_NETDEV_CMD_DEV_GET)) {
			sb_nd_mark_unsupported(st, plan[i].part, &pe);
			continue;
		}
		if (rc) {
			*e = pe;
			snprintf(e->object, sizeof(e->object), "netdev %s", sb_nd_cmd_name(plan[i].cmd));
			if (rc == -EPERM || rc == -EACCES)
				sb_err_hint(e, "needs CAP_NET_ADMIN");
			return rc;
		}
		st->have |= plan[i].part;
	}
	st->family_version = g->version;
	st->boottime_s = sb_nd_boottime_s();
	sb_nd_state_index(st);
	return 0;
}

void sb_nd_state_free(struct sb_nd_state *st)
{
	free(st->devs);
	free(st->queues);
	free(st->napis);
	free(st->pools);
	free(st->pool_stats);
	free(st->qstats);
	free(st->dev_qstats);
	memset(st, 0, sizeof(*st));
}

/* Lookups are binary searches over arrays sorted by sb_nd_state_index(), so a view of
 * thousands of queues stays linear. */
static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

static int cmp_pool_stats(const void *a, const void *b)
{
	return cmp_u64(((const struct sb_nd_pool_stats *)a)->id, ((const struct sb_nd_pool_stats *)b)->id);
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

void sb_nd_state_index(struct sb_nd_state *st)
{
	if (st->npool_stats)
		qsort(st->pool_stats, st->npool_stats, sizeof(*st->pool_stats), cmp_pool_stats);
	if (st->nnapis)
		qsort(st->napis, st->nnapis, sizeof(*st->napis), cmp_napi);
	if (st->nqstats)
		qsort(st->qstats, st->nqstats, sizeof(*st->qstats), cmp_qstats);
	if (st->ndev_qstats)
		qsort(st->dev_qstats, st->ndev_qstats, sizeof(*st->dev_qstats), cmp_qstats);
}

const struct sb_nd_pool_stats *sb_nd_find_pool_stats(const struct sb_nd_state *st, uint64_t id)
{
	struct sb_nd_pool_stats key = { .id = id };

	if (!st->npool_stats)
		return NULL;
	return bsearch(&key, st->pool_stats, st->npool_stats, sizeof(key), cmp_pool_stats);
}

const struct sb_nd_qstats *sb_nd_find_dev_qstats(const struct sb_nd_state *st, uint32_t ifindex)
{
	struct sb_nd_qstats key = { .ifindex = ifindex };

	if (!st->ndev_qstats)
		return NULL;
	return bsearch(&key, st->dev_qstats, st->ndev_qstats, sizeof(key), cmp_qstats);
}

const struct sb_nd_qstats *sb_nd_find_qstats(const struct sb_nd_state *st, uint32_t ifindex,
					     uint32_t type, uint32_t id)
{
	struct sb_nd_qstats key = { .ifindex = ifindex, .queue_type = type, .queue_id = id };

	if (!st->nqstats)
		return NULL;
	return bsearch(&key, st->qstats, st->nqstats, sizeof(key), cmp_qstats);
}

const struct sb_nd_napi *sb_nd_find_napi(const struct sb_nd_state *st, uint32_t id)
{
	struct sb_nd_napi key = { .id = id };

	if (!st->nnapis)
		return NULL;
	return bsearch(&key, st->napis, st->nnapis, sizeof(key), cmp_napi);
}

int sb_nd_state_from_buf(const void *buf, size_t len, struct sb_nd_state *st)
{
	const struct nlmsghdr *nlh;
	ptrdiff_t left = len > PTRDIFF_MAX ? PTRDIFF_MAX : (ptrdiff_t)len;
	int count = 0;
	struct collector cs[] = {
		{ (void **)&st->devs, &st->ndevs, sizeof(*st->devs), 0, parse_dev, &st->malformed },
		{ (void **)&st->queues, &st->nqueues, sizeof(*st->queues), 0, parse_queue, &st->malformed },
		{ (void **)&st->napis, &st->nnapis, sizeof(*st->napis), 0, parse_napi, &st->malformed },
		{ (void **)&st->pools, &st->npools, sizeof(*st->pools), 0, parse_pool, &st->malformed },
		{ (void **)&st->pool_stats, &st->npool_stats, sizeof(*st->pool_stats), 0, parse_pool_stats, &st->malformed },
		{ (void **)&st->qstats, &st->nqstats, sizeof(*st->qstats), 0, parse_qstats, &st->malformed },
		{ (void **)&st->dev_qstats, &st->ndev_qstats, sizeof(*st->dev_qstats), 0, parse_qstats, &st->malformed },
	};

	/* Arrays already there were allocated to their exact size. */
	for (size_t i = 0; i < sizeof(cs) / sizeof(cs[0]); i++)
		cs[i].cap = *cs[i].n;
	sb_nl_msg_for_each(nlh, buf, left) {
		struct collector *c = NULL;
		struct sb_nd_qstats probe;

		count++;
		switch (sb_nd_msg_cmd(nlh)) {
		case SB_NETDEV_CMD_DEV_GET: c = &cs[0]; st->have |= SB_ND_DEVS; break;
		case SB_NETDEV_CMD_QUEUE_GET: c = &cs[1]; st->have |= SB_ND_QUEUES; break;
		case SB_NETDEV_CMD_NAPI_GET: c = &cs[2]; st->have |= SB_ND_NAPIS; break;
		case SB_NETDEV_CMD_PAGE_POOL_GET: c = &cs[3]; st->have |= SB_ND_POOLS; break;
		case SB_NETDEV_CMD_PAGE_POOL_STATS_GET: c = &cs[4]; st->have |= SB_ND_POOL_STATS; break;
		case SB_NETDEV_CMD_QSTATS_GET:
			if (sb_nd_parse_qstats(nlh, &probe) == 0 && !probe.per_queue) {
				c = &cs[6];
				st->have |= SB_ND_QSTATS_DEV;
			} else {
				c = &cs[5];
				st->have |= SB_ND_QSTATS_QUEUE;
			}
			break;
		default:
			st->malformed++;
			continue;
		}
		if (collect_cb(nlh, c) != SB_NL_CB_OK)
			return -ENOMEM;
	}
	sb_nd_state_index(st);
	return left == 0 ? count : -EINVAL;
}
