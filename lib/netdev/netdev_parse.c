// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers of netdev family messages into plain structs; no sockets here. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <string.h>
#include <time.h>

#include "socbox/netdev.h"

/* The spec's "uint": 4 or 8 bytes on the wire. */
static int attr_uint(const struct nlattr *a, uint64_t *v)
{
	uint32_t v32;

	if (sb_nl_attr_u32(a, &v32) == 0) {
		*v = v32;
		return 0;
	}
	return sb_nl_attr_u64(a, v);
}

/* The payload after the genl header when nlh is a well-formed message of cmd. */
static int check_msg(const struct nlmsghdr *nlh, int cmd)
{
	int got = sb_nd_msg_cmd(nlh);

	if (got < 0)
		return got;
	return got == cmd ? 0 : -EINVAL;
}

int sb_nd_msg_cmd(const struct nlmsghdr *nlh)
{
	const struct genlmsghdr *gh;

	if (nlh->nlmsg_len < sizeof(*nlh) + sizeof(*gh))
		return -EINVAL;
	gh = sb_nl_msg_payload(nlh);
	return gh->cmd;
}

/* Iterate attributes but stop at the first one that does not fit (truncated message). */
#define for_each_attr(a, nlh) sb_nl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))

/* The walk stops silently at a truncated attribute; a well-formed message ends exactly at
 * the end of its last attribute. */
static bool attrs_complete(const struct nlmsghdr *nlh, const struct nlattr *last_end)
{
	return (const char *)last_end >= (const char *)sb_nl_msg_end(nlh);
}

int sb_nd_parse_dev(const struct nlmsghdr *nlh, struct sb_nd_dev *d)
{
	const struct nlattr *a;
	bool have_ifindex = false;
	int rc = check_msg(nlh, SB_NETDEV_CMD_DEV_GET);

	if (rc) {
		int cmd = sb_nd_msg_cmd(nlh);
		if (cmd < SB_NETDEV_CMD_DEV_ADD_NTF || cmd > SB_NETDEV_CMD_DEV_CHANGE_NTF)
			return -EINVAL;
	}
	memset(d, 0, sizeof(*d));
	for_each_attr(a, nlh) {
		switch (sb_nl_attr_type(a)) {
		case SB_NETDEV_A_DEV_IFINDEX:
			if (sb_nl_attr_u32(a, &d->ifindex))
				return -EINVAL;
			have_ifindex = true;
			break;
		case SB_NETDEV_A_DEV_XDP_FEATURES:
			sb_nl_attr_u64(a, &d->xdp_features);
			break;
		case SB_NETDEV_A_DEV_XDP_ZC_MAX_SEGS:
			sb_nl_attr_u32(a, &d->xdp_zc_max_segs);
			break;
		case SB_NETDEV_A_DEV_XDP_RX_METADATA_FEATURES:
			sb_nl_attr_u64(a, &d->xdp_rx_metadata_features);
			break;
		case SB_NETDEV_A_DEV_XSK_FEATURES:
			sb_nl_attr_u64(a, &d->xsk_features);
			break;
		}
	}
	if (!attrs_complete(nlh, a))
		return -EINVAL;
	return have_ifindex ? 0 : -EINVAL;
}

static void parse_lease(const struct nlattr *lease, struct sb_nd_queue *q)
{
	const struct nlattr *a, *n;
	uint32_t v;

	q->leased = true;
	sb_nl_attr_for_each_nested(a, lease) {
		switch (sb_nl_attr_type(a)) {
		case SB_NETDEV_A_LEASE_IFINDEX:
			sb_nl_attr_u32(a, &q->lease_ifindex);
			break;
		case SB_NETDEV_A_LEASE_QUEUE:
			sb_nl_attr_for_each_nested(n, a) {
				if (sb_nl_attr_type(n) == SB_NETDEV_A_QUEUE_ID)
					sb_nl_attr_u32(n, &q->lease_queue_id);
				else if (sb_nl_attr_type(n) == SB_NETDEV_A_QUEUE_TYPE)
					sb_nl_attr_u32(n, &q->lease_queue_type);
			}
			break;
		case SB_NETDEV_A_LEASE_NETNS_ID:
			if (sb_nl_attr_u32(a, &v) == 0)
				q->lease_netns_id = (int32_t)v;
			break;
		}
	}
}

