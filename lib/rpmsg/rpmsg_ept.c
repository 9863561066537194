// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsg char/ctrl uAPI: endpoints (legacy device node or fd ioctl), devices, flow control and
 * messages. Every ioctl goes through rpmsg_ioctl() so errors carry the ioctl's name. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "socbox/kmsg_said.h"
#include "socbox/macro.h"
#include "socbox/rpmsg.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "socbox/udev.h"
#include "rpmsg_lookup.h"

#define CTRL_HINT "load rpmsg_ctrl (CONFIG_RPMSG_CTRL, kernel 5.18+) and check 'rpmsgctl list'"
#define CHAR_HINT "load rpmsg_char (CONFIG_RPMSG_CHAR)"

static int sys_ioctl(int fd, unsigned long request, void *arg)
{
	return ioctl(fd, request, arg);
}

static sb_rpmsg_ioctl_fn rpmsg_ioctl = sys_ioctl;

void sb_rpmsg_set_ioctl(sb_rpmsg_ioctl_fn fn)
{
	rpmsg_ioctl = fn ? fn : sys_ioctl;
}

static void fill_info(struct sb_rpmsg_endpoint_info *info, const char *name, uint32_t src,
		      uint32_t dst)
{
	memset(info, 0, sizeof(*info));
	snprintf(info->name, sizeof(info->name), "%s", name ? name : "");
	info->src = src;
	info->dst = dst;
}

int sb_rpmsg_ctl_open(const struct sb_root *r, unsigned index, struct sb_rpmsg_ctl *ctl,
		      struct sb_err *e)
{
	memset(ctl, 0, sizeof(*ctl));
	ctl->fd = -1;
	ctl->index = index;
	ctl->timeout_ms = 5000;
	ctl->root = r;
	snprintf(ctl->path, sizeof(ctl->path), "/dev/rpmsg_ctrl%u", index);
	if (!sb_root_is_live(r)) {
		sb_err_set(e, EOPNOTSUPP, ctl->path, "open control device", NULL);
		sb_err_reason(e, "needs the live kernel (not possible with --sysroot)");
		return -EOPNOTSUPP;
	}
	ctl->fd = open(ctl->path, O_RDWR | O_CLOEXEC);
	if (ctl->fd < 0) {
		int err = errno;

		if (err == ENOENT || err == ENXIO || err == ENODEV) {
			sb_err_set(e, err, ctl->path, "open control device", "%s", CTRL_HINT);
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		} else {
			sb_err_set(e, err, ctl->path, "open control device",
				   err == EACCES || err == EPERM ? "run as root or get access to %s"
								 : NULL,
				   ctl->path);
		}
		return -err;
	}
	return 0;
}

void sb_rpmsg_ctl_close(struct sb_rpmsg_ctl *ctl)
{
	if (ctl->mon)
		sb_devmon_close(ctl->mon);
	ctl->mon = NULL;
	rpmsg_lookup_free(ctl);
	if (ctl->fd >= 0)
		close(ctl->fd);
	ctl->fd = -1;
}

/* On the kernel's uevent socket only "add@..." messages matter here; dropping the rest in
 * the kernel spares a wake-up, a poll and a recv for every "remove" of a destroyed
 * endpoint, which is half the events of a create/destroy loop. */
static void keep_only_add_events(int fd)
{
	static struct sock_filter prog[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x61646440 /* "add@" */, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, 0xffffffff),
		BPF_STMT(BPF_RET | BPF_K, 0),
	};
	struct sock_fprog fprog = { .len = ARRAY_SIZE(prog), .filter = prog };

	/* best effort: without the filter the extra events are skipped in user space */
	setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &fprog, sizeof(fprog));
}

