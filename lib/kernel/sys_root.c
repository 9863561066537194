// SPDX-License-Identifier: GPL-2.0-or-later
/* A root (the live system or a sysroot) and the one way below it that everything in
 * lib/kernel/sys*.c opens: paths resolved inside the root, only regular files and
 * directories of a sysroot opened for reading. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "socbox/sys.h"
#include "sys_root.h"

static long kernel_openat2(int dfd, const char *path, void *how, size_t size)
{
	return syscall(SYS_openat2, dfd, path, how, size);
}

static sb_openat2_fn openat2_fn = kernel_openat2;

void sb_root_set_openat2(sb_openat2_fn fn)
{
	openat2_fn = fn ? fn : kernel_openat2;
}

static struct open_how how_in_root(int flags)
{
	return (struct open_how){ .flags = (uint64_t)(flags | O_CLOEXEC),
				  .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS };
}

/* Below a sysroot, openat2 keeps every lookup inside it; a kernel without it (ENOSYS, the
 * one answer of a missing system call: EINVAL would be openat2 refusing flags) leaves it to
 * our own walk. Asked once, of the root itself. */
static void probe_resolver(struct sb_root *r)
{
	struct open_how how = how_in_root(O_PATH | O_DIRECTORY);
	int fd;

	if (r->live)
		return;
	fd = (int)openat2_fn(r->fd, ".", &how, sizeof(how));
	if (fd >= 0)
		close(fd);
	if (fd < 0 && errno == ENOSYS)
		sb_probe_fell_back(&r->resolver, SB_ROOT_RESOLVE_OPENAT2, SB_ROOT_RESOLVE_WALK,
				   ENOSYS,
				   "the kernel lacks it (ENOSYS; Linux 5.6 and qemu-user 9.0 have it)");
	else
		sb_probe_ran(&r->resolver, SB_ROOT_RESOLVE_OPENAT2);
}

int sb_root_open(struct sb_root **out, const char *sysroot, struct sb_err *e)
{
	struct sb_root *r;
	char *canon;

	*out = NULL;
	if (!sysroot || !*sysroot)
		sysroot = getenv("SOCBOX_SYSROOT");
	if (!sysroot || !*sysroot)
		sysroot = "/";
	canon = realpath(sysroot, NULL);
	if (!canon)
		return sb_err_set(e, errno, sysroot, "open sysroot",
				  errno == ENOENT || errno == ENOTDIR
					  ? "a directory written by 'socbox snapshot'"
					  : NULL);
	r = calloc(1, sizeof(*r) + strlen(canon) + 1);
	if (!r) {
		free(canon);
		return sb_err_set(e, ENOMEM, sysroot, "open sysroot", NULL);
	}
	memcpy(r->path, canon, strlen(canon) + 1);
	free(canon);
	r->live = strcmp(r->path, "/") == 0;
	r->fd = open(r->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0) {
		int err = errno;
		free(r);
		return sb_err_set(e, err, sysroot, "open sysroot", NULL);
	}
	probe_resolver(r);
	*out = r;
	return 0;
}

void sb_root_close(struct sb_root *r)
{
	if (!r)
		return;
	while (r->once) {
		struct sb_file_once *f = r->once;
		r->once = f->next;
		free(f->text);
		free(f);
	}
	close(r->fd);
	free(r);
}

bool sb_root_is_live(const struct sb_root *r)
{
	return r->live;
}

const char *sb_root_path(const struct sb_root *r)
{
	return r->path;
}

const char *sb_root_resolver_name(int resolver)
{
	return resolver == SB_ROOT_RESOLVE_OPENAT2 ? "openat2"
	       : resolver == SB_ROOT_RESOLVE_WALK
		       ? "walk"
		       : "";
}

const struct sb_probe *sb_root_resolver(const struct sb_root *r)
{
	return &r->resolver;
}

int sb_root_resolver_text(const struct sb_root *r, char *buf, size_t len)
{
	const struct sb_probe *p = &r->resolver;

	if (!p->ran)
		return snprintf(buf, len, "%s", "");
	if (sb_probe_is_fallback(p))
		return snprintf(buf, len,
				"sysroot %s: paths resolved by socbox's %s instead of %s: %s",
				r->path, sb_root_resolver_name(p->ran),
				sb_root_resolver_name(p->instead_of), p->why);
	return snprintf(buf, len, "sysroot %s: paths resolved by %s", r->path,
			sb_root_resolver_name(p->ran));
}