int sb_nd_parse_queue(const struct nlmsghdr *nlh, struct sb_nd_queue *q)
{
	const struct nlattr *a;
	unsigned seen = 0;

	if (check_msg(nlh, SB_NETDEV_CMD_QUEUE_GET))
		return -EINVAL;
	memset(q, 0, sizeof(*q));
	for_each_attr(a, nlh) {
		switch (sb_nl_attr_type(a)) {
		case SB_NETDEV_A_QUEUE_ID:
			if (sb_nl_attr_u32(a, &q->id))
				return -EINVAL;
			seen |= 1;
			break;
		case SB_NETDEV_A_QUEUE_IFINDEX:
			if (sb_nl_attr_u32(a, &q->ifindex))
				return -EINVAL;
			seen |= 2;
			break;
		case SB_NETDEV_A_QUEUE_TYPE:
			if (sb_nl_attr_u32(a, &q->type))
				return -EINVAL;
			seen |= 4;
			break;
		case SB_NETDEV_A_QUEUE_NAPI_ID:
			sb_nl_attr_u32(a, &q->napi_id);
			break;
		case SB_NETDEV_A_QUEUE_DMABUF:
			sb_nl_attr_u32(a, &q->dmabuf);
			break;
		case SB_NETDEV_A_QUEUE_IO_URING:
			q->io_uring = true;
			break;
		case SB_NETDEV_A_QUEUE_XSK:
			q->xsk = true;
			break;
		case SB_NETDEV_A_QUEUE_LEASE:
			parse_lease(a, q);
			break;
		}
	}
	if (!attrs_complete(nlh, a))
		return -EINVAL;
	return seen == 7 ? 0 : -EINVAL;
}

int sb_nd_parse_napi(const struct nlmsghdr *nlh, struct sb_nd_napi *n)
{
	const struct nlattr *a;
	unsigned seen = 0;

	if (check_msg(nlh, SB_NETDEV_CMD_NAPI_GET))
		return -EINVAL;
	memset(n, 0, sizeof(*n));
	for_each_attr(a, nlh) {
		switch (sb_nl_attr_type(a)) {
		case SB_NETDEV_A_NAPI_IFINDEX:
			if (sb_nl_attr_u32(a, &n->ifindex))
				return -EINVAL;
			seen |= 1;
			break;
		case SB_NETDEV_A_NAPI_ID:
			if (sb_nl_attr_u32(a, &n->id))
				return -EINVAL;
			seen |= 2;
			break;
		case SB_NETDEV_A_NAPI_IRQ:
			if (!sb_nl_attr_u32(a, &n->irq))
				n->has |= SB_ND_NAPI_IRQ;
			break;
		case SB_NETDEV_A_NAPI_PID:
			if (!sb_nl_attr_u32(a, &n->pid))
				n->has |= SB_ND_NAPI_PID;
			break;
		case SB_NETDEV_A_NAPI_DEFER_HARD_IRQS:
			if (!sb_nl_attr_u32(a, &n->defer_hard_irqs))
				n->has |= SB_ND_NAPI_DEFER;
			break;
		case SB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT:
			if (!attr_uint(a, &n->gro_flush_timeout_ns))
				n->has |= SB_ND_NAPI_GRO_FLUSH;
			break;
		case SB_NETDEV_A_NAPI_IRQ_SUSPEND_TIMEOUT:
			if (!attr_uint(a, &n->irq_suspend_timeout_ns))
				n->has |= SB_ND_NAPI_IRQ_SUSPEND;
			break;
		case SB_NETDEV_A_NAPI_THREADED:
			if (!sb_nl_attr_u32(a, &n->threaded))
				n->has |= SB_ND_NAPI_THREADED;
			break;
		}
	}
	if (!attrs_complete(nlh, a))
		return -EINVAL;
	return seen == 3 ? 0 : -EINVAL;
}

