// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's netdev probe: family present, devices, queues and their dma-buf bindings. It uses
 * only the oldest attributes of each command, so it works on every kernel with the family. */
#include <errno.h>
#include <linux/genetlink.h>
#include <stdio.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/genl.h"

enum {
	NETDEV_CMD_DEV_GET_ = 1,
	NETDEV_CMD_PAGE_POOL_GET_ = 5,
	NETDEV_CMD_QUEUE_GET_ = 10,
	NETDEV_A_QUEUE_DMABUF_ = 5,
};

struct counts {
	int msgs;
	int bound;
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct counts *c = data;
	const struct nlattr *a;

	c->msgs++;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr))
		if (mnl_attr_get_type(a) == NETDEV_A_QUEUE_DMABUF_)
			c->bound++;
	return MNL_CB_OK;
}

static int dump(struct sb_genl *g, uint8_t cmd, struct counts *c)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct nlmsghdr *nlh = sb_genl_msg(g, buf, cmd, NLM_F_DUMP);

	memset(c, 0, sizeof(*c));
	return sb_genl_talk(g, nlh, count_cb, c, NULL);
}

void doctor_probe_netdev(const struct sb_root *r, struct sb_doctor_sub *s)
{
	struct counts devs, queues, pools;
	struct sb_genl g;
	struct sb_err e;
	int rc;

	if (!sb_root_is_live(r)) {
		s->status = SB_HEALTH_UNKNOWN;
		s->live_only = true;
		doctor_summary(s, "needs the live kernel (generic netlink); not in a snapshot");
		return;
	}
	sb_err_clear(&e);
	rc = sb_genl_open(&g, "netdev", &e);
	if (rc) {
		s->status = SB_HEALTH_MISSING;
		doctor_bool(s, "family", false, true);
		doctor_summary(s, "no 'netdev' generic netlink family");
		doctor_hint(s, "the netdev family needs Linux 6.3+ (queues and NAPIs 6.9+, devmem TCP 6.12+)");
		return;
	}
	doctor_bool(s, "family", true, true);
	doctor_num(s, "family_version", g.version, true);
	rc = dump(&g, NETDEV_CMD_DEV_GET_, &devs);
	if (rc == 0)
		doctor_num(s, "devices", devs.msgs, true);
	rc = dump(&g, NETDEV_CMD_QUEUE_GET_, &queues);
	if (rc == 0) {
		doctor_num(s, "queues", queues.msgs, true);
		doctor_num(s, "queues_with_dmabuf", queues.bound, true);
	} else {
		doctor_hint(s, "queue-get failed (%s): per-queue state needs Linux 6.9+", strerror(-rc));
	}
	if (dump(&g, NETDEV_CMD_PAGE_POOL_GET_, &pools) == 0)
		doctor_num(s, "page_pools", pools.msgs, true);
	sb_genl_close(&g);
	s->status = rc == 0 ? SB_HEALTH_OK : SB_HEALTH_PARTIAL;
	doctor_summary(s, "netdev family v%u: %d device%s, %d queue%s, %d bound to a dma-buf", g.version,
		       devs.msgs, devs.msgs == 1 ? "" : "s", queues.msgs, queues.msgs == 1 ? "" : "s", queues.bound);
	if (queues.msgs && !queues.bound)
		doctor_hint(s, "no queue has a devmem binding (devmemstat bind needs a NIC with header split: mlx5, gve, fbnic, bnxt)");
}