/* Open a path below the root, symlinks and ".." resolved as if the root were "/". */
#define SB_OPENAT2_RETRIES 64

/* Kernels before 5.6 (no openat2): our own walk, then a check of where the open landed, since
 * a link swapped in after the walk could still lead out. Out of line: its two PATH_MAX
 * buffers would otherwise deepen the stack of every open, and each new stack page is a page
 * fault. */
static int __attribute__((noinline))
root_openat_walk(const struct sb_root *r, const char *path, int flags)
{
	char resolved[PATH_MAX], proc[64], real[PATH_MAX];
	size_t plen = strlen(r->path);
	ssize_t n;
	int fd, rc = sb_root_resolve(r, path, resolved, sizeof(resolved));

	if (rc) {
		errno = -rc;
		return -1;
	}
	fd = openat(r->fd, resolved, flags | O_CLOEXEC);
	if (fd < 0)
		return fd;
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	n = readlink(proc, real, sizeof(real) - 1);
	if (plen == 1)
		plen = 0; /* the root is "/": everything is inside */
	if (n < 0 || (real[n] = '\0', strncmp(real, r->path, plen) != 0) ||
	    (real[plen] != '/' && real[plen] != '\0')) {
		close(fd);
		errno = EXDEV;
		return -1;
	}
	return fd;
}

static int root_openat_raw(const struct sb_root *r, const char *path, int flags)
{
	struct open_how how = how_in_root(flags);
	int fd, tries = 0;

	while (*path == '/')
		path++;
	if (!*path)
		path = ".";
	if (r->resolver.ran != SB_ROOT_RESOLVE_OPENAT2)
		return root_openat_walk(r, path, flags);
	/* EAGAIN: a rename or mount anywhere raced with a ".." of the walk (openat2(2) says
	 * to retry); under load that happens, and the file is there. */
	do
		fd = (int)openat2_fn(r->fd, path, &how, sizeof(how));
	while (fd < 0 && errno == EAGAIN && ++tries < SB_OPENAT2_RETRIES);
	return fd;
}

/* What a snapshot holds is text: a FIFO would block open() or read() forever, and a device
 * node would open a device of this machine (a watchdog, a tape, a serial line) instead of
 * reading the snapshot. So inside a sysroot the file type is looked at through an O_PATH
 * descriptor, which opens nothing, before the file is opened for reading. That open is
 * non-blocking and must reach the same inode, so a file swapped in between cannot block
 * either. On the live system the kernel's own files are read as they are. */
static int root_openat_stat(const struct sb_root *r, const char *path, int flags, struct stat *st)
{
	struct stat look;
	int fd;

	st->st_mode = 0;
	if (r->live)
		return open(path, flags | O_CLOEXEC);
	if ((flags & (O_PATH | O_DIRECTORY)) || (flags & O_ACCMODE) != O_RDONLY)
		return root_openat_raw(r, path, flags);
	fd = root_openat_raw(r, path, O_PATH);
	if (fd < 0)
		return -1;
	if (fstat(fd, &look))
		look.st_mode = 0;
	close(fd);
	if (!S_ISREG(look.st_mode) && !S_ISDIR(look.st_mode)) {
		errno = SB_ENOTREG;
		return -1;
	}
	fd = root_openat_raw(r, path, flags | O_NONBLOCK | O_NOCTTY);
	if (fd >= 0 && (fstat(fd, st) || st->st_ino != look.st_ino || st->st_dev != look.st_dev)) {
		close(fd);
		errno = SB_ENOTREG;
		return -1;
	}
	return fd;
}

int root_openat(const struct sb_root *r, const char *path, int flags)
{
	struct stat st;

	return root_openat_stat(r, path, flags, &st);
}

/* Open a file below the root for reading; *size is where reading may stop without one more
 * read to see EOF: a snapshot's regular file has its true size. The kernel's own files say
 * 4096 (sysfs) or 0 (procfs) whatever they hold, so the live system's are read to EOF (-1). */
int root_open_text(const struct sb_root *r, const char *path, off_t *size)
{
	struct stat st;
	int fd = root_openat_stat(r, path, O_RDONLY, &st);

	*size = fd >= 0 && S_ISREG(st.st_mode) ? st.st_size : -1;
	return fd;
}
