// SPDX-License-Identifier: GPL-2.0-or-later
/* devmem TCP receive into a bound dma-buf: recvmsg(MSG_SOCK_DEVMEM), each control message
 * in stream order, the bytes read from where they landed, fragments given back by token. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#define XXH_STATIC_LINKING_ONLY
#include <xxhash.h>

#include "socbox/devmem_rx.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "socbox/uapi/devmem.h"
#include "socbox/uapi/dma-buf.h"

/* Control space for the fragments of one recvmsg: a 64 KiB read of 4 KiB fragments needs
 * 17 (one per fragment and the linear part); room for many skbs' worth. */
#define RX_CMSGS 1024
#define RX_LINEAR (64 * 1024)

struct rx_run {
	struct sb_devmem_rx *rx;
	const uint8_t *map;
	XXH3_state_t *hash;
	struct sb_dmabuf_token *tokens;
	size_t ntokens;
};

static int dmabuf_sync(int fd, uint64_t flags)
{
	struct sb_dma_buf_sync s = { .flags = flags | SB_DMA_BUF_SYNC_READ };

	while (ioctl(fd, SB_DMA_BUF_IOCTL_SYNC, &s)) {
		if (errno != EINTR && errno != EAGAIN)
			return -errno;
	}
	return 0;
}

