// SPDX-License-Identifier: GPL-2.0-or-later
/* The netlink builder and walkers: layout of what we build, a builder that refuses to
 * overflow, walks that stop inside hostile messages, acks with extended ack, and the
 * dispatch rules of sb_nl_run (sequence, port, done, error, interrupted dump). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/genetlink.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/nl.h"
#include "testutil.h"

START_TEST(builder_layout)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = sb_nl_msg_init(&m, buf, sizeof(buf));
	const struct nlattr *a, *n;
	struct nlattr *nest;
	uint32_t v32;
	uint64_t v64;
	uint16_t v16;
	unsigned seen = 0;

	ck_assert_uint_eq(nlh->nlmsg_len, NLMSG_HDRLEN);
	ck_assert_ptr_nonnull(sb_nl_msg_put_extra(&m, sizeof(struct genlmsghdr)));
	ck_assert_uint_eq(nlh->nlmsg_len, NLMSG_HDRLEN + 4);
	sb_nl_put_strz(&m, 1, "netdev"); /* 7 bytes: padded to 8 */
	ck_assert_uint_eq(nlh->nlmsg_len, 20 + 4 + 8);
	sb_nl_put_u16(&m, 2, 0x1234);
	sb_nl_put_u64(&m, 3, 1ull << 40); /* at an offset that is not 8-aligned */
	nest = sb_nl_nest_start(&m, 4);
	sb_nl_put_u32(&m, 5, 77);
	sb_nl_nest_end(&m, nest);
	ck_assert(!m.overflow);
	ck_assert_uint_eq(nest->nla_len, 4 + 8);
	ck_assert(nest->nla_type & NLA_F_NESTED);
	ck_assert_uint_eq(nlh->nlmsg_len % 4, 0);

	sb_nl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (sb_nl_attr_type(a)) {
		case 1:
			ck_assert_str_eq(sb_nl_attr_str(a), "netdev");
			ck_assert_int_eq(sb_nl_attr_u32(a, &v32), -EINVAL);
			seen |= 1;
			break;
		case 2:
			ck_assert_int_eq(sb_nl_attr_u16(a, &v16), 0);
			ck_assert_uint_eq(v16, 0x1234);
			ck_assert_ptr_null(sb_nl_attr_str(a)); /* no NUL at the end */
			seen |= 2;
			break;
		case 3:
			ck_assert_int_eq(sb_nl_attr_u64(a, &v64), 0);
			ck_assert_uint_eq(v64, 1ull << 40);
			seen |= 4;
			break;
		case 4:
			sb_nl_attr_for_each_nested(n, a) {
				ck_assert_uint_eq(sb_nl_attr_type(n), 5);
				ck_assert_int_eq(sb_nl_attr_u32(n, &v32), 0);
				ck_assert_uint_eq(v32, 77);
				seen |= 8;
			}
			break;
		}
	}
	ck_assert_uint_eq(seen, 15);
	ck_assert_ptr_eq(a, sb_nl_msg_end(nlh));
}
END_TEST

START_TEST(builder_never_overflows)
{
	uint64_t buf[64 / sizeof(uint64_t) + 1];
	struct sb_nl_msg m;
	struct nlmsghdr *nlh;
	struct nlattr *nest;
	char big[100];
	unsigned i;

	memset(buf, 0xEE, sizeof(buf));
	nlh = sb_nl_msg_init(&m, buf, 64);
	sb_nl_msg_put_extra(&m, 4);
	for (i = 0; i < 20; i++)
		sb_nl_put_u32(&m, 1, i);
	ck_assert(m.overflow);
	ck_assert_uint_le(nlh->nlmsg_len, 64);
	ck_assert_uint_eq(((unsigned char *)buf)[64], 0xEE); /* not a byte past cap */

	nlh = sb_nl_msg_init(&m, buf, 64);
	memset(big, 'x', sizeof(big));
	sb_nl_put(&m, 1, big, sizeof(big));
	ck_assert(m.overflow);
	ck_assert_uint_eq(nlh->nlmsg_len, NLMSG_HDRLEN);

	/* A nest that cannot be opened: NULL, and closing it is harmless. */
	nlh = sb_nl_msg_init(&m, buf, NLMSG_HDRLEN + 2);
	nest = sb_nl_nest_start(&m, 1);
	ck_assert_ptr_null(nest);
	sb_nl_nest_end(&m, nest);
	ck_assert(m.overflow);

	/* An attribute longer than nla_len can say. */
	{
		size_t cap = 70000;
		void *large = malloc(cap + 8), *payload = calloc(1, 65535);
		sb_nl_msg_init(&m, large, cap);
		sb_nl_put(&m, 1, payload, 65535 - NLA_HDRLEN + 1);
		ck_assert(m.overflow);
		free(large);
		free(payload);
	}
	ck_assert_ptr_null(sb_nl_msg_init(&m, buf, 8));
	ck_assert(m.overflow);
}
END_TEST

