// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-rpmsg-loop: the reference for bench/rpmsg. A plain C loop of the ioctls that
 * `rpmsgctl bench --method legacy` times (CREATE_EPT on the control device, open the new
 * /dev/rpmsgN, DESTROY_EPT, close), with nothing else around them, like the loop in the
 * RPMSG_CREATE_EPT_FD_IOCTL series. Prints "loops N total_us T median_us M" (M: the median
 * iteration, which load from other guests on a shared host disturbs less than the total).
 * With "uevent" it also listens on the kernel uevent socket, as rpmsgctl did to learn of
 * the new device, and drains it each iteration: the cost of listening, without the tool.
 * With "seed" it is the loop of the series' test.c: it opens /dev/rpmsg0 without asking
 * which node the ioctl made (so nothing else may hold an endpoint device), retrying while
 * the node is missing. With "sysfs" it lists the control device's sysfs directory after
 * every create (lseek + getdents64 until the end), as rpmsgctl does to find the new
 * device: the cost of that lookup, without the tool. With "stat" it checks only the node it
 * expects, fstatat() of that child and fstat() of the directory (its link count counts the
 * children), the cheapest sysfs question there is: what a lookup by guessing would cost.
 * With "inotify" it reads an inotify watch on /dev (IN_CREATE) after every create and wants
 * exactly one new rpmsgN there, as rpmsgctl does first where the kernel has inotify.
 *   socbox-rpmsg-loop /dev/rpmsg_ctrlN LOOPS [uevent|seed|sysfs|stat|inotify] */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/netlink.h>
