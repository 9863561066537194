// SPDX-License-Identifier: GPL-2.0-or-later
/* Claimed temporary names (claim.h). The lock is flock(2): it belongs to the open file, so
 * it goes when the process dies, however it dies, and a rename keeps it. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "socbox/claim.h"

#define SUFFIX_LEN 6
#define NEW_TAG "new-"
#define NEW_MAX_AGE_S 3600 /* a PREFIXnew- file lives microseconds; an hour is a leftover */
#define TRIES 100

int sb_rename_noreplace(const char *from, const char *to)
{
	struct stat st;

	if (renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
		return 0;
	if (errno != EINVAL)
		return -1;
	if (lstat(to, &st) == 0) {
		errno = EEXIST;
		return -1;
	}
	return rename(from, to);
}

static void random_suffix(char *out)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[SUFFIX_LEN];

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		/* early boot without entropy: the time and pid differ between tries */
		unsigned long long t = (unsigned long long)time(NULL) ^
				       (unsigned long long)getpid() ^ (unsigned long long)clock();

		for (size_t i = 0; i < sizeof(r); i++)
			r[i] = (unsigned char)(t >> (i * 5)) ^ (unsigned char)rand();
	}
	for (size_t i = 0; i < SUFFIX_LEN; i++)
		out[i] = set[r[i] % (sizeof(set) - 1)];
	out[SUFFIX_LEN] = '\0';
}

static int name_of(struct sb_claim *c, const char *dir, const char *prefix, const char *tag)
{
	char suffix[SUFFIX_LEN + 1];
	int n;

	random_suffix(suffix);
	n = snprintf(c->path, sizeof(c->path), "%s/%s%s%s", dir, prefix, tag, suffix);
	return n < 0 || (size_t)n >= sizeof(c->path) ? -ENAMETOOLONG : 0;
}

/* An unnamed file, locked, then linked in under a free name. */
static int create_unnamed(struct sb_claim *c, const char *dir, const char *prefix, mode_t mode)
{
	char proc[64];
	int fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode), rc = -EEXIST;

	if (fd < 0)
		return -errno;
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		rc = -errno;
		close(fd);
		return rc;
	}
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (int i = 0; i < TRIES && rc == -EEXIST; i++) {
		if ((rc = name_of(c, dir, prefix, "")))
			break;
		if (linkat(AT_FDCWD, proc, AT_FDCWD, c->path, AT_SYMLINK_FOLLOW) == 0 ||
		    linkat(fd, "", AT_FDCWD, c->path, AT_EMPTY_PATH) == 0)
			rc = 0;
		else
			rc = -errno;
	}
	if (rc) {
		close(fd);
		return rc;
	}
	c->fd = fd;
	return 0;
}

/* Where O_TMPFILE is missing: made under PREFIXnew-xxxxxx, which no sweep takes for a
 * leftover while it is young, locked, then renamed to its claimed name. */
static int create_named(struct sb_claim *c, const char *dir, const char *prefix, mode_t mode)
{
	char tmp[SB_CLAIM_PATH_MAX];
	int fd = -1, rc;

	for (int i = 0; i < TRIES && fd < 0; i++) {
		if ((rc = name_of(c, dir, prefix, NEW_TAG)))
			return rc;
		fd = open(c->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd < 0 && errno != EEXIST)
			return -errno;
	}
	if (fd < 0)
		return -EEXIST;
	snprintf(tmp, sizeof(tmp), "%s", c->path);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		rc = -errno;
		goto fail;
	}
	rc = -EEXIST;
	for (int i = 0; i < TRIES && rc == -EEXIST; i++) {
		if ((rc = name_of(c, dir, prefix, "")))
			goto fail;
		rc = sb_rename_noreplace(tmp, c->path) ? -errno : 0;
	}
	if (rc)
		goto fail;
	c->fd = fd;
	return 0;
fail:
	unlink(tmp);
	close(fd);
	return rc;
}

int sb_claim_create(struct sb_claim *c, const char *dir, const char *prefix, mode_t mode,
		    const char *what, struct sb_err *e)
{
	int rc;

	c->fd = -1;
	c->path[0] = '\0';
	rc = create_unnamed(c, dir, prefix, mode);
	/* EOPNOTSUPP, EISDIR or EINVAL: no O_TMPFILE here; ENOENT/EPERM: no way to link it */
	if (rc && rc != -ENAMETOOLONG && rc != -EACCES && rc != -ENOSPC && rc != -EROFS)
		rc = create_named(c, dir, prefix, mode);
	if (rc) {
		c->path[0] = '\0';
		return sb_err_set(e, -rc, what, "create the temporary output beside it",
				  rc == -EACCES ? "needs write access to the directory" : NULL);
	}
	return 0;
}

void sb_claim_release(struct sb_claim *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* A claim of this user that nobody holds: its process died. */
static bool abandoned(int dfd, const char *name)
{
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	bool free_lock;

	if (fd < 0)
		return false;
	free_lock = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
		    flock(fd, LOCK_EX | LOCK_NB) == 0;
	close(fd); /* lets the lock go again before the file is removed */
	return free_lock;
}

static bool old_new(int dfd, const char *name)
{
	struct stat st;

	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
	       st.st_uid == geteuid() && time(NULL) - st.st_mtime > NEW_MAX_AGE_S;
}

/* A tree or archive a claim stands for (PREFIXxxxxxx.SUFFIX) whose claim is gone: its
 * process died after a sweeper removed the claim, or a sweep was cut short. A running
 * process removes its claim last, so it never leaves such a name. */
static bool orphan(int dfd, const char *name, const char *claim)
{
	struct stat st;

	if (fstatat(dfd, claim, &st, AT_SYMLINK_NOFOLLOW) == 0 || errno != ENOENT)
		return false;
	return fstatat(dfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_uid == geteuid();
}

size_t sb_claim_sweep(const char *dir, const char *prefix, sb_claim_reap_fn reap, void *arg)
{
	size_t plen = strlen(prefix), n = 0;
	DIR *d = opendir(dir);
	struct dirent *de;

	if (!d || plen + SUFFIX_LEN > NAME_MAX) {
		if (d)
			closedir(d);
		return 0;
	}
	while ((de = readdir(d))) {
		const char *rest = de->d_name + plen;
		char path[SB_CLAIM_PATH_MAX], claim[NAME_MAX + 1];
		bool stale;

		if (strncmp(de->d_name, prefix, plen))
			continue;
		/* the claim this name is or belongs to */
		snprintf(claim, sizeof(claim), "%.*s", (int)(plen + SUFFIX_LEN), de->d_name);
		if (strlen(rest) == SUFFIX_LEN && !strchr(rest, '.'))
			stale = abandoned(dirfd(d), de->d_name);
		else if (strlen(rest) > SUFFIX_LEN && rest[SUFFIX_LEN] == '.' &&
			 !memchr(rest, '.', SUFFIX_LEN))
			stale = orphan(dirfd(d), de->d_name, claim);
		else if (!strncmp(rest, NEW_TAG, strlen(NEW_TAG)) &&
			 strlen(rest) == strlen(NEW_TAG) + SUFFIX_LEN) {
			stale = old_new(dirfd(d), de->d_name);
			snprintf(claim, sizeof(claim), "%s", de->d_name);
		} else {
			continue;
		}
		if (!stale ||
		    snprintf(path, sizeof(path), "%s/%s", dir, claim) >= (int)sizeof(path))
			continue;
		reap(path, arg);
		n++;
	}
	closedir(d);
	return n;
}
