// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "socbox/claim.h"
#include "socbox/config.h"
#include "socbox/limits.h"
#include "socbox/macro.h"
#include "socbox/snapshot.h"
#include "socbox/sys.h"
#include "socbox/utc.h"

extern char **environ;

struct sb_snap {
	char out[PATH_MAX];
	char src[PATH_MAX]; /* "" for the live system, else the tree copied instead (src_path) */
	struct sb_snap_stats st;
	char **seen; /* directories already copied (sorted insert would be nicer; counts are small) */
	size_t nseen, capseen;
	char *notes; /* lines for the manifest (sb_snap_note) */
	size_t notes_len;
};

/* Links that point up or sideways in sysfs; following them would copy half of /sys. */
static bool link_not_followed(const char *name)
{
	/* devcoredump (the crashed device's link to its devcdN) and failing_device (back):
	 * a core is a blob that snap_devcoredump copies with its own bound, never the walk */
	static const char *const names[] = {
		"subsystem", "driver",	    "firmware_node", "of_node",	 "module",
		"iommu",     "iommu_group", "port",	     "root_bus", "physfn",
		"virtfn",    "devcoredump", "failing_device"
	};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(name, names[i]))
			return true;
	return !strncmp(name, "supplier:", 9) || !strncmp(name, "consumer:", 9);
}

/* What a path of the system names on the host: itself, or the same path below the tree
 * that SOCBOX_TEST_SNAPSHOT_FROM names instead of the live system. That test hook is off by
 * default; tests/cli/snapshot_covers.sh snapshots each fixture board with it, so what the
 * views read from a board can be held to what a snapshot of it holds. */
static const char *src_path(const struct sb_snap *s, const char *path, char *buf, size_t len)
{
	if (!s->src[0])
		return path;
	if ((size_t)snprintf(buf, len, "%s%s", s->src, path) >= len)
		return ""; /* names nothing: lstat and open fail with ENOENT */
	return buf;
}

int sb_snap_realpath(const struct sb_snap *s, const char *path, char *out, size_t len)
{
	char buf[PATH_MAX], real[PATH_MAX];
	size_t n = strlen(s->src);

	if (!realpath(src_path(s, path, buf, sizeof(buf)), real))
		return -errno;
	if (strncmp(real, s->src, n) || (real[n] != '/' && real[n] != '\0'))
		return -EXDEV; /* outside the tree being copied */
	if ((size_t)snprintf(out, len, "%s", real[n] ? real + n : "/") >= len)
		return -ENAMETOOLONG;
	return 0;
}

int sb_snap_root_open(const struct sb_snap *s, struct sb_root **root)
{
	return sb_root_open(root, s->src[0] ? s->src : "/", NULL);
}

