// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/sys.h"
#include "socbox/scan.h"
#include "socbox/stop.h"
#include "sys_root.h"

int sys_openat(const struct sb_root *r, const char *path, int flags)
{
	int fd = root_openat(r, path, flags);

	if (fd >= 0)
		sys_record_read(r, path);
	return fd;
}

static int sys_open_text(const struct sb_root *r, const char *path, off_t *size)
{
	int fd = root_open_text(r, path, size);

	if (fd >= 0)
		sys_record_read(r, path);
	return fd;
}

int sb_open(const struct sb_root *r, int flags, const char *fmt, ...)
{
	char path[PATH_MAX];
	int fd = FORMAT_ARGS(path, fmt);

	if (fd)
		return fd;
	fd = sys_openat(r, path, flags);
	return fd < 0 ? -errno : fd;
}

int sb_open_text(const struct sb_root *r, off_t *size, const char *fmt, ...)
{
	char path[PATH_MAX];
	int fd = FORMAT_ARGS(path, fmt);

	*size = -1;
	if (fd)
		return fd;
	fd = sys_open_text(r, path, size);
	return fd < 0 ? -errno : fd;
}

static int stat_path(const struct sb_root *r, const char *path, struct stat *st)
{
	int fd = sys_openat(r, path, O_PATH);
	int rc = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, st))
		rc = -errno;
	close(fd);
	return rc;
}

int sb_stat(const struct sb_root *r, struct stat *st, const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc = FORMAT_ARGS(path, fmt);

	return rc ? rc : stat_path(r, path, st);
}

static int __attribute__((format(printf, 3, 0)))
vstat_path(const struct sb_root *r, struct stat *st, const char *fmt, va_list ap)
{
	char path[PATH_MAX];
	int rc = vpath(path, sizeof(path), fmt, ap);

	return rc ? rc : stat_path(r, path, st);
}

bool sb_exists(const struct sb_root *r, const char *fmt, ...)
{
	struct stat st;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vstat_path(r, &st, fmt, ap);
	va_end(ap);
	return rc == 0;
}

bool sb_is_dir(const struct sb_root *r, const char *fmt, ...)
{
	struct stat st;
	va_list ap;
	int rc;

	va_start(ap, fmt);
	rc = vstat_path(r, &st, fmt, ap);
	va_end(ap);
	return rc == 0 && S_ISDIR(st.st_mode);
}

/* Read from fd until EOF, or until size bytes when size >= 0 (root_open_text), into buf (at
 * most len bytes); -EFBIG when more remains. */
static ssize_t read_all(int fd, char *buf, size_t len, off_t size)
{
	size_t off = 0;

	if (size > 0 && (uint64_t)size > len)
		return -EFBIG;
	for (;;) {
		ssize_t n = read(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return (ssize_t)off;
		off += (size_t)n;
		if (size > 0 && off == (size_t)size)
			return (ssize_t)off;
		if (off == len) {
			char extra;
			n = read(fd, &extra, 1);
			if (n > 0)
				return -EFBIG;
			if (n < 0)
				return -errno;
			return (ssize_t)off;
		}
	}
}

/* Read fd to EOF, or to size bytes when size > 0 (root_open_text), at most max bytes, into a
 * NUL-terminated malloc'ed buffer; closes fd. */
static ssize_t read_fd(int fd, char **out, size_t max, off_t size)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	int err = 0;

	*out = NULL;
	for (;;) {
		ssize_t got;

		if (n == cap) {
			/* one byte beyond max tells "larger than allowed" from "exactly max" */
			size_t ncap = cap ? cap * 2 : size > 0 ? (size_t)size : 4096;
			char *nb;

			if (cap > max) {
				err = EFBIG;
				break;
			}
			if (ncap > max + 1)
				ncap = max + 1;
			nb = realloc(buf, ncap + 1);
			if (!nb) {
				err = ENOMEM;
				break;
			}
			buf = nb;
			cap = ncap;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			err = errno;
			break;
		}
		if (got == 0)
			break;
		n += (size_t)got;
		if (size > 0 && n == (size_t)size)
			break;
	}
	close(fd);
	if (!err && n > max)
		err = EFBIG;
	if (err) {
		free(buf);
		return -err;
	}
	buf[n] = '\0';
	*out = buf;
	return (ssize_t)n;
}

