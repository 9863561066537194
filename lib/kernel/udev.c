// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <linux/netlink.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "socbox/config.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "socbox/udev.h"

#if SOCBOX_WITH_UDEV
#include <dlfcn.h>
#include <libudev.h>

/* libudev is only needed while waiting for a device, so it is dlopen()ed then rather than
 * linked: every socbox start would pay for loading it otherwise. */
static struct udev_api {
	struct udev *(*new)(void);
	struct udev *(*unref)(struct udev *);
	struct udev_monitor *(*monitor_new)(struct udev *, const char *);
	int (*filter)(struct udev_monitor *, const char *, const char *);
	int (*enable)(struct udev_monitor *);
	int (*get_fd)(struct udev_monitor *);
	struct udev_monitor *(*monitor_unref)(struct udev_monitor *);
	struct udev_device *(*receive)(struct udev_monitor *);
	const char *(*action)(struct udev_device *);
	const char *(*devpath)(struct udev_device *);
	const char *(*subsystem)(struct udev_device *);
	const char *(*devnode)(struct udev_device *);
	struct udev_device *(*device_unref)(struct udev_device *);
} U;

static bool udev_api_load(void)
{
	static int state; /* 0 untried, 1 loaded, -1 unavailable */
	void *h;

	if (state)
		return state > 0;
	state = -1;
	h = dlopen("libudev.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return false;
#define SYM(field, name) \
	do { \
		*(void **)&U.field = dlsym(h, name); \
		if (!U.field) \
			return false; \
	} while (0)
	SYM(new, "udev_new");
	SYM(unref, "udev_unref");
	SYM(monitor_new, "udev_monitor_new_from_netlink");
	SYM(filter, "udev_monitor_filter_add_match_subsystem_devtype");
	SYM(enable, "udev_monitor_enable_receiving");
	SYM(get_fd, "udev_monitor_get_fd");
	SYM(monitor_unref, "udev_monitor_unref");
	SYM(receive, "udev_monitor_receive_device");
	SYM(action, "udev_device_get_action");
	SYM(devpath, "udev_device_get_devpath");
	SYM(subsystem, "udev_device_get_subsystem");
	SYM(devnode, "udev_device_get_devnode");
	SYM(device_unref, "udev_device_unref");
#undef SYM
	state = 1;
	return true;
}
#endif

int sb_devnode(const struct sb_root *r, const char *syspath, char *buf, size_t len)
{
	char *text = NULL;
	ssize_t n = sb_read_file(r, &text, SB_READ_ATTR_MAX, "%s/uevent", syspath);
	int rc = -ENOENT;

	if (n < 0)
		return (int)n;
	for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
		if (!strncmp(line, "DEVNAME=", 8)) {
			rc = (size_t)snprintf(buf, len, "/dev/%s", line + 8) < len
				     ? 0
				     : -ENAMETOOLONG;
			break;
		}
	}
	free(text);
	return rc;
}

struct sb_devmon {
	int fd; /* kernel uevent socket, or the udev monitor's fd */
	char subsystem[64];
#if SOCBOX_WITH_UDEV
	struct udev *udev;
	struct udev_monitor *mon;
#endif
};

static int open_kernel_socket(struct sb_devmon *m, struct sb_err *e)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };
	int size = 1 << 20;

	m->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
	if (m->fd < 0)
		return sb_err_set(e, errno, "uevent netlink socket", "open", NULL);
	setsockopt(m->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof(size));
	if (bind(m->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		int err = errno;
		close(m->fd);
		m->fd = -1;
		return sb_err_set(e, err, "uevent netlink socket", "bind",
				  err == EPERM ? "needs root or CAP_NET_ADMIN" : NULL);
	}
	return 0;
}

int sb_devmon_open(struct sb_devmon **out, const char *subsystem, struct sb_err *e)
{
	struct sb_devmon *m = calloc(1, sizeof(*m));
	int rc;

	*out = NULL;
	if (!m)
		return sb_err_set(e, ENOMEM, "uevent monitor", "open", NULL);
	m->fd = -1;
	snprintf(m->subsystem, sizeof(m->subsystem), "%s", subsystem ? subsystem : "");
#if SOCBOX_WITH_UDEV
	/* When udevd runs, wait for its event: by then rules have set node permissions. */
	if (access("/run/udev/control", F_OK) == 0 && udev_api_load()) {
		m->udev = U.new();
		if (m->udev)
			m->mon = U.monitor_new(m->udev, "udev");
		if (m->mon && subsystem)
			U.filter(m->mon, subsystem, NULL);
		if (m->mon && U.enable(m->mon) == 0) {
			m->fd = U.get_fd(m->mon);
			*out = m;
			return 0;
		}
		if (m->mon)
			U.monitor_unref(m->mon);
		if (m->udev)
			U.unref(m->udev);
		m->mon = NULL;
		m->udev = NULL;
	}
#endif
	rc = open_kernel_socket(m, e);
	if (rc) {
		free(m);
		return rc;
	}
	*out = m;
	return 0;
}

