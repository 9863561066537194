// SPDX-License-Identifier: GPL-2.0-or-later
/* bench/startup's floor for `doctor --sysroot DIR`: a plain static C program that opens and
 * reads the files doctor reads, the way every read of a sysroot must (HACKING.md, "Limits":
 * each path resolved inside the root with openat2 RESOLVE_IN_ROOT, a file opened for reading
 * only after an O_PATH descriptor showed it is a regular file), and does nothing else: no
 * parsing, no output. What it reads is given as arguments, as bench/startup takes them from
 * strace of doctor itself:
 *
 *   startup_files_ref DIR f:PATH... d:PATH... n:PATH...
 *
 * f: a regular file, looked at and read whole; d: a directory, listed; n: a path that is
 * absent (one failing lookup, as doctor's probes of what a board may lack). */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

static int root_open(int root, const char *path, unsigned long long flags)
{
	struct open_how how = { .flags = flags | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };

	return (int)syscall(SYS_openat2, root, path, &how, sizeof(how));
}

int main(int argc, char **argv)
{
	static char buf[65536];
	int root;

	if (argc < 2)
		return 2;
	root = open(argv[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0)
		return 1;
	for (int i = 2; i < argc; i++) {
		const char *path = argv[i] + 2;
		struct stat st;
		int fd;

		switch (argv[i][0]) {
		case 'f':
			fd = root_open(root, path, O_PATH);
			if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode))
				return 1;
			close(fd);
			fd = root_open(root, path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
			if (fd < 0 || fstat(fd, &st))
				return 1;
			while (read(fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			break;
		case 'd':
			fd = root_open(root, path, O_RDONLY | O_DIRECTORY);
			if (fd < 0)
				return 1;
			while (syscall(SYS_getdents64, fd, buf, sizeof(buf)) > 0)
				;
			close(fd);
			break;
		default:
			fd = root_open(root, path, O_PATH);
			if (fd >= 0)
				close(fd);
			break;
		}
	}
	return 0;
}
