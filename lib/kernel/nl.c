// SPDX-License-Identifier: GPL-2.0-or-later
/* Netlink message builder and bounded walkers (see socbox/nl.h). */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "socbox/nl.h"

struct nlmsghdr *sb_nl_msg_init(struct sb_nl_msg *m, void *buf, size_t cap)
{
	m->nlh = buf;
	m->cap = cap;
	m->overflow = cap < NLMSG_HDRLEN;
	if (m->overflow)
		return NULL;
	memset(m->nlh, 0, NLMSG_HDRLEN);
	m->nlh->nlmsg_len = NLMSG_HDRLEN;
	return m->nlh;
}

/* Room for len more bytes (aligned), zeroed; NULL (and overflow) when they do not fit. */
static void *reserve(struct sb_nl_msg *m, size_t len)
{
	size_t need = SB_NL_ALIGN(len);
	char *p;

	if (m->overflow || need < len || need > m->cap - m->nlh->nlmsg_len) {
		m->overflow = true;
		return NULL;
	}
	p = (char *)m->nlh + m->nlh->nlmsg_len;
	memset(p, 0, need);
	m->nlh->nlmsg_len += (uint32_t)need;
	return p;
}

void *sb_nl_msg_put_extra(struct sb_nl_msg *m, size_t len)
{
	return reserve(m, len);
}

void sb_nl_put(struct sb_nl_msg *m, uint16_t type, const void *data, size_t len)
{
	struct nlattr *a;

	if (len > UINT16_MAX - NLA_HDRLEN) {
		m->overflow = true;
		return;
	}
	a = reserve(m, NLA_HDRLEN + len);
	if (!a)
		return;
	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + len);
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
}

void sb_nl_put_u16(struct sb_nl_msg *m, uint16_t type, uint16_t v)
{
	sb_nl_put(m, type, &v, sizeof(v));
}

void sb_nl_put_u32(struct sb_nl_msg *m, uint16_t type, uint32_t v)
{
	sb_nl_put(m, type, &v, sizeof(v));
}

void sb_nl_put_u64(struct sb_nl_msg *m, uint16_t type, uint64_t v)
{
	sb_nl_put(m, type, &v, sizeof(v));
}

void sb_nl_put_strz(struct sb_nl_msg *m, uint16_t type, const char *s)
{
	sb_nl_put(m, type, s, strlen(s) + 1);
}

struct nlattr *sb_nl_nest_start(struct sb_nl_msg *m, uint16_t type)
{
	struct nlattr *a = reserve(m, NLA_HDRLEN);

	if (a) {
		a->nla_type = NLA_F_NESTED | type;
		a->nla_len = NLA_HDRLEN;
	}
	return a;
}

void sb_nl_nest_end(struct sb_nl_msg *m, struct nlattr *nest)
{
	size_t len;

	if (!nest || m->overflow)
		return;
	len = (size_t)((char *)m->nlh + m->nlh->nlmsg_len - (char *)nest);
	if (len > UINT16_MAX) {
		m->overflow = true;
		return;
	}
	nest->nla_len = (uint16_t)len;
}

const struct nlmsghdr *sb_nl_msg_next(const struct nlmsghdr *nlh, ptrdiff_t *left)
{
	size_t step = SB_NL_ALIGN((size_t)nlh->nlmsg_len);

	if (step > (size_t)*left) {
		/* The last message's padding is missing: not a message boundary. */
		*left = -1;
		return nlh;
	}
	*left -= (ptrdiff_t)step;
	return (const struct nlmsghdr *)((const char *)nlh + step);
}

const struct nlattr *sb_nl_attr_next(const struct nlattr *a, const void *end)
{
	size_t step = SB_NL_ALIGN((size_t)a->nla_len);
	size_t left = (size_t)((const char *)end - (const char *)a);

	/* Never point past the end, even by the padding of an unpadded last attribute. */
	return step >= left ? end : (const void *)((const char *)a + step);
}

const struct nlattr *sb_nl_attr_first(const struct nlmsghdr *nlh, size_t hdrlen)
{
	size_t off = NLMSG_HDRLEN + SB_NL_ALIGN(hdrlen);

	return off >= nlh->nlmsg_len ? sb_nl_msg_end(nlh) : (const void *)((const char *)nlh + off);
}