#include <sys/ioctl.h>
#include <sys/inotify.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct ept_info {
	char name[32];
	uint32_t src, dst;
};
#define CREATE_EPT _IOW(0xb5, 0x1, struct ept_info)
#define DESTROY_EPT _IO(0xb5, 0x2)

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The endpoint device that is in /sys/class/rpmsg now but was not in before[]. */
static int new_device(char before[][256], int nbefore, char *out, size_t len)
{
	DIR *d = opendir("/sys/class/rpmsg");
	struct dirent *de;
	int found = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		int seen = 0;

		if (strncmp(de->d_name, "rpmsg", 5) || !strncmp(de->d_name, "rpmsg_ctrl", 10) ||
		    de->d_name[5] < '0' || de->d_name[5] > '9')
			continue;
		for (int i = 0; i < nbefore; i++)
			seen |= !strcmp(before[i], de->d_name);
		if (!seen) {
			snprintf(out, len, "/dev/%s", de->d_name);
			found = 0;
		}
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	struct ept_info info = { .name = "epx", .src = 0xffffffff, .dst = 0xffffffff };
	char before[256][256], node[272] = "";
	int ctrl, loops, nbefore = 0, uev = -1, seed = 0, sysdir = -1, stat_mode, ino = -1;
	uint64_t start, end, *iter;
	DIR *d;
	struct dirent *de;

	if (argc < 3 || argc > 4 || (loops = atoi(argv[2])) < 1 ||
	    (argc == 4 && strcmp(argv[3], "uevent") && strcmp(argv[3], "seed") &&
	     strcmp(argv[3], "sysfs") && strcmp(argv[3], "stat") && strcmp(argv[3], "inotify"))) {
		fprintf(stderr, "usage: %s /dev/rpmsg_ctrlN LOOPS [uevent|seed|sysfs|stat]\n",
			argv[0]);
		return 2;
	}
	stat_mode = argc == 4 && !strcmp(argv[3], "stat");
	if (argc == 4 && !strcmp(argv[3], "inotify")) {
		ino = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
		if (ino < 0 || inotify_add_watch(ino, "/dev", IN_CREATE) < 0) {
			perror("inotify");
			return 1;
		}
	}
	if (argc == 4 && (!strcmp(argv[3], "sysfs") || stat_mode)) {
		char dir[300];

		snprintf(dir, sizeof(dir), "/sys/class/rpmsg/%s",
			 strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1]);
		sysdir = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (sysdir < 0) {
			perror(dir);
			return 1;
		}
	}
	if (argc == 4 && !strcmp(argv[3], "seed")) {
		if (!access("/sys/class/rpmsg/rpmsg0", F_OK)) {
			fprintf(stderr,
				"seed: rpmsg0 exists already; the seed loop needs it free\n");
			return 1;
		}
		seed = 1;
		snprintf(node, sizeof(node), "/dev/rpmsg0");
	} else if (argc == 4 && !stat_mode && ino < 0) {
		struct sockaddr_nl sa = { .nl_family = AF_NETLINK, .nl_groups = 1 };

		uev = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
		if (uev < 0 || bind(uev, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
			perror("uevent socket");
			return 1;
		}
	}
	iter = calloc((size_t)loops, sizeof(*iter));
	ctrl = open(argv[1], O_RDWR | O_CLOEXEC);
	if (ctrl < 0) {
		perror(argv[1]);
		return 1;
	}
	d = opendir("/sys/class/rpmsg");
	while (d && (de = readdir(d)) && nbefore < 256)
		snprintf(before[nbefore++], sizeof(before[0]), "%s", de->d_name);
	if (d)
		closedir(d);
	start = now_ns();
	for (int i = 0; i < loops; i++) {
		unsigned long spins = 0;
		uint64_t t0 = now_ns();
		int ep;

		if (ioctl(ctrl, CREATE_EPT, &info) < 0) {
			perror("RPMSG_CREATE_EPT_IOCTL");
			return 1;
		}
		if (ino >= 0) {
			char ev[4096] __attribute__((aligned(8)));
			ssize_t n = read(ino, ev, sizeof(ev)), got = 0;

			for (ssize_t off = 0; n > 0 && off < n;) {
				const struct inotify_event *ie = (const void *)(ev + off);

				got += ie->len && !strncmp(ie->name, "rpmsg", 5);
				off += (ssize_t)sizeof(*ie) + ie->len;
			}
			if (got != 1) {
				fprintf(stderr, "inotify: %zd rpmsg nodes made\n", got);
				return 1;
			}
		} else if (sysdir >= 0 && stat_mode && node[0]) {
			struct stat st;

			if (fstatat(sysdir, strrchr(node, '/') + 1, &st, AT_SYMLINK_NOFOLLOW) ||
			    fstat(sysdir, &st)) {
				perror("fstatat");
				return 1;
			}
		} else if (sysdir >= 0) {
			char buf[8192];
			long n, entries = 0;

			lseek(sysdir, 0, SEEK_SET);
			while ((n = syscall(SYS_getdents64, sysdir, buf, sizeof(buf))) > 0)
				entries += n;
			if (n < 0 || !entries) {
				perror("getdents64");
				return 1;
			}
		}
		/* the node name is learnt once; the kernel hands the same number out again */
		if (!seed && !node[0] && new_device(before, nbefore, node, sizeof(node)) < 0) {
			fprintf(stderr, "no new endpoint device in /sys/class/rpmsg\n");
			return 1;
		}
		while ((ep = open(node, O_RDWR | O_CLOEXEC)) < 0) {
			if (errno != ENOENT || ++spins > 10000000ul) {
				perror(node);
				return 1;
			}
		}
		if (uev >= 0) {
			char ev[8192];

			while (recv(uev, ev, sizeof(ev), MSG_DONTWAIT) > 0)
				;
		}
		if (ioctl(ep, DESTROY_EPT) < 0) {
			perror("RPMSG_DESTROY_EPT_IOCTL");
			return 1;
		}
		close(ep);
		if (iter)
			iter[i] = now_ns() - t0;
	}
	end = now_ns();
	printf("loops %d total_us %llu", loops, (unsigned long long)((end - start) / 1000));
	if (iter) {
		qsort(iter, (size_t)loops, sizeof(*iter), cmp_u64);
		/* the same interpolated median as rpmsgctl's statistics */
		printf(" median_us %.1f",
		       (loops % 2 ? (double)iter[loops / 2]
				  : ((double)iter[loops / 2 - 1] + (double)iter[loops / 2]) / 2) /
			       1000.0);
	}
	putchar('\n');
	free(iter);
	close(ctrl);
	return 0;
}