int sb_rpmsg_ctl_watch(struct sb_rpmsg_ctl *ctl, struct sb_err *e)
{
	int rc;

	if (ctl->lookup != SB_RPMSG_LOOKUP_UNDECIDED)
		return 0;
	/* the first listing, before any create */
	rc = rpmsg_lookup_start(ctl);
	if (rc == 0) {
		ctl->lookup = SB_RPMSG_LOOKUP_SYSFS;
		return 0;
	}
	/* Only where sysfs cannot show the children: the uevent wait would also miss an
	 * endpoint whose uevent the kernel failed to send, and leave it behind unnamed. */
	if (rc != -EOPNOTSUPP && rc != -ENOENT)
		return sb_err_set(e, -rc, ctl->path, "list its endpoint devices in sysfs", NULL);
	rc = sb_devmon_open(&ctl->mon, "rpmsg", e);
	if (rc < 0)
		return rc;
	if (!strcmp(sb_devmon_source(ctl->mon), "kernel"))
		keep_only_add_events(sb_devmon_fd(ctl->mon));
	ctl->lookup = SB_RPMSG_LOOKUP_UEVENT;
	return 0;
}

const char *sb_rpmsg_ctl_lookup_name(const struct sb_rpmsg_ctl *ctl)
{
	if (ctl->lookup == SB_RPMSG_LOOKUP_SYSFS && rpmsg_lookup_watches(ctl))
		return "inotify";
	return ctl->lookup == SB_RPMSG_LOOKUP_SYSFS ? "sysfs"
	       : ctl->lookup == SB_RPMSG_LOOKUP_UEVENT
		       ? "uevent"
		       : "";
}

/* Is this uevent the "add" of an endpoint device created under our control device? Its
 * devpath ends in ".../rpmsg_ctrlN/rpmsgM" (the class device's child, no glue directory)
 * or ".../rpmsg_ctrlN/rpmsg/rpmsgM". */
static bool is_our_eptdev(const struct sb_rpmsg_ctl *ctl, const struct sb_devevent *ev,
			  char *devname, size_t len)
{
	char ctrl[40], *base = strrchr(ev->devpath, '/');
	unsigned idx;

	if (strcmp(ev->action, "add") || !base || sb_rpmsg_index(base + 1, "rpmsg", &idx))
		return false;
	snprintf(ctrl, sizeof(ctrl), "/rpmsg_ctrl%u/", ctl->index);
	if (!strstr(ev->devpath, ctrl))
		return false;
	/* DEVNAME is the node below /dev; it matches the sysfs name for rpmsg_char */
	snprintf(devname, len, "%s", ev->devname[0] ? ev->devname : base + 1);
	return true;
}

int sb_rpmsg_ept_create_node(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			     char *devname, size_t len, struct sb_err *e)
{
	struct sb_rpmsg_endpoint_info info;
	uint64_t deadline;
	int rc;

	/* listening (or listing) before the ioctl, so the new device cannot be missed */
	rc = sb_rpmsg_ctl_watch(ctl, e);
	if (rc < 0)
		return rc;
	fill_info(&info, name, src, dst);
	if (rpmsg_ioctl(ctl->fd, SB_RPMSG_CREATE_EPT_IOCTL, &info) < 0) {
		int err = errno;

		/* A control device means rpmsg_char is there (rpmsg_ctrl needs it; before 5.18
		 * it was rpmsg_char's own): EINVAL is the kernel failing to make the device
		 * (a name it could not allocate), not a missing module. */
		sb_err_set(e, err, ctl->path, "RPMSG_CREATE_EPT_IOCTL",
			   err == ENOTTY ? CHAR_HINT : NULL);
		return -err;
	}
	if (ctl->lookup == SB_RPMSG_LOOKUP_SYSFS)
		return rpmsg_lookup_pick(ctl, &info, devname, len, e);
	deadline = sb_now_ns() + (uint64_t)ctl->timeout_ms * 1000000ull;
	for (;;) {
		struct sb_devevent ev;
		int wait = sb_poll_timeout(deadline, -1);

		rc = wait ? sb_devmon_next(ctl->mon, &ev, wait) : -ETIMEDOUT;
		if (rc == -EINTR)
			continue;
		if (rc < 0) {
			sb_err_set(e, -rc, ctl->path, "wait for the new /dev/rpmsgN",
				   "no 'add' uevent within %d ms from %s; is rpmsg_char loaded?",
				   ctl->timeout_ms, sb_devmon_source(ctl->mon));
			return rc;
		}
		if (is_our_eptdev(ctl, &ev, devname, len))
			return 0;
	}
}