const char *sb_devmon_source(const struct sb_devmon *m)
{
#if SOCBOX_WITH_UDEV
	if (m->mon)
		return "udev";
#endif
	return "kernel";
}

int sb_devmon_fd(const struct sb_devmon *m)
{
	return m->fd;
}

static void basename_of(const char *path, char *buf, size_t len)
{
	const char *b = strrchr(path, '/');
	snprintf(buf, len, "%s", b ? b + 1 : path);
}

/* "add@/devices/...\0ACTION=add\0DEVPATH=...\0SUBSYSTEM=...\0DEVNAME=...\0" */
static int parse_kernel_event(const char *buf, size_t len, struct sb_devevent *ev)
{
	memset(ev, 0, sizeof(*ev));
	if (!memchr(buf, '@', len < 16 ? len : 16) || !strncmp(buf, "libudev", 7))
		return -EINVAL;
	for (size_t off = 0; off < len;) {
		const char *kv = buf + off;
		size_t l = strnlen(kv, len - off);
		if (!strncmp(kv, "ACTION=", 7))
			snprintf(ev->action, sizeof(ev->action), "%s", kv + 7);
		else if (!strncmp(kv, "DEVPATH=", 8))
			snprintf(ev->devpath, sizeof(ev->devpath), "%s", kv + 8);
		else if (!strncmp(kv, "SUBSYSTEM=", 10))
			snprintf(ev->subsystem, sizeof(ev->subsystem), "%s", kv + 10);
		else if (!strncmp(kv, "DEVNAME=", 8))
			snprintf(ev->devname, sizeof(ev->devname), "%s", kv + 8);
		off += l + 1;
	}
	return ev->action[0] && ev->devpath[0] ? 0 : -EINVAL;
}

static int receive_one(struct sb_devmon *m, struct sb_devevent *ev)
{
#if SOCBOX_WITH_UDEV
	if (m->mon) {
		struct udev_device *d = U.receive(m->mon);
		const char *s;
		if (!d)
			return -EAGAIN;
		memset(ev, 0, sizeof(*ev));
		snprintf(ev->action, sizeof(ev->action), "%s", (s = U.action(d)) ? s : "");
		snprintf(ev->devpath, sizeof(ev->devpath), "%s", (s = U.devpath(d)) ? s : "");
		snprintf(ev->subsystem, sizeof(ev->subsystem), "%s", (s = U.subsystem(d)) ? s : "");
		s = U.devnode(d);
		if (s && !strncmp(s, "/dev/", 5))
			s += 5;
		snprintf(ev->devname, sizeof(ev->devname), "%s", s ? s : "");
		U.device_unref(d);
		return 0;
	}
#endif
	char buf[8192];
	ssize_t n = recv(m->fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (n < 0)
		return errno == EAGAIN ? -EAGAIN : -errno;
	buf[n] = '\0';
	if (parse_kernel_event(buf, (size_t)n, ev))
		return -EAGAIN;
	if (m->subsystem[0] && strcmp(ev->subsystem, m->subsystem))
		return -EAGAIN;
	return 0;
}

int sb_devmon_next(struct sb_devmon *m, struct sb_devevent *ev, int timeout_ms)
{
	uint64_t deadline = sb_now_ns() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * 1000000ull;

	for (;;) {
		struct pollfd p = { .fd = m->fd, .events = POLLIN };
		int rc = poll(&p, 1, timeout_ms < 0 ? -1 : sb_poll_timeout(deadline, -1));

		if (rc < 0)
			return -errno;
		if (rc == 0)
			return -ETIMEDOUT;
		rc = receive_one(m, ev);
		if (rc != -EAGAIN)
			return rc;
	}
}

int sb_devmon_wait(struct sb_devmon *m, const char *action, const char *name,
		   struct sb_devevent *ev, int timeout_ms)
{
	uint64_t deadline = sb_now_ns() + (uint64_t)timeout_ms * 1000000ull;

	for (;;) {
		int left = sb_poll_timeout(deadline, -1), rc;
		char base[256];

		if (!left)
			return -ETIMEDOUT;
		rc = sb_devmon_next(m, ev, left);
		if (rc)
			return rc;
		basename_of(ev->devpath, base, sizeof(base));
		if ((!action || !strcmp(ev->action, action)) && (!name || !strcmp(base, name)))
			return 0;
	}
}

void sb_devmon_close(struct sb_devmon *m)
{
	if (!m)
		return;
#if SOCBOX_WITH_UDEV
	if (m->mon) {
		U.monitor_unref(m->mon);
		U.unref(m->udev);
		m->fd = -1;
	}
#endif
	if (m->fd >= 0)
		close(m->fd);
	free(m);
}