/* A message of one u32 attribute followed by raw bytes we control. */
static struct nlmsghdr *raw_msg(uint64_t *buf, const void *tail, size_t tail_len)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;

	memset(nlh, 0, NLMSG_HDRLEN);
	nlh->nlmsg_type = 20;
	memcpy((char *)nlh + NLMSG_HDRLEN, tail, tail_len);
	nlh->nlmsg_len = (uint32_t)(NLMSG_HDRLEN + tail_len);
	return nlh;
}

static unsigned count_attrs(const struct nlmsghdr *nlh, const struct nlattr **last)
{
	const struct nlattr *a;
	unsigned n = 0;

	sb_nl_attr_for_each(a, nlh, 0)
		n++;
	*last = a;
	return n;
}

START_TEST(walk_hostile_attributes)
{
	uint64_t buf[32];
	const struct nlattr *last;
	struct nlmsghdr *nlh;
	/* nla_len 8 type 1 | nla_len 400 type 2 (claims more than the message) */
	static const unsigned char oversized[] = {
		8, 0, 1, 0, 1, 2, 3, 4, 0x90, 1, 2, 0, 9, 9, 9, 9
	};
	/* nla_len 2: shorter than its own header */
	static const unsigned char tiny[] = { 2, 0, 1, 0, 0, 0, 0, 0 };
	/* the last attribute is 5 bytes and the message ends without its padding */
	static const unsigned char unpadded[] = { 8, 0, 1, 0, 1, 2, 3, 4, 5, 0, 2, 0, 'x' };
	/* two stray bytes after the last attribute */
	static const unsigned char stray[] = { 8, 0, 1, 0, 1, 2, 3, 4, 0xff, 0xff };

	nlh = raw_msg(buf, oversized, sizeof(oversized));
	ck_assert_uint_eq(count_attrs(nlh, &last), 1);
	ck_assert((const void *)last < sb_nl_msg_end(nlh)); /* stopped early: incomplete */

	nlh = raw_msg(buf, tiny, sizeof(tiny));
	ck_assert_uint_eq(count_attrs(nlh, &last), 0);
	ck_assert((const void *)last < sb_nl_msg_end(nlh));

	nlh = raw_msg(buf, unpadded, sizeof(unpadded));
	ck_assert_uint_eq(count_attrs(nlh, &last), 2);
	ck_assert_ptr_eq(last, sb_nl_msg_end(nlh)); /* never past the end */

	nlh = raw_msg(buf, stray, sizeof(stray));
	ck_assert_uint_eq(count_attrs(nlh, &last), 1);
	ck_assert((const void *)last < sb_nl_msg_end(nlh));

	/* A nest whose child claims more than the nest holds. */
	{
		static const unsigned char nest[] = { 12, 0, 1, 0x80, 12, 0, 2, 0, 0, 0, 0, 0 };
		const struct nlattr *a, *n;
		unsigned inner = 0;

		nlh = raw_msg(buf, nest, sizeof(nest));
		sb_nl_attr_for_each(a, nlh, 0)
			sb_nl_attr_for_each_nested(n, a)
				inner++;
		ck_assert_uint_eq(inner, 0);
	}
	/* A family header longer than the message: no attributes, no read past it. */
	nlh = raw_msg(buf, stray, 2);
	ck_assert_ptr_eq(sb_nl_attr_first(nlh, 4), sb_nl_msg_end(nlh));
}
END_TEST

