// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-rpmsg-tput: the reference for `rpmsgctl throughput`. The same work in a plain C
 * program of its own: N endpoints made with the fd ioctl on a control device, a thread
 * each, started together; each writes COUNT messages of SIZE bytes (a sequence number and
 * a pattern), and when echoed keeps WINDOW of them in flight, reading every echo and
 * comparing it byte for byte with what it sent. Time from the first thread's start to the
 * last thread's end. Prints one line:
 *   msgs M bytes B elapsed_ns T corrupt C
 *   socbox-rpmsg-tput /dev/rpmsg_ctrlN echoed|one-way DST SIZE ENDPOINTS COUNT WINDOW */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <endian.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

struct ept_fd_info {
	char name[32];
	uint32_t src, dst, flags;
	int32_t fd;
};
#define CREATE_EPT_FD _IOWR(0xb5, 0x7, struct ept_fd_info)
#define DESTROY_EPT _IO(0xb5, 0x2)
#define MAX_EPTS 64

static size_t size;
static unsigned long count, window;
static pthread_barrier_t start;

struct ept {
	pthread_t tid;
	int fd;
	unsigned idx;
	uint64_t start_ns, end_ns;
	unsigned long corrupt;
	int err;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The payload rpmsgctl sends (socbox/rpmsg.h, ping payloads), so that both sides move and
 * check the same bytes: from 8 bytes on, a cookie (the endpoint here) and the sequence
 * number, little-endian; below, the low bytes of the sequence number; then a pattern. */
static void fill(unsigned char *b, unsigned idx, unsigned long seq)
{
	uint32_t head[2] = { htole32(idx), htole32((uint32_t)seq) };
	size_t h = size >= 8 ? 8 : size;

	memcpy(b, size >= 8 ? (void *)head : (void *)&head[1], h);
	for (size_t i = h; i < size; i++)
		b[i] = (unsigned char)(seq * 131u + i * 7u + 1u);
}

static void *run(void *arg)
{
	struct ept *p = arg;
	unsigned char out[512], want[512], in[513];
	unsigned long sent = 0, got = 0;

	pthread_barrier_wait(&start);
	p->start_ns = now_ns();
	while (window ? got < count : sent < count) {
		while (sent < count && (!window || sent - got < window)) {
			fill(out, p->idx, sent);
			if (write(p->fd, out, size) != (ssize_t)size) {
				p->err = errno;
				return NULL;
			}
			sent++;
		}
		if (!window)
			break;
		ssize_t n = read(p->fd, in, size + 1);

		if (n < 0) {
			p->err = errno;
			return NULL;
		}
		fill(want, p->idx, got++);
		if ((size_t)n != size || memcmp(in, want, size))
			p->corrupt++;
	}
	p->end_ns = now_ns();
	return NULL;
}

int main(int argc, char **argv)
{
	struct ept e[MAX_EPTS];
	uint64_t first = UINT64_MAX, last = 0;
	unsigned long corrupt = 0, n;
	int ctl, echoed;
	uint32_t dst;

	if (argc != 8) {
		fprintf(stderr,
			"usage: %s /dev/rpmsg_ctrlN echoed|one-way DST SIZE ENDPOINTS COUNT "
			"WINDOW\n",
			argv[0]);
		return 2;
	}
	echoed = !strcmp(argv[2], "echoed");
	dst = (uint32_t)strtoul(argv[3], NULL, 0);
	size = strtoul(argv[4], NULL, 0);
	n = strtoul(argv[5], NULL, 0);
	count = strtoul(argv[6], NULL, 0);
	window = echoed ? strtoul(argv[7], NULL, 0) : 0;
	if (size < 1 || size > 496 || n < 1 || n > MAX_EPTS || !count || (echoed && !window)) {
		fprintf(stderr, "%s: bad arguments\n", argv[0]);
		return 2;
	}
	ctl = open(argv[1], O_RDWR | O_CLOEXEC);
	if (ctl < 0) {
		perror(argv[1]);
		return 1;
	}
	for (unsigned i = 0; i < n; i++) {
		struct ept_fd_info info = {
			.name = "tput-ref",
			.src = 0xffffffffu,
			.dst = dst,
			.flags = O_RDWR | O_CLOEXEC
		};

		if (ioctl(ctl, CREATE_EPT_FD, &info) < 0) {
			perror("RPMSG_CREATE_EPT_FD_IOCTL");
			return 1;
		}
		e[i] = (struct ept){ .fd = info.fd, .idx = i };
	}
	pthread_barrier_init(&start, NULL, (unsigned)n);
	for (unsigned i = 0; i < n; i++)
		if (pthread_create(&e[i].tid, NULL, run, &e[i])) {
			fprintf(stderr, "pthread_create failed\n");
			return 1;
		}
	for (unsigned i = 0; i < n; i++) {
		pthread_join(e[i].tid, NULL);
		if (e[i].err) {
			fprintf(stderr, "endpoint %u: %s\n", i, strerror(e[i].err));
			return 1;
		}
		corrupt += e[i].corrupt;
		first = e[i].start_ns < first ? e[i].start_ns : first;
		last = e[i].end_ns > last ? e[i].end_ns : last;
		ioctl(e[i].fd, DESTROY_EPT);
		close(e[i].fd);
	}
	printf("msgs %lu bytes %lu elapsed_ns %llu corrupt %lu\n", n * count, n * count * size,
	       (unsigned long long)(last - first), corrupt);
	return 0;
}
