// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <linux/sock_diag.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "socbox/genl.h"

/* 32 KiB: the kernel sizes dump datagrams by the reads it sees, up to 32 KiB; big tables
 * need it. */
#define SB_NL_RECV_SIZE 32768

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_GET_STRICT_CHK
#define NETLINK_GET_STRICT_CHK 12
#endif

struct family_reply {
	struct sb_genl *g;
	bool found;
};

static void mcgrp_parse(const struct nlattr *grp, struct sb_genl *g)
{
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;
	bool have_id = false;

	sb_nl_attr_for_each_nested(a, grp) {
		switch (sb_nl_attr_type(a)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			if (sb_nl_attr_str(a))
				name = sb_nl_attr_str(a);
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (sb_nl_attr_u32(a, &id) == 0)
				have_id = true;
			break;
		}
	}
	if (name && have_id && g->ngroups < SB_GENL_MAX_GROUPS) {
		snprintf(g->groups[g->ngroups].name, sizeof(g->groups[0].name), "%s", name);
		g->groups[g->ngroups++].id = id;
	}
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family_reply *fr = data;
	const struct nlattr *a;

	sb_nl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (sb_nl_attr_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			if (sb_nl_attr_u16(a, &fr->g->id) == 0)
				fr->found = true;
			break;
		case CTRL_ATTR_VERSION:
			sb_nl_attr_u32(a, &fr->g->version);
			break;
		case CTRL_ATTR_MAXATTR:
			sb_nl_attr_u32(a, &fr->g->maxattr);
			break;
		case CTRL_ATTR_MCAST_GROUPS: {
			const struct nlattr *grp;
			sb_nl_attr_for_each_nested(grp, a)
				mcgrp_parse(grp, fr->g);
			break;
		}
		}
	}
	return SB_NL_CB_OK;
}

struct nlmsghdr *sb_genl_msg(struct sb_genl *g, struct sb_nl_msg *m, void *buf, size_t cap,
			     uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = sb_nl_msg_init(m, buf, cap);
	struct genlmsghdr *gh;

	if (!nlh)
		return NULL;
	nlh->nlmsg_type = g->id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++g->seq;
	gh = sb_nl_msg_put_extra(m, sizeof(*gh));
	if (gh) {
		gh->cmd = cmd;
		gh->version = (uint8_t)(g->version ? g->version : 1);
	}
	return nlh;
}

int sb_genl_send(struct sb_genl *g, const struct sb_nl_msg *m, struct sb_err *e)
{
	struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };

	if (m->overflow)
		return sb_err_set(e, EMSGSIZE, g->family, "netlink request",
				  "the request does not fit in %zu bytes", m->cap);
	if (sendto(g->fd, m->nlh, m->nlh->nlmsg_len, 0, (struct sockaddr *)&kernel,
		   sizeof(kernel)) < 0)
		return sb_err_set(e, errno, g->family, "netlink send", NULL);
	return 0;
}

ssize_t sb_genl_recv_raw(struct sb_genl *g, void *buf, size_t len)
{
	struct sockaddr_nl from;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr mh = {
		.msg_name = &from, .msg_namelen = sizeof(from), .msg_iov = &iov, .msg_iovlen = 1
	};
	ssize_t n = recvmsg(g->fd, &mh, 0);

	if (n < 0)
		return n;
	if (mh.msg_flags & MSG_TRUNC) {
		errno = ENOSPC;
		return -1;
	}
	if (mh.msg_namelen != sizeof(from)) {
		errno = EINVAL;
		return -1;
	}
	return n;
}

/* Put the kernel's error, with its extack message when it sent one, into e. */
static int kernel_error(struct sb_genl *g, const struct sb_nl_ack *ack, struct sb_err *e)
{
	int error = ack->error < 0 ? ack->error : -ack->error;

	if (error == INT_MIN)
		error = -EIO;
	sb_err_set(e, -error, g->family, "netlink request", NULL);
	if (ack->msg)
		sb_err_reason(e, "%s (%s)", ack->msg, strerror(-error));
	return error;
}

