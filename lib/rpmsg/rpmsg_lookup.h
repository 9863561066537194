/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sysfs lookup of legacy endpoint devices (rpmsg_lookup.c): for lib/rpmsg only. */
#ifndef SOCBOX_RPMSG_LOOKUP_H
#define SOCBOX_RPMSG_LOOKUP_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/error.h"
#include "socbox/rpmsg.h"
#include "socbox/uapi/rpmsg.h"

/* Choose the lookup for ctl: 0 when it can work here (devtmpfs /dev, sysfs, no udev rules
 * to wait for) and the children before any create are listed; -errno otherwise, nothing
 * kept. */
int rpmsg_lookup_start(struct sb_rpmsg_ctl *ctl);
/* After RPMSG_CREATE_EPT_IOCTL with info: the new endpoint device's name ("rpmsgN"). */
int rpmsg_lookup_pick(struct sb_rpmsg_ctl *ctl, const struct sb_rpmsg_endpoint_info *info,
		      char *devname, size_t len, struct sb_err *e);
/* The open of the last pick (devname) failed with EBUSY: another process made an identical
 * endpoint at the same moment and holds the device this one took for its own. The next
 * newest new child that looks like ours, then any identical child but devname (the other's
 * own may predate our listing), or -ENOENT when none is left. */
int rpmsg_lookup_next(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
		      char *devname, size_t len);
void rpmsg_lookup_free(struct sb_rpmsg_ctl *ctl);
/* Whether picks ask the inotify queue on /dev first (the listing when it cannot say). */
bool rpmsg_lookup_watches(const struct sb_rpmsg_ctl *ctl);

#endif
