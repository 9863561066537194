// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-tcp-send: the sending side of guest/devmem.sh. Connects to ADDR PORT, sends FILE,
 * half-closes, waits for the receiver to close, and prints kperf's Tx line:
 * "Tx 0.912 Gbps (8388608 bytes in 73555 usec)".
 *   socbox-tcp-send ADDR PORT FILE */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/sendfile.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static unsigned long long now_us(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (unsigned long long)t.tv_sec * 1000000 + (unsigned long long)t.tv_nsec / 1000;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	unsigned long long t0, t1;
	off_t off = 0;
	struct stat st;
	char buf[4096];
	int fd, s;

	if (argc != 4 || inet_pton(AF_INET, argv[1], &a.sin_addr) != 1) {
		fprintf(stderr, "usage: %s IPV4 PORT FILE\n", argv[0]);
		return 2;
	}
	a.sin_port = htons((unsigned short)atoi(argv[2]));
	fd = open(argv[3], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[3]);
		return 1;
	}
	s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof(a))) {
		perror("connect");
		return 1;
	}
	t0 = now_us();
	while (off < st.st_size) {
		if (sendfile(s, fd, &off, (size_t)(st.st_size - off)) < 0) {
			perror("sendfile");
			return 1;
		}
	}
	shutdown(s, SHUT_WR);
	while (read(s, buf, sizeof(buf)) > 0)
		;
	t1 = now_us();
	printf("Tx %7.3f Gbps (%lld bytes in %llu usec)\n",
	       t1 > t0 ? (double)off * 8 / (double)(t1 - t0) / 1e3 : 0, (long long)off, t1 - t0);
	return 0;
}
