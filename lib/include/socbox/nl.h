/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Netlink messages without a library: a builder that never writes past its buffer, and
 * walkers over messages and attributes that never read past the message or the enclosing
 * attribute (netdev captures come from snapshots, so they are hostile input). No sockets
 * here; socbox/genl.h talks to the kernel. */
#ifndef SOCBOX_NL_H
#define SOCBOX_NL_H

#include <linux/netlink.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SB_NL_ALIGN(len) (((len) + 3u) & ~3u)
/* A request we build (the largest, bind-rx with its queues, is far smaller). */
#define SB_NL_MSG_SIZE 8192

/* A callback per received message returns one of these; errno says why on SB_NL_CB_ERROR. */
enum { SB_NL_CB_ERROR = -1, SB_NL_CB_STOP = 0, SB_NL_CB_OK = 1 };
typedef int (*sb_nl_cb)(const struct nlmsghdr *nlh, void *data);

/* Building: a message in the caller's buffer (aligned for struct nlmsghdr). A put that
 * does not fit adds nothing and sets overflow; sending such a message fails. */
struct sb_nl_msg {
	struct nlmsghdr *nlh;
	size_t cap;
	bool overflow;
};

struct nlmsghdr *sb_nl_msg_init(struct sb_nl_msg *m, void *buf, size_t cap);
/* A zeroed family header (e.g. struct genlmsghdr) right after the netlink header. */
void *sb_nl_msg_put_extra(struct sb_nl_msg *m, size_t len);
void sb_nl_put(struct sb_nl_msg *m, uint16_t type, const void *data, size_t len);
void sb_nl_put_u16(struct sb_nl_msg *m, uint16_t type, uint16_t v);
void sb_nl_put_u32(struct sb_nl_msg *m, uint16_t type, uint32_t v);
void sb_nl_put_u64(struct sb_nl_msg *m, uint16_t type, uint64_t v);
void sb_nl_put_strz(struct sb_nl_msg *m, uint16_t type, const char *s);
/* A nest: attributes put between start and end go inside it. NULL when it does not fit
 * (sb_nl_nest_end accepts NULL). */
struct nlattr *sb_nl_nest_start(struct sb_nl_msg *m, uint16_t type);
void sb_nl_nest_end(struct sb_nl_msg *m, struct nlattr *nest);

/* Walking messages in a buffer: left is what remains from nlh to the end of the buffer.
 * After the walk, left is 0 exactly when the buffer ended on a message boundary. */
static inline bool sb_nl_msg_ok(const struct nlmsghdr *nlh, ptrdiff_t left)
{
	/* Unsigned: on 32-bit a length above 2 GiB must not pass as a negative number. */
	return left >= (ptrdiff_t)sizeof(*nlh) && nlh->nlmsg_len >= sizeof(*nlh) &&
	       nlh->nlmsg_len <= (size_t)left;
}

const struct nlmsghdr *sb_nl_msg_next(const struct nlmsghdr *nlh, ptrdiff_t *left);

#define sb_nl_msg_for_each(nlh, buf, left) \
	for ((nlh) = (const struct nlmsghdr *)(buf); sb_nl_msg_ok((nlh), (left)); \
	     (nlh) = sb_nl_msg_next((nlh), &(left)))

/* The payload after the netlink header, and its length (0 for a message too short). */
static inline const void *sb_nl_msg_payload(const struct nlmsghdr *nlh)
{
	return (const char *)nlh + NLMSG_HDRLEN;
}

static inline size_t sb_nl_msg_payload_len(const struct nlmsghdr *nlh)
{
	return nlh->nlmsg_len > NLMSG_HDRLEN ? nlh->nlmsg_len - NLMSG_HDRLEN : 0;
}

/* One past the last byte of the message. */
static inline const void *sb_nl_msg_end(const struct nlmsghdr *nlh)
{
	return (const char *)nlh + nlh->nlmsg_len;
}

/* Attributes. Every accessor below is safe only on an attribute sb_nl_attr_ok() accepted. */
static inline bool sb_nl_attr_ok(const struct nlattr *a, const void *end)
{
	ptrdiff_t left = (const char *)end - (const char *)a;

	return left >= (ptrdiff_t)sizeof(*a) && a->nla_len >= sizeof(*a) &&
	       (ptrdiff_t)a->nla_len <= left;
}

static inline uint16_t sb_nl_attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

static inline const void *sb_nl_attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

static inline uint16_t sb_nl_attr_len(const struct nlattr *a)
{
	return (uint16_t)(a->nla_len - NLA_HDRLEN);
}

const struct nlattr *sb_nl_attr_next(const struct nlattr *a, const void *end);
/* The first attribute after the netlink header and a family header of hdrlen bytes. */
const struct nlattr *sb_nl_attr_first(const struct nlmsghdr *nlh, size_t hdrlen);

/* Fixed-size values: 0, or -EINVAL when the payload is not exactly that size. */
int sb_nl_attr_u16(const struct nlattr *a, uint16_t *v);
int sb_nl_attr_u32(const struct nlattr *a, uint32_t *v);
int sb_nl_attr_u64(const struct nlattr *a, uint64_t *v);
/* A NUL-terminated string attribute, or NULL when it is empty or not terminated. */
const char *sb_nl_attr_str(const struct nlattr *a);

/* The attributes of a message after its family header. */
#define sb_nl_attr_for_each(a, nlh, hdrlen) \
	for ((a) = sb_nl_attr_first((nlh), (hdrlen)); sb_nl_attr_ok((a), sb_nl_msg_end(nlh)); \
	     (a) = sb_nl_attr_next((a), sb_nl_msg_end(nlh)))

/* The attributes nested in nest. */
#define sb_nl_attr_for_each_nested(a, nest) \
	for ((a) = (const struct nlattr *)sb_nl_attr_data(nest); \
	     sb_nl_attr_ok((a), (const char *)sb_nl_attr_data(nest) + sb_nl_attr_len(nest)); \
	     (a) = sb_nl_attr_next((a), \
				   (const char *)sb_nl_attr_data(nest) + sb_nl_attr_len(nest)))

/* An NLMSG_ERROR message: the error (0 for an ack) and the extended ack, when the kernel
 * sent one (NETLINK_EXT_ACK): its message and the offset of the rejected attribute in the
 * request. -EBADMSG when the message is too short to be an error message. */
struct sb_nl_ack {
	int error;	 /* as the kernel sent it: 0 or -errno */
	const char *msg; /* NULL when none; points into the message */
	bool have_offset;
	uint32_t offset; /* from the start of the request's netlink header */
};
int sb_nl_ack_parse(const struct nlmsghdr *nlh, struct sb_nl_ack *ack);

/* Run cb on each data message of a received buffer, the way a netlink client must: a
 * message from another port or with another sequence number (when seq/portid are not 0)
 * fails with ESRCH/EPROTO, an interrupted dump with EINTR, NLMSG_DONE and a zero ack stop
 * (SB_NL_CB_STOP), an error message fails with its errno, NOOP and OVERRUN are skipped.
 * Returns SB_NL_CB_OK when more messages are to come, SB_NL_CB_STOP, or SB_NL_CB_ERROR
 * with errno set (a callback's own return value is passed on the same way). */
int sb_nl_run(const void *buf, size_t len, uint32_t seq, uint32_t portid, sb_nl_cb cb, void *data);

#endif
