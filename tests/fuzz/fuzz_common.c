// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "socbox/error.h"
#include "socbox/sys.h"

void fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: property does not hold: %s\n", file, line, what);
	abort();
}

/* base/root is the sysroot; base/canary lies beside it, outside, for the harnesses that
 * check that no path leaves the root */
static char base_dir[256], root_dir[sizeof(base_dir) + 8];
static struct sb_root *root;

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void remove_root(void)
{
	sb_root_close(root);
	nftw(base_dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* The directories above path, below dir. */
static void make_parents(const char *dir, char *path)
{
	for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
}

static void put_at(const char *dir, const char *rel, const void *data, size_t len)
{
	char path[4096];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	if (fd < 0 && errno == ENOENT) {
		make_parents(dir, path);
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0644);
	}
	if (fd < 0 || write(fd, data, len) != (ssize_t)len)
		abort();
	close(fd);
}

const char *fuzz_root_dir(void)
{
	if (!root) {
		struct sb_err e;

		/* tests/fuzz/run gives a directory it removes after the run (a finding ends the
		 * process without atexit); else tmpfs where there is one, since a file system
		 * with a journal makes every input wait */
		const char *tmp = getenv("SOCBOX_FUZZ_TMP");

		if (!tmp)
			tmp = !access("/dev/shm", W_OK) ? "/dev/shm"
			      : getenv("TMPDIR")	? getenv("TMPDIR")
							: "/tmp";

		snprintf(base_dir, sizeof(base_dir), "%s/socbox-fuzz.XXXXXX", tmp);
		if (!mkdtemp(base_dir))
			abort();
		snprintf(root_dir, sizeof(root_dir), "%s/root", base_dir);
		if (mkdir(root_dir, 0755) || sb_root_open(&root, root_dir, &e))
			abort();
		put_at(base_dir, "canary", FUZZ_CANARY "\n", strlen(FUZZ_CANARY) + 1);
		atexit(remove_root);
	}
	return root_dir;
}

const struct sb_root *fuzz_root(void)
{
	fuzz_root_dir();
	return root;
}

void fuzz_put(const char *rel, const void *data, size_t len)
{
	put_at(fuzz_root_dir(), rel, data, len);
}

void fuzz_link(const char *rel, const char *target)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", fuzz_root_dir(), rel);
	if (unlink(path) && errno == ENOENT)
		make_parents(root_dir, path);
	if (symlink(target, path))
		abort();
}
