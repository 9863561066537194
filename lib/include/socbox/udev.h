/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device discovery and events. Device nodes come from the uevent file (DEVNAME), which
 * works with devtmpfs alone; waiting for a device uses a udev monitor when udevd runs and
 * socbox has libudev, and the kernel's uevent netlink socket otherwise (initramfs, mdev). */
#ifndef SOCBOX_UDEV_H
#define SOCBOX_UDEV_H

#include <stddef.h>

#include "socbox/error.h"
#include "socbox/sys.h"

/* "/sys/class/rpmsg/rpmsg0" -> "/dev/rpmsg0". -ENOENT when the device has no node. */
int sb_devnode(const struct sb_root *r, const char *syspath, char *buf, size_t len);

struct sb_devmon;

struct sb_devevent {
	char action[16];   /* "add", "remove", "change", ... */
	char devpath[256]; /* "/devices/.../rpmsg/rpmsg3" (as in the uevent) */
	char subsystem[64];
	char devname[128]; /* "rpmsg3" (relative to /dev), empty when none */
};

/* Start listening for uevents of one subsystem (NULL: all). Open it before triggering the
 * action you wait for, or the event can be missed. */
int sb_devmon_open(struct sb_devmon **out, const char *subsystem, struct sb_err *e);
/* Wait up to timeout_ms for the next event; 0 or -ETIMEDOUT, -EINTR. */
int sb_devmon_next(struct sb_devmon *m, struct sb_devevent *ev, int timeout_ms);
/* Wait for an event with the given action ("add") and, when name is non-NULL, that device
 * name (basename of devpath). */
int sb_devmon_wait(struct sb_devmon *m, const char *action, const char *name,
		   struct sb_devevent *ev, int timeout_ms);
/* "udev" or "kernel": which source the monitor reads. */
const char *sb_devmon_source(const struct sb_devmon *m);
int sb_devmon_fd(const struct sb_devmon *m);
void sb_devmon_close(struct sb_devmon *m);

#endif
