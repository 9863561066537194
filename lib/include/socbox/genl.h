/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Generic netlink: resolve a family by name, run a request or dump with a callback per
 * message, turn NLMSGERR with extended ack into an sb_err, join multicast groups. Messages
 * are built and walked with socbox/nl.h. */
#ifndef SOCBOX_GENL_H
#define SOCBOX_GENL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/nl.h"

#define SB_GENL_MAX_GROUPS 16

struct sb_genl {
	int fd;
	bool open; /* fd is ours (a zeroed struct holds fd 0, which is not) */
	char family[32];
	uint16_t id;
	uint32_t version;
	uint32_t maxattr;
	uint32_t portid;
	uint32_t seq;
	unsigned ngroups;
	struct {
		char name[32];
		uint32_t id;
	} groups[SB_GENL_MAX_GROUPS];
};

/* -ENOENT with exit code 3 when the kernel has no such family. */
int sb_genl_open(struct sb_genl *g, const char *family, struct sb_err *e);
void sb_genl_close(struct sb_genl *g);

/* Start a message for cmd in buf (cap bytes, SB_NL_MSG_SIZE is plenty, aligned for
 * struct nlmsghdr); add attributes with sb_nl_put_*(m, ...). */
struct nlmsghdr *sb_genl_msg(struct sb_genl *g, struct sb_nl_msg *m, void *buf, size_t cap,
			     uint8_t cmd, uint16_t flags);
/* Send m and run cb on every reply message until the request or the dump is complete.
 * Kernel errors are returned as -errno with the extack message as reason; a message that
 * overflowed its buffer is -EMSGSIZE and is not sent. */
int sb_genl_talk(struct sb_genl *g, const struct sb_nl_msg *m, sb_nl_cb cb, void *data,
		 struct sb_err *e);
/* The raw socket calls, for requests whose replies need more than sb_genl_talk (bind-rx):
 * send a whole message (-errno, or -EMSGSIZE when it overflowed); receive one datagram
 * (its length, or -1 with errno; ENOSPC when it did not fit in len). */
int sb_genl_send(struct sb_genl *g, const struct sb_nl_msg *m, struct sb_err *e);
ssize_t sb_genl_recv_raw(struct sb_genl *g, void *buf, size_t len);
/* Join a multicast group by name. */
int sb_genl_join(struct sb_genl *g, const char *group, struct sb_err *e);
/* Receive one batch of messages (monitor), calling cb on each; -ETIMEDOUT after timeout_ms
 * (< 0: wait forever). */
int sb_genl_recv(struct sb_genl *g, sb_nl_cb cb, void *data, int timeout_ms, struct sb_err *e);
/* How many messages the kernel dropped at this socket since it was opened because its
 * receive queue was full (the socket's sk_drops, through SO_MEMINFO, Linux 4.14): what an
 * ENOBUFS from sb_genl_recv() lost, counted by the kernel. */
int sb_genl_drops(const struct sb_genl *g, uint64_t *drops, struct sb_err *e);

/* Enter a network namespace by name (/run/netns/NAME) or path, for the rest of the process. */
int sb_netns_enter(const char *name_or_path, struct sb_err *e);

#endif
