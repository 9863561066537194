// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-kmsg-flood: writes LINES records to /dev/kmsg as fast as the kernel takes them
 * ("socbox-flood: record N" at KERN_INFO), then prints "lines N seconds S per_second R".
 * The kernel rate-limits writers unless kernel.printk_devkmsg is "on".
 *   socbox-kmsg-flood LINES */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	unsigned long lines, i;
	double s;
	int fd;

	if (argc != 2 || !(lines = strtoul(argv[1], NULL, 10))) {
		fprintf(stderr, "usage: %s LINES\n", argv[0]);
		return 2;
	}
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("/dev/kmsg");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < lines; i++) {
		char rec[96];
		int n = snprintf(rec, sizeof(rec),
				 "<6>socbox-flood: record %lu, padding the kernel log buffer out\n",
				 i);

		if (write(fd, rec, (size_t)n) != n) {
			perror("write /dev/kmsg");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("lines %lu seconds %.3f per_second %.0f\n", lines, s, (double)lines / s);
	return 0;
}
