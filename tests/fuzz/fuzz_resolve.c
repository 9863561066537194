// SPDX-License-Identifier: GPL-2.0-or-later
/* The path walk of the sysroot layer without openat2 (sb_root_resolve), checked against
 * the kernel's RESOLVE_IN_ROOT on the same tree. Input lines build a small tree below the
 * root and ask for paths:
 *   D PATH          a directory           F PATH          a file
 *   L PATH TARGET   a symlink to TARGET   Q PATH          resolve PATH both ways
 * Both ways must agree on whether PATH resolves and to which inode; the walk's result has
 * no ".." and no symlink in it, and never reaches the canary beside the root. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fuzz.h"
#include "socbox/sys.h"

#define MAX_LINES 24

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return ftw->level ? remove(path) : 0;
}

static int open_in_root(int dfd, const char *path)
{
	struct open_how how = { .flags = O_PATH | O_CLOEXEC,
				.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
	int fd, tries = 0;

	/* EAGAIN: a rename or mount anywhere on the machine raced with a ".." (openat2(2));
	 * sys.c retries the same way */
	do
		fd = (int)syscall(SYS_openat2, dfd, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN && ++tries < 1000);
	return fd;
}

static void query(int dfd, const char *path)
{
	char out[4096];
	struct stat a, b;
	int fa, fb, rc, err;

	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	fa = open_in_root(dfd, path);
	err = errno;
	rc = sb_root_resolve(fuzz_root(), path, out, sizeof(out));
	if (fa < 0 && (err == ENOSYS || err == EAGAIN))
		fa = -2; /* no openat2 here (qemu-user) or no answer: the walk's own properties only */
	if (rc == -ENAMETOOLONG || (fa == -1 && err == ENAMETOOLONG)) {
		if (fa >= 0)
			close(fa);
		return; /* the limits of the two differ: not a disagreement about the tree */
	}
	fb = rc ? -1 : openat(dfd, out, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (getenv("FUZZ_VERBOSE")) /* triage: what each way gave */
		fprintf(stderr, "%s: openat2 %s, walk %d '%s' open %s\n", path,
			fa >= 0 ? "ok" : strerror(err), rc, rc ? "" : out,
			fb >= 0 ? "ok" : "failed");
	if (!rc) {
		FUZZ_ASSERT(strcmp(out, "..") && strncmp(out, "../", 3) && !strstr(out, "/../") &&
			    (strlen(out) < 3 || strcmp(out + strlen(out) - 3, "/..")));
		FUZZ_ASSERT(out[0] != '/');
	}
	if (fa == -2) {
		if (fb >= 0)
			close(fb);
		return;
	}
	/* a missing last component is left to the open: both fail then */
	FUZZ_ASSERT((fa >= 0) == (fb >= 0));
	if (fa >= 0) {
		FUZZ_ASSERT(!fstat(fa, &a) && !fstat(fb, &b));
		FUZZ_ASSERT(a.st_ino == b.st_ino && a.st_dev == b.st_dev);
		FUZZ_ASSERT(!S_ISLNK(b.st_mode));
		close(fa);
		close(fb);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *save = NULL;
	const char *root = fuzz_root_dir();
	const char *queries[MAX_LINES];
	size_t nq = 0, nlines = 0;
	int dfd;

	if (memmem(data, size, FUZZ_CANARY, strlen(FUZZ_CANARY))) {
		free(text);
		return 0;
	}
	nftw(root, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	dfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		abort();
	for (char *line = strtok_r(text, "\n", &save); line && nlines < MAX_LINES;
	     line = strtok_r(NULL, "\n", &save), nlines++) {
		char *arg = line + 2, *target;

		if (strlen(line) < 3 || line[1] != ' ')
			continue;
		while (*arg == '/')
			arg++;
		switch (line[0]) {
		case 'D':
			mkdirat(dfd, arg, 0755);
			break;
		case 'F':
			close(openat(dfd, arg, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644));
			break;
		case 'L':
			if ((target = strchr(arg, ' '))) {
				*target++ = '\0';
				symlinkat(target, dfd, arg);
			}
			break;
		case 'Q':
			queries[nq++] = arg;
			break;
		}
	}
	for (size_t i = 0; i < nq; i++)
		query(dfd, queries[i]);
	close(dfd);
	free(text);
	return 0;
}
