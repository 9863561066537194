// SPDX-License-Identifier: GPL-2.0-or-later
/* Which /dev/rpmsgN a legacy create made, learnt from sysfs (see below); the uevent wait
 * that stands in where this cannot work is in rpmsg_ept.c. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "socbox/config.h"
#include "socbox/limits.h"
#include "socbox/rpmsg.h"
#include "socbox/scan.h"
#include "rpmsg_lookup.h"

/*
 * Which /dev/rpmsgN did RPMSG_CREATE_EPT_IOCTL make? The ioctl does not say. Within it
 * (rpmsg_ctrl.c, 5.18 to 7.x) the kernel, holding the ctrl device's ctrl_lock, adds the
 * endpoint device as a child of the ctrl device (class "rpmsg", parent in the same class,
 * so sysfs has it as .../rpmsg_ctrlN/rpmsgM without a glue directory), and device_add()
 * makes its devtmpfs node and waits for it before the "add" uevent goes out. So when the
 * ioctl returns, the device is among the children of /sys/class/rpmsg/rpmsg_ctrlN and, on a
 * devtmpfs /dev, its node exists: one listing of the children after the ioctl names it,
 * where waiting for the uevent makes the kernel build and broadcast one for every
 * endpoint device added and removed (a fifth to a third of a create/open/destroy/close
 * iteration on the test bed).
 *
 * Children are told apart by their kernfs inode number, new for every device the kernel
 * adds (kernfs hands them out cyclically; a 64-bit kernel never gives one out again, a
 * 32-bit one after 2^31 more sysfs nodes), so a name given out again (the smallest free
 * number is reused) still shows as new. The children known are those of the previous
 * listing: when the lookup is chosen, then after each create.
 * The uevent wait stays for what the listing cannot see: a /dev that is not devtmpfs
 * (nodes made by mdev or by hand appear only after the uevent), sysfs not mounted, and a
 * process that is not root while udevd runs (devtmpfs makes the node root-only; only
 * udev's event says its rules have set the group and mode).
 *
 * The race: endpoints other processes created on the same ctrl device since our previous
 * listing show as new too. Of several new children the one whose name, src and dst are
 * ours is taken, and when more than one is, the newest (kernfs inode numbers grow).
 * Two processes creating identical endpoints at the same moment can so pick the same
 * device (the second open fails with EBUSY), as they can with the uevent wait, which
 * cannot tell them apart either; the fd ioctl, where the kernel has it, has no such race.
 * The one whose open failed takes another identical node (rpmsg_lookup_next()): the next
 * older one of its listing, and when there is none (or inotify named the node), the newest
 * identical child of all but the busy one: the other process's own node may predate our
 * listing (made between its listing and ours), so "new to us" cannot bound the search.
 *
 * Cheaper still, where the kernel has inotify: devtmpfs makes the node in the ioctl too, so
 * an inotify watch on /dev (IN_CREATE) has its event queued when the ioctl returns, and one
 * read() of the queue names it. That is taken only when the queue holds exactly one new
 * "rpmsgN" since the previous read: the node our create made is always among them, so a
 * lone one is ours. Nodes other processes made meanwhile (of any control device), a full
 * or overflowed queue, or no event at all (a node already there, made by hand) send the
 * lookup to the listing above, whose children known are then older: what was created since
 * shows as new, and of several new ones the newest whose name, src and dst are ours is
 * taken, as above. On the test bed the listing cost a tenth of an iteration (lseek and
 * getdents64 on kernfs); the read does not touch sysfs.
 */
struct ept_child {
	uint64_t ino;
	unsigned id;
};

struct ept_children {
	int dirfd;			 /* /sys/class/rpmsg/rpmsg_ctrlN, kept open */
	int inofd;			 /* inotify on /dev (IN_CREATE), -1 without */
	uint64_t by_inotify, by_listing; /* picks made each way */
	uint64_t *known; /* inode numbers of the children at the last listing, sorted */
	size_t nknown, known_cap;
	struct ept_child *fresh; /* children of this listing not in known[] */
	size_t nfresh, fresh_cap;
	long picked;	 /* the fresh child the last pick took, -1 when none (inotify) */
	bool listed_all; /* this create's fresh[] holds every child (rpmsg_lookup_next()) */
	uint64_t *now;	 /* this listing's inode numbers, becomes known[] */
	size_t nnow, now_cap;
};

void rpmsg_lookup_free(struct sb_rpmsg_ctl *ctl)
{
	struct ept_children *ch = ctl->children;

	if (!ch)
		return;
	if (ch->dirfd >= 0)
		close(ch->dirfd);
	if (ch->inofd >= 0)
		close(ch->inofd);
	free(ch->known);
	free(ch->fresh);
	free(ch->now);
	free(ch);
	ctl->children = NULL;
}

static int grow(void *arrp, size_t *cap, size_t elem)
{
	size_t n = *cap ? *cap * 2 : 16;
	void *p;

	if (n > SB_DIR_MAX_ENTRIES)
		return -EFBIG;
	p = realloc(*(void **)arrp, n * elem);
	if (!p)
		return -ENOMEM;
	*(void **)arrp = p;
	*cap = n;
	return 0;
}

