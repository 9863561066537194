/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The netdev generic netlink family: devices, queues, NAPIs, page pools, page-pool stats,
 * qstats, devmem bindings and the mgmt/page-pool notifications. Parsers turn one netlink
 * message into a plain struct (unknown attributes are skipped, a missing key attribute
 * makes the message malformed); dumps, requests and the monitor share them. */
#ifndef SOCBOX_NETDEV_H
#define SOCBOX_NETDEV_H

#include <linux/netlink.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "socbox/error.h"
#include "socbox/genl.h"
#include "socbox/kmsg.h"
#include "socbox/sys.h"
#include "socbox/uapi/netdev.h"

struct sb_nd_dev {
	uint32_t ifindex;
	uint64_t xdp_features, xdp_rx_metadata_features, xsk_features;
	uint32_t xdp_zc_max_segs;
};

struct sb_nd_queue {
	uint32_t ifindex, id, type; /* type: SB_NETDEV_QUEUE_TYPE_RX / _TX */
	uint32_t napi_id;	    /* 0: none */
	uint32_t dmabuf;	    /* devmem binding id, 0: none */
	bool io_uring, xsk;
	/* A queue leased from another device (netkit queue leasing, 7.x). */
	bool leased;
	uint32_t lease_ifindex, lease_queue_id, lease_queue_type;
	int32_t lease_netns_id;
};

enum sb_nd_napi_has {
	SB_ND_NAPI_IRQ = 1,
	SB_ND_NAPI_PID = 2,
	SB_ND_NAPI_THREADED = 4,
	SB_ND_NAPI_DEFER = 8,
	SB_ND_NAPI_GRO_FLUSH = 16,
	SB_ND_NAPI_IRQ_SUSPEND = 32
};
struct sb_nd_napi {
	uint32_t ifindex, id, irq, pid, defer_hard_irqs, threaded;
	uint64_t gro_flush_timeout_ns, irq_suspend_timeout_ns;
	unsigned has; /* enum sb_nd_napi_has */
};

enum sb_nd_pool_has {
	SB_ND_POOL_NAPI = 1,
	SB_ND_POOL_INFLIGHT = 2,
	SB_ND_POOL_INFLIGHT_MEM = 4,
	SB_ND_POOL_DETACHED = 8,
	SB_ND_POOL_DMABUF = 16,
	SB_ND_POOL_IO_URING = 32
};
struct sb_nd_pool {
	uint64_t id;
	uint32_t ifindex; /* 0: the netdev is gone */
	uint64_t napi_id, inflight, inflight_mem;
	uint64_t detach_time; /* CLOCK_BOOTTIME seconds */
	uint32_t dmabuf;
	uint64_t io_uring_rx_buf_len; /* 0: not reported */
	unsigned has;		      /* enum sb_nd_pool_has */
};

/* Counters indexed by their attribute id; has is a bitmask of the ids present. */
struct sb_nd_pool_stats {
	uint64_t id;
	uint32_t ifindex;
	uint64_t v[SB_NETDEV_A_PAGE_POOL_STATS_MAX + 1];
	uint64_t has;
};

struct sb_nd_qstats {
	uint32_t ifindex;
	bool per_queue; /* queue_type and queue_id valid */
	uint32_t queue_type, queue_id;
	uint64_t v[SB_NETDEV_A_QSTATS_MAX + 1];
	uint64_t has;
};
static inline bool sb_nd_has(uint64_t has, int attr)
{
	return (has >> attr) & 1;
}

/* Parse one message of the given command (the genl header's cmd must match). 0, or
 * -EINVAL when the message is truncated, not of that command, or lacks its key attribute. */
int sb_nd_parse_dev(const struct nlmsghdr *nlh, struct sb_nd_dev *d);
int sb_nd_parse_queue(const struct nlmsghdr *nlh, struct sb_nd_queue *q);
int sb_nd_parse_napi(const struct nlmsghdr *nlh, struct sb_nd_napi *n);
int sb_nd_parse_pool(const struct nlmsghdr *nlh, struct sb_nd_pool *p);
int sb_nd_parse_pool_stats(const struct nlmsghdr *nlh, struct sb_nd_pool_stats *s);
int sb_nd_parse_qstats(const struct nlmsghdr *nlh, struct sb_nd_qstats *s);
/* The genl command of a netdev message, or -EINVAL. */
int sb_nd_msg_cmd(const struct nlmsghdr *nlh);