static int take(struct rx_run *r, const uint8_t *p, size_t n, struct sb_err *e)
{
	struct sb_devmem_rx *rx = r->rx;

	XXH3_64bits_update(r->hash, p, n);
	while (n && rx->save_fd >= 0) {
		ssize_t w = write(rx->save_fd, p, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return sb_err_set(e, w < 0 ? errno : EIO, "--save file", "write", NULL);
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

static int give_back(struct rx_run *r, int sock, struct sb_err *e)
{
	socklen_t len = (socklen_t)(r->ntokens * sizeof(*r->tokens));
	int freed;

	if (!r->ntokens)
		return 0;
	freed = setsockopt(sock, SOL_SOCKET, SB_SO_DEVMEM_DONTNEED, r->tokens, len);
	if (freed < 0)
		return sb_err_set(e, errno, "socket", "SO_DEVMEM_DONTNEED", NULL);
	/* setsockopt answers how many fragments it freed */
	if ((size_t)freed != r->ntokens) {
		sb_err_set(e, EIO, "socket", "SO_DEVMEM_DONTNEED", NULL);
		sb_err_reason(e, "the kernel took back %d of %zu fragments", freed, r->ntokens);
		return -EIO;
	}
	r->rx->tokens += r->ntokens;
	r->ntokens = 0;
	return 0;
}

static int one_cmsg(struct rx_run *r, const struct cmsghdr *cm, const uint8_t *linear,
		    size_t *linear_off, size_t linear_len, struct sb_err *e)
{
	struct sb_devmem_rx *rx = r->rx;
	struct sb_dmabuf_cmsg dc;

	if (cm->cmsg_level != SOL_SOCKET || cm->cmsg_len < CMSG_LEN(sizeof(dc)) ||
	    (cm->cmsg_type != SB_SO_DEVMEM_LINEAR && cm->cmsg_type != SB_SO_DEVMEM_DMABUF))
		return 0;
	memcpy(&dc, CMSG_DATA(cm), sizeof(dc));
	if (cm->cmsg_type == SB_SO_DEVMEM_LINEAR) {
		if (dc.frag_size > linear_len - *linear_off) {
			sb_err_set(e, EPROTO, "socket", "recvmsg", NULL);
			sb_err_reason(e, "SO_DEVMEM_LINEAR of %u bytes, %zu received", dc.frag_size,
				      linear_len - *linear_off);
			return -EPROTO;
		}
		rx->linear_bytes += dc.frag_size;
		rx->bytes += dc.frag_size;
		*linear_off += dc.frag_size;
		return take(r, linear + *linear_off - dc.frag_size, dc.frag_size, e);
	}
	if (!rx->keep)
		r->tokens[r->ntokens++] = (struct sb_dmabuf_token){ dc.frag_token, 1 };
	if (dc.dmabuf_id != rx->binding_id) {
		rx->foreign_frags++;
		sb_err_set(e, EPROTO, "socket", "recvmsg", NULL);
		sb_err_reason(e, "a fragment of binding %u, not of %u", dc.dmabuf_id,
			      rx->binding_id);
		return -EPROTO;
	}
	if (dc.frag_offset > rx->size || dc.frag_size > rx->size - dc.frag_offset) {
		sb_err_set(e, EPROTO, "socket", "recvmsg", NULL);
		sb_err_reason(e, "fragment at %llu+%u is outside the %zu-byte buffer",
			      (unsigned long long)dc.frag_offset, dc.frag_size, rx->size);
		return -EPROTO;
	}
	rx->frags++;
	rx->devmem_bytes += dc.frag_size;
	rx->bytes += dc.frag_size;
	return take(r, r->map + dc.frag_offset, dc.frag_size, e);
}

/* One recvmsg: -EAGAIN when nothing was there, 0 at the end of the stream, else 1. */
static int one_msg(struct rx_run *r, int sock, uint8_t *linear, void *ctrl, size_t ctrl_len,
		   struct sb_err *e)
{
	struct iovec iov = { .iov_base = linear, .iov_len = RX_LINEAR };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl, .msg_controllen = ctrl_len
	};
	uint64_t before = r->rx->bytes;
	size_t linear_off = 0;
	ssize_t n;
	int rc;

	n = recvmsg(sock, &msg, SB_MSG_SOCK_DEVMEM | MSG_DONTWAIT);
	if (n < 0) {
		if (errno == EAGAIN || errno == EINTR)
			return -EAGAIN;
		sb_err_set(e, errno, "socket", "recvmsg(MSG_SOCK_DEVMEM)", NULL);
		if (errno == EFAULT)
			sb_err_hint(
				e,
				"data arrived outside the binding: steer the flow to a bound queue");
		return -e->errnum;
	}
	if (n == 0)
		return 0;
	if (msg.msg_flags & MSG_CTRUNC) {
		/* fragments whose tokens were cut off cannot be given back */
		sb_err_set(e, EMSGSIZE, "socket", "recvmsg(MSG_SOCK_DEVMEM)", NULL);
		sb_err_reason(e, "control messages truncated");
		return -EMSGSIZE;
	}
	rc = dmabuf_sync(r->rx->dmabuf_fd, SB_DMA_BUF_SYNC_START);
	if (rc)
		return sb_err_set(e, -rc, "dma-buf", "DMA_BUF_IOCTL_SYNC", NULL);
	for (struct cmsghdr *cm = CMSG_FIRSTHDR(&msg); cm && !rc; cm = CMSG_NXTHDR(&msg, cm))
		rc = one_cmsg(r, cm, linear, &linear_off, (size_t)n, e);
	dmabuf_sync(r->rx->dmabuf_fd, SB_DMA_BUF_SYNC_END);
	if (!rc)
		rc = give_back(r, sock, e);
	else
		give_back(r, sock, &(struct sb_err){ 0 });
	if (rc)
		return rc;
	if (r->rx->bytes - before != (uint64_t)n) {
		sb_err_set(e, EPROTO, "socket", "recvmsg(MSG_SOCK_DEVMEM)", NULL);
		sb_err_reason(e, "%zd bytes received, control messages account for %llu", n,
			      (unsigned long long)(r->rx->bytes - before));
		return -EPROTO;
	}
	return 1;
}

int sb_devmem_rx_run(struct sb_devmem_rx *rx, int sock, uint64_t limit, int idle_ms,
		     struct sb_err *e)
{
	size_t ctrl_len = RX_CMSGS * CMSG_SPACE(sizeof(struct sb_dmabuf_cmsg));
	struct rx_run r = { .rx = rx };
	uint8_t *linear = malloc(RX_LINEAR);
	void *ctrl = malloc(ctrl_len);
	int rc = 0;

	r.tokens = calloc(RX_CMSGS, sizeof(*r.tokens));
	r.hash = XXH3_createState();
	if (!linear || !ctrl || !r.tokens || !r.hash) {
		rc = sb_err_set(e, ENOMEM, "devmem receive", "allocate buffers", NULL);
		goto out;
	}
	XXH3_64bits_reset(r.hash);
	r.map = mmap(NULL, rx->size, PROT_READ, MAP_SHARED, rx->dmabuf_fd, 0);
	if (r.map == MAP_FAILED) {
		r.map = NULL;
		rc = sb_err_set(e, errno, "dma-buf", "mmap", NULL);
		goto out;
	}
	while (!limit || rx->bytes < limit) {
		struct pollfd p = { .fd = sock, .events = POLLIN };

		rc = sb_poll(&p, 1, idle_ms);
		if (rc == 0) {
			rc = sb_err_set(e, ETIMEDOUT, "socket", "receive", NULL);
			sb_err_reason(e, "no data for %d ms", idle_ms);
			break;
		}
		if (rc < 0) {
			if (rc != -EINTR)
				sb_err_set(e, -rc, "socket", "poll", NULL);
			break;
		}
		rc = one_msg(&r, sock, linear, ctrl, ctrl_len, e);
		if (rc == -EAGAIN) {
			rc = 0;
			continue;
		}
		if (rc <= 0)
			break;
		rc = 0; /* bytes came */
		rx->last_ns = sb_now_ns();
		if (!rx->first_ns)
			rx->first_ns = rx->last_ns;
	}
	rx->xxh3 = XXH3_64bits_digest(r.hash);
out:
	if (r.map)
		munmap((void *)r.map, rx->size);
	XXH3_freeState(r.hash);
	free(r.tokens);
	free(ctrl);
	free(linear);
	return rc;
}
