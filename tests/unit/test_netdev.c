// SPDX-License-Identifier: GPL-2.0-or-later
/* netdev family parsers: captured host messages (tests/fixtures/netlink/) and built ones,
 * plus truncated, oversized, unknown-attribute and garbage input; leak and recycle logic. */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../lib/netdev/netdev_priv.h"
#include "socbox/netdev.h"
#include "socbox/uapi/udmabuf.h" /* with netdev.h: devmemstat bind needs both */
#include "testutil.h"

static char *load(const char *rel, size_t *len)
{
	FILE *f = fopen(tu_fixture(rel), "rb");
	char *buf = malloc(1 << 20);

	ck_assert_ptr_nonnull(f);
	*len = fread(buf, 1, 1 << 20, f);
	fclose(f);
	return buf;
}

/* Start a netdev message in buf (cap bytes) built through m. */
static struct nlmsghdr *msg(struct sb_nl_msg *m, void *buf, size_t cap, uint8_t cmd)
{
	struct nlmsghdr *nlh = sb_nl_msg_init(m, buf, cap);
	struct genlmsghdr *gh = sb_nl_msg_put_extra(m, sizeof(*gh));

	nlh->nlmsg_type = 20;
	gh->cmd = cmd;
	gh->version = 1;
	return nlh;
}

START_TEST(captured_veth_dump)
{
	size_t len;
	char *buf = load("netlink/host-veth-show.nl", &len);
	struct sb_nd_state st = { 0 };
	int n = sb_nd_state_from_buf(buf, len, &st);

	ck_assert_int_gt(n, 0);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.ndevs, 2); /* lo and the veth */
	ck_assert_uint_eq(st.devs[0].ifindex, 1);
	ck_assert_uint_eq(st.devs[1].ifindex, 2);
	ck_assert_uint_eq(st.nqueues, 2);
	ck_assert_uint_eq(st.queues[0].ifindex, 2);
	ck_assert_uint_eq(st.queues[0].type, SB_NETDEV_QUEUE_TYPE_RX);
	ck_assert_uint_eq(st.queues[1].type, SB_NETDEV_QUEUE_TYPE_TX);
	ck_assert_uint_eq(st.nnapis, 1); /* GRO on: the veth has a NAPI */
	ck_assert_uint_eq(st.napis[0].ifindex, 2);
	ck_assert_uint_gt(st.napis[0].id, 0);
	ck_assert_uint_eq(st.napis[0].ifindex, st.queues[0].ifindex);
	sb_nd_state_free(&st);
	free(buf);
}
END_TEST

START_TEST(captured_qstats)
{
	size_t len;
	char *buf = load("netlink/host-eth0-qstats.nl", &len);
	struct sb_nd_state st = { 0 };
	const struct sb_nd_qstats *d;

	ck_assert_int_eq(sb_nd_state_from_buf(buf, len, &st), 3);
	ck_assert_uint_eq(st.ndev_qstats, 1);
	ck_assert_uint_eq(st.nqstats, 2);
	d = sb_nd_find_dev_qstats(&st, st.dev_qstats[0].ifindex);
	ck_assert_ptr_nonnull(d);
	ck_assert(sb_nd_has(d->has, SB_NETDEV_A_QSTATS_RX_BYTES));
	ck_assert_uint_gt(d->v[SB_NETDEV_A_QSTATS_RX_BYTES], 0);
	ck_assert_ptr_nonnull(sb_nd_find_qstats(&st, d->ifindex, SB_NETDEV_QUEUE_TYPE_TX, 0));
	sb_nd_state_free(&st);
	free(buf);
}
END_TEST

/* Captured in the QEMU guest (test kernel, CONFIG_PAGE_POOL_STATS=y): virtio-net eth0
 * (ifindex 2) after some pings and a netdevsim netdev (ifindex 3) brought up. */
