// SPDX-License-Identifier: GPL-2.0-or-later
/* devmem TCP RX binding (bind-rx) and the udmabuf it binds. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <stdbool.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "socbox/dmabuf.h"
#include "socbox/kmsg_said.h"
#include "socbox/macro.h"
#include "socbox/netdev.h"

struct bind_reply {
	uint32_t id;
	bool have_id;
};

static int bind_cb(const struct nlmsghdr *nlh, void *data)
{
	struct bind_reply *r = data;
	const struct nlattr *a;

	sb_nl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (sb_nl_attr_type(a) == SB_NETDEV_A_DMABUF_ID && sb_nl_attr_u32(a, &r->id) == 0)
			r->have_id = true;
	}
	return SB_NL_CB_OK;
}

/* What makes a driver refuse a binding, by an errno that says it alone. EINVAL does not:
 * the kernel says which requirement failed in its extended ack (bind_refusals), and a bare
 * EINVAL (an allocation or mapping that failed inside the kernel, a driver of its own mind)
 * is answered with what the kernel logged, not with a guess. */
static const char *bind_hint(int err)
{
	switch (err) {
	case EOPNOTSUPP:
		return "devmem RX needs a NIC driver with the netmem queue API that DMAs into "
		       "the dma-buf (e.g. bnxt, gve, mlx5, fbnic); veth and virtio-net have "
		       "none";
	case EBUSY:
		return "a queue is already bound or used by XDP/AF_XDP/io_uring";
	case ERANGE:
		return "the queue id is beyond the device's real RX queue count ('ethtool -l IF')";
	case ENODEV:
		return "no such interface in this network namespace (see --netns)";
	case EPERM:
	case EACCES:
		return "bind-rx needs CAP_NET_ADMIN";
	case EBADF:
		return "the fd is not a dma-buf";
	default:
		return NULL;
	}
}

static const char *dmabuf_attr_name(int type)
{
	static const char *const names[] = { "?", "ifindex", "queues", "fd", "id", "rx-page-size" };
	return type > 0 && type <= SB_NETDEV_A_DMABUF_RX_PAGE_SIZE ? names[type] : "?";
}

/* What the kernel's refusal means, by its extack message (net/core/netdev_rx_queue.c,
 * devmem.c, netdev-genl.c): the requirement this device or its settings do not meet. */
static const struct {
	const char *msg;
	const char *hint;
	bool unmet; /* a requirement of this device or its settings: exit 3 */
} bind_refusals[] = {
	{ "tcp-data-split is disabled",
	  "turn header-data split on: 'ethtool -G IF tcp-data-split on hds-thresh 0' (ethtool "
	  "6.14 or later)",
	  true },
	{ "hds-thresh is not zero", "'ethtool -G IF hds-thresh 0' (ethtool 6.14 or later)", true },
	{ "Device doesn't support DMA",
	  "the device has no DMA mask (a software device): bind a real NIC's queues", true },
	{ "XDP program attached", "detach the XDP program first ('ip link set IF xdp off')", true },
	{ "already memory provider bound",
	  "another binding holds the queue: 'devmemstat bindings' shows it", false },
	{ "in use by AF_XDP", "an AF_XDP socket holds the queue", false },
};

static const char *bind_refusal_hint(const char *msg, int err, bool *unmet)
{
	for (size_t i = 0; msg[0] && i < ARRAY_SIZE(bind_refusals); i++) {
		if (strstr(msg, bind_refusals[i].msg)) {
			*unmet = bind_refusals[i].unmet;
			return bind_refusals[i].hint;
		}
	}
	/* no queue API, no page pool that takes a memory provider (ENODATA) */
	*unmet = err == EOPNOTSUPP || err == ENODATA;
	if (err == ENODATA)
		return "the driver's page pool for the queue does not take a memory provider "
		       "(PP_FLAG_ALLOW_UNREADABLE_NETMEM)";
	return bind_hint(err);
}

/* The kernel's answer to a bind request: an ack with extended ack attributes (message,
 * offset of the rejected attribute) or the reply with the binding id. */
struct bind_ack {
	int error;
	char msg[200];
	const char *bad_attr;
};

static void parse_ack(const struct nlmsghdr *nlh, const struct nlmsghdr *req, struct bind_ack *ack)
{
	struct sb_nl_ack a;

	if (sb_nl_ack_parse(nlh, &a)) {
		ack->error = -EBADMSG;
		return;
	}
	ack->error = a.error;
	if (a.msg)
		snprintf(ack->msg, sizeof(ack->msg), "%s", a.msg);
	/* The offset counts from the start of the request's netlink header. */
	if (a.have_offset && a.offset >= NLMSG_HDRLEN &&
	    a.offset <= req->nlmsg_len - sizeof(struct nlattr)) {
		const struct nlattr *bad = (const struct nlattr *)((const char *)req + a.offset);
		ack->bad_attr = dmabuf_attr_name(sb_nl_attr_type(bad));
	}
}

static int bind_talk(struct sb_genl *g, const struct sb_nl_msg *req, struct bind_reply *r,
		     struct bind_ack *ack, struct sb_err *e)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	int rc = sb_genl_send(g, req, e);

	if (rc)
		return rc;
	for (;;) {
		ssize_t n = sb_genl_recv_raw(g, buf, sizeof(buf));
		ptrdiff_t left = n;
		const struct nlmsghdr *nlh;

		if (n < 0)
			return sb_err_set(e, errno, g->family, "netlink receive", NULL);
		sb_nl_msg_for_each(nlh, buf, left) {
			if (nlh->nlmsg_seq != req->nlh->nlmsg_seq)
				continue;
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				parse_ack(nlh, req->nlh, ack);
				return ack->error;
			}
			if (nlh->nlmsg_type == g->id)
				bind_cb(nlh, r);
		}
	}
}

