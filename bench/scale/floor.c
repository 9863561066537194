// SPDX-License-Identifier: GPL-2.0-or-later
/* The floor of bench/scale/run: read every regular file under the given paths once, the
 * way the views do (open, read to the end in 64 KiB pieces, close), and count the lines,
 * so that no view can be faster than this and what a view does beyond it is its own cost.
 * Symbolic links are not followed (each file is read once). Prints "FILES BYTES LINES".
 * With --run it is the runner instead: it runs COMMAND (output to /dev/null) and prints its
 * CPU time (user + system, seconds), peak memory (ru_maxrss, KiB) and exit status. A child
 * of Python would count Python's own pages as its peak (Linux keeps the high-water mark
 * across exec); a child of this small program counts at most this program's.
 * Usage: floor PATH...
 *        floor --run COMMAND [ARG...] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

static unsigned long long files, bytes, lines;

static int one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	static char buf[65536];
	ssize_t n;
	int fd;

	(void)st;
	(void)ftw;
	if (type != FTW_F)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		const char *p = buf, *end = buf + n;

		bytes += (unsigned long long)n;
		while ((p = memchr(p, '\n', (size_t)(end - p)))) {
			lines++;
			p++;
		}
	}
	close(fd);
	files++;
	return 0;
}

static int run(char **argv)
{
	struct rusage ru;
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return 1;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		dup2(null, 2);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (wait4(pid, &status, 0, &ru) < 0)
		return 1;
	printf("%.6f %ld %d\n",
	       (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
		       (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6,
	       ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "--run"))
		return run(argv + 2);
	for (int i = 1; i < argc; i++)
		if (nftw(argv[i], one, 64, FTW_PHYS) < 0) {
			perror(argv[i]);
			return 1;
		}
	printf("%llu %llu %llu\n", files, bytes, lines);
	return 0;
}
