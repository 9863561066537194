// SPDX-License-Identifier: GPL-2.0-or-later
/* vm probe: RPMSG_CREATE_EPT_FD_IOCTL as the test-kernel patch implements it (the v5
 * series' semantics): flags checked, an anonymous-inode endpoint that reads, writes, polls
 * and takes the endpoint ioctls like /dev/rpmsgN, DESTROY on it, and neither a device
 * node nor a sysfs entry nor a uevent. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "uapi.h"

static int vp_create_fd(int cfd, uint32_t src, uint32_t flags, int *fd)
{
	struct vp_rpmsg_endpoint_fd_info info = {
		.src = src, .dst = VP_RPMSG_ADDR_ANY, .flags = flags, .fd = -1
	};

	strcpy(info.name, "socbox-fd");
	if (ioctl(cfd, VP_RPMSG_CREATE_EPT_FD_IOCTL, &info) != 0)
		return -errno;
	*fd = info.fd;
	return 0;
}

static long vp_seqnum(void)
{
	FILE *f = fopen("/sys/kernel/uevent_seqnum", "r");
	long v = -1;

	if (f) {
		if (fscanf(f, "%ld", &v) != 1)
			v = -1;
		fclose(f);
	}
	return v;
}

/* Entries named rpmsgN in dir (/dev or /sys/class/rpmsg). */
static int vp_count_rpmsg(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		if (!strncmp(e->d_name, "rpmsg", 5) && e->d_name[5] >= '0' && e->d_name[5] <= '9')
			n++;
	closedir(d);
	return n;
}

static bool vp_bad_flags(int cfd, uint32_t flags, const char *what)
{
	int fd = -1, rc = vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, flags, &fd);

	if (rc == -EINVAL)
		return true;
	if (rc == 0)
		close(fd);
	vp_note("flags 0x%x gave %d", flags, rc);
	return vp_fail(what, 0);
}

int vp_rpmsg_fd(int argc, char **argv)
{
	const char *ctrl = argc > 1 ? argv[1] : "/dev/rpmsg_ctrl0";
	unsigned char big[VP_RPMSG_MAX_PAYLOAD + 1] = { 0 };
	int cfd, fd, fd2, rc, nodes, classes, flags, got = -1;
	char link[64], path[64];
	long seq;
	ssize_t n;
	bool ok = true;

	cfd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (cfd < 0)
		return !vp_fail(ctrl, errno);

	/* flags: only O_ACCMODE | O_NONBLOCK | O_CLOEXEC, and a real access mode */
	ok = vp_bad_flags(cfd, O_RDWR | O_APPEND, "O_APPEND was not refused with EINVAL") && ok;
	ok = vp_bad_flags(cfd, O_RDWR | O_TRUNC, "O_TRUNC was not refused with EINVAL") && ok;
	ok = vp_bad_flags(cfd, O_ACCMODE, "access mode 3 was not refused with EINVAL") && ok;
	ok = vp_bad_flags(cfd, 0x80000000u | O_RDWR, "bit 31 was not refused with EINVAL") && ok;

	nodes = vp_count_rpmsg("/dev");
	classes = vp_count_rpmsg("/sys/class/rpmsg");
	seq = vp_seqnum();
	rc = vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_RDWR | O_CLOEXEC | O_NONBLOCK, &fd);
	if (rc)
		return !vp_fail("RPMSG_CREATE_EPT_FD_IOCTL O_RDWR|O_CLOEXEC|O_NONBLOCK", -rc);
	vp_note("RPMSG_CREATE_EPT_FD_IOCTL on %s gave fd %d", ctrl, fd);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, link, sizeof(link) - 1);
	link[n > 0 ? n : 0] = '\0';
	if (strcmp(link, "anon_inode:rpmsg-eptdev"))
		ok = vp_fail("the fd is not an anonymous inode named rpmsg-eptdev", 0);
	vp_note("fd %d is %s", fd, link);
	if (!(fcntl(fd, F_GETFD) & FD_CLOEXEC))
		ok = vp_fail("O_CLOEXEC did not set FD_CLOEXEC", 0);
	flags = fcntl(fd, F_GETFL);
	if ((flags & O_ACCMODE) != O_RDWR || !(flags & O_NONBLOCK))
		ok = vp_fail("the file's flags are not O_RDWR|O_NONBLOCK", 0);
	if (vp_count_rpmsg("/dev") != nodes || vp_count_rpmsg("/sys/class/rpmsg") != classes)
		ok = vp_fail("a /dev/rpmsgN or /sys/class/rpmsg/rpmsgN appeared", 0);

	/* read/write/poll like /dev/rpmsgN */
	if (read(fd, big, sizeof(big)) >= 0 || errno != EAGAIN)
		ok = vp_fail("O_NONBLOCK read of an empty queue did not give EAGAIN", 0);
	ok = vp_echo(fd, 1, 11) && ok;
	ok = vp_echo(fd, VP_RPMSG_MAX_PAYLOAD, 12) && ok;
	if (write(fd, big, sizeof(big)) >= 0 || errno != EMSGSIZE)
		ok = vp_fail("a 497-byte write was not refused with EMSGSIZE", 0);
	/* the endpoint ioctls: flow control is reflected by the loopback */
	if (ioctl(fd, VP_RPMSG_SET_INCOMING_FLOWCONTROL, 1UL) != 0 ||
	    ioctl(fd, VP_RPMSG_GET_OUTGOING_FLOWCONTROL, &got) != 0 || got != 1)
		ok = vp_fail("flow control through the fd endpoint", errno);
	if (ioctl(fd, 0xb5ff) == 0 || errno != EINVAL)
		ok = vp_fail("an unknown endpoint ioctl did not give EINVAL", 0);

	/* DESTROY: the endpoint ends, the fd stays until closed */
	if (ioctl(fd, VP_RPMSG_DESTROY_EPT_IOCTL) != 0)
		ok = vp_fail("RPMSG_DESTROY_EPT_IOCTL on the fd endpoint", errno);
	if (read(fd, big, 8) >= 0 || errno != EPIPE)
		ok = vp_fail("read after DESTROY did not give EPIPE", 0);
	if (write(fd, big, 8) >= 0 || errno != EPIPE)
		ok = vp_fail("write after DESTROY did not give EPIPE", 0);
	{
		struct pollfd p = { .fd = fd, .events = POLLIN | POLLOUT };

		if (poll(&p, 1, 0) != 1 || !(p.revents & POLLERR))
			ok = vp_fail("poll after DESTROY did not report POLLERR", 0);
	}
	if (ioctl(fd, VP_RPMSG_DESTROY_EPT_IOCTL) != 0)
		ok = vp_fail("a second DESTROY was not a no-op", errno);
	close(fd);
	if (vp_seqnum() != seq)
		ok = vp_fail("the fd endpoint's life sent uevents", 0);
	else
		vp_note("uevent_seqnum %ld before and after: no uevent", seq);

	/* closing without DESTROY frees the address: the same explicit src works again */
	for (int i = 0; i < 2; i++) {
		rc = vp_create_fd(cfd, 0x500, O_RDWR | O_CLOEXEC, &fd);
		if (rc) {
			ok = vp_fail("fd endpoint at src 0x500 (again after close)", -rc);
			break;
		}
		close(fd);
	}
	/* the address is taken while an fd endpoint holds it */
	if (vp_create_fd(cfd, 0x501, O_RDWR | O_CLOEXEC, &fd) == 0) {
		if (vp_create_fd(cfd, 0x501, O_RDWR | O_CLOEXEC, &fd2) == 0) {
			ok = vp_fail("two fd endpoints got src 0x501", 0);
			close(fd2);
		}
		close(fd);
	}

	/* access modes and O_CLOEXEC are honoured */
	if (vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_RDONLY, &fd) == 0) {
		if (write(fd, big, 1) >= 0 || errno != EBADF)
			ok = vp_fail("write on an O_RDONLY fd endpoint did not give EBADF", 0);
		if (fcntl(fd, F_GETFD) & FD_CLOEXEC)
			ok = vp_fail("FD_CLOEXEC set without O_CLOEXEC", 0);
		close(fd);
	} else {
		ok = vp_fail("RPMSG_CREATE_EPT_FD_IOCTL O_RDONLY", errno);
	}
	if (vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_WRONLY | O_CLOEXEC, &fd) == 0) {
		if (read(fd, big, 1) >= 0 || errno != EBADF)
			ok = vp_fail("read on an O_WRONLY fd endpoint did not give EBADF", 0);
		close(fd);
	} else {
		ok = vp_fail("RPMSG_CREATE_EPT_FD_IOCTL O_WRONLY", errno);
	}

	/* many at once, all closed without DESTROY: nothing left behind */
	{
		int fds[64], made = 0;

		for (; made < 64; made++)
			if (vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_RDWR | O_CLOEXEC, &fds[made]))
				break;
		if (made != 64)
			ok = vp_fail("64 fd endpoints at once", errno);
		while (made > 0)
			close(fds[--made]);
	}
	if (vp_count_rpmsg("/dev") != nodes || vp_count_rpmsg("/sys/class/rpmsg") != classes)
		ok = vp_fail("endpoint devices were left behind", 0);
	close(cfd);
	vp_note("flags checked, anonymous endpoint echoed, destroyed, closed; nothing left behind");
	return ok ? 0 : 1;
}