static int cmp_ino(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* List the endpoint children: fresh[] gets those not in known[], then known[] becomes
 * this listing. */
static int list_children(struct ept_children *ch)
{
	char buf[8192] __attribute__((aligned(8)));
	ssize_t n;
	unsigned id;
	int rc;

	if (lseek(ch->dirfd, 0, SEEK_SET) < 0)
		return -errno;
	ch->nfresh = 0;
	ch->nnow = 0;
	while ((n = getdents64(ch->dirfd, buf, sizeof(buf))) > 0) {
		/* getdents64 itself: a third of readdir()'s calls on a small directory */
		for (ssize_t off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);

			off += d->d_reclen;
			if ((d->d_type != DT_DIR && d->d_type != DT_UNKNOWN) ||
			    sb_rpmsg_index(d->d_name, "rpmsg", &id))
				continue;
			if (ch->nnow == ch->now_cap &&
			    (rc = grow(&ch->now, &ch->now_cap, sizeof(*ch->now))))
				return rc;
			ch->now[ch->nnow++] = d->d_ino;
			if (ch->nknown && /* before the first listing known[] is NULL */
			    bsearch(&d->d_ino, ch->known, ch->nknown, sizeof(*ch->known), cmp_ino))
				continue;
			if (ch->nfresh == ch->fresh_cap &&
			    (rc = grow(&ch->fresh, &ch->fresh_cap, sizeof(*ch->fresh))))
				return rc;
			ch->fresh[ch->nfresh++] = (struct ept_child){ .ino = d->d_ino, .id = id };
		}
	}
	if (n < 0)
		return -errno;
	if (ch->nnow)
		qsort(ch->now, ch->nnow, sizeof(*ch->now), cmp_ino);
	{
		uint64_t *t = ch->known;
		size_t tc = ch->known_cap;

		ch->known = ch->now;
		ch->known_cap = ch->now_cap;
		ch->nknown = ch->nnow;
		ch->now = t;
		ch->now_cap = tc;
	}
	return 0;
}

static bool is_devtmpfs_dev(const struct sb_root *r)
{
	char *text = NULL, *save = NULL;
	bool devtmpfs = false;

	if (sb_read_file(r, &text, SB_READ_PROC_MAX, "/proc/self/mountinfo") < 0)
		return false;
	/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS] - FSTYPE SOURCE SUPEROPTS"; the last
	 * mount on /dev is the one on top */
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char mnt[16], *sep = strstr(line, " - ");

		if (sep && sb_sscanf(line, "%*s %*s %*s %*s %15s", mnt) == 1 &&
		    !strcmp(mnt, "/dev"))
			devtmpfs = !strncmp(sep + 3, "devtmpfs ", 9);
	}
	free(text);
	return devtmpfs;
}

/* With udevd running, a process that is not root may need udev's rules (group, mode) on
 * the node before it can open it. */
static bool needs_udev_rules(void)
{
#if SOCBOX_WITH_UDEV
	return geteuid() != 0 && access("/run/udev/control", F_OK) == 0;
#else
	return false;
#endif
}

static int children_open(struct sb_rpmsg_ctl *ctl)
{
	struct ept_children *ch;
	int fd;

	if (!ctl->root || !is_devtmpfs_dev(ctl->root) || needs_udev_rules())
		return -EOPNOTSUPP;
	fd = sb_open(ctl->root, O_RDONLY | O_DIRECTORY, "/sys/class/rpmsg/rpmsg_ctrl%u",
		     ctl->index);
	if (fd < 0)
		return fd;
	ch = calloc(1, sizeof(*ch));
	if (!ch) {
		close(fd);
		return -ENOMEM;
	}
	ch->dirfd = fd;
	ch->inofd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ch->inofd >= 0 && inotify_add_watch(ch->inofd, "/dev", IN_CREATE) < 0) {
		close(ch->inofd);
		ch->inofd = -1;
	}
	ctl->children = ch;
	return 0;
}

void sb_rpmsg_ctl_lookup_counts(const struct sb_rpmsg_ctl *ctl, uint64_t *by_inotify,
				uint64_t *by_listing)
{
	const struct ept_children *ch = ctl->children;

	*by_inotify = ch ? ch->by_inotify : 0;
	*by_listing = ch ? ch->by_listing : 0;
}

bool rpmsg_lookup_watches(const struct sb_rpmsg_ctl *ctl)
{
	const struct ept_children *ch = ctl->children;

	return ch && ch->inofd >= 0;
}

/* The one endpoint node made since the previous read of the inotify queue (see above);
 * -EAGAIN when there is not exactly one, or the queue cannot say. */