START_TEST(captured_vm_pools)
{
	size_t len;
	char *buf = load("netlink/vm-virtio-netdevsim-show.nl", &len);
	struct sb_nd_state st = { 0 };
	const struct sb_nd_pool_stats *s;

	ck_assert_int_gt(sb_nd_state_from_buf(buf, len, &st), 0);
	ck_assert_uint_eq(st.malformed, 0);
	ck_assert_uint_eq(st.ndevs, 3);
	ck_assert_uint_eq(st.npools, 2);
	ck_assert_uint_eq(st.pools[0].id, 3);
	ck_assert_uint_eq(st.pools[0].ifindex, 2);
	ck_assert_uint_eq(st.pools[0].napi_id, 3);
	ck_assert_uint_eq(st.pools[0].inflight, 128);
	ck_assert_uint_eq(st.pools[0].inflight_mem, 524288);
	ck_assert(!(st.pools[0].has & SB_ND_POOL_DETACHED));
	ck_assert_uint_eq(st.pools[1].ifindex, 3);
	ck_assert_uint_eq(st.npool_stats, 2);
	s = sb_nd_find_pool_stats(&st, 3);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->ifindex, 2);
	ck_assert_uint_eq(s->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST], 126);
	ck_assert_uint_eq(s->v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW], 2);
	ck_assert_uint_eq(s->v[SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED], 11);
	ck_assert_double_eq_tol(sb_nd_recycle_rate(s), 1.0, 1e-9);
	/* netdevsim's pool has seen nothing come back yet. */
	ck_assert(sb_nd_recycle_rate(sb_nd_find_pool_stats(&st, 4)) < 0);
	ck_assert(!sb_nd_pool_leaked(&st.pools[0], 1000, NULL));
	sb_nd_state_free(&st);
	free(buf);

	buf = load("netlink/vm-virtio-qstats.nl", &len);
	ck_assert_int_gt(sb_nd_state_from_buf(buf, len, &st), 0);
	ck_assert_ptr_nonnull(sb_nd_find_dev_qstats(&st, 2));
	ck_assert_ptr_nonnull(sb_nd_find_qstats(&st, 2, SB_NETDEV_QUEUE_TYPE_RX, 0));
	ck_assert_uint_eq(st.malformed, 0);
	sb_nd_state_free(&st);
	free(buf);
}
END_TEST

START_TEST(captured_truncated)
{
	size_t len;
	char *buf = load("netlink/host-veth-show.nl", &len);
	struct sb_nd_state st = { 0 };

	/* Cut in the middle of the last message: the whole ones still parse. */
	ck_assert_int_eq(sb_nd_state_from_buf(buf, len - 6, &st), -EINVAL);
	ck_assert_uint_eq(st.ndevs, 2);
	sb_nd_state_free(&st);
	free(buf);
}
END_TEST

START_TEST(pool_all_attrs_unknown_skipped)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_GET);
	struct sb_nd_pool p;
	struct nlattr *nest;

	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 7); /* uint as 4 bytes */
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_IFINDEX, 3);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_NAPI_ID, 8193); /* uint as 8 bytes */
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_INFLIGHT, 512);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM, 2097152);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_DMABUF, 4);
	nest = sb_nl_nest_start(&m, SB_NETDEV_A_PAGE_POOL_IO_URING);
	sb_nl_put_u32(&m, SB_NETDEV_A_IO_URING_RX_BUF_LEN, 32768);
	sb_nl_nest_end(&m, nest);
	sb_nl_put_u32(&m, 77, 0xdead); /* from a newer kernel */
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), 0);
	ck_assert_uint_eq(p.id, 7);
	ck_assert_uint_eq(p.ifindex, 3);
	ck_assert_uint_eq(p.napi_id, 8193);
	ck_assert_uint_eq(p.inflight, 512);
	ck_assert_uint_eq(p.inflight_mem, 2097152);
	ck_assert_uint_eq(p.dmabuf, 4);
	ck_assert(p.has & SB_ND_POOL_IO_URING);
	ck_assert_uint_eq(p.io_uring_rx_buf_len, 32768);
	ck_assert(!(p.has & SB_ND_POOL_DETACHED));
}
END_TEST