/* socbox-vmprobe rpmsg-fd-gone CTRL MODULE: the control device goes away (rmmod MODULE,
 * its rpmsg backend) while an fd endpoint is open: the endpoint ends, its fd reports it. */
int vp_rpmsg_fd_gone(int argc, char **argv)
{
	unsigned char b[8] = { 0 };
	char cmd[128];
	bool ok = true;
	int cfd, fd, rc;

	if (argc < 3)
		return !vp_fail("usage: rpmsg-fd-gone /dev/rpmsg_ctrlN MODULE", 0);
	cfd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (cfd < 0)
		return !vp_fail(argv[1], errno);
	rc = vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_RDWR | O_CLOEXEC, &fd);
	if (rc)
		return !vp_fail("RPMSG_CREATE_EPT_FD_IOCTL", -rc);
	snprintf(cmd, sizeof(cmd), "rmmod %s", argv[2]);
	if (system(cmd) != 0)
		return !vp_fail(cmd, 0);
	if (read(fd, b, sizeof(b)) >= 0 || errno != EPIPE)
		ok = vp_fail("read after the backend went away did not give EPIPE", 0);
	if (write(fd, b, sizeof(b)) >= 0 || errno != EPIPE)
		ok = vp_fail("write after the backend went away did not give EPIPE", 0);
	if (ioctl(fd, VP_RPMSG_DESTROY_EPT_IOCTL) != 0)
		ok = vp_fail("DESTROY after the backend went away", errno);
	close(fd);
	/* the control file outlived its device: new endpoints are refused */
	if (vp_create_fd(cfd, VP_RPMSG_ADDR_ANY, O_RDWR, &fd) == 0) {
		ok = vp_fail("an fd endpoint was made on a removed control device", 0);
		close(fd);
	}
	close(cfd);
	vp_note("%s removed under an open fd endpoint: EPIPE, DESTROY and close work", argv[2]);
	return ok ? 0 : 1;
}