static bool seen(struct sb_snap *s, const char *path)
{
	for (size_t i = 0; i < s->nseen; i++)
		if (!strcmp(s->seen[i], path))
			return true;
	if (s->nseen == s->capseen) {
		size_t cap = s->capseen ? s->capseen * 2 : 64;
		char **n = realloc(s->seen, cap * sizeof(*n));
		if (!n)
			return true;
		s->seen = n;
		s->capseen = cap;
	}
	s->seen[s->nseen] = strdup(path);
	if (s->seen[s->nseen])
		s->nseen++;
	return false;
}

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int dest_path(struct sb_snap *s, const char *path, char *buf, size_t len)
{
	if ((size_t)snprintf(buf, len, "%s%s", s->out, path) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int parent_dirs(const char *dest)
{
	char buf[PATH_MAX];
	char *slash;

	snprintf(buf, sizeof(buf), "%s", dest);
	slash = strrchr(buf, '/');
	if (!slash || slash == buf)
		return 0;
	*slash = '\0';
	return mkdirs(buf);
}

static int copy_link(struct sb_snap *s, const char *path)
{
	char target[PATH_MAX], dest[PATH_MAX], src[PATH_MAX];
	ssize_t n = readlink(src_path(s, path, src, sizeof(src)), target, sizeof(target) - 1);
	int rc;

	if (n < 0)
		return -errno;
	target[n] = '\0';
	rc = dest_path(s, path, dest, sizeof(dest));
	if (rc || (rc = parent_dirs(dest)))
		return rc;
	if (symlink(target, dest) && errno != EEXIST)
		return -errno;
	s->st.links++;
	return 0;
}

static int copy_regular(struct sb_snap *s, const char *path, const struct stat *st)
{
	char dest[PATH_MAX], src[PATH_MAX];
	char *buf;
	size_t n = 0;
	int in, out, rc;

	if (!(st->st_mode & 0444))
		goto skip; /* write-only attributes */
	in = open(src_path(s, path, src, sizeof(src)), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in < 0)
		goto skip;
	buf = malloc(SB_SNAPSHOT_FILE_MAX + 1);
	if (!buf) {
		close(in);
		return -ENOMEM;
	}
	for (;;) {
		ssize_t got = read(in, buf + n, SB_SNAPSHOT_FILE_MAX + 1 - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			if (got < 0) {
				close(in);
				free(buf);
				goto skip; /* attributes that refuse to be read (EIO, EINVAL, EPERM) */
			}
			break;
		}
		n += (size_t)got;
		if (n > SB_SNAPSHOT_FILE_MAX) {
			close(in);
			free(buf);
			goto skip;
		}
	}
	close(in);
	rc = dest_path(s, path, dest, sizeof(dest));
	if (!rc)
		rc = parent_dirs(dest);
	if (rc) {
		free(buf);
		return rc;
	}
	out = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, (st->st_mode & 0777) | 0600);
	if (out < 0) {
		rc = -errno;
		free(buf);
		return rc;
	}
	rc = write(out, buf, n) == (ssize_t)n ? 0 : -EIO;
	free(buf);
	if (close(out) && !rc)
		rc = -errno;
	if (rc)
		return rc;
	s->st.files++;
	s->st.bytes += n;
	return 0;
skip:
	s->st.skipped++;
	return 0;
}

int sb_snap_file_bounded(struct sb_snap *s, const char *path, size_t max, size_t *copied, bool *cut)
{
	char dest[PATH_MAX], src[PATH_MAX], buf[65536];
	size_t n = 0;
	ssize_t got;
	int in, out, rc;

	*copied = 0;
	*cut = false;
	/* O_RDONLY only: a write to a devcoredump's data frees the core at once */
	in = open(src_path(s, path, src, sizeof(src)), O_RDONLY | O_CLOEXEC);
	if (in < 0)
		return -errno;
	rc = dest_path(s, path, dest, sizeof(dest));
	if (!rc)
		rc = parent_dirs(dest);
	if (rc) {
		close(in);
		return rc;
	}
	out = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0) {
		rc = -errno;
		close(in);
		return rc;
	}
	while (n < max) {
		got = read(in, buf, max - n < sizeof(buf) ? max - n : sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			rc = got < 0 ? -errno : 0;
			break;
		}
		if (write(out, buf, (size_t)got) != got) {
			rc = -EIO;
			break;
		}
		n += (size_t)got;
	}
	/* one byte more says whether the core went on: its size is known only by reading */
	while (!rc && n == max && (got = read(in, buf, 1)) < 0 && errno == EINTR)
		;
	if (!rc && n == max && got > 0)
		*cut = true;
	close(in);
	if (close(out) && !rc)
		rc = -errno;
	if (rc && !n) {
		unlink(dest);
		return rc;
	}
	if (rc)
		*cut = true; /* the rest refused to be read: what came is kept, said as cut */
	*copied = n;
	s->st.files++;
	s->st.bytes += n;
	return 0;
}

void sb_snap_note(struct sb_snap *s, const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int len;
	char *grown;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	grown = realloc(s->notes, s->notes_len + (size_t)len + 2);
	if (!grown)
		return;
	s->notes = grown;
	memcpy(s->notes + s->notes_len, line, (size_t)len);
	s->notes_len += (size_t)len;
	s->notes[s->notes_len++] = '\n';
	s->notes[s->notes_len] = '\0';
}