static ssize_t read_path(const struct sb_root *r, const char *path, char **out, size_t max)
{
	off_t size;
	int fd = sys_open_text(r, path, &size);

	*out = NULL;
	if (fd < 0)
		return -errno;
	/* A regular file of a snapshot tells its size: one over the limit (a 2 GiB sparse file)
	 * is refused unread. sysfs and procfs files say 4096 or 0 and are read to the limit. */
	if (size > 0 && (uint64_t)size > max) {
		close(fd);
		return -EFBIG;
	}
	return read_fd(fd, out, max, size);
}

ssize_t sb_read_user_file(const char *path, char **buf, size_t max)
{
	struct stat st;
	int fd;

	*buf = NULL;
	if (stat(path, &st))
		return -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	if (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))
		return -SB_ENOTREG;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max)
		return -EFBIG;
	/* non-blocking open: the type is checked before anything can block */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (!S_ISREG(st.st_mode) && !S_ISFIFO(st.st_mode))) {
		close(fd);
		return -SB_ENOTREG;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)) {
		int err = errno;
		close(fd);
		return -err;
	}
	/* a FIFO: wait for its writer, as cat does (before one has opened it a read says end
	 * of file at once; Linux's poll waits for one); a stop signal ends the wait */
	if (S_ISFIFO(st.st_mode)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int rc = sb_poll(&p, 1, -1);

		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	return read_fd(fd, buf, max, -1);
}

ssize_t sb_read_file(const struct sb_root *r, char **buf, size_t max, const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc;

	*buf = NULL;
	rc = FORMAT_ARGS(path, fmt);
	return rc ? rc : read_path(r, path, buf, max);
}

ssize_t sb_read_file_once(const struct sb_root *r, const char **text, size_t max, const char *fmt,
			  ...)
{
	/* The cache is the root's own bookkeeping, not what the root reads: the root is
	 * const to callers but always allocated by sb_root_open. */
	struct sb_root *rw = (struct sb_root *)r;
	struct sb_file_once *f;
	char path[PATH_MAX];
	size_t plen;
	int rc;

	*text = NULL;
	rc = FORMAT_ARGS(path, fmt);
	if (rc)
		return rc;
	for (f = rw->once; f; f = f->next)
		if (!strcmp(f->path, path))
			break;
	if (!f) {
		plen = strlen(path) + 1;
		f = calloc(1, sizeof(*f) + plen);
		if (!f)
			return -ENOMEM;
		memcpy(f->path, path, plen);
		f->rc = read_path(r, path, &f->text, max);
		f->next = rw->once;
		rw->once = f;
	}
	*text = f->text;
	return f->rc;
}

