// SPDX-License-Identifier: GPL-2.0-or-later
/* vm probe: rpmsg endpoint life cycle through rpmsg_ctrl and rpmsg_char. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "uapi.h"

#define VP_MAX_NODES 256

/* Mark which /dev/rpmsgN exist; return how many. */
static int vp_scan_nodes(bool seen[VP_MAX_NODES])
{
	DIR *d = opendir("/dev");
	struct dirent *e;
	int n = 0;

	memset(seen, 0, VP_MAX_NODES * sizeof(seen[0]));
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long i;

		if (strncmp(e->d_name, "rpmsg", 5) != 0 || e->d_name[5] < '0' || e->d_name[5] > '9')
			continue;
		i = strtol(e->d_name + 5, &end, 10);
		if (*end == '\0' && i >= 0 && i < VP_MAX_NODES) {
			seen[i] = true;
			n++;
		}
	}
	closedir(d);
	return n;
}

/* Send len bytes on an endpoint (a /dev/rpmsgN node or an fd endpoint: they read, write and
 * poll alike) and expect the same bytes back as one message within 5 s. */
bool vp_echo(int fd, size_t len, unsigned seed)
{
	unsigned char out[VP_RPMSG_MAX_PAYLOAD], in[1024];
	struct pollfd p = { .fd = fd, .events = POLLIN };
	ssize_t n;

	vp_pattern(out, len, seed);
	n = write(fd, out, len);
	if (n != (ssize_t)len)
		return vp_fail("write to the endpoint", n < 0 ? errno : 0);
	if (poll(&p, 1, 5000) != 1 || !(p.revents & POLLIN))
		return vp_fail("no POLLIN for the echo within 5 s", errno);
	n = read(fd, in, sizeof(in));
	if (n != (ssize_t)len) {
		vp_note("read returned %zd, expected %zu", n, len);
		return vp_fail("echo length", n < 0 ? errno : 0);
	}
	if (memcmp(in, out, len) != 0)
		return vp_fail("echoed bytes differ from the bytes written", 0);
	vp_note("%zu bytes echoed byte for byte", len);
	return true;
}

/* The loopback reflects flow control: what we ask for comes back as the remote's state. */
static bool vp_flow(int fd)
{
	for (int want = 1; want >= 0; want--) {
		int got = -1;

		if (ioctl(fd, VP_RPMSG_SET_INCOMING_FLOWCONTROL, (unsigned long)want) != 0)
			return vp_fail("RPMSG_SET_INCOMING_FLOWCONTROL", errno);
		if (ioctl(fd, VP_RPMSG_GET_OUTGOING_FLOWCONTROL, &got) != 0)
			return vp_fail("RPMSG_GET_OUTGOING_FLOWCONTROL", errno);
		if (got != want)
			return vp_fail("outgoing flow control does not reflect what was set", 0);
	}
	vp_note("flow control set to 1 and 0 was reflected back");
	return true;
}

/* socbox-vmprobe rpmsg-echo NODE: echo through an existing endpoint node. */
int vp_rpmsg_echo(int argc, char **argv)
{
	bool ok;
	int fd;

	if (argc < 2)
		return !vp_fail("usage: rpmsg-echo /dev/rpmsgN", 0);
	fd = open(argv[1], O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return !vp_fail(argv[1], errno);
	ok = vp_echo(fd, 100, 5);
	close(fd);
	return ok ? 0 : 1;
}

int vp_rpmsg(int argc, char **argv)
{
	const char *ctrl = argc > 1 ? argv[1] : "/dev/rpmsg_ctrl0";
	struct vp_rpmsg_endpoint_info info = { .src = VP_RPMSG_ADDR_ANY, .dst = VP_RPMSG_ADDR_ANY };
	unsigned char big[VP_RPMSG_MAX_PAYLOAD + 1] = { 0 };
	bool before[VP_MAX_NODES], after[VP_MAX_NODES], ok = true;
	char node[64] = "";
	struct stat st;
	int cfd, fd;

	strcpy(info.name, "socbox-vmprobe");
	cfd = open(ctrl, O_RDWR | O_CLOEXEC);
	if (cfd < 0)
		return !vp_fail(ctrl, errno);
	if (vp_scan_nodes(before) < 0)
		return !vp_fail("scan /dev", errno);
	if (ioctl(cfd, VP_RPMSG_CREATE_EPT_IOCTL, &info) != 0)
		return !vp_fail("RPMSG_CREATE_EPT_IOCTL", errno);
	vp_scan_nodes(after);
	for (int i = 0; i < VP_MAX_NODES; i++) {
		if (after[i] && !before[i]) {
			if (node[0])
				return !vp_fail("more than one new /dev/rpmsgN after CREATE_EPT", 0);
			snprintf(node, sizeof(node), "/dev/rpmsg%d", i);
		}
	}
	if (!node[0])
		return !vp_fail("no new /dev/rpmsgN after RPMSG_CREATE_EPT_IOCTL", 0);
	vp_note("RPMSG_CREATE_EPT_IOCTL on %s made %s", ctrl, node);
	fd = open(node, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return !vp_fail(node, errno);
	ok = vp_echo(fd, 64, 3);
	ok = vp_echo(fd, VP_RPMSG_MAX_PAYLOAD, 4) && ok;
	if (write(fd, big, sizeof(big)) >= 0 || errno != EMSGSIZE)
		ok = vp_fail("a 497-byte write was not refused with EMSGSIZE", 0);
	ok = vp_flow(fd) && ok;
	if (ioctl(fd, VP_RPMSG_DESTROY_EPT_IOCTL) != 0)
		return !vp_fail("RPMSG_DESTROY_EPT_IOCTL", errno);
	if (stat(node, &st) == 0 || errno != ENOENT)
		ok = vp_fail("the endpoint node still exists after RPMSG_DESTROY_EPT_IOCTL", 0);
	if (write(fd, big, 8) >= 0 || errno != EPIPE)
		ok = vp_fail("a write after DESTROY was not refused with EPIPE", 0);
	vp_note("RPMSG_DESTROY_EPT_IOCTL removed %s", node);
	close(fd);
	close(cfd);
	return ok ? 0 : 1;
}