int sb_rpmsg_ept_open(const char *devnode, int flags, struct sb_rpmsg_ept *ept, struct sb_err *e)
{
	memset(ept, 0, sizeof(*ept));
	sb_probe_ran(&ept->path, SB_RPMSG_LEGACY);
	snprintf(ept->devnode, sizeof(ept->devnode), "%s", devnode);
	ept->fd = open(devnode, O_RDWR | (flags & (O_CLOEXEC | O_NONBLOCK)));
	if (ept->fd < 0) {
		int err = errno;

		sb_err_set(e, err, devnode, "open endpoint", NULL);
		if (err == EBUSY)
			sb_err_hint(
				e,
				"an endpoint device can be opened only once; another process holds it");
		else if (err == ENETRESET)
			sb_err_hint(e, "the channel behind it is gone (remote stopped or crashed)");
		else if (err == ENOENT)
			sb_err_hint(e, "no such endpoint; see 'rpmsgctl list'");
		return -err;
	}
	return 0;
}

/* What the kernel answered to the fd ioctl on this control device so far. */
static bool fd_worked(const struct sb_rpmsg_ctl *ctl)
{
	return ctl->fd_probe.ran == SB_RPMSG_FD;
}

static bool fd_lacking(const struct sb_rpmsg_ctl *ctl)
{
	return ctl->fd_probe.instead_of == SB_RPMSG_FD;
}

/* The endpoint the kernel could not make: what it logged meanwhile about the control
 * device, its rpmsg channel or the virtio device under it is the reason ("virtio_rpmsg_bus
 * virtio0: idr_alloc failed: -28"), else the error says it gave none. */
static void refused_quote(struct sb_rpmsg_ctl *ctl, struct sb_kmsg_said *said, struct sb_err *e)
{
	char ctrl[32], channel[128] = "", virtio[64] = "";
	const char *names[] = { ctrl, channel, virtio };
	char *dot;

	snprintf(ctrl, sizeof(ctrl), "rpmsg_ctrl%u", ctl->index);
	if (ctl->root && sb_link_name(ctl->root, channel, sizeof(channel),
				      "/sys/class/rpmsg/%s/device", ctrl) >= 0) {
		snprintf(virtio, sizeof(virtio), "%s", channel);
		if ((dot = strchr(virtio, '.')))
			*dot = '\0';
	}
	sb_kmsg_said_reason(said, names, ARRAY_SIZE(names), EINVAL, ctrl, e);
}

