// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-rpmsg-loop: the reference for bench/rpmsg. A plain C loop of the ioctls that
 * `rpmsgctl bench --method legacy` times (CREATE_EPT on the control device, open the new
 * /dev/rpmsgN, DESTROY_EPT, close), with nothing else around them, like the loop in the
 * RPMSG_CREATE_EPT_FD_IOCTL series. Prints "loops N total_us T".
 *   socbox-rpmsg-loop /dev/rpmsg_ctrl0 LOOPS */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct ept_info {
	char name[32];
	uint32_t src, dst;
};
#define CREATE_EPT _IOW(0xb5, 0x1, struct ept_info)
#define DESTROY_EPT _IO(0xb5, 0x2)

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
	int ctrl, loops, nbefore = 0;
	uint64_t start, end;
	DIR *d;
	struct dirent *de;

	if (argc != 3 || (loops = atoi(argv[2])) < 1) {
		fprintf(stderr, "usage: %s /dev/rpmsg_ctrlN LOOPS\n", argv[0]);
		return 2;
	}
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
		int ep;

		if (ioctl(ctrl, CREATE_EPT, &info) < 0) {
			perror("RPMSG_CREATE_EPT_IOCTL");
			return 1;
		}
		/* the node name is learnt once; the kernel hands the same minor out again */
		if (!node[0] && new_device(before, nbefore, node, sizeof(node)) < 0) {
			fprintf(stderr, "no new endpoint device in /sys/class/rpmsg\n");
			return 1;
		}
		while ((ep = open(node, O_RDWR | O_CLOEXEC)) < 0) {
			if (errno != ENOENT || ++spins > 10000000ul) {
				perror(node);
				return 1;
			}
		}
		if (ioctl(ep, DESTROY_EPT) < 0) {
			perror("RPMSG_DESTROY_EPT_IOCTL");
			return 1;
		}
		close(ep);
	}
	end = now_ns();
	printf("loops %d total_us %llu\n", loops, (unsigned long long)((end - start) / 1000));
	close(ctrl);
	return 0;
}