START_TEST(pool_malformed)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_GET);
	struct sb_nd_pool p;
	struct nlattr *a;

	/* No id. */
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_IFINDEX, 3);
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
	/* Id of a size "uint" cannot have. */
	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_GET);
	sb_nl_put_u16(&m, SB_NETDEV_A_PAGE_POOL_ID, 7);
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
	/* Oversized: an attribute claiming more than the message holds. */
	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 7);
	a = (struct nlattr *)((char *)nlh + nlh->nlmsg_len);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_INFLIGHT, 1);
	a->nla_len = 400;
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
	/* Truncated: the message ends inside an attribute. */
	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 7);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_INFLIGHT_MEM, 1);
	nlh->nlmsg_len -= 6;
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
	/* Not even a genl header. */
	nlh->nlmsg_len = sizeof(*nlh) + 2;
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
	/* Another command. */
	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_QUEUE_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 7);
	ck_assert_int_eq(sb_nd_parse_pool(nlh, &p), -EINVAL);
}
END_TEST

START_TEST(pool_stats_and_recycle_rate)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_STATS_GET);
	struct sb_nd_pool_stats s;
	struct nlattr *info = sb_nl_nest_start(&m, SB_NETDEV_A_PAGE_POOL_STATS_INFO);

	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 9);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_IFINDEX, 2);
	sb_nl_nest_end(&m, info);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST, 1000);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_SLOW, 24);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_CACHED, 600);
	sb_nl_put_u64(&m, SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING, 300);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL, 50);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RELEASED_REFCNT, 50);
	sb_nl_put_u64(&m, 5, 123); /* reserved id: ignored */
	ck_assert_int_eq(sb_nd_parse_pool_stats(nlh, &s), 0);
	ck_assert_uint_eq(s.id, 9);
	ck_assert_uint_eq(s.ifindex, 2);
	ck_assert_uint_eq(s.v[SB_NETDEV_A_PAGE_POOL_STATS_ALLOC_FAST], 1000);
	ck_assert(!sb_nd_has(s.has, 5));
	ck_assert_double_eq_tol(sb_nd_recycle_rate(&s), 0.9, 1e-9);
	/* Without the released counters there is no rate. */
	s.has &= ~(1ull << SB_NETDEV_A_PAGE_POOL_STATS_RECYCLE_RING_FULL);
	ck_assert(sb_nd_recycle_rate(&s) < 0);
	ck_assert(sb_nd_recycle_rate(NULL) < 0);
	/* A pool nothing came back to yet. */
	memset(&s, 0, sizeof(s));
	s.has = ~0ull;
	ck_assert(sb_nd_recycle_rate(&s) < 0);
}
END_TEST

START_TEST(leak_detection)
{
	struct sb_nd_pool p = {
		.id = 1,
		.inflight = 3,
		.inflight_mem = 12288,
		.has = SB_ND_POOL_INFLIGHT | SB_ND_POOL_INFLIGHT_MEM
	};
	uint64_t age = 0;

	ck_assert(!sb_nd_pool_leaked(&p, 1000, &age)); /* attached: in use, not leaked */
	p.has |= SB_ND_POOL_DETACHED;
	p.detach_time = 400;
	ck_assert(sb_nd_pool_leaked(&p, 1000, &age));
	ck_assert_uint_eq(age, 600);
	p.detach_time = 2000; /* clock from another boot: never negative */
	ck_assert(sb_nd_pool_leaked(&p, 1000, &age));
	ck_assert_uint_eq(age, 0);
	p.inflight = 0;
	p.inflight_mem = 0; /* detached and empty: about to be freed */
	ck_assert(!sb_nd_pool_leaked(&p, 1000, &age));
	p.has &= ~(unsigned)SB_ND_POOL_INFLIGHT;
	p.inflight_mem = 4096; /* only the memory counter known */
	ck_assert(sb_nd_pool_leaked(&p, 1000, NULL));
}
END_TEST

START_TEST(qstats_scope_and_unknown)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_QSTATS_GET);
	struct sb_nd_qstats s;

	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_IFINDEX, 5);
	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_QUEUE_TYPE, SB_NETDEV_QUEUE_TYPE_RX);
	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_QUEUE_ID, 3);
	sb_nl_put_u64(&m, SB_NETDEV_A_QSTATS_RX_BYTES, 1ull << 40);
	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_TX_WAKE, 2);
	sb_nl_put_u64(&m, 63, 1);  /* newer counter */
	sb_nl_put_u64(&m, 200, 1); /* far beyond any bitmask */
	ck_assert_int_eq(sb_nd_parse_qstats(nlh, &s), 0);
	ck_assert(s.per_queue);
	ck_assert_uint_eq(s.queue_id, 3);
	ck_assert_uint_eq(s.v[SB_NETDEV_A_QSTATS_RX_BYTES], 1ull << 40);
	ck_assert_uint_eq(s.v[SB_NETDEV_A_QSTATS_TX_WAKE], 2);
	ck_assert(!sb_nd_has(s.has, SB_NETDEV_A_QSTATS_TX_BYTES));
	/* A queue type without its id is inconsistent. */
	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_QSTATS_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_IFINDEX, 5);
	sb_nl_put_u32(&m, SB_NETDEV_A_QSTATS_QUEUE_TYPE, 0);
	ck_assert_int_eq(sb_nd_parse_qstats(nlh, &s), -EINVAL);
}
END_TEST