static int create_fd(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
		     int flags, struct sb_rpmsg_ept *ept, struct sb_err *e)
{
	struct sb_rpmsg_endpoint_fd_info info;

	memset(&info, 0, sizeof(info));
	snprintf(info.name, sizeof(info.name), "%s", name ? name : "");
	info.src = src;
	info.dst = dst;
	info.flags = (uint32_t)(O_RDWR | (flags & (O_CLOEXEC | O_NONBLOCK)));
	info.fd = -1;
	/* EINVAL is both a kernel without the ioctl and one that failed to make the
	 * endpoint (rpmsg_create_ept() gave nothing: memory, an address in use). Unless this
	 * control device made an fd endpoint before, ask once more: a kernel without the ioctl
	 * says EINVAL again, a failure that passed (memory) does not. */
	struct sb_kmsg_said said;
	int rc;

	sb_kmsg_said_mark(&said);
	rc = rpmsg_ioctl(ctl->fd, SB_RPMSG_CREATE_EPT_FD_IOCTL, &info);

	if (rc < 0 && errno == EINVAL && !fd_worked(ctl)) {
		info.fd = -1;
		rc = rpmsg_ioctl(ctl->fd, SB_RPMSG_CREATE_EPT_FD_IOCTL, &info);
	}
	if (rc < 0) {
		int err = errno;

		if (err == EINVAL && fd_worked(ctl)) {
			sb_err_set(e, err, ctl->path, "RPMSG_CREATE_EPT_FD_IOCTL",
				   "the kernel could not make the endpoint; 'rpmsgctl list' shows "
				   "the addresses in use");
			refused_quote(ctl, &said, e);
			sb_kmsg_said_drop(&said);
			return -err;
		}
		sb_kmsg_said_drop(&said);
		if (sb_kernel_lacks(err)) {
			sb_probe_fell_back(&ctl->fd_probe, SB_RPMSG_FD, SB_RPMSG_LEGACY, err,
					   "rpmsg_ctrl answered %s", strerrorname_np(err));
			sb_err_set(e, EOPNOTSUPP, ctl->path, "RPMSG_CREATE_EPT_FD_IOCTL",
				   "this kernel has only the legacy /dev/rpmsgN path: use --method legacy or auto");
			sb_err_reason(
				e,
				"not supported by this kernel (%s; the fd ioctl is not in mainline as of v7.1)",
				ctl->fd_probe.why);
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
			return -EOPNOTSUPP;
		}
		return sb_err_set(e, err, ctl->path, "RPMSG_CREATE_EPT_FD_IOCTL", NULL);
	}
	sb_kmsg_said_drop(&said);
	sb_probe_ran(&ctl->fd_probe, SB_RPMSG_FD);
	memset(ept, 0, sizeof(*ept));
	ept->fd = info.fd;
	sb_probe_ran(&ept->path, SB_RPMSG_FD);
	return 0;
}

int sb_rpmsg_ept_create(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			int flags, enum sb_rpmsg_method m, struct sb_rpmsg_ept *ept,
			struct sb_err *e)
{
	char devname[32], devnode[48];
	int rc;

	if (m == SB_RPMSG_FD || (m == SB_RPMSG_AUTO && !fd_lacking(ctl))) {
		rc = create_fd(ctl, name, src, dst, flags, ept, e);
		if (rc != -EOPNOTSUPP || m == SB_RPMSG_FD)
			return rc;
		sb_err_clear(e);
	}
	rc = sb_rpmsg_ept_create_node(ctl, name, src, dst, devname, sizeof(devname), e);
	if (rc < 0)
		return rc;
	snprintf(devnode, sizeof(devnode), "/dev/%s", devname);
	rc = sb_rpmsg_ept_open(devnode, flags, ept, e);
	/* busy: an identical endpoint another process made at once, which it holds; ours is
	 * another of the new ones */
	while (rc == -EBUSY &&
	       rpmsg_lookup_next(ctl, name, src, dst, devname, sizeof(devname)) == 0) {
		sb_err_clear(e);
		snprintf(devnode, sizeof(devnode), "/dev/%s", devname);
		rc = sb_rpmsg_ept_open(devnode, flags, ept, e);
	}
	if (rc < 0)
		sb_rpmsg_ept_discard(devnode, e);
	else if (m == SB_RPMSG_AUTO && fd_lacking(ctl))
		ept->path = ctl->fd_probe; /* legacy ran instead of fd, and why */
	return rc;
}

int sb_rpmsg_ept_discard(const char *devnode, struct sb_err *e)
{
	int fd = open(devnode, O_RDWR | O_CLOEXEC), err;

	if (fd >= 0) {
		err = rpmsg_ioctl(fd, SB_RPMSG_DESTROY_EPT_IOCTL, NULL) < 0 ? errno : 0;
		close(fd);
		if (!err)
			return 0;
	} else {
		err = errno;
	}
	if (e) {
		char was[sizeof(e->hint)];
		const char *base = strrchr(devnode, '/') ? strrchr(devnode, '/') + 1 : devnode;

		snprintf(was, sizeof(was), "%s", e->hint);
		sb_err_hint(e,
			    "%s%s%s left behind (destroy: %s); remove it with 'rpmsgctl ept destroy %s'",
			    was, was[0] ? "; " : "", devnode,
			    strerrorname_np(err) ? strerrorname_np(err) : "error", base);
	}
	return -err;
}

