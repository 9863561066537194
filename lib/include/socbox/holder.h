/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which other process holds a file open: for kernel interfaces that one process at a time
 * may use (a VFIO device cdev, dma_map_benchmark's debugfs file), so that the second gets a
 * line naming the first instead of a bare EINVAL or results mixed with another run's. */
#ifndef SOCBOX_HOLDER_H
#define SOCBOX_HOLDER_H

#include <stddef.h>
#include <sys/types.h>

#include "socbox/error.h"

struct sb_holder {
	pid_t pid;
	char comm[17]; /* /proc/PID/comm, as the kernel has it (error lines escape it) */
};

/* The first process but this one with the file of fd open (the same inode: a device node
 * under any name, a debugfs file), from /proc/PID/fd on the live system. 1 and h filled
 * when there is one, 0 when none is seen (processes of other users are not readable
 * without root), -errno when fd cannot be looked at. */
int sb_holder_other(int fd, struct sb_holder *h);

/* Record "OBJECT: WHAT: in use by process PID (COMM) (HINT)" as EBUSY; returns -EBUSY. */
int sb_holder_err(struct sb_err *e, const struct sb_holder *h, const char *object, const char *what,
		  const char *hint);

#endif