/* A refusal with neither an extended ack nor a rejected attribute: the kernel's log about the
 * device (or its parent) during the request is the reason, when it printed one. */
static void bare_refusal(struct sb_err *e, int err, struct sb_kmsg_said *said, const char *ifname)
{
	char path[PATH_MAX], link[PATH_MAX], quote[sizeof(e->reason) - 64];
	const char *names[] = { ifname, NULL }; /* the interface, then its parent device */
	ssize_t n;

	snprintf(path, sizeof(path), "/sys/class/net/%s/device", ifname);
	n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		names[1] = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	}
	if (sb_kmsg_said_take(said, names, ARRAY_SIZE(names), quote, sizeof(quote)))
		sb_err_reason(e, "kernel: %s; its log: %s", strerror(err), quote);
	else if (bind_hint(err))
		sb_err_reason(e, "kernel: %s", strerror(err));
	else
		sb_err_reason(e,
			      "kernel: %s, with no reason (no extended ack, nothing in its log "
			      "about %s)",
			      strerror(err), ifname);
}

int sb_nd_bind_rx(struct sb_genl *g, uint32_t ifindex, int dmabuf_fd, const unsigned *queues,
		  unsigned nqueues, uint32_t *binding_id, struct sb_err *e)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	char name[IF_NAMESIZE];
	struct sb_nl_msg m;
	struct bind_reply r = { 0 };
	struct bind_ack ack = { 0 };
	struct sb_kmsg_said said;
	const char *hint;
	bool unmet;
	int rc;

	sb_genl_msg(g, &m, buf, sizeof(buf), SB_NETDEV_CMD_BIND_RX, NLM_F_ACK);
	sb_nl_put_u32(&m, SB_NETDEV_A_DMABUF_IFINDEX, ifindex);
	sb_nl_put_u32(&m, SB_NETDEV_A_DMABUF_FD, (uint32_t)dmabuf_fd);
	for (unsigned i = 0; i < nqueues; i++) {
		struct nlattr *q = sb_nl_nest_start(&m, SB_NETDEV_A_DMABUF_QUEUES);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_ID, queues[i]);
		sb_nl_put_u32(&m, SB_NETDEV_A_QUEUE_TYPE, SB_NETDEV_QUEUE_TYPE_RX);
		sb_nl_nest_end(&m, q);
	}
	sb_kmsg_said_mark(&said);
	rc = bind_talk(g, &m, &r, &ack, e);
	if (m.overflow) { /* too many queues for one request: e says so */
		sb_kmsg_said_drop(&said);
		return rc;
	}
	if (rc > 0)
		rc = -rc;
	if (rc == 0 && !ack.error && !r.have_id) {
		sb_err_set(e, EPROTO, "bind-rx", "read binding id", NULL);
		sb_err_reason(e, "the kernel's reply carries no binding id");
		sb_kmsg_said_drop(&said);
		return -EPROTO;
	}
	if (rc) {
		if (!if_indextoname(ifindex, name))
			snprintf(name, sizeof(name), "ifindex %u", ifindex);
		sb_err_set(e, -rc, name, "bind-rx", NULL);
		if (ack.msg[0] && ack.bad_attr)
			sb_err_reason(e, "kernel: %s (attribute %s; %s)", ack.msg, ack.bad_attr,
				      strerror(-rc));
		else if (ack.msg[0])
			sb_err_reason(e, "kernel: %s (%s)", ack.msg, strerror(-rc));
		else if (ack.bad_attr)
			sb_err_reason(e, "kernel: %s, rejected attribute %s", strerror(-rc),
				      ack.bad_attr);
		else if (rc == -EOPNOTSUPP)
			sb_err_reason(e, "kernel: %s (no bind-rx before Linux 6.12)",
				      strerror(-rc));
		else
			bare_refusal(e, -rc, &said, name);
		sb_kmsg_said_drop(&said);
		hint = bind_refusal_hint(ack.msg, -rc, &unmet);
		if (hint)
			sb_err_hint(e, "%s", hint);
		/* A requirement this device, driver or kernel does not meet is "not supported
		 * here"; anything else (a queue in use, no memory) is a failed operation. */
		sb_err_exit(e, rc == -EPERM || rc == -EACCES ? SB_EXIT_PERM
			       : unmet			     ? SB_EXIT_UNSUPPORTED
							     : SB_EXIT_FAIL);
		return rc;
	}
	sb_kmsg_said_drop(&said);
	*binding_id = r.id;
	return 0;
}

/* The allocation itself is dmabufcp's (lib/dmabuf/dmabuf.c); bind-rx only needs the dma-buf fd: the
 * kernel keeps the memfd's pages through the udmabuf, so our memfd reference can go. */
int sb_nd_udmabuf_alloc(uint64_t size, struct sb_err *e)
{
	long page = sysconf(_SC_PAGESIZE);
	struct sb_dmabuf b;
	int rc, fd;

	if (size == 0 || size % (uint64_t)page)
		return sb_err_set(e, EINVAL, "udmabuf", "allocate",
				  "the size must be a non-zero multiple of the page size (%ld)",
				  page);
	rc = sb_dmabuf_alloc_udmabuf(size, &b, e);
	if (rc == -EINVAL) /* its hint names dmabufcp's --chunk-size */
		sb_err_hint(e, "check /sys/module/udmabuf/parameters/size_limit_mb");
	if (rc)
		return rc;
	fd = b.fd;
	b.fd = -1; /* handed to the caller */
	sb_dmabuf_free(&b);
	return fd;
}