static int readlink_path(const struct sb_root *r, const char *path, char *buf, size_t len)
{
	char parent[PATH_MAX];
	const char *base;
	char *slash;
	ssize_t n;
	int dfd;

	snprintf(parent, sizeof(parent), "%s", path);
	while ((slash = strrchr(parent, '/')) && slash[1] == '\0' && slash != parent)
		*slash = '\0';
	slash = strrchr(parent, '/');
	if (!slash)
		return -EINVAL;
	base = path + (slash - parent) + 1;
	if (slash == parent)
		parent[1] = '\0';
	else
		*slash = '\0';
	dfd = sys_openat(r, parent, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return -errno;
	n = readlinkat(dfd, base, buf, len - 1);
	close(dfd);
	if (n < 0)
		return -errno;
	sys_record_read(r, path);
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	buf[n] = '\0';
	return (int)n;
}

int sb_readlink(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc = FORMAT_ARGS(path, fmt);

	return rc ? rc : readlink_path(r, path, buf, len);
}

int sb_link_name(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], target[PATH_MAX];
	const char *base;
	int rc = FORMAT_ARGS(path, fmt);

	if (rc)
		return rc;
	rc = readlink_path(r, path, target, sizeof(target));
	if (rc < 0)
		return rc;
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if ((size_t)snprintf(buf, len, "%s", base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

int sb_link_name_at(int dfd, const char *name, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);

	if (n < 0)
		return -errno;
	sys_record_read_at(dfd, name);
	if ((size_t)n >= sizeof(target) - 1)
		return -ENAMETOOLONG;
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if ((size_t)snprintf(buf, len, "%s", base) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static int attr_read(const struct sb_root *r, const char *path, char *buf, size_t len)
{
	ssize_t n;
	off_t size;
	int fd;

	if (len == 0)
		return -EINVAL;
	fd = sys_open_text(r, path, &size);
	if (fd < 0)
		return -errno;
	n = read_all(fd, buf, len - 1, size);
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	if (memchr(buf, '\0', (size_t)n))
		return -EINVAL; /* binary content is not a text attribute */
	sb_rtrim(buf);
	return (int)strlen(buf);
}

int sb_attr_str(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int rc;

	if (len)
		buf[0] = '\0';
	rc = FORMAT_ARGS(path, fmt);
	return rc ? rc : attr_read(r, path, buf, len);
}

#define TYPED_READER(fn, type, parse) \
	int fn(const struct sb_root *r, type *v, const char *fmt, ...) \
	{ \
		char path[PATH_MAX], buf[128]; \
		int rc = FORMAT_ARGS(path, fmt); \
		if (rc) \
			return rc; \
		rc = attr_read(r, path, buf, sizeof(buf)); \
		if (rc == -EFBIG) \
			return -EINVAL; \
		if (rc < 0) \
			return rc; \
		return parse; \
	}

TYPED_READER(sb_attr_u64, uint64_t, sb_parse_u64(buf, 0, v))
TYPED_READER(sb_attr_s64, int64_t, sb_parse_s64(buf, 0, v))
TYPED_READER(sb_attr_hex, uint64_t, sb_parse_u64(buf, 16, v))
TYPED_READER(sb_attr_bool, bool, sb_parse_bool(buf, v))

const char *sb_attr_strerror(int rc)
{
	switch (rc < 0 ? -rc : rc) {
	case ENOENT:
	case ENOTDIR:
		return "missing";
	case EACCES:
	case EPERM:
		return "unreadable";
	case EINVAL:
	case ERANGE:
		return "malformed";
	case EXDEV:
		return "outside root";
	case EFBIG:
		return "too large";
	case SB_ENOTREG:
		return "not a regular file";
	default:
		return sb_strerror(rc < 0 ? -rc : rc);
	}
}

int sb_attr_write(const struct sb_root *r, const char *value, const char *fmt, ...)
{
	size_t len = strlen(value);
	char path[PATH_MAX];
	ssize_t n;
	int fd = FORMAT_ARGS(path, fmt);

	if (fd)
		return fd;
	if (!r->live)
		return -EROFS;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = write(fd, value, len);
	if (n < 0) {
		int err = errno;
		close(fd);
		return -err;
	}
	if (close(fd) < 0)
		return -errno;
	return (size_t)n == len ? 0 : -EIO;
}

int sb_kernel_release(const struct sb_root *r, char *buf, size_t len)
{
	const char *text;
	ssize_t n = sb_read_file_once(r, &text, SB_READ_ATTR_MAX, "/proc/sys/kernel/osrelease");
	size_t cut;

	if (len == 0)
		return -EINVAL;
	buf[0] = '\0';
	if (n < 0)
		return (int)n;
	/* as sb_attr_str: text only, at most len - 1 bytes, trailing white space dropped */
	if (memchr(text, '\0', (size_t)n))
		return -EINVAL;
	cut = (size_t)n < len - 1 ? (size_t)n : len - 1;
	memcpy(buf, text, cut);
	buf[cut] = '\0';
	sb_rtrim(buf);
	return (int)strlen(buf);
}

unsigned sb_kernel_version_code(const struct sb_root *r)
{
	char rel[128];
	unsigned maj = 0, min = 0, patch = 0;

	if (sb_kernel_release(r, rel, sizeof(rel)) < 0)
		return 0;
	if (sb_sscanf(rel, "%u.%u.%u", &maj, &min, &patch) < 2)
		return 0;
	return maj * 10000 + min * 100 + (patch > 99 ? 99 : patch);
}