/* memcpy: attributes are only 4-byte aligned, a u64 may not be naturally aligned. */
int sb_nl_attr_u16(const struct nlattr *a, uint16_t *v)
{
	if (sb_nl_attr_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, sb_nl_attr_data(a), sizeof(*v));
	return 0;
}

int sb_nl_attr_u32(const struct nlattr *a, uint32_t *v)
{
	if (sb_nl_attr_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, sb_nl_attr_data(a), sizeof(*v));
	return 0;
}

int sb_nl_attr_u64(const struct nlattr *a, uint64_t *v)
{
	if (sb_nl_attr_len(a) != sizeof(*v))
		return -EINVAL;
	memcpy(v, sb_nl_attr_data(a), sizeof(*v));
	return 0;
}

const char *sb_nl_attr_str(const struct nlattr *a)
{
	uint16_t len = sb_nl_attr_len(a);
	const char *s = sb_nl_attr_data(a);

	return len && s[len - 1] == '\0' ? s : NULL;
}

int sb_nl_ack_parse(const struct nlmsghdr *nlh, struct sb_nl_ack *ack)
{
	const struct nlmsgerr *err = sb_nl_msg_payload(nlh);
	const struct nlattr *a;
	size_t off = sizeof(*err);

	memset(ack, 0, sizeof(*ack));
	if (sb_nl_msg_payload_len(nlh) < sizeof(*err))
		return -EBADMSG;
	ack->error = err->error;
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return 0;
	/* Unless capped, the request's payload is echoed before the attributes. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED)) {
		if (err->msg.nlmsg_len < NLMSG_HDRLEN ||
		    err->msg.nlmsg_len - NLMSG_HDRLEN > sb_nl_msg_payload_len(nlh))
			return 0;
		off += err->msg.nlmsg_len - NLMSG_HDRLEN;
	}
	if (sb_nl_msg_payload_len(nlh) < off)
		return 0;
	sb_nl_attr_for_each(a, nlh, off) {
		switch (sb_nl_attr_type(a)) {
		case NLMSGERR_ATTR_MSG:
			if (sb_nl_attr_str(a))
				ack->msg = sb_nl_attr_str(a);
			break;
		case NLMSGERR_ATTR_OFFS:
			ack->have_offset = sb_nl_attr_u32(a, &ack->offset) == 0;
			break;
		}
	}
	return 0;
}

int sb_nl_run(const void *buf, size_t len, uint32_t seq, uint32_t portid, sb_nl_cb cb, void *data)
{
	ptrdiff_t left = len > PTRDIFF_MAX ? PTRDIFF_MAX : (ptrdiff_t)len;
	const struct nlmsghdr *nlh;
	struct sb_nl_ack ack;
	int rc = SB_NL_CB_OK;

	sb_nl_msg_for_each(nlh, buf, left) {
		if (portid && nlh->nlmsg_pid && nlh->nlmsg_pid != portid) {
			errno = ESRCH;
			return SB_NL_CB_ERROR;
		}
		if (seq && nlh->nlmsg_seq && nlh->nlmsg_seq != seq) {
			errno = EPROTO;
			return SB_NL_CB_ERROR;
		}
		if (nlh->nlmsg_flags & NLM_F_DUMP_INTR) {
			errno = EINTR;
			return SB_NL_CB_ERROR;
		}
		if (nlh->nlmsg_type >= NLMSG_MIN_TYPE) {
			if (cb) {
				rc = cb(nlh, data);
				if (rc <= SB_NL_CB_STOP)
					return rc;
			}
			continue;
		}
		switch (nlh->nlmsg_type) {
		case NLMSG_DONE:
			return SB_NL_CB_STOP;
		case NLMSG_ERROR:
			if (sb_nl_ack_parse(nlh, &ack)) {
				errno = EBADMSG;
				return SB_NL_CB_ERROR;
			}
			if (ack.error == 0)
				return SB_NL_CB_STOP;
			/* Netlink families send the errno with either sign. */
			errno = ack.error == INT_MIN ? EIO : ack.error < 0 ? -ack.error : ack.error;
			return SB_NL_CB_ERROR;
		default: /* NLMSG_NOOP, NLMSG_OVERRUN */
			break;
		}
	}
	return rc;
}