int sb_genl_talk(struct sb_genl *g, const struct sb_nl_msg *m, sb_nl_cb cb, void *data,
		 struct sb_err *e)
{
	char *buf;
	uint32_t seq = m->nlh ? m->nlh->nlmsg_seq : 0;
	int rc = sb_genl_send(g, m, e);

	if (rc)
		return rc;
	buf = malloc(SB_NL_RECV_SIZE);
	if (!buf)
		return sb_err_set(e, ENOMEM, g->family, "netlink request", NULL);
	for (;;) {
		ssize_t n = sb_genl_recv_raw(g, buf, SB_NL_RECV_SIZE);
		ptrdiff_t left = n;
		const struct nlmsghdr *nlh;

		if (n < 0) {
			rc = sb_err_set(e, errno, g->family, "netlink receive", NULL);
			break;
		}
		/* Look for an error message first so its extack can be reported. */
		sb_nl_msg_for_each(nlh, buf, left) {
			struct sb_nl_ack ack;
			if (nlh->nlmsg_type == NLMSG_ERROR && sb_nl_ack_parse(nlh, &ack) == 0 &&
			    ack.error) {
				rc = kernel_error(g, &ack, e);
				free(buf);
				return rc;
			}
		}
		rc = sb_nl_run(buf, (size_t)n, seq, g->portid, cb, data);
		if (rc == SB_NL_CB_STOP) {
			rc = 0;
			break;
		}
		if (rc < 0) {
			rc = sb_err_set(e, errno, g->family, "netlink request", NULL);
			break;
		}
	}
	free(buf);
	return rc;
}

static int sockopt(struct sb_genl *g, int opt, int value)
{
	return setsockopt(g->fd, SOL_NETLINK, opt, &value, sizeof(value));
}

/* The socket itself refused: not the family missing, but this process may not talk
 * netlink at all (qemu-user emulates no generic netlink: EPROTONOSUPPORT; a seccomp filter
 * or a sandbox answers what it was told to). */
static int socket_error(struct sb_err *e, int err, const char *what)
{
	sb_err_set(e, err, "generic netlink", what, NULL);
	switch (err) {
	case EAFNOSUPPORT:
	case EPROTONOSUPPORT:
	case EPFNOSUPPORT:
		sb_err_hint(e,
			    "no netlink sockets here: qemu-user has no generic netlink, a seccomp filter "
			    "or sandbox may refuse them; run on the board's kernel");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		break;
	case EPERM:
	case EACCES:
		sb_err_hint(
			e,
			"a seccomp filter or security module refuses netlink sockets to this process");
		break;
	}
	return -err;
}

/* A generic netlink socket bound to a port the kernel picks. */
static int open_socket(struct sb_genl *g, struct sb_err *e)
{
	struct sockaddr_nl addr = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(addr);

	g->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);
	if (g->fd < 0)
		return socket_error(e, errno, "open socket");
	g->open = true;
	if (bind(g->fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 ||
	    getsockname(g->fd, (struct sockaddr *)&addr, &len) < 0)
		return socket_error(e, errno, "bind");
	if (len != sizeof(addr) || addr.nl_family != AF_NETLINK)
		return sb_err_set(e, EINVAL, "generic netlink", "bind", NULL);
	g->portid = addr.nl_pid;
	return 0;
}

int sb_genl_open(struct sb_genl *g, const char *family, struct sb_err *e)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct family_reply fr = { .g = g };
	struct sb_nl_msg m;
	int rc;

	memset(g, 0, sizeof(*g));
	snprintf(g->family, sizeof(g->family), "%s", family);
	rc = open_socket(g, e);
	if (rc) {
		sb_genl_close(g);
		return rc;
	}
	sockopt(g, NETLINK_EXT_ACK, 1);
	sockopt(g, NETLINK_CAP_ACK, 1);
	g->seq = (uint32_t)time(NULL);
	g->id = GENL_ID_CTRL;
	g->version = 1;
	sb_genl_msg(g, &m, buf, sizeof(buf), CTRL_CMD_GETFAMILY, NLM_F_ACK);
	sb_nl_put_strz(&m, CTRL_ATTR_FAMILY_NAME, family);
	g->id = 0;
	g->version = 0;
	rc = sb_genl_talk(g, &m, family_cb, &fr, e);
	if (rc == -ENOENT || (rc == 0 && !fr.found)) {
		sb_err_set(e, ENOENT, family, "find generic netlink family", NULL);
		sb_err_reason(e, "the kernel has no '%s' generic netlink family", family);
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		sb_genl_close(g);
		return -ENOENT;
	}
	if (rc) {
		sb_genl_close(g);
		return rc;
	}
	return 0;
}

