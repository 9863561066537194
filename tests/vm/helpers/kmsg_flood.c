// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-kmsg-flood: writes LINES records to /dev/kmsg as fast as the kernel takes them
 * ("socbox-flood: record N" at KERN_INFO), then prints "lines N seconds S per_second R".
 * With RATE (100 or more), it writes RATE records a second instead (RATE / 100 every 10 ms,
 * on an absolute clock, so a late wake-up catches up); with MARK_EVERY, every MARK_EVERY-th record is a
 * numbered marker that socbox events knows ("remoteproc remoteproc9: stopped remote
 * processor socbox-soak-M", as rproc_shutdown prints it), and the last line adds
 * "markers M". The kernel rate-limits writers unless kernel.printk_devkmsg is "on".
 *   socbox-kmsg-flood LINES [RATE [MARK_EVERY]] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TICK_NS 10000000L /* a paced writer wakes every 10 ms */

static unsigned long number(const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	return errno || *end || end == s ? 0 : v;
}

static void tick(struct timespec *t)
{
	t->tv_nsec += TICK_NS;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_nsec -= 1000000000L;
		t->tv_sec++;
	}
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, t, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	unsigned long lines, rate = 0, mark_every = 0, markers = 0, i;
	struct timespec a, b, next;
	double s;
	int fd;

	if (argc < 2 || argc > 4 || !(lines = number(argv[1])) ||
	    (argc > 2 && (rate = number(argv[2])) < 100) ||
	    (argc > 3 && !(mark_every = number(argv[3])))) {
		fprintf(stderr, "usage: %s LINES [RATE [MARK_EVERY]]\n", argv[0]);
		return 2;
	}
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		perror("/dev/kmsg");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &a);
	next = a;
	for (i = 0; i < lines; i++) {
		char rec[96];
		int n;

		/* a tick's share of RATE, then wait for the next tick */
		if (rate && i && i % (rate / 100) == 0)
			tick(&next);
		if (mark_every && i % mark_every == mark_every - 1)
			n = snprintf(rec, sizeof(rec),
				     "<6>remoteproc remoteproc9: stopped remote processor "
				     "socbox-soak-%lu\n",
				     markers++);
		else
			n = snprintf(rec, sizeof(rec),
				     "<6>socbox-flood: record %lu, padding the kernel log buffer out\n",
				     i);
		if (write(fd, rec, (size_t)n) != n) {
			perror("write /dev/kmsg");
			return 1;
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	printf("lines %lu seconds %.3f per_second %.0f", lines, s, (double)lines / s);
	if (mark_every)
		printf(" markers %lu", markers);
	printf("\n");
	return 0;
}