static int parse_pool_attrs(const struct nlmsghdr *nlh, struct sb_nd_pool *p)
{
	const struct nlattr *a;
	uint64_t v;
	bool have_id = false;

	memset(p, 0, sizeof(*p));
	for_each_attr(a, nlh) {
		switch (sb_nl_attr_type(a)) {
		case SB_NETDEV_A_PAGE_POOL_ID:
			if (attr_uint(a, &p->id) || p->id == 0)
				return -EINVAL;
			have_id = true;
			break;
		case SB_NETDEV_A_PAGE_POOL_IFINDEX:
			sb_nl_attr_u32(a, &p->ifindex);
			break;
		case SB_NETDEV_A_PAGE_POOL_NAPI_ID:
			if (!attr_uint(a, &p->napi_id))
				p->has |= SB_ND_POOL_NAPI;
			break;
		case SB_NETDEV_A_PAGE_POOL_INFLIGHT:
			if (!attr_uint(a, &p->inflight))
				p->has |= SB_ND_POOL_INFLIGHT;
			break;
		case SB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM:
			if (!attr_uint(a, &p->inflight_mem))
				p->has |= SB_ND_POOL_INFLIGHT_MEM;
			break;
		case SB_NETDEV_A_PAGE_POOL_DETACH_TIME:
			if (!attr_uint(a, &v)) {
				p->detach_time = v;
				p->has |= SB_ND_POOL_DETACHED;
			}
			break;
		case SB_NETDEV_A_PAGE_POOL_DMABUF:
			if (!sb_nl_attr_u32(a, &p->dmabuf))
				p->has |= SB_ND_POOL_DMABUF;
			break;
		case SB_NETDEV_A_PAGE_POOL_IO_URING: {
			const struct nlattr *n;
			p->has |= SB_ND_POOL_IO_URING;
			sb_nl_attr_for_each_nested(n, a)
				if (sb_nl_attr_type(n) == SB_NETDEV_A_IO_URING_RX_BUF_LEN)
					attr_uint(n, &p->io_uring_rx_buf_len);
			break;
		}
		}
	}
	if (!attrs_complete(nlh, a))
		return -EINVAL;
	return have_id ? 0 : -EINVAL;
}

int sb_nd_parse_pool(const struct nlmsghdr *nlh, struct sb_nd_pool *p)
{
	int cmd = sb_nd_msg_cmd(nlh);

	if (cmd != SB_NETDEV_CMD_PAGE_POOL_GET &&
	    (cmd < SB_NETDEV_CMD_PAGE_POOL_ADD_NTF || cmd > SB_NETDEV_CMD_PAGE_POOL_CHANGE_NTF))
		return -EINVAL;
	return parse_pool_attrs(nlh, p);
}

int sb_nd_parse_pool_stats(const struct nlmsghdr *nlh, struct sb_nd_pool_stats *s)
{
	const struct nlattr *a, *n;
	bool have_id = false;

	if (check_msg(nlh, SB_NETDEV_CMD_PAGE_POOL_STATS_GET))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	for_each_attr(a, nlh) {
		int type = sb_nl_attr_type(a);
		if (type == SB_NETDEV_A_PAGE_POOL_STATS_INFO) {
			sb_nl_attr_for_each_nested(n, a) {
				if (sb_nl_attr_type(n) == SB_NETDEV_A_PAGE_POOL_ID &&
				    !attr_uint(n, &s->id) && s->id)
					have_id = true;
				else if (sb_nl_attr_type(n) == SB_NETDEV_A_PAGE_POOL_IFINDEX)
					sb_nl_attr_u32(n, &s->ifindex);
			}
		} else if (type >= SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST &&
			   type <= SB_NETDEV_A_PAGE_POOL_STATS_MAX) {
			if (!attr_uint(a, &s->v[type]))
				s->has |= 1ull << type;
		}
	}
	if (!attrs_complete(nlh, a))
		return -EINVAL;
	return have_id ? 0 : -EINVAL;
}

