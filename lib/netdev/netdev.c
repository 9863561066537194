// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev family requests: dumps into a struct sb_nd_state. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/netdev.h"
#include "socbox/probe.h"
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
	for (size_t i = 0; i < ARRAY_SIZE(cmd_info); i++)
		if (cmd_info[i].cmd == cmd)
			return cmd_info[i].since;
	return "?";
}

const char *sb_nd_cmd_name(int cmd)
{
	for (size_t i = 0; i < ARRAY_SIZE(cmd_info); i++)
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

static int dump(struct sb_genl *g, const struct sb_nd_part_desc *d, uint32_t ifindex,
		struct collector *c, struct sb_err *e)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;

	sb_genl_msg(g, &m, buf, sizeof(buf), (uint8_t)d->cmd, NLM_F_DUMP);
	if (ifindex && d->ifindex_attr)
		sb_nl_put_u32(&m, (uint16_t)d->ifindex_attr, ifindex);
	if (d->scope)
		sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_SCOPE, d->scope);
	return sb_genl_talk(g, &m, collect_cb, c, e);
}

static struct collector collector_of(struct sb_nd_state *st, const struct sb_nd_part_desc *d)
{
	return (struct collector){
		.items = sb_nd_part_items(st, d),
		.n = sb_nd_part_count(st, d),
		.size = d->size,
		.parse = d->parse,
		.malformed = &st->malformed
	};
}

void sb_nd_mark_unsupported(struct sb_nd_state *st, unsigned part, const struct sb_err *pe)
{
	int bit = __builtin_ctz(part);
	const struct sb_nd_part_desc *d;
	struct sb_err *pr;

	if (bit >= SB_ND_NPARTS)
		return;
	d = &sb_nd_parts[bit];
	pr = &st->part_err[bit];
	*pr = *pe;
	snprintf(pr->object, sizeof(pr->object), "netdev %s", sb_nd_cmd_name(d->cmd));
	snprintf(pr->what, sizeof(pr->what), "dump");
	if (d->needs)
		sb_err_hint(pr, "%s", d->needs);
	else
		sb_err_hint(pr, "needs Linux %s", sb_nd_cmd_min_kernel(d->cmd));
	sb_err_exit(pr, SB_EXIT_UNSUPPORTED);
	st->unsupported |= part;
}

int sb_nd_collect(struct sb_genl *g, unsigned parts, uint32_t ifindex, struct sb_nd_state *st,
		  struct sb_err *e)
{
	for (size_t i = 0; i < SB_ND_NPARTS; i++) {
		const struct sb_nd_part_desc *d = &sb_nd_parts[i];
		struct collector c;
		struct sb_err pe;
		int rc;

		if (!(parts & d->part))
			continue;
		/* Appending to what an earlier call collected is not supported: start empty. */
		sb_nd_part_drop(st, d);
		c = collector_of(st, d);
		sb_err_clear(&pe);
		rc = dump(g, d, ifindex, &c, &pe);
		/* dev-get came with the family: EINVAL there is a refusal, not an old kernel */
		if (sb_kernel_lacks(-rc) && !(rc == -EINVAL && d->cmd == SB_NETDEV_CMD_DEV_GET)) {
			sb_nd_mark_unsupported(st, d->part, &pe);
			continue;
		}
		if (rc) {
			*e = pe;
			snprintf(e->object, sizeof(e->object), "netdev %s", sb_nd_cmd_name(d->cmd));
			if (rc == -EPERM || rc == -EACCES)
				sb_err_hint(e, "needs CAP_NET_ADMIN");
			return rc;
		}
		st->have |= d->part;
	}
	st->family_version = g->version;
	st->boottime_s = sb_nd_boottime_s();
	sb_nd_state_index(st);
	return 0;
}

/* The lookups search the arrays sb_nd_state_index() sorted, in their part's order. */
static const void *find(const struct sb_nd_state *st, unsigned part, const void *key)
{
	const struct sb_nd_part_desc *d = &sb_nd_parts[__builtin_ctz(part)];
	size_t n = *(const size_t *)((const char *)st + d->n_off);
	const void *items = *(void *const *)((const char *)st + d->items_off);

	return n ? bsearch(key, items, n, d->size, d->cmp) : NULL;
}

const struct sb_nd_pool_stats *sb_nd_find_pool_stats(const struct sb_nd_state *st, uint64_t id)
{
	struct sb_nd_pool_stats key = { .id = id };

	return find(st, SB_ND_POOL_STATS, &key);
}

const struct sb_nd_qstats *sb_nd_find_dev_qstats(const struct sb_nd_state *st, uint32_t ifindex)
{
	struct sb_nd_qstats key = { .ifindex = ifindex };

	return find(st, SB_ND_QSTATS_DEV, &key);
}

const struct sb_nd_qstats *sb_nd_find_qstats(
	const struct sb_nd_state *st, uint32_t ifindex, uint32_t type, uint32_t id)
{
	struct sb_nd_qstats key = { .ifindex = ifindex, .queue_type = type, .queue_id = id };

	return find(st, SB_ND_QSTATS_QUEUE, &key);
}

const struct sb_nd_napi *sb_nd_find_napi(const struct sb_nd_state *st, uint32_t id)
{
	struct sb_nd_napi key = { .id = id };

	return find(st, SB_ND_NAPIS, &key);
}

int sb_nd_state_from_buf(const void *buf, size_t len, struct sb_nd_state *st)
{
	const struct nlmsghdr *nlh;
	ptrdiff_t left = len > PTRDIFF_MAX ? PTRDIFF_MAX : (ptrdiff_t)len;
	struct collector cs[SB_ND_NPARTS];
	int count = 0;

	/* Arrays already there were allocated to their exact size. */
	for (size_t i = 0; i < SB_ND_NPARTS; i++) {
		cs[i] = collector_of(st, &sb_nd_parts[i]);
		cs[i].cap = *cs[i].n;
	}
	sb_nl_msg_for_each(nlh, buf, left) {
		const struct sb_nd_part_desc *d = sb_nd_part_of_msg(nlh);

		count++;
		if (!d) {
			st->malformed++;
			continue;
		}
		st->have |= d->part;
		if (collect_cb(nlh, &cs[d - sb_nd_parts]) != SB_NL_CB_OK)
			return -ENOMEM;
	}
	sb_nd_state_index(st);
	return left == 0 ? count : -EINVAL;
}
