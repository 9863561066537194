// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsg ping payloads: each request carries a run cookie and a sequence number, so an echo
 * that comes back after its request timed out is recognised as late and skipped instead of
 * being taken for the answer to the next request. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/rpmsg.h"
#include "socbox/stats.h"
#include "socbox/stop.h"

/* Bytes of the sequence number and whether the cookie fits (see rpmsg.h). */
static size_t seq_bytes(size_t size)
{
	return size >= SB_RPMSG_PING_HDR ? 4 : (size < 4 ? size : 4);
}

static bool has_cookie(size_t size)
{
	return size >= SB_RPMSG_PING_HDR;
}

static size_t hdr_bytes(size_t size)
{
	return has_cookie(size) ? SB_RPMSG_PING_HDR : seq_bytes(size);
}

static void put_le(unsigned char *b, uint32_t v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_le(const unsigned char *b, size_t n)
{
	uint32_t v = 0;

	for (size_t i = 0; i < n; i++)
		v |= (uint32_t)b[i] << (8 * i);
	return v;
}

void sb_rpmsg_ping_fill(unsigned char *b, size_t size, uint32_t cookie, uint32_t seq)
{
	size_t h = hdr_bytes(size);

	if (has_cookie(size)) {
		put_le(b, cookie, 4);
		put_le(b + 4, seq, 4);
	} else {
		put_le(b, seq, seq_bytes(size));
	}
	for (size_t i = h; i < size; i++)
		b[i] = (unsigned char)(seq * 131u + i * 7u + 1u);
}

enum sb_rpmsg_echo sb_rpmsg_ping_check(const unsigned char *b, size_t got, size_t size,
				       uint32_t cookie, uint32_t seq)
{
	size_t k = seq_bytes(size), h = hdr_bytes(size);
	uint32_t mask = k >= 4 ? 0xffffffffu : (1u << (8 * k)) - 1u;
	uint32_t s, behind;

	if (got < h || (has_cookie(size) && get_le(b, 4) != cookie))
		return SB_ECHO_CORRUPT;
	s = get_le(b + (has_cookie(size) ? 4 : 0), k);
	behind = (seq - s) & mask;
	/* an earlier request of this run: at most seq back, and within half the number space
	 * (with a truncated number, further back is indistinguishable from garbage) */
	if (behind != 0)
		return behind <= seq && behind <= mask / 2 + 1 ? SB_ECHO_LATE : SB_ECHO_CORRUPT;
	if (got != size)
		return SB_ECHO_CORRUPT;
	for (size_t i = h; i < size; i++)
		if (b[i] != (unsigned char)(seq * 131u + i * 7u + 1u))
			return SB_ECHO_CORRUPT;
	return SB_ECHO_OK;
}

int sb_rpmsg_ping_init(struct sb_rpmsg_ping *p, size_t size, uint32_t cookie, struct sb_err *e)
{
	memset(p, 0, sizeof(*p));
	p->size = size;
	p->cookie = cookie;
	p->out = malloc(size ? size : 1);
	p->in = malloc(size + 1); /* one more: a longer echo shows as longer */
	if (!p->out || !p->in) {
		sb_rpmsg_ping_free(p);
		return sb_err_set(e, ENOMEM, "ping", "allocate", NULL);
	}
	return 0;
}

void sb_rpmsg_ping_free(struct sb_rpmsg_ping *p)
{
	free(p->out);
	free(p->in);
	p->out = p->in = NULL;
}

int sb_rpmsg_ping_one(int fd, struct sb_rpmsg_ping *p, uint32_t seq, int timeout_ms,
		      uint64_t *rtt_ns, struct sb_err *e)
{
	uint64_t t0, deadline;

	sb_rpmsg_ping_fill(p->out, p->size, p->cookie, seq);
	t0 = sb_now_ns();
	deadline = t0 + (uint64_t)timeout_ms * 1000000ull;
	{
		ssize_t n = sb_rpmsg_send(fd, p->out, p->size, SB_RPMSG_VIRTIO_MTU, e);

		if (n < 0)
			return (int)n;
	}
	for (;;) {
		int left = sb_poll_timeout(deadline, -1);
		ssize_t got;
		enum sb_rpmsg_echo r;

		if (!left) {
			sb_err_set(e, ETIMEDOUT, "endpoint", "receive", NULL);
			sb_err_reason(e, "no echo within %d ms", timeout_ms);
			return -ETIMEDOUT;
		}
		got = sb_rpmsg_recv(fd, p->in, p->size + 1, left, e);
		if (got < 0)
			return (int)got;
		r = sb_rpmsg_ping_check(p->in, (size_t)got, p->size, p->cookie, seq);
		if (r == SB_ECHO_LATE) {
			p->late++;
			continue;
		}
		if (r == SB_ECHO_OK)
			*rtt_ns = sb_now_ns() - t0;
		return (int)r;
	}
}
