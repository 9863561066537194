// SPDX-License-Identifier: GPL-2.0-or-later
/* Snapshot tarballs unpacked into a private directory (socbox/unpack.h), for socbox diff's
 * operands and --sysroot. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "socbox/unpack.h"

extern char **environ;

/* Remove name below dfd, a directory tree tar(1) may have left read-only: each directory is
 * made the owner's before it is emptied. Nothing is followed (O_NOFOLLOW, unlinkat). Each
 * level holds a descriptor, so the descriptor limit bounds the depth of the recursion. */
static void remove_at(int dfd, const char *name)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if (unlinkat(dfd, name, 0) == 0 || errno == ENOENT)
		return;
	fchmodat(dfd, name, 0700, 0);
	fd = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			remove_at(dirfd(d), de->d_name);
	closedir(d);
	unlinkat(dfd, name, AT_REMOVEDIR);
}

static int unpack(const char *tarball, const char *dir, struct sb_err *e)
{
	const char *const argv[] = { "tar", "-x", "-f", tarball, "-C", dir, NULL };
	posix_spawn_file_actions_t fa;
	int status, rc;
	pid_t pid;

	/* tar's own complaints go to stderr as they are; nothing is read from stdin */
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
	rc = posix_spawnp(&pid, "tar", &fa, NULL, (char *const *)argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (rc)
		return sb_err_set(e, rc, "tar", "run",
				  "install tar, or give the unpacked directory");
	if (waitpid(pid, &status, 0) < 0)
		return sb_err_set(e, errno, "tar", "wait", NULL);
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return sb_err_set(e, EINVAL, tarball, "unpack snapshot",
				  "a .tar written by 'socbox snapshot OUT.tar'");
	return 0;
}

void sb_unpack_remove(char *dir)
{
	if (!dir || !*dir)
		return;
	remove_at(AT_FDCWD, dir);
	dir[0] = '\0';
}

int sb_unpack_tar(const char *tarball, const char *prefix, char *dir, size_t len, struct sb_err *e)
{
	const char *tmp = getenv("TMPDIR");
	int rc;

	snprintf(dir, len, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", prefix);
	if (!mkdtemp(dir)) {
		rc = sb_err_set(e, errno, dir, "create directory to unpack into", NULL);
		dir[0] = '\0';
		return rc;
	}
	rc = unpack(tarball, dir, e);
	if (rc)
		sb_unpack_remove(dir);
	return rc;
}