static int one_new_node(int inofd, unsigned *id)
{
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	ssize_t n = read(inofd, buf, sizeof(buf));
	unsigned found = 0, k;
	bool unsure = false;

	if (n < 0)
		return -EAGAIN;
	/* a read that nearly filled the buffer may have left events behind: drain, then list */
	if ((size_t)n > sizeof(buf) - sizeof(struct inotify_event) - NAME_MAX - 1) {
		while (read(inofd, buf, sizeof(buf)) > 0)
			;
		return -EAGAIN;
	}
	for (ssize_t off = 0; off < n;) {
		const struct inotify_event *ev = (const void *)(buf + off);

		off += (ssize_t)sizeof(*ev) + ev->len;
		if (ev->mask & IN_Q_OVERFLOW)
			unsure = true;
		else if (ev->len && !sb_rpmsg_index(ev->name, "rpmsg", &k) && found++ == 0)
			*id = k;
	}
	return found == 1 && !unsure ? 0 : -EAGAIN;
}

static bool attrs_are(const struct sb_rpmsg_ctl *ctl, unsigned id, const char *name, uint32_t src,
		      uint32_t dst)
{
	char n[64];
	int64_t s, d;

	/* the endpoint device prints its addresses in signed decimal */
	return sb_attr_str(ctl->root, n, sizeof(n), "/sys/class/rpmsg/rpmsg%u/name", id) >= 0 &&
	       !strcmp(n, name) &&
	       sb_attr_s64(ctl->root, &s, "/sys/class/rpmsg/rpmsg%u/src", id) >= 0 &&
	       (uint32_t)s == src &&
	       sb_attr_s64(ctl->root, &d, "/sys/class/rpmsg/rpmsg%u/dst", id) >= 0 &&
	       (uint32_t)d == dst;
}

/* The newest fresh child with our name, src and dst, older than inode below and not
 * rpmsg<skip>; -1 when none. */
static long newest_ours(const struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src,
			uint32_t dst, uint64_t below, unsigned skip)
{
	const struct ept_children *ch = ctl->children;
	long pick = -1;

	for (size_t i = 0; i < ch->nfresh; i++)
		if (ch->fresh[i].ino < below && ch->fresh[i].id != skip &&
		    attrs_are(ctl, ch->fresh[i].id, name, src, dst) &&
		    (pick < 0 || ch->fresh[i].ino > ch->fresh[pick].ino))
			pick = (long)i;
	return pick;
}

/* After the ioctl: the new child that is ours (see above). */
int rpmsg_lookup_pick(struct sb_rpmsg_ctl *ctl, const struct sb_rpmsg_endpoint_info *info,
		      char *devname, size_t len, struct sb_err *e)
{
	struct ept_children *ch = ctl->children;
	unsigned id;
	long pick = -1;
	int rc;

	ch->picked = -1;
	ch->listed_all = false;
	if (ch->inofd >= 0 && one_new_node(ch->inofd, &id) == 0) {
		snprintf(devname, len, "rpmsg%u", id);
		ch->by_inotify++;
		return 0;
	}
	ch->by_listing++;
	rc = list_children(ch);
	if (rc < 0)
		return sb_err_set(e, -rc, ctl->path,
				  "list the endpoint devices after RPMSG_CREATE_EPT_IOCTL", NULL);
	if (ch->nfresh > 1)
		pick = newest_ours(ctl, info->name, info->src, info->dst, UINT64_MAX, UINT_MAX);
	if (ch->nfresh == 1)
		pick = 0;
	if (pick < 0) {
		sb_err_set(e, ENOENT, ctl->path, "find the new /dev/rpmsgN",
			   "another process may have destroyed it at once; 'rpmsgctl list' shows the endpoints");
		sb_err_reason(
			e,
			"RPMSG_CREATE_EPT_IOCTL succeeded, but %zu new endpoint devices below /sys/class/rpmsg/rpmsg_ctrl%u are %s",
			ch->nfresh, ctl->index, ch->nfresh ? "not it" : "there");
		return -ENOENT;
	}
	snprintf(devname, len, "rpmsg%u", ch->fresh[pick].id);
	ch->picked = pick;
	return 0;
}

int rpmsg_lookup_next(struct sb_rpmsg_ctl *ctl, const char *name, uint32_t src, uint32_t dst,
		      char *devname, size_t len)
{
	struct ept_children *ch = ctl->children;
	unsigned busy;
	long pick = -1;

	if (!ch)
		return -ENOENT;
	if (ch->picked >= 0) /* the next older of this listing */
		pick = newest_ours(ctl, name, src, dst, ch->fresh[ch->picked].ino, UINT_MAX);
	if (pick < 0 && !ch->listed_all) {
		/* every identical child but the busy one, newest first: the other process's own
		 * node may predate our listing (see above) */
		ch->listed_all = true;
		ch->nknown = 0;
		if (sb_rpmsg_index(devname, "rpmsg", &busy) || list_children(ch))
			return -ENOENT;
		pick = newest_ours(ctl, name, src, dst, UINT64_MAX, busy);
	}
	if (pick < 0)
		return -ENOENT;
	ch->picked = pick;
	snprintf(devname, len, "rpmsg%u", ch->fresh[pick].id);
	return 0;
}

int rpmsg_lookup_start(struct sb_rpmsg_ctl *ctl)
{
	int rc = children_open(ctl);

	if (!rc)
		rc = list_children(ctl->children);
	if (rc)
		rpmsg_lookup_free(ctl);
	return rc;
}