/* Everything a view needs, collected by sb_nd_collect(). */
enum sb_nd_part {
	SB_ND_DEVS = 1 << 0,
	SB_ND_QUEUES = 1 << 1,
	SB_ND_NAPIS = 1 << 2,
	SB_ND_POOLS = 1 << 3,
	SB_ND_POOL_STATS = 1 << 4,
	SB_ND_QSTATS_QUEUE = 1 << 5,
	SB_ND_QSTATS_DEV = 1 << 6,
};
struct sb_nd_state {
	struct sb_nd_dev *devs;
	size_t ndevs;
	struct sb_nd_queue *queues;
	size_t nqueues;
	struct sb_nd_napi *napis;
	size_t nnapis;
	struct sb_nd_pool *pools;
	size_t npools;
	struct sb_nd_pool_stats *pool_stats;
	size_t npool_stats;
	struct sb_nd_qstats *qstats;
	size_t nqstats; /* queue scope */
	struct sb_nd_qstats *dev_qstats;
	size_t ndev_qstats;	   /* device scope */
	unsigned have;		   /* enum sb_nd_part: parts the kernel answered */
	unsigned unsupported;	   /* parts this kernel lacks (old kernel, CONFIG off) */
	unsigned malformed;	   /* messages skipped because they could not be parsed */
	struct sb_err part_err[8]; /* why a part is unsupported, by bit number */
	uint32_t family_version;   /* of the netdev family that answered */
	uint64_t boottime_s;	   /* CLOCK_BOOTTIME seconds when collected (pool ages) */
};
#define SB_ND_NPARTS 7
#define SB_ND_ALL_PARTS ((1u << SB_ND_NPARTS) - 1)
_Static_assert(SB_ND_NPARTS <= 8, "part_err has a slot per part");

/* Open the netdev family (exit 3 with the minimum kernel when it is missing). */
int sb_nd_open(struct sb_genl *g, struct sb_err *e);
/* Dump the requested parts (enum sb_nd_part, ifindex 0 = all devices). A part the kernel
 * lacks (-EOPNOTSUPP/-EINVAL for an unknown command) is recorded in st->unsupported with
 * its reason and is not an error; -EPERM and other failures are. */
int sb_nd_collect(struct sb_genl *g, unsigned parts, uint32_t ifindex, struct sb_nd_state *st,
		  struct sb_err *e);
void sb_nd_state_free(struct sb_nd_state *st);
/* Keep only the records of device ifindex in every part (0: keep everything). */
void sb_nd_state_keep_ifindex(struct sb_nd_state *st, uint32_t ifindex);
/* How many records all parts hold. */
size_t sb_nd_state_records(const struct sb_nd_state *st);
/* Append every dump reply message, raw, to fp (NULL: stop): for bug reports and test
 * fixtures. The file is a plain sequence of netlink messages. */
void sb_nd_set_capture(FILE *fp);
/* Feed a buffer of netlink messages (a capture) to the parsers as if dumped: every message
 * lands in the part of its command. Returns the number of messages, -EINVAL when the buffer
 * is not a sequence of whole messages (what parsed is kept). */
int sb_nd_state_from_buf(const void *buf, size_t len, struct sb_nd_state *st);
/* socbox snapshot keeps the netdev state of the board in two files that no kernel has:
 * SB_ND_SNAP_MSGS, the raw dump replies of every part (as --save-netlink writes them), and
 * SB_ND_SNAP_PARTS, text "key=value" lines: family_version, boottime_s, have and
 * unsupported (enum sb_nd_part masks, hex) and "unsupported.BIT=ERRNO REASON" per part the
 * kernel lacked. A kernel without the netdev family gives SB_ND_SNAP_PARTS with the line
 * SB_ND_SNAP_ABSENT alone (and no SB_ND_SNAP_MSGS). */
