// SPDX-License-Identifier: GPL-2.0-or-later
/* What the progress line costs (bench/progress): the same work with and without it, in
 * one process, rounds alternating which goes first; prints min/median/max of the per-round
 * ratios with/without, in CPU time of the thread. Work 1: a copy as dmabufcp's, a cached file
 * read PASSES times in CHUNK pieces into a buffer, progress updated per piece (dmabufcp updates per chunk of up to 64 MiB: this is
 * the worse case). Work 2: ping round trips on a FIFO opened read-write (the echo of the
 * cli test), with ping's line per echo. The drawing goes to FILE (default /dev/null: the
 * terminal's own rendering is not this process's cost).
 * Usage: progress_cost FILE_TO_READ ROUNDS CHUNK_BYTES ECHOES [OUT] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "socbox/progress.h"
#include "socbox/stats.h"

/* a copy reads the file this many times: long enough for the line to be drawn */
#define PASSES 8

static char *buf;
static double wall_ns; /* of the copies with progress */
/* this thread's CPU time: what the progress adds, less disturbed by other load than the
 * wall clock */
static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static double with_ns;	 /* CPU time of the copies with progress */
static uint64_t updates; /* progress calls in them */

/* The parts alone: ns per update that does not draw, ns per drawing. */
static void unit_costs(FILE *out, double *update_ns, double *draw_ns)
{
	struct sb_progress p;
	const unsigned n = 2000000, d = 20000;
	uint64_t t0;

	sb_progress_start(&p, true, out, "dmabufcp copy", SB_PROGRESS_BYTES, NULL, 1ull << 40);
	t0 = cpu_ns();
	for (unsigned i = 0; i < n; i++)
		sb_progress_update(&p, i);
	*update_ns = (double)(cpu_ns() - t0) / n;
	t0 = cpu_ns();
	for (unsigned i = 0; i < d; i++) {
		p.next_ns = 0;
		sb_progress_update(&p, (uint64_t)i << 20);
	}
	*draw_ns = (double)(cpu_ns() - t0) / d;
	sb_progress_end(&p);
}

static double copy(int fd, uint64_t size, uint64_t chunk, FILE *out, uint64_t *draws)
{
	struct sb_progress p;
	uint64_t t0 = cpu_ns(), w0 = sb_now_ns();

	sb_progress_start(&p, out != NULL, out, "dmabufcp copy", SB_PROGRESS_BYTES, NULL,
			  size * PASSES);
	for (int pass = 0; pass < PASSES; pass++)
		for (uint64_t off = 0; off < size; off += chunk) {
			size_t n = size - off < chunk ? (size_t)(size - off) : (size_t)chunk;

			if (pread(fd, buf + off, n, (off_t)off) != (ssize_t)n)
				exit(1);
			sb_progress_update(&p, size * (uint64_t)pass + off + n);
			updates += out != NULL;
		}
	*draws += p.draws;
	wall_ns += out ? (double)(sb_now_ns() - w0) : 0;
	sb_progress_end(&p);
	return (double)(cpu_ns() - t0);
}

static double ping(int fd, unsigned echoes, FILE *out)
{
	struct sb_progress p;
	char msg[32] = "socbox", back[32];
	uint64_t t0 = cpu_ns();

	sb_progress_start(&p, out != NULL, out, "rpmsgctl ping", SB_PROGRESS_ITEMS, "echoes",
			  echoes);
	for (unsigned i = 0; i < echoes; i++) {
		uint64_t s = sb_now_ns();

		if (write(fd, msg, sizeof(msg)) != sizeof(msg) ||
		    read(fd, back, sizeof(back)) != sizeof(back))
			exit(1);
		sb_progress_line(&p, "32 bytes: seq=%u time=%.1f us", i,
				 (double)(sb_now_ns() - s) / 1e3);
	}
	sb_progress_end(&p);
	return (double)(cpu_ns() - t0);
}

static void report(const char *what, double *r, size_t n)
{
	struct sb_stats st;

	sb_stats_compute(r, n, &st);
	printf("%s: with/without progress min %.4f median %.4f max %.4f (%zu rounds)\n", what,
	       st.min, st.median, st.max, n);
}

int main(int argc, char **argv)
{
	int fd, rounds, ffd;
	uint64_t chunk, size, draws = 0;
	unsigned echoes;
	double *rc, *rp, *line_ns;
	struct stat st;
	char fifo[] = "/tmp/socbox-progress-fifo-XXXXXX";
	FILE *out;

	if (argc < 5)
		return 2;
	fd = open(argv[1], O_RDONLY);
	rounds = atoi(argv[2]);
	chunk = strtoull(argv[3], NULL, 0);
	echoes = (unsigned)atoi(argv[4]);
	out = fopen(argc > 5 ? argv[5] : "/dev/null", "w");
	if (fd < 0 || fstat(fd, &st) || rounds < 1 || !chunk || !out || !mkdtemp(fifo))
		return 2;
	size = (uint64_t)st.st_size;
	buf = malloc(size);
	rc = calloc((size_t)rounds, sizeof(*rc));
	rp = calloc((size_t)rounds, sizeof(*rp));
	line_ns = calloc((size_t)rounds, sizeof(*line_ns));
	strcat(fifo, "/f");
	if (!buf || !rc || !rp || !line_ns || mkfifo(fifo, 0600) || (ffd = open(fifo, O_RDWR)) < 0)
		return 2;
	setvbuf(out, NULL, _IONBF, 0);	     /* as stderr */
	copy(fd, size, chunk, NULL, &draws); /* warm the page cache and the buffer */
	draws = 0;
	for (int i = 0; i < rounds; i++) {
		double with, without;

		if (i % 2) {
			with = copy(fd, size, chunk, out, &draws);
			without = copy(fd, size, chunk, NULL, &draws);
		} else {
			without = copy(fd, size, chunk, NULL, &draws);
			with = copy(fd, size, chunk, out, &draws);
		}
		rc[i] = with / without;
		with_ns += with;
		if (i % 2) {
			with = ping(ffd, echoes, out);
			without = ping(ffd, echoes, NULL);
		} else {
			without = ping(ffd, echoes, NULL);
			with = ping(ffd, echoes, out);
		}
		rp[i] = with / without;
		line_ns[i] = (with - without) / echoes;
	}
	printf("copy: %d x %llu MiB in %llu KiB pieces, %.1f drawings per second\n", PASSES,
	       (unsigned long long)(size >> 20), (unsigned long long)(chunk >> 10),
	       (double)draws / (wall_ns / 1e9));
	report("copy", rc, (size_t)rounds);
	{
		double u, d;

		unit_costs(out, &u, &d);
		printf("copy: an update costs %.1f ns, a drawing %.2f us: %.4f%% of the copies' CPU "
		       "time\n",
		       u, d / 1e3, 100.0 * ((double)updates * u + (double)draws * d) / with_ns);
	}
	printf("ping: %u echoes on a FIFO, a line per echo\n", echoes);
	report("ping", rp, (size_t)rounds);
	{
		struct sb_stats st;

		sb_stats_compute(line_ns, (size_t)rounds, &st);
		printf("ping: a line costs min %.2f median %.2f max %.2f us of CPU\n", st.min / 1e3,
		       st.median / 1e3, st.max / 1e3);
	}
	unlink(fifo);
	*strrchr(fifo, '/') = '\0';
	rmdir(fifo);
	return 0;
}