START_TEST(queue_napi_dev)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_QUEUE_GET);
	struct sb_nd_queue q;
	struct sb_nd_napi n;
	struct sb_nd_dev d;
	struct nlattr *x;

	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_ID, 2);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_IFINDEX, 4);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_TYPE, SB_NETDEV_QUEUE_TYPE_RX);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_NAPI_ID, 8200);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_DMABUF, 11);
	x = sb_nl_nest_start(&m, SB_NETDEV_A_QUEUE_XSK);
	sb_nl_nest_end(&m, x);
	x = sb_nl_nest_start(&m, SB_NETDEV_A_QUEUE_LEASE); /* 7.x */
	sb_nl_put_u32(&m, SB_NETDEV_A_LEASE_IFINDEX, 9);
	{
		struct nlattr *qn = sb_nl_nest_start(&m, SB_NETDEV_A_LEASE_QUEUE);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_ID, 5);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_TYPE, SB_NETDEV_QUEUE_TYPE_RX);
		sb_nl_nest_end(&m, qn);
	}
	sb_nl_put_u32(&m, SB_NETDEV_A_LEASE_NETNS_ID, (uint32_t)-1);
	sb_nl_put_u32(&m, 99, 1); /* unknown inside the nest */
	sb_nl_nest_end(&m, x);
	ck_assert_int_eq(sb_nd_parse_queue(nlh, &q), 0);
	ck_assert_uint_eq(q.dmabuf, 11);
	ck_assert(q.xsk);
	ck_assert(!q.io_uring);
	ck_assert(q.leased);
	ck_assert_uint_eq(q.lease_ifindex, 9);
	ck_assert_uint_eq(q.lease_queue_id, 5);
	ck_assert_int_eq(q.lease_netns_id, -1);
	ck_assert_str_eq(sb_nd_queue_type_name(q.type), "rx");

	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_QUEUE_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_ID, 2);
	sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_TYPE, 1);
	ck_assert_int_eq(sb_nd_parse_queue(nlh, &q), -EINVAL); /* no ifindex */

	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_NAPI_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_NAPI_IFINDEX, 4);
	sb_nl_put_u32(&m, SB_NETDEV_A_NAPI_ID, 8200);
	sb_nl_put_u32(&m, SB_NETDEV_A_NAPI_IRQ, 45);
	sb_nl_put_u32(&m, SB_NETDEV_A_NAPI_PID, 812);
	sb_nl_put_u64(&m, SB_NETDEV_A_NAPI_GRO_FLUSH_TIMEOUT, 20000);
	sb_nl_put_u32(&m, SB_NETDEV_A_NAPI_THREADED, 1);
	ck_assert_int_eq(sb_nd_parse_napi(nlh, &n), 0);
	ck_assert_uint_eq(n.irq, 45);
	ck_assert_uint_eq(n.pid, 812);
	ck_assert_uint_eq(n.gro_flush_timeout_ns, 20000);
	ck_assert(n.has & SB_ND_NAPI_THREADED);
	ck_assert(!(n.has & SB_ND_NAPI_DEFER));

	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_DEV_GET);
	sb_nl_put_u32(&m, SB_NETDEV_A_DEV_IFINDEX, 4);
	sb_nl_put_u64(&m, SB_NETDEV_A_DEV_XDP_FEATURES, 0x7f);
	sb_nl_put_u32(&m, SB_NETDEV_A_DEV_XDP_ZC_MAX_SEGS, 1);
	ck_assert_int_eq(sb_nd_parse_dev(nlh, &d), 0);
	ck_assert_uint_eq(d.xdp_features, 0x7f);
}
END_TEST