int sb_nd_parse_qstats(const struct nlmsghdr *nlh, struct sb_nd_qstats *s)
{
	const struct nlattr *a;
	bool have_ifindex = false, have_type = false, have_id = false;

	if (check_msg(nlh, SB_NETDEV_CMD_QSTATS_GET))
		return -EINVAL;
	memset(s, 0, sizeof(*s));
	for_each_attr(a, nlh) {
		int type = sb_nl_attr_type(a);
		switch (type) {
		case SB_NETDEV_A_QSTATS_IFINDEX:
			if (sb_nl_attr_u32(a, &s->ifindex))
				return -EINVAL;
			have_ifindex = true;
			break;
		case SB_NETDEV_A_QSTATS_QUEUE_TYPE:
			have_type = !sb_nl_attr_u32(a, &s->queue_type);
			break;
		case SB_NETDEV_A_QSTATS_QUEUE_ID:
			have_id = !sb_nl_attr_u32(a, &s->queue_id);
			break;
		default:
			if (type >= SB_NETDEV_A_QSTATS_RX_PACKETS &&
			    type <= SB_NETDEV_A_QSTATS_MAX && !attr_uint(a, &s->v[type]))
				s->has |= 1ull << type;
			break;
		}
	}
	if (!attrs_complete(nlh, a) || !have_ifindex || have_type != have_id)
		return -EINVAL;
	s->per_queue = have_type;
	return 0;
}

int sb_nd_parse_event(const struct nlmsghdr *nlh, struct sb_nd_event *ev)
{
	int cmd = sb_nd_msg_cmd(nlh);

	memset(ev, 0, sizeof(*ev));
	ev->cmd = cmd;
	switch (cmd) {
	case SB_NETDEV_CMD_DEV_ADD_NTF:
	case SB_NETDEV_CMD_DEV_DEL_NTF:
	case SB_NETDEV_CMD_DEV_CHANGE_NTF:
		return sb_nd_parse_dev(nlh, &ev->dev);
	case SB_NETDEV_CMD_PAGE_POOL_ADD_NTF:
	case SB_NETDEV_CMD_PAGE_POOL_DEL_NTF:
	case SB_NETDEV_CMD_PAGE_POOL_CHANGE_NTF:
		ev->is_pool = true;
		return parse_pool_attrs(nlh, &ev->pool);
	default:
		return -EINVAL;
	}
}

const char *sb_nd_event_action(int cmd)
{
	switch (cmd) {
	case SB_NETDEV_CMD_DEV_ADD_NTF:
	case SB_NETDEV_CMD_PAGE_POOL_ADD_NTF:
		return "add";
	case SB_NETDEV_CMD_DEV_DEL_NTF:
	case SB_NETDEV_CMD_PAGE_POOL_DEL_NTF:
		return "delete";
	case SB_NETDEV_CMD_DEV_CHANGE_NTF:
	case SB_NETDEV_CMD_PAGE_POOL_CHANGE_NTF:
		return "change";
	default:
		return "?";
	}
}

const char *sb_nd_queue_type_name(uint32_t type)
{
	return type == SB_NETDEV_QUEUE_TYPE_RX ? "rx"
	       : type == SB_NETDEV_QUEUE_TYPE_TX
		       ? "tx"
		       : "?";
}

double sb_nd_recycle_rate(const struct sb_nd_pool_stats *s)
{
	static const int recycled_ids[] = {
		SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED, SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING
	};
	static const int released_ids[] = { SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL,
					    SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT };
	double recycled = 0, released = 0;

	if (!s)
		return -1;
	for (size_t i = 0; i < 2; i++) {
		if (!sb_nd_has(s->has, recycled_ids[i]) || !sb_nd_has(s->has, released_ids[i]))
			return -1;
		recycled += (double)s->v[recycled_ids[i]];
		released += (double)s->v[released_ids[i]];
	}
	if (recycled + released <= 0)
		return -1;
	return recycled / (recycled + released);
}

bool sb_nd_pool_leaked(const struct sb_nd_pool *p, uint64_t now_boottime_s, uint64_t *age_s)
{
	bool holding = (p->has & SB_ND_POOL_INFLIGHT && p->inflight) ||
		       (p->has & SB_ND_POOL_INFLIGHT_MEM && p->inflight_mem);

	if (!(p->has & SB_ND_POOL_DETACHED) || !holding)
		return false;
	if (age_s)
		*age_s = now_boottime_s > p->detach_time ? now_boottime_s - p->detach_time : 0;
	return true;
}

uint64_t sb_nd_boottime_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_BOOTTIME, &ts);
	return (uint64_t)ts.tv_sec;
}