int sb_rpmsg_ept_destroy_keep_fd(struct sb_rpmsg_ept *ept, struct sb_err *e)
{
	if (rpmsg_ioctl(ept->fd, SB_RPMSG_DESTROY_EPT_IOCTL, NULL) < 0) {
		int err = errno;

		return sb_err_set(
			e, err, ept->devnode[0] ? ept->devnode : "endpoint fd",
			"RPMSG_DESTROY_EPT_IOCTL",
			err == EINVAL
				? "the default endpoint of a channel cannot be destroyed; unbind the channel instead"
				: NULL);
	}
	return 0;
}

int sb_rpmsg_ept_destroy(struct sb_rpmsg_ept *ept, struct sb_err *e)
{
	int rc;

	if (ept->fd < 0)
		return 0;
	rc = sb_rpmsg_ept_destroy_keep_fd(ept, e);
	close(ept->fd);
	ept->fd = -1;
	return rc;
}

void sb_rpmsg_ept_close(struct sb_rpmsg_ept *ept)
{
	if (ept->fd >= 0)
		close(ept->fd);
	ept->fd = -1;
}

/* Is the control device's rpmsg device on a virtio rpmsg bus (remoteproc's vdev)? */
static bool on_virtio(const struct sb_rpmsg_ctl *ctl)
{
	char bus[32];

	return ctl->root &&
	       sb_link_name(ctl->root, bus, sizeof(bus),
			    "/sys/class/rpmsg/rpmsg_ctrl%u/device/../subsystem", ctl->index) >= 0 &&
	       !strcmp(bus, "virtio");
}

static int dev_ioctl(struct sb_rpmsg_ctl *ctl, unsigned long cmd, const char *what,
		     const char *name, uint32_t src, uint32_t dst, struct sb_err *e)
{
	struct sb_rpmsg_endpoint_info info;

	fill_info(&info, name, src, dst);
	if (rpmsg_ioctl(ctl->fd, cmd, &info) < 0) {
		int err = errno;

		sb_err_set(e, err, ctl->path, what, NULL);
		if (err == EINVAL || err == ENOTTY)
			sb_err_hint(
				e,
				"needs rpmsg_ctrl from kernel 5.18+ and a backend that announces channels");
		else if (err == ENXIO && cmd == SB_RPMSG_CREATE_DEV_IOCTL && on_virtio(ctl))
			/* virtio's rpmsg bus creates channels: ENXIO is any refusal of its */
			sb_err_hint(e, "the remote's virtio rpmsg bus did not make it: a channel "
				       "with this name and addresses exists, or memory ran out "
				       "(see dmesg)");
		else if (err == ENXIO || err == EOPNOTSUPP)
			sb_err_hint(e,
				    "the rpmsg backend behind this control device cannot %s channels",
				    cmd == SB_RPMSG_CREATE_DEV_IOCTL ? "create" : "release");
		return -err;
	}
	return 0;
}

int sb_rpmsg_dev_create(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			struct sb_err *e)
{
	return dev_ioctl(ctl, SB_RPMSG_CREATE_DEV_IOCTL, "RPMSG_CREATE_DEV_IOCTL", name, src, dst,
			 e);
}

int sb_rpmsg_dev_release(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
			 struct sb_err *e)
{
	return dev_ioctl(ctl, SB_RPMSG_RELEASE_DEV_IOCTL, "RPMSG_RELEASE_DEV_IOCTL", name, src, dst,
			 e);
}

