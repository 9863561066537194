// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/genetlink.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "socbox/genl.h"

/* 32 KiB like SB_NL_RECV_SIZE of newer libmnl: dumps of big tables need it. */
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

static int mcgrp_cb(const struct nlattr *grp, struct sb_genl *g)
{
	const struct nlattr *a;
	const char *name = NULL;
	uint32_t id = 0;
	bool have_id = false;

	mnl_attr_for_each_nested(a, grp) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_MCAST_GRP_NAME:
			if (mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0)
				name = mnl_attr_get_str(a);
			break;
		case CTRL_ATTR_MCAST_GRP_ID:
			if (mnl_attr_validate(a, MNL_TYPE_U32) == 0) {
				id = mnl_attr_get_u32(a);
				have_id = true;
			}
			break;
		}
	}
	if (name && have_id && g->ngroups < SB_GENL_MAX_GROUPS) {
		snprintf(g->groups[g->ngroups].name, sizeof(g->groups[0].name), "%s", name);
		g->groups[g->ngroups++].id = id;
	}
	return MNL_CB_OK;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct family_reply *fr = data;
	const struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		switch (mnl_attr_get_type(a)) {
		case CTRL_ATTR_FAMILY_ID:
			if (mnl_attr_validate(a, MNL_TYPE_U16) == 0) {
				fr->g->id = mnl_attr_get_u16(a);
				fr->found = true;
			}
			break;
		case CTRL_ATTR_VERSION:
			if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				fr->g->version = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_MAXATTR:
			if (mnl_attr_validate(a, MNL_TYPE_U32) == 0)
				fr->g->maxattr = mnl_attr_get_u32(a);
			break;
		case CTRL_ATTR_MCAST_GROUPS: {
			const struct nlattr *grp;
			mnl_attr_for_each_nested(grp, a)
				mcgrp_cb(grp, fr->g);
			break;
		}
		}
	}
	return MNL_CB_OK;
}

struct nlmsghdr *sb_genl_msg(struct sb_genl *g, void *buf, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *gh;

	nlh->nlmsg_type = g->id;
	nlh->nlmsg_flags = NLM_F_REQUEST | flags;
	nlh->nlmsg_seq = ++g->seq;
	gh = mnl_nlmsg_put_extra_header(nlh, sizeof(*gh));
	gh->cmd = cmd;
	gh->version = (uint8_t)(g->version ? g->version : 1);
	return nlh;
}

/* Pull the extack message out of an NLMSG_ERROR, when the kernel sent one. */
static void extack_message(const struct nlmsghdr *nlh, struct sb_err *e)
{
	const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
	size_t off = sizeof(*err);
	const struct nlattr *a;

	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS))
		return;
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += mnl_nlmsg_get_payload_len(&err->msg) ;
	if (mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	mnl_attr_for_each(a, nlh, off) {
		if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
		    mnl_attr_validate(a, MNL_TYPE_NUL_STRING) == 0) {
			sb_err_reason(e, "%s (%s)", mnl_attr_get_str(a), strerror(-err->error));
		}
	}
}

int sb_genl_talk(struct sb_genl *g, struct nlmsghdr *msg, mnl_cb_t cb, void *data,
		 struct sb_err *e)
{
	char *buf = malloc(SB_NL_RECV_SIZE);
	uint32_t seq = msg->nlmsg_seq;
	int rc;