START_TEST(walk_messages)
{
	uint64_t buf[64];
	struct nlmsghdr *nlh = (struct nlmsghdr *)buf;
	const struct nlmsghdr *it;
	ptrdiff_t left;
	unsigned n = 0;

	memset(buf, 0, sizeof(buf));
	nlh->nlmsg_len = 20;
	((struct nlmsghdr *)((char *)buf + 20))->nlmsg_len = 16;
	left = 36;
	sb_nl_msg_for_each(it, buf, left)
		n++;
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(left, 0);

	/* The last message is unaligned and its padding is missing: not a boundary. */
	nlh->nlmsg_len = 18;
	left = 18;
	n = 0;
	sb_nl_msg_for_each(it, buf, left)
		n++;
	ck_assert_uint_eq(n, 1);
	ck_assert_int_ne(left, 0);

	/* A length above 2 GiB does not pass as a negative number. */
	nlh->nlmsg_len = 0x80000010u;
	ck_assert(!sb_nl_msg_ok(nlh, 64));
	nlh->nlmsg_len = 8; /* shorter than a header */
	ck_assert(!sb_nl_msg_ok(nlh, 64));
}
END_TEST

/* An NLMSG_ERROR for a request, as the kernel builds it with NETLINK_EXT_ACK. */
static struct nlmsghdr *error_msg(uint64_t *buf, size_t cap, int error, bool capped,
				  const char *text, int offs)
{
	struct sb_nl_msg m;
	struct nlmsghdr *nlh = sb_nl_msg_init(&m, buf, cap);
	struct nlmsgerr *err;
	uint32_t req_payload[3] = { 1, 2, 3 };

	nlh->nlmsg_type = NLMSG_ERROR;
	nlh->nlmsg_seq = 7;
	err = sb_nl_msg_put_extra(&m, sizeof(*err));
	err->error = error;
	err->msg.nlmsg_len = NLMSG_HDRLEN + (capped ? 0 : sizeof(req_payload));
	err->msg.nlmsg_seq = 7;
	if (!capped) {
		memcpy(sb_nl_msg_put_extra(&m, sizeof(req_payload)), req_payload,
		       sizeof(req_payload));
		err->msg.nlmsg_len = NLMSG_HDRLEN + sizeof(req_payload);
	} else {
		nlh->nlmsg_flags |= NLM_F_CAPPED;
	}
	if (text || offs >= 0)
		nlh->nlmsg_flags |= NLM_F_ACK_TLVS;
	if (text)
		sb_nl_put_strz(&m, NLMSGERR_ATTR_MSG, text);
	if (offs >= 0)
		sb_nl_put_u32(&m, NLMSGERR_ATTR_OFFS, (uint32_t)offs);
	ck_assert(!m.overflow);
	return nlh;
}

START_TEST(ack_extack)
{
	uint64_t buf[64];
	struct sb_nl_ack ack;
	struct nlmsghdr *nlh;

	nlh = error_msg(buf, sizeof(buf), -EINVAL, false, "bad queue", 24);
	ck_assert_int_eq(sb_nl_ack_parse(nlh, &ack), 0);
	ck_assert_int_eq(ack.error, -EINVAL);
	ck_assert_str_eq(ack.msg, "bad queue");
	ck_assert(ack.have_offset);
	ck_assert_uint_eq(ack.offset, 24);

	nlh = error_msg(buf, sizeof(buf), -EBUSY, true, "busy", -1);
	ck_assert_int_eq(sb_nl_ack_parse(nlh, &ack), 0);
	ck_assert_int_eq(ack.error, -EBUSY);
	ck_assert_str_eq(ack.msg, "busy");
	ck_assert(!ack.have_offset);

	/* The echoed request claims more than the message holds: no attributes read. */
	nlh = error_msg(buf, sizeof(buf), -EINVAL, false, "x", -1);
	((struct nlmsgerr *)NLMSG_DATA(nlh))->msg.nlmsg_len = 0xfffffff0u;
	ck_assert_int_eq(sb_nl_ack_parse(nlh, &ack), 0);
	ck_assert_ptr_null(ack.msg);

	/* A message without its terminating NUL is not a string. */
	nlh = error_msg(buf, sizeof(buf), -EINVAL, true, "abc", -1);
	((char *)nlh)[nlh->nlmsg_len - 1] = 'd'; /* "abc\0" -> "abcd" */
	ck_assert_int_eq(sb_nl_ack_parse(nlh, &ack), 0);
	ck_assert_ptr_null(ack.msg);

	/* Too short to be an error message. */
	nlh->nlmsg_len = NLMSG_HDRLEN + 2;
	ck_assert_int_eq(sb_nl_ack_parse(nlh, &ack), -EBADMSG);
}
END_TEST

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	(*(unsigned *)data)++;
	return nlh->nlmsg_type == 99 ? SB_NL_CB_STOP : SB_NL_CB_OK;
}