void sb_snap_core(struct sb_snap *s, enum sb_snap_core what, size_t bytes)
{
	if (what == SB_SNAP_CORE_WHOLE)
		s->st.cores++;
	else if (what == SB_SNAP_CORE_CUT)
		s->st.cores_cut++;
	else
		s->st.cores_left_out++;
	s->st.core_bytes += bytes;
}

size_t sb_snap_core_bytes(const struct sb_snap *s)
{
	return (size_t)s->st.core_bytes;
}

static int tree(struct sb_snap *s, const char *path, int depth, unsigned flags, int hops);

static int follow(struct sb_snap *s, const char *link, const char *name, int depth, unsigned flags,
		  int hops)
{
	char real[PATH_MAX], src[PATH_MAX];
	struct stat st;

	if (!(flags & SB_SNAP_FOLLOW) || hops >= SB_SNAPSHOT_LINK_HOPS || link_not_followed(name))
		return 0;
	if (sb_snap_realpath(s, link, real, sizeof(real)) || strncmp(real, "/sys/", 5) ||
	    stat(src_path(s, real, src, sizeof(src)), &st) || !S_ISDIR(st.st_mode))
		return 0;
	return tree(s, real, depth, flags, hops + 1);
}

static int tree(struct sb_snap *s, const char *path, int depth, unsigned flags, int hops)
{
	char child[PATH_MAX], dest[PATH_MAX], src[PATH_MAX];
	struct dirent *de;
	struct stat st;
	int rc = 0;
	DIR *d;

	if (lstat(src_path(s, path, src, sizeof(src)), &st))
		return errno == ENOENT || errno == ENOTDIR ? 0 : -errno;
	if (S_ISLNK(st.st_mode)) {
		const char *base = strrchr(path, '/');
		rc = copy_link(s, path);
		if (!rc)
			rc = follow(s, path, base ? base + 1 : path, depth, flags, hops);
		return rc;
	}
	if (S_ISREG(st.st_mode))
		return copy_regular(s, path, &st);
	if (!S_ISDIR(st.st_mode))
		return 0; /* device nodes, fifos and sockets stay out */
	if (seen(s, path))
		return 0;
	rc = dest_path(s, path, dest, sizeof(dest));
	if (rc || (rc = mkdirs(dest)))
		return rc;
	s->st.dirs++;
	d = opendir(src_path(s, path, src, sizeof(src)));
	if (!d) {
		s->st.skipped++;
		return 0;
	}
	while (!rc && (de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if ((size_t)snprintf(child, sizeof(child), "%s/%s", strcmp(path, "/") ? path : "",
				     de->d_name) >= sizeof(child))
			continue;
		if (lstat(src_path(s, child, src, sizeof(src)), &st))
			continue;
		if (S_ISLNK(st.st_mode)) {
			rc = copy_link(s, child);
			if (!rc)
				rc = follow(s, child, de->d_name, depth > 0 ? depth - 1 : 0, flags,
					    hops);
		} else if (S_ISREG(st.st_mode)) {
			rc = copy_regular(s, child, &st);
		} else if (S_ISDIR(st.st_mode) && depth > 0) {
			rc = tree(s, child, depth - 1, flags, hops);
		}
	}
	closedir(d);
	return rc;
}

int sb_snap_file(struct sb_snap *s, const char *path)
{
	char src[PATH_MAX];
	struct stat st;

	if (lstat(src_path(s, path, src, sizeof(src)), &st))
		return 0;
	if (S_ISLNK(st.st_mode))
		return copy_link(s, path);
	if (!S_ISREG(st.st_mode))
		return 0;
	return copy_regular(s, path, &st);
}

int sb_snap_tree(struct sb_snap *s, const char *path, int depth, unsigned flags)
{
	return tree(s, path, depth, flags, 0);
}

int sb_snap_write(struct sb_snap *s, const char *path, const void *buf, size_t len)
{
	char dest[PATH_MAX];
	int out, rc = dest_path(s, path, dest, sizeof(dest));

	if (rc || (rc = parent_dirs(dest)))
		return rc;
	out = open(dest, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (out < 0)
		return -errno;
	rc = write(out, buf, len) == (ssize_t)len ? 0 : -EIO;
	if (close(out) && !rc)
		rc = -errno;
	if (rc)
		return rc;
	s->st.files++;
	s->st.bytes += len;
	return 0;
}

static int write_manifest(struct sb_snap *s)
{
	char path[PATH_MAX + 32];
	struct utsname u;
	char date[SB_UTC_LEN];
	FILE *f;

	snprintf(path, sizeof(path), "%s/socbox-snapshot.txt", s->out);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	uname(&u);
	sb_utc_iso8601(time(NULL), date, sizeof(date));
	fprintf(f,
		"socbox_version=%s\ndate=%s\nhostname=%s\nrelease=%s\n"
		"machine=%s\nfiles=%zu\nlinks=%zu\ndirs=%zu\nskipped=%zu\nbytes=%llu\n"
		"cores=%zu\ncores_cut=%zu\ncores_left_out=%zu\ncore_bytes=%llu\n%s",
		SOCBOX_VERSION, date, u.nodename, u.release, u.machine, s->st.files, s->st.links,
		s->st.dirs, s->st.skipped, s->st.bytes, s->st.cores, s->st.cores_cut,
		s->st.cores_left_out, s->st.core_bytes, s->notes ? s->notes : "");
	return fclose(f) ? -errno : 0;
}

/* tar and rm die with socbox (PR_SET_PDEATHSIG): a tar still running after socbox was
 * killed would write an archive that nobody claims. 0 or an errno; a program that cannot
 * be run exits 127. */
static int spawn(pid_t *pid, const char *const argv[])
{
	pid_t parent = getpid(), p = fork();

	if (p < 0)
		return errno;
	if (p == 0) {
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
			_exit(127);
		/* execvp() takes char *const argv[] for history's sake and changes none of it */
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	*pid = p;
	return 0;
}

static int remove_tree(const char *path)
{
	const char *const argv[] = { "rm", "-rf", path, NULL };
	pid_t pid;
	int status;

	int err = spawn(&pid, argv);

	if (err)
		return -err;
	return waitpid(pid, &status, 0) < 0 ? -errno : 0;
}

static int make_tar(const char *dir, const char *tar_path, struct sb_err *e)
{
	const char *const argv[] = { "tar", "-C", dir, "-cf", tar_path, ".", NULL };
	pid_t pid;
	int status;

	int err = spawn(&pid, argv);

	if (err)
		return sb_err_set(e, err, "tar", "run", NULL);
	if (waitpid(pid, &status, 0) < 0)
		return sb_err_set(e, errno, "tar", "wait", NULL);
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return sb_err_set(e, ENOENT, "tar", "run",
				  "install tar, or write a directory instead of a .tar");
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return sb_err_set(e, EIO, tar_path, "write archive", NULL);
	return 0;
}

/* A killed snapshot's claim: its tree, its archive, then the claim itself (last, so a sweep
 * cut short finds it again). */
static void remove_leftover(const char *claim, void *arg)
{
	char path[SB_CLAIM_PATH_MAX + 8];

	(void)arg;
	snprintf(path, sizeof(path), "%s.d", claim);
	remove_tree(path);
	snprintf(path, sizeof(path), "%s.part", claim);
	unlink(path);
	unlink(claim);
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);
	return a >= b && !strcmp(s + a - b, suffix);
}

int sb_snapshot_write(const char *out, struct sb_snap_stats *stats, struct sb_err *e)
{
	char tmp_tar[SB_CLAIM_PATH_MAX + 8], dircopy[PATH_MAX], basecopy[PATH_MAX];
	char prefix[PATH_MAX + 8];
	struct sb_snap s = { 0 };
	struct sb_claim claim;
	const char *from;
	bool tar = ends_with(out, ".tar");
	int err;
	struct stat st;
	int rc = 0;

	if (strlen(out) + 16 >= sizeof(s.out))
		return sb_err_set(e, ENAMETOOLONG, out, "write snapshot", NULL);
	from = getenv("SOCBOX_TEST_SNAPSHOT_FROM");
	if (from && *from && !realpath(from, s.src))
		return sb_err_set(e, errno, from, "open SOCBOX_TEST_SNAPSHOT_FROM", NULL);
	if (!strcmp(s.src, "/"))
		s.src[0] = '\0';
	/* what a killed snapshot to the same OUT left goes first, even when OUT exists */
	snprintf(dircopy, sizeof(dircopy), "%s", out);
	snprintf(basecopy, sizeof(basecopy), "%s", out);
	snprintf(prefix, sizeof(prefix), "%s.tmp-", basename(basecopy));
	sb_claim_sweep(dirname(dircopy), prefix, remove_leftover, NULL);
	if (lstat(out, &st) == 0) {
		DIR *d = S_ISDIR(st.st_mode) && !tar ? opendir(out) : NULL;
		bool empty = true;
		if (d) {
			struct dirent *de;
			while ((de = readdir(d)))
				if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
					empty = false;
			closedir(d);
		}
		if (!d || !empty)
			return sb_err_set(
				e, EEXIST, out, "write snapshot",
				"choose a new name; an existing snapshot is never overwritten");
	}
	/* Everything goes to a temporary name beside OUT and is renamed at the end, so OUT is
	 * written whole or not at all. The name is claimed (OUT.tmp-xxxxxx, a locked file), the
	 * tree is OUT.tmp-xxxxxx.d and the archive OUT.tmp-xxxxxx.part; a sweep by another
	 * snapshot to the same OUT leaves them alone while this one runs. */
	snprintf(dircopy, sizeof(dircopy), "%s", out);
	if (sb_claim_create(&claim, dirname(dircopy), prefix, 0600, out, e) < 0)
		return -e->errnum;
	err = 0;
	if (snprintf(s.out, sizeof(s.out), "%s.d", claim.path) >= (int)sizeof(s.out))
		err = ENAMETOOLONG;
	else if (mkdir(s.out, 0700))
		err = errno;
	if (err) {
		rc = sb_err_set(e, err, out, "create snapshot directory", NULL);
		unlink(claim.path);
		sb_claim_release(&claim);
		return rc;
	}
	for (const struct sb_snap_path *p = sb_snap_paths; p->path && !rc; p++)
		rc = sb_snap_tree(&s, p->path, p->depth, p->flags);
	for (const sb_snap_hook *h = sb_snap_hooks; *h && !rc; h++)
		rc = (*h)(&s);
	if (!rc)
		rc = write_manifest(&s);
	if (rc) {
		sb_err_set(e, -rc, out, "write snapshot", NULL);
	} else if (tar) {
		snprintf(tmp_tar, sizeof(tmp_tar), "%s.part", claim.path);
		rc = make_tar(s.out, tmp_tar, e);
		if (!rc && sb_rename_noreplace(tmp_tar, out))
			rc = sb_err_set(e, errno, out, "rename archive", NULL);
		if (rc)
			unlink(tmp_tar);
	} else {
		if (lstat(out, &st) == 0)
			rmdir(out); /* the empty directory checked above */
		if (sb_rename_noreplace(s.out, out))
			rc = sb_err_set(e, errno, out, "rename snapshot directory", NULL);
	}
	if (tar || rc)
		remove_tree(s.out);
	unlink(claim.path); /* before the lock goes with the close: never seen unclaimed */
	sb_claim_release(&claim);
	for (size_t i = 0; i < s.nseen; i++)
		free(s.seen[i]);
	free(s.seen);
	free(s.notes);
	if (stats)
		*stats = s.st;
	return rc;
}