	if (!buf)
		return sb_err_set(e, ENOMEM, g->family, "netlink request", NULL);
	if (mnl_socket_sendto(g->nl, msg, msg->nlmsg_len) < 0) {
		rc = sb_err_set(e, errno, g->family, "netlink send", NULL);
		free(buf);
		return rc;
	}
	for (;;) {
		ssize_t n = mnl_socket_recvfrom(g->nl, buf, SB_NL_RECV_SIZE);
		if (n < 0) {
			rc = sb_err_set(e, errno, g->family, "netlink receive", NULL);
			break;
		}
		/* Look for an error message first so its extack can be reported. */
		const struct nlmsghdr *nlh = (const struct nlmsghdr *)buf;
		int len = (int)n;
		rc = MNL_CB_OK;
		for (; mnl_nlmsg_ok(nlh, len); nlh = mnl_nlmsg_next(nlh, &len)) {
			if (nlh->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *err = mnl_nlmsg_get_payload(nlh);
				if (err->error) {
					int error = err->error; /* err points into buf */
					sb_err_set(e, -error, g->family, "netlink request", NULL);
					extack_message(nlh, e);
					free(buf);
					return error;
				}
			}
		}
		rc = mnl_cb_run(buf, (size_t)n, seq, g->portid, cb, data);
		if (rc == MNL_CB_STOP) {
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

int sb_genl_open(struct sb_genl *g, const char *family, struct sb_err *e)
{
	char buf[MNL_SOCKET_BUFFER_SIZE];
	struct family_reply fr = { .g = g };
	struct nlmsghdr *nlh;
	int one = 1, rc;

	memset(g, 0, sizeof(*g));
	snprintf(g->family, sizeof(g->family), "%s", family);
	g->nl = mnl_socket_open2(NETLINK_GENERIC, SOCK_CLOEXEC);
	if (!g->nl)
		return sb_err_set(e, errno, "generic netlink", "open socket", NULL);
	if (mnl_socket_bind(g->nl, 0, MNL_SOCKET_AUTOPID) < 0) {
		rc = sb_err_set(e, errno, "generic netlink", "bind", NULL);
		sb_genl_close(g);
		return rc;
	}
	mnl_socket_setsockopt(g->nl, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(g->nl, NETLINK_CAP_ACK, &one, sizeof(one));
	g->portid = mnl_socket_get_portid(g->nl);
	g->seq = (uint32_t)time(NULL);
	g->id = GENL_ID_CTRL;
	g->version = 1;
	nlh = sb_genl_msg(g, buf, CTRL_CMD_GETFAMILY, NLM_F_ACK);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	g->id = 0;
	g->version = 0;
	rc = sb_genl_talk(g, nlh, family_cb, &fr, e);
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
	if (g->nl)
		mnl_socket_close(g->nl);
	g->nl = NULL;
}

int sb_genl_join(struct sb_genl *g, const char *group, struct sb_err *e)
{
	for (unsigned i = 0; i < g->ngroups; i++) {
		if (strcmp(g->groups[i].name, group))
			continue;
		int id = (int)g->groups[i].id;
		if (mnl_socket_setsockopt(g->nl, NETLINK_ADD_MEMBERSHIP, &id, sizeof(id)) < 0)
			return sb_err_set(e, errno, group, "join multicast group", NULL);
		return 0;
	}
	sb_err_set(e, ENOENT, group, "join multicast group", NULL);
	sb_err_reason(e, "family %s has no group '%s' (kernel too old?)", g->family, group);
	sb_err_exit(e, SB_EXIT_UNSUPPORTED);
	return -ENOENT;
}

int sb_genl_recv(struct sb_genl *g, mnl_cb_t cb, void *data, int timeout_ms, struct sb_err *e)
{
	char *buf;
	struct pollfd p = { .fd = mnl_socket_get_fd(g->nl), .events = POLLIN };
	ssize_t n;
	int rc = poll(&p, 1, timeout_ms);

	if (rc < 0)
		return sb_err_set(e, errno, g->family, "wait for events", NULL);
	if (rc == 0)
		return -ETIMEDOUT;
	buf = malloc(SB_NL_RECV_SIZE);
	if (!buf)
		return -ENOMEM;
	n = mnl_socket_recvfrom(g->nl, buf, SB_NL_RECV_SIZE);
	if (n < 0) {
		rc = sb_err_set(e, errno, g->family, "receive events", NULL);
	} else {
		rc = mnl_cb_run(buf, (size_t)n, 0, 0, cb, data);
		rc = rc < 0 ? sb_err_set(e, errno, g->family, "parse events", NULL) : 0;
	}
	free(buf);
	return rc;
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
	if (fd < 0)
		return sb_err_set(e, errno, path, "open network namespace",
				  errno == ENOENT ? "see 'ip netns list'" : NULL);
	if (setns(fd, CLONE_NEWNET) < 0) {
		int err = errno;
		close(fd);
		return sb_err_set(e, err, path, "enter network namespace",
				  err == EPERM ? "needs CAP_SYS_ADMIN" : NULL);
	}
	close(fd);
	return 0;
}
