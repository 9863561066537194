/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Generic netlink over libmnl: resolve a family by name, run a request or dump with a
 * callback per message, turn NLMSGERR with extended ack into an sb_err, join multicast
 * groups. */
#ifndef SOCBOX_GENL_H
#define SOCBOX_GENL_H

#include <libmnl/libmnl.h>
#include <stdbool.h>
#include <stdint.h>

#include "socbox/error.h"

#define SB_GENL_MAX_GROUPS 16

struct sb_genl {
	struct mnl_socket *nl;
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

/* Start a message for cmd in buf (MNL_SOCKET_BUFFER_SIZE bytes); add attributes with mnl. */
struct nlmsghdr *sb_genl_msg(struct sb_genl *g, void *buf, uint8_t cmd, uint16_t flags);
/* Send msg and run cb on every reply message until the request or the dump is complete.
 * Kernel errors are returned as -errno with the extack message as reason. */
int sb_genl_talk(struct sb_genl *g, struct nlmsghdr *msg, mnl_cb_t cb, void *data,
		 struct sb_err *e);
/* Join a multicast group by name. */
int sb_genl_join(struct sb_genl *g, const char *group, struct sb_err *e);
/* Receive one batch of messages (monitor), calling cb on each; -ETIMEDOUT after timeout_ms
 * (< 0: wait forever). */
int sb_genl_recv(struct sb_genl *g, mnl_cb_t cb, void *data, int timeout_ms, struct sb_err *e);

/* Enter a network namespace by name (/run/netns/NAME) or path, for the rest of the process. */
int sb_netns_enter(const char *name_or_path, struct sb_err *e);

#endif
