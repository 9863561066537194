// SPDX-License-Identifier: GPL-2.0-or-later
/* The operands of socbox diff: a snapshot directory, a snapshot tarball (unpacked by tar(1),
 * the tool `socbox snapshot OUT.tar` packs with, into a private directory), or "/". */
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

#include "socbox/diff.h"

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

void sb_diff_operand_close(struct sb_diff_operand *op)
{
	sb_root_close(op->root);
	op->root = NULL;
	if (*op->tmpdir) {
		remove_at(AT_FDCWD, op->tmpdir);
		op->tmpdir[0] = '\0';
	}
}

int sb_diff_operand_open(struct sb_diff_operand *op, const char *path, struct sb_err *e)
{
	const char *tmp = getenv("TMPDIR");
	const char *root = path;
	struct stat st;
	int rc;

	*op = (struct sb_diff_operand){ 0 };
	if (stat(path, &st))
		return sb_err_set(e, errno, path, "open snapshot",
				  "a directory or .tar written by 'socbox snapshot'");
	if (S_ISREG(st.st_mode)) {
		snprintf(op->tmpdir, sizeof(op->tmpdir), "%s/socbox-diff-XXXXXX",
			 tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(op->tmpdir)) {
			rc = sb_err_set(e, errno, op->tmpdir, "create directory to unpack into",
					NULL);
			op->tmpdir[0] = '\0';
			return rc;
		}
		rc = unpack(path, op->tmpdir, e);
		if (rc) {
			sb_diff_operand_close(op);
			return rc;
		}
		root = op->tmpdir;
	} else if (!S_ISDIR(st.st_mode)) {
		return sb_err_set(e, EINVAL, path, "open snapshot",
				  "a directory or .tar written by 'socbox snapshot'");
	}
	rc = sb_root_open(&op->root, root, e);
	if (!rc && !sb_root_is_live(op->root) && !sb_is_dir(op->root, "/sys") &&
	    !sb_is_dir(op->root, "/proc"))
		rc = sb_err_set(e, ENOENT, path, "open snapshot",
				"no sys/ or proc/ in it: not written by 'socbox snapshot'");
	if (rc)
		sb_diff_operand_close(op);
	return rc;
}