int sb_rpmsg_get_outgoing_flow(int fd, bool *paused, struct sb_err *e)
{
	int v = 0;

	if (rpmsg_ioctl(fd, SB_RPMSG_GET_OUTGOING_FLOWCONTROL, &v) < 0) {
		int err = errno;

		return sb_err_set(e, err, "endpoint", "RPMSG_GET_OUTGOING_FLOWCONTROL",
				  err == EINVAL || err == ENOTTY ? "needs kernel 6.6+" : NULL);
	}
	*paused = v != 0;
	return 0;
}

int sb_rpmsg_set_incoming_flow(int fd, bool pause, struct sb_err *e)
{
	/* the value travels in the argument itself, not through a pointer */
	if (rpmsg_ioctl(fd, SB_RPMSG_SET_INCOMING_FLOWCONTROL, (void *)(uintptr_t)(pause ? 1 : 0)) <
	    0) {
		int err = errno;

		sb_err_set(e, err, "endpoint", "RPMSG_SET_INCOMING_FLOWCONTROL", NULL);
		if (err == ENXIO || err == EOPNOTSUPP)
			sb_err_hint(
				e,
				"only some rpmsg backends (Qualcomm GLINK) implement flow control; virtio does not");
		else if (err == EINVAL || err == ENOTTY)
			sb_err_hint(e, "needs kernel 6.6+");
		if (err == ENXIO)
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -err;
	}
	return 0;
}

/* A stop signal (socbox/stop.h) ends a blocked send or receive with -EINTR. */
static int interrupted(struct sb_err *e, const char *what)
{
	sb_err_set(e, EINTR, "endpoint", what, NULL);
	sb_err_reason(e, "stopped by %s", sb_signal_name(sb_stop_signal));
	return -EINTR;
}

ssize_t sb_rpmsg_send(int fd, const void *buf, size_t len, size_t mtu, struct sb_err *e)
{
	ssize_t n;

	if (mtu && len > mtu) {
		sb_err_set(e, EMSGSIZE, "message", "send",
			   "split it (--split) or send at most %zu bytes", mtu);
		sb_err_reason(e, "%zu bytes is over the endpoint MTU of %zu bytes", len, mtu);
		return -EMSGSIZE;
	}
	do
		n = write(fd, buf, len);
	while (n < 0 && errno == EINTR && !sb_stop_signal);
	if (n < 0 && errno == EINTR)
		return interrupted(e, "send");
	if (n < 0) {
		int err = errno;

		sb_err_set(e, err, "endpoint", "send", NULL);
		if (err == EPIPE)
			sb_err_hint(e, "the endpoint has gone (channel removed or remote stopped)");
		else if (err == EMSGSIZE)
			sb_err_hint(e, "the backend's buffers are smaller; send fewer bytes");
		return -err;
	}
	return n;
}

ssize_t sb_rpmsg_recv(int fd, void *buf, size_t len, int timeout_ms, struct sb_err *e)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint64_t deadline = timeout_ms < 0 ? 0 : sb_now_ns() + (uint64_t)timeout_ms * 1000000ull;
	ssize_t n;

	for (;;) {
		int rc = sb_poll(&p, 1, sb_poll_timeout(deadline, -1));

		if (rc == -EINTR)
			return interrupted(e, "receive");
		if (rc < 0)
			return sb_err_set(e, -rc, "endpoint", "poll", NULL);
		if (rc == 0) {
			sb_err_set(e, ETIMEDOUT, "endpoint", "receive", NULL);
			sb_err_reason(e, "no message within %d ms", timeout_ms);
			return -ETIMEDOUT;
		}
		n = read(fd, buf, len);
		if (n >= 0)
			return n;
		if (errno == EINTR && sb_stop_signal)
			return interrupted(e, "receive");
		if (errno == EAGAIN || errno == EINTR)
			continue;
		{
			int err = errno;

			sb_err_set(e, err, "endpoint", "receive",
				   err == EPIPE
					   ? "the endpoint has gone (channel removed or remote stopped)"
					   : NULL);
			return -err;
		}
	}
}
