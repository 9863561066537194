/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpmsg throughput: messages through one or more endpoints at once, a thread per endpoint,
 * each a plain loop of write(2) (and read(2) of the echoes), so that what is measured is
 * the transport and the remote, not the tool. Payloads are ping payloads (rpmsg.h): every
 * echo is checked byte for byte against the message it answers. */
#ifndef SOCBOX_RPMSG_TPUT_H
#define SOCBOX_RPMSG_TPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"

struct sb_rpmsg_tput {
	const int *fds; /* blocking endpoint descriptors, one thread each */
	size_t nfds;
	size_t size;	 /* payload bytes, 1 to SB_RPMSG_VIRTIO_MTU */
	unsigned count;	 /* messages per endpoint */
	unsigned window; /* echoed: messages in flight per endpoint; 0: one way, nothing read */
	int stall_ms;	 /* an endpoint through which nothing moved for this long ends the run */
	uint32_t cookie; /* of this run: endpoint i uses cookie + i */
};

struct sb_rpmsg_tput_result {
	uint64_t elapsed_ns;		/* first endpoint's start to the last endpoint's end */
	uint64_t sent, echoed, corrupt; /* over all endpoints */
};

/* Run once. 0; -ETIMEDOUT when an endpoint stalled; -EINTR when a stop signal came; -errno
 * of a failed write or read. r holds what moved in every case; e names the endpoint (its
 * index) and what failed. Threads are joined before it returns: no write or read of the
 * run is still in progress on the descriptors. */
int sb_rpmsg_tput_run(const struct sb_rpmsg_tput *t, struct sb_rpmsg_tput_result *r,
		      struct sb_err *e);

#endif