#define SB_ND_SNAP_MSGS "/sys/kernel/socbox/netdev.nlmsg"
#define SB_ND_SNAP_PARTS "/sys/kernel/socbox/netdev.parts"
#define SB_ND_SNAP_ABSENT "family=absent"
/* Whether a snapshot says its kernel had no netdev family. */
bool sb_nd_snapshot_family_absent(const struct sb_root *r);
struct sb_nd_capture {
	char *msgs, *parts;
	size_t msgs_len, parts_len;
};
/* Dump every part from the live kernel into the two files' contents. -ENOENT when the
 * kernel has no netdev family; other dump failures as sb_nd_collect. */
int sb_nd_capture_live(struct sb_nd_capture *cap, struct sb_err *e);
void sb_nd_capture_free(struct sb_nd_capture *cap);

/* Interface names of a root, from /sys/class/net/NAME/ifindex (a snapshot keeps them). */
struct sb_nd_ifname {
	uint32_t ifindex;
	char name[IF_NAMESIZE];
};
int sb_nd_read_ifnames(const struct sb_root *r, struct sb_nd_ifname **v, size_t *n);
/* NULL / 0 when absent. */
const char *sb_nd_ifname_of(const struct sb_nd_ifname *v, size_t n, uint32_t ifindex);
uint32_t sb_nd_ifindex_of(const struct sb_nd_ifname *v, size_t n, const char *name);

/* Where the netdev state comes from (lib/netdev/netdev_source.c): the one choice between
 * the live kernel, a capture file and a snapshot, for devmemstat's views and doctor. */
enum sb_nd_origin {
	SB_ND_FROM_KERNEL,   /* the live root: dumps of the current network namespace */
	SB_ND_FROM_CAPTURE,  /* a capture file, whatever the root */
	SB_ND_FROM_SNAPSHOT, /* a sysroot: its SB_ND_SNAP_MSGS and SB_ND_SNAP_PARTS */
};
struct sb_nd_source {
	/* The caller's choice; NULL: not given. */
	const struct sb_root *root;
	const char *capture; /* answer from this file of dump replies instead of the root */
	const char *record;  /* from the kernel: also write the dump replies to this file */
	const char *netns;   /* from the kernel: enter this namespace (NAME or PATH) first */
	const char *dev;     /* only this interface (in a capture, which has none, ifindex) */
	/* Set by sb_nd_source_open(). */
	enum sb_nd_origin origin;
	uint32_t ifindex;	    /* dev's; 0: every interface */
	bool family_absent;	    /* the kernel has no netdev family (a snapshot's: load fails) */
	struct sb_genl g;	    /* from the kernel: the family, open */
	struct sb_nd_ifname *names; /* from a snapshot: its /sys/class/net */
	size_t nnames;
	FILE *record_fp;
};
/* Pick the origin (capture given, else the root: live or a snapshot) and resolve dev in it:
 * from the kernel enter netns, look dev up (-ENODEV), create record and open the family
 * (-ENOENT, exit 3, when the kernel has none); from a snapshot read its interface names and
 * look dev up there (netns and record need the live kernel: -EOPNOTSUPP, exit 3); from a
 * capture dev must be an ifindex (-EINVAL, exit 2). Call sb_nd_source_close() after, also
 * after a failure. */
int sb_nd_source_open(struct sb_nd_source *s, struct sb_err *e);
/* What sb_nd_source_open() does from the kernel before the family: the live root (else
 * -EOPNOTSUPP, exit 3), netns entered, dev resolved. */
int sb_nd_source_enter(struct sb_nd_source *s, struct sb_err *e);
/* The parts (enum sb_nd_part) of the state, cut to dev. From the kernel, dumps (recorded when
 * asked); from a snapshot, the parts it kept; from a capture, every part the file holds, and
 * -ENODEV when its devices do not include dev. A file that does not parse to the end keeps
 * what parsed and counts st->malformed; one where nothing parses is -EINVAL. A capture has
 * no boottime (st->boottime_s 0: pool ages unknown). A snapshot without a capture is -ENOENT
 * (exit 3), one with half of it -EINVAL. On failure st is empty. */
int sb_nd_source_load(struct sb_nd_source *s, unsigned parts, struct sb_nd_state *st,
		      struct sb_err *e);