START_TEST(events)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_PAGE_POOL_DEL_NTF);
	struct sb_nd_event ev;

	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_ID, 12);
	sb_nl_put_u32(&m, SB_NETDEV_A_PAGE_POOL_DETACH_TIME, 99);
	ck_assert_int_eq(sb_nd_parse_event(nlh, &ev), 0);
	ck_assert(ev.is_pool);
	ck_assert_str_eq(sb_nd_event_action(ev.cmd), "delete");
	ck_assert(ev.pool.has & SB_ND_POOL_DETACHED);

	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_DEV_ADD_NTF);
	sb_nl_put_u32(&m, SB_NETDEV_A_DEV_IFINDEX, 6);
	ck_assert_int_eq(sb_nd_parse_event(nlh, &ev), 0);
	ck_assert(!ev.is_pool);
	ck_assert_uint_eq(ev.dev.ifindex, 6);
	ck_assert_str_eq(sb_nd_event_action(ev.cmd), "add");

	nlh = msg(&m, buf, sizeof(buf), SB_NETDEV_CMD_BIND_RX); /* not an event */
	ck_assert_int_eq(sb_nd_parse_event(nlh, &ev), -EINVAL);
}
END_TEST

START_TEST(buffers_garbage_empty_huge)
{
	struct sb_nd_state st = { 0 };
	char garbage[256];
	struct sb_nl_msg m;
	char *big;
	size_t off = 0;

	ck_assert_int_eq(sb_nd_state_from_buf("", 0, &st), 0);
	for (size_t i = 0; i < sizeof(garbage); i++)
		garbage[i] = (char)(0xA5 ^ (i * 37));
	ck_assert_int_eq(sb_nd_state_from_buf(garbage, sizeof(garbage), &st), -EINVAL);
	sb_nd_state_free(&st);

	/* 4096 queue messages in a row (a big NIC's dump). */
	big = malloc(4096 * 64);
	for (unsigned i = 0; i < 4096; i++) {
		struct nlmsghdr *nlh = msg(&m, big + off, 64, SB_NETDEV_CMD_QUEUE_GET);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_ID, i / 2);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_IFINDEX, 2 + i / 512);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_TYPE, i % 2);
		off += nlh->nlmsg_len;
	}
	ck_assert_int_eq(sb_nd_state_from_buf(big, off, &st), 4096);
	ck_assert_uint_eq(st.nqueues, 4096);
	ck_assert_uint_eq(st.queues[4095].ifindex, 9);
	ck_assert_uint_eq(st.malformed, 0);
	sb_nd_state_free(&st);
	free(big);
}
END_TEST

START_TEST(min_kernel_table)
{
	ck_assert_str_eq(sb_nd_cmd_min_kernel(SB_NETDEV_CMD_QUEUE_GET), "6.9");
	ck_assert_str_eq(sb_nd_cmd_min_kernel(SB_NETDEV_CMD_BIND_RX), "6.12");
	ck_assert_str_eq(sb_nd_cmd_name(SB_NETDEV_CMD_PAGE_POOL_STATS_GET), "page-pool-stats-get");
}
END_TEST