void sb_genl_close(struct sb_genl *g)
{
	if (g->open)
		close(g->fd);
	g->open = false;
	g->fd = -1;
}

int sb_genl_join(struct sb_genl *g, const char *group, struct sb_err *e)
{
	for (unsigned i = 0; i < g->ngroups; i++) {
		if (strcmp(g->groups[i].name, group))
			continue;
		if (sockopt(g, NETLINK_ADD_MEMBERSHIP, (int)g->groups[i].id) < 0)
			return sb_err_set(e, errno, group, "join multicast group", NULL);
		return 0;
	}
	sb_err_set(e, ENOENT, group, "join multicast group", NULL);
	sb_err_reason(e, "family %s has no group '%s' (kernel too old?)", g->family, group);
	sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	return -ENOENT;
}

int sb_genl_recv(struct sb_genl *g, sb_nl_cb cb, void *data, int timeout_ms, struct sb_err *e)
{
	char *buf;
	struct pollfd p = { .fd = g->fd, .events = POLLIN };
	ssize_t n;
	int rc = poll(&p, 1, timeout_ms);

	if (rc < 0)
		return sb_err_set(e, errno, g->family, "wait for events", NULL);
	if (rc == 0)
		return -ETIMEDOUT;
	buf = malloc(SB_NL_RECV_SIZE);
	if (!buf)
		return -ENOMEM;
	n = sb_genl_recv_raw(g, buf, SB_NL_RECV_SIZE);
	if (n < 0) {
		rc = sb_err_set(e, errno, g->family, "receive events", NULL);
	} else {
		rc = sb_nl_run(buf, (size_t)n, 0, 0, cb, data);
		rc = rc < 0 ? sb_err_set(e, errno, g->family, "parse events", NULL) : 0;
	}
	free(buf);
	return rc;
}

int sb_genl_drops(const struct sb_genl *g, uint64_t *drops, struct sb_err *e)
{
	uint32_t mem[SK_MEMINFO_VARS];
	socklen_t len = sizeof(mem);

	memset(mem, 0, sizeof(mem));
	if (getsockopt(g->fd, SOL_SOCKET, SO_MEMINFO, mem, &len) < 0)
		return sb_err_set(e, errno, g->family, "read the socket's drop count",
				  "SO_MEMINFO needs Linux 4.14");
	if (len < (SK_MEMINFO_DROPS + 1) * sizeof(mem[0]))
		return sb_err_set(e, EOPNOTSUPP, g->family, "read the socket's drop count",
				  "SO_MEMINFO needs Linux 4.14");
	*drops = mem[SK_MEMINFO_DROPS];
	return 0;
}

int sb_netns_enter(const char *name_or_path, struct sb_err *e)
{
	char path[4096];
	int fd;

	if (strchr(name_or_path, '/'))
		snprintf(path, sizeof(path), "%s", name_or_path);
	else
		snprintf(path, sizeof(path), "/run/netns/%s", name_or_path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int err = errno;

		sb_err_set(e, err, path, "open network namespace",
			   err == ENOENT ? "see 'ip netns list'" : NULL);
		/* a namespace named that is not there, as a missing --dev */
		if (err == ENOENT && !strchr(name_or_path, '/'))
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -err;
	}
	if (setns(fd, CLONE_NEWNET) < 0) {
		int err = errno;
		close(fd);
		return sb_err_set(e, err, path, "enter network namespace",
				  err == EPERM ? "needs CAP_SYS_ADMIN" : NULL);
	}
	close(fd);
	return 0;
}