/* Append a bare message of type and flags at *off in buf. */
static void put_msg(char *buf, size_t *off, uint16_t type, uint16_t flags, uint32_t seq,
		    uint32_t pid)
{
	struct nlmsghdr *nlh = (struct nlmsghdr *)(buf + *off);

	memset(nlh, 0, NLMSG_HDRLEN + 4);
	nlh->nlmsg_len = NLMSG_HDRLEN + 4;
	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = flags;
	nlh->nlmsg_seq = seq;
	nlh->nlmsg_pid = pid;
	*off += nlh->nlmsg_len;
}

START_TEST(run_dispatch)
{
	uint64_t store[256];
	char *buf = (char *)store;
	size_t off = 0;
	unsigned n = 0;

	put_msg(buf, &off, 20, NLM_F_MULTI, 5, 100);
	put_msg(buf, &off, NLMSG_NOOP, 0, 5, 100);
	put_msg(buf, &off, 20, NLM_F_MULTI, 5, 100);
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_OK);
	ck_assert_uint_eq(n, 2);

	put_msg(buf, &off, NLMSG_DONE, NLM_F_MULTI, 5, 100);
	put_msg(buf, &off, 20, NLM_F_MULTI, 5, 100); /* after DONE: not seen */
	n = 0;
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_STOP);
	ck_assert_uint_eq(n, 2);

	off = 0;
	put_msg(buf, &off, 20, 0, 6, 100);
	errno = 0;
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, EPROTO);
	ck_assert_int_eq(sb_nl_run(buf, off, 0, 100, count_cb, &n), SB_NL_CB_OK); /* seq 0: any */

	off = 0;
	put_msg(buf, &off, 20, 0, 5, 101);
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, ESRCH);

	off = 0;
	put_msg(buf, &off, 20, NLM_F_DUMP_INTR, 5, 100);
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, EINTR);

	off = 0;
	put_msg(buf, &off, 99, 0, 5, 100); /* the callback stops */
	put_msg(buf, &off, 20, 0, 5, 100);
	n = 0;
	ck_assert_int_eq(sb_nl_run(buf, off, 5, 100, count_cb, &n), SB_NL_CB_STOP);
	ck_assert_uint_eq(n, 1);

	/* An ack ends a request; an error fails it with its errno, whatever its sign. */
	error_msg(store, sizeof(store), 0, true, NULL, -1);
	ck_assert_int_eq(sb_nl_run(buf, ((struct nlmsghdr *)buf)->nlmsg_len, 7, 0, count_cb, &n),
			 SB_NL_CB_STOP);
	error_msg(store, sizeof(store), -ENODEV, true, NULL, -1);
	ck_assert_int_eq(sb_nl_run(buf, ((struct nlmsghdr *)buf)->nlmsg_len, 7, 0, count_cb, &n),
			 SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, ENODEV);
	error_msg(store, sizeof(store), EBUSY, true, NULL, -1);
	ck_assert_int_eq(sb_nl_run(buf, ((struct nlmsghdr *)buf)->nlmsg_len, 7, 0, count_cb, &n),
			 SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, EBUSY);
	((struct nlmsghdr *)buf)->nlmsg_len = NLMSG_HDRLEN + 2; /* truncated error */
	ck_assert_int_eq(sb_nl_run(buf, NLMSG_HDRLEN + 2, 7, 0, count_cb, &n), SB_NL_CB_ERROR);
	ck_assert_int_eq(errno, EBADMSG);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("nl");
	TCase *t = tcase_create("core");

	tcase_add_test(t, builder_layout);
	tcase_add_test(t, builder_never_overflows);
	tcase_add_test(t, walk_hostile_attributes);
	tcase_add_test(t, walk_messages);
	tcase_add_test(t, ack_extack);
	tcase_add_test(t, run_dispatch);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}