START_TEST(proc_net_dev)
{
	static const char text[] =
		"Inter-|   Receive                                                |  Transmit\n"
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"
		"    lo:    3267      29    0    0    0     0          0         0     3267      29    0    0    0     0       0          0\n"
		"  veth0: 502979598 7924 0 0 0 0 0 0 93422 1409 0 0 0 0 0 0\n"
		"broken: 1 2 3\n"
		"averyveryverylongname0: 1 2 3 4 5 6 7 8 9 10 0 0 0 0 0 0\n"
		"\xff\xfe: 1 2 3 4 5 6 7 8 9 10 0 0 0 0 0 0\n";
	struct sb_if_counters *v;
	size_t n;
	const struct sb_if_counters *c;

	ck_assert_int_eq(sb_nd_parse_proc_net_dev(text, &v, &n), 0);
	ck_assert_uint_eq(n, 3); /* lo, veth0 and the non-UTF-8 name; not the broken ones */
	c = sb_nd_find_if_counters(v, n, "veth0");
	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(c->rx_bytes, 502979598);
	ck_assert_uint_eq(c->rx_packets, 7924);
	ck_assert_uint_eq(c->tx_bytes, 93422);
	ck_assert_uint_eq(c->tx_packets, 1409);
	free(v);
	ck_assert_int_eq(sb_nd_parse_proc_net_dev("", &v, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(v);
}
END_TEST

/* One descriptor per part, in bit order, each naming its own array in the state. */
START_TEST(part_descriptors)
{
	struct sb_nd_state st = { 0 };
	unsigned all = 0;

	for (size_t i = 0; i < SB_ND_NPARTS; i++) {
		const struct sb_nd_part_desc *d = &sb_nd_parts[i];

		ck_assert_uint_eq(d->part, 1u << i);
		ck_assert_ptr_nonnull(d->parse);
		ck_assert_uint_gt(d->size, d->ifindex_off);
		for (size_t k = 0; k < i; k++)
			ck_assert(sb_nd_part_items(&st, d) !=
				  sb_nd_part_items(&st, &sb_nd_parts[k]));
		all |= d->part;
	}
	ck_assert_uint_eq(all, SB_ND_ALL_PARTS);
	ck_assert_ptr_eq(sb_nd_part_items(&st, &sb_nd_parts[1]), (void **)&st.queues);
	ck_assert_ptr_eq(sb_nd_part_count(&st, &sb_nd_parts[6]), &st.ndev_qstats);
}
END_TEST

/* --dev on a capture: every part keeps the records of that device only. */
START_TEST(keep_one_device)
{
	size_t len;
	char *buf = load("netlink/vm-virtio-netdevsim-show.nl", &len);
	struct sb_nd_state st = { 0 };
	size_t before;

	ck_assert_int_gt(sb_nd_state_from_buf(buf, len, &st), 0);
	before = sb_nd_state_records(&st);
	ck_assert_uint_eq(before, st.ndevs + st.nqueues + st.nnapis + st.npools + st.npool_stats +
					  st.nqstats + st.ndev_qstats);
	ck_assert_uint_gt(st.npools, 0);
	sb_nd_state_keep_ifindex(&st, 2);
	ck_assert_uint_lt(sb_nd_state_records(&st), before);
	ck_assert_uint_eq(st.ndevs, 1);
	ck_assert_uint_eq(st.devs[0].ifindex, 2);
	for (size_t i = 0; i < st.nqueues; i++)
		ck_assert_uint_eq(st.queues[i].ifindex, 2);
	for (size_t i = 0; i < st.npools; i++)
		ck_assert_uint_eq(st.pools[i].ifindex, 2);
	ck_assert_uint_gt(st.nqueues, 0);
	sb_nd_state_keep_ifindex(&st, 999);
	ck_assert_uint_eq(sb_nd_state_records(&st), 0);
	sb_nd_state_free(&st);
	ck_assert_ptr_null(st.queues);
	free(buf);
}
END_TEST

/* Our uAPI headers declare each kernel interface once, so any two can be included together;
 * the udmabuf ioctl is the kernel's number. */
START_TEST(uapi_headers_combine)
{
	ck_assert_uint_eq(SB_UDMABUF_CREATE, 0x40187542u);
	ck_assert_uint_eq(sizeof(struct sb_udmabuf_create), 24);
	ck_assert_int_eq(SB_NETDEV_A_DMABUF_FD, 3);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("netdev");
	TCase *t = tcase_create("core");

	tcase_add_test(t, captured_veth_dump);
	tcase_add_test(t, captured_qstats);
	tcase_add_test(t, captured_vm_pools);
	tcase_add_test(t, captured_truncated);
	tcase_add_test(t, pool_all_attrs_unknown_skipped);
	tcase_add_test(t, pool_malformed);
	tcase_add_test(t, pool_stats_and_recycle_rate);
	tcase_add_test(t, leak_detection);
	tcase_add_test(t, qstats_scope_and_unknown);
	tcase_add_test(t, queue_napi_dev);
	tcase_add_test(t, events);
	tcase_add_test(t, buffers_garbage_empty_huge);
	tcase_add_test(t, min_kernel_table);
	tcase_add_test(t, proc_net_dev);
	tcase_add_test(t, part_descriptors);
	tcase_add_test(t, keep_one_device);
	tcase_add_test(t, uapi_headers_combine);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