/* The name of ifindex as the source knows it (a snapshot's, the current namespace's) into
 * buf (IF_NAMESIZE), or "-": 0, unknown, or from a capture, which has none. */
const char *sb_nd_source_ifname(const struct sb_nd_source *s, uint32_t ifindex, char *buf);
void sb_nd_source_close(struct sb_nd_source *s);
/* The parts of the state of a root, from the kernel or its snapshot: open, load and close a
 * source with nothing but the root. */
int sb_nd_state_from_root(const struct sb_root *r, unsigned parts, struct sb_nd_state *st,
			  struct sb_err *e);

/* The first kernel with this command ("6.9" for queue-get) and its name. */
const char *sb_nd_cmd_min_kernel(int cmd);
const char *sb_nd_cmd_name(int cmd);
/* "rx" / "tx" / "?" */
const char *sb_nd_queue_type_name(uint32_t type);
/* Sort what the lookups below search (sb_nd_collect and sb_nd_state_from_buf do it; call
 * it after changing the arrays yourself). */
void sb_nd_state_index(struct sb_nd_state *st);
/* Lookup helpers on a collected state (NULL when absent). */
const struct sb_nd_pool_stats *sb_nd_find_pool_stats(const struct sb_nd_state *st, uint64_t id);
const struct sb_nd_qstats *sb_nd_find_dev_qstats(const struct sb_nd_state *st, uint32_t ifindex);
const struct sb_nd_qstats *sb_nd_find_qstats(
	const struct sb_nd_state *st, uint32_t ifindex, uint32_t type, uint32_t id);
const struct sb_nd_napi *sb_nd_find_napi(const struct sb_nd_state *st, uint32_t id);

/* Recycle rate of a pool: pages put back into the pool's cache or ring, over all pages that
 * came back (recycled + released because the ring was full or the page still referenced).
 * -1 when the counters are absent or nothing came back yet. */
double sb_nd_recycle_rate(const struct sb_nd_pool_stats *s);
/* A leaked pool: detached from its netdev but still holding pages. age_s gets the seconds
 * since the detach (now_boottime_s: CLOCK_BOOTTIME seconds). */
bool sb_nd_pool_leaked(const struct sb_nd_pool *p, uint64_t now_boottime_s, uint64_t *age_s);
uint64_t sb_nd_boottime_s(void);

/* Notifications of the mgmt and page-pool groups. */
struct sb_nd_event {
	int cmd; /* SB_NETDEV_CMD_*_NTF */
	bool is_pool;
	struct sb_nd_dev dev;
	struct sb_nd_pool pool;
};
int sb_nd_parse_event(const struct nlmsghdr *nlh, struct sb_nd_event *ev);
/* "add" / "delete" / "change" */
const char *sb_nd_event_action(int cmd);

/* bind-rx: bind dmabuf_fd to the RX queues of ifindex. The binding lives as long as g's
 * socket. The kernel's refusal comes back with its extack message as reason and a hint;
 * refused with a bare errno, with what the kernel logged about the device meanwhile. */
int sb_nd_bind_rx(struct sb_genl *g, uint32_t ifindex, int dmabuf_fd, const unsigned *queues,
		  unsigned nqueues, uint32_t *binding_id, struct sb_err *e);
/* A udmabuf of size bytes (page multiple) backed by a sealed memfd; returns the dma-buf fd. */
int sb_nd_udmabuf_alloc(uint64_t size, struct sb_err *e);

/* Interface counters of /proc/net/dev (the fallback when a driver has no qstats). */
struct sb_if_counters {
	char name[IF_NAMESIZE];
	uint64_t rx_bytes, rx_packets, tx_bytes, tx_packets;
};
/* Parse the text of /proc/net/dev; lines that do not parse are skipped. *n entries. */
int sb_nd_parse_proc_net_dev(const char *text, struct sb_if_counters **out, size_t *n);
/* Read /proc/net/dev under root (on a live root: of the current network namespace). */
int sb_nd_read_if_counters(const struct sb_root *root, struct sb_if_counters **out, size_t *n,
			   struct sb_err *e);
const struct sb_if_counters *sb_nd_find_if_counters(
	const struct sb_if_counters *v, size_t n, const char *name);

#endif
