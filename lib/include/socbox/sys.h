/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The root-aware path layer. Every sysfs/procfs/debugfs read goes through a struct sb_root,
 * which is "/" on a live system or a directory (--sysroot DIR, $SOCBOX_SYSROOT) holding a
 * snapshot. Paths are written as on a live system ("/sys/class/iommu"); inside a sysroot no
 * path escapes the root, neither through ".." nor through symlinks (absolute or relative):
 * they are resolved as if the root were "/" (openat2 RESOLVE_IN_ROOT). */
#ifndef SOCBOX_SYS_H
#define SOCBOX_SYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/limits.h"
#include "socbox/probe.h"

struct sb_root;

/* sysroot NULL: $SOCBOX_SYSROOT when set and non-empty, else the live system. */
int sb_root_open(struct sb_root **out, const char *sysroot, struct sb_err *e);
void sb_root_close(struct sb_root *r);
/* True when reading the running system (root is "/"): only then can the kernel be asked
 * directly (ioctl, netlink, perf) and device nodes be used. */
bool sb_root_is_live(const struct sb_root *r);
/* The directory given as sysroot, or "/" for the live system. */
const char *sb_root_path(const struct sb_root *r);
/* How paths below a root are opened: decided once, when it is opened. */
enum sb_root_resolver {
	SB_ROOT_RESOLVE_NONE,	 /* the live system: paths are the system's own */
	SB_ROOT_RESOLVE_OPENAT2, /* openat2 with RESOLVE_IN_ROOT (Linux 5.6, qemu-user 9.0) */
	SB_ROOT_RESOLVE_WALK,	 /* sb_root_resolve(), where the kernel lacks openat2 */
};
/* "openat2", "walk" ("" for NONE). */
const char *sb_root_resolver_name(int resolver);
/* Which resolver ran for r (ran), and when it is the walk, why not openat2 (instead_of,
 * err, why). */
const struct sb_probe *sb_root_resolver(const struct sb_root *r);
/* The --verbose line that says so: "sysroot DIR: paths resolved by openat2", or by the walk
 * instead of openat2 and why; "" for the live system. Returns its length. */
int sb_root_resolver_text(const struct sb_root *r, char *buf, size_t len);
/* For tests: the openat2 system call that sb_root_open() probes and opens below a sysroot go
 * through (NULL: the kernel's), so a kernel without it can be played. how is a struct
 * open_how. */
typedef long (*sb_openat2_fn)(int dfd, const char *path, void *how, size_t size);
void sb_root_set_openat2(sb_openat2_fn fn);
/* The walk used where openat2 is missing (kernels before 5.6, qemu-user): path (relative
 * to the root) resolved as RESOLVE_IN_ROOT would, into out, relative to the root, without
 * symlinks or "..". 0 or -errno. Public for its differential fuzz harness. */
int sb_root_resolve(const struct sb_root *r, const char *path, char *out, size_t outlen);

/* All path arguments below are printf formats producing an absolute path as seen on a live
 * system. Return values are >= 0 on success or -errno:
 *   -ENOENT missing, -EACCES/-EPERM unreadable, -EXDEV resolution left the root,
 *   -EINVAL malformed content (typed readers), -EFBIG content larger than allowed,
 *   -SB_ENOTREG a FIFO, socket or device node inside a sysroot (never opened, never blocks). */
int sb_open(const struct sb_root *r, int flags, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sb_stat(const struct sb_root *r, struct stat *st, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
bool sb_exists(const struct sb_root *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
bool sb_is_dir(const struct sb_root *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Open a file to read it in parts, with the checks sb_read_file() makes (inside a sysroot
 * only a regular file or a directory is opened); *size is its size for a regular file, -1
 * otherwise. The descriptor or -errno. */
int sb_open_text(const struct sb_root *r, off_t *size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Read a whole file (up to max bytes) into a NUL-terminated malloc'ed buffer. Returns the
 * length. Files of pseudo file systems report size 0, so this reads until EOF. */
ssize_t sb_read_file(const struct sb_root *r, char **buf, size_t max, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same for a file that cannot change while a command runs (the kernel release, the
 * module lists): read once per root, a failure too. *text belongs to the
 * root (valid until sb_root_close, never freed by the caller). */
ssize_t sb_read_file_once(const struct sb_root *r, const char **text, size_t max, const char *fmt,
			  ...) __attribute__((format(printf, 4, 5)));

/* A file the user named on the command line (not below the root: relative paths are
 * relative to the working directory): a regular file, or a pipe (`<(...)`), read whole up
 * to max bytes. A directory gives -EISDIR, a device node or socket -SB_ENOTREG; a named
 * FIFO is read once its writer comes, as cat reads it (a stop signal ends the wait). */
ssize_t sb_read_user_file(const char *path, char **buf, size_t max);

/* The text of a symlink, and the last component of its target ("../../devices/x/y" -> "y"). */
int sb_readlink(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int sb_link_name(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* sb_link_name() of the entry name of a directory opened with sb_open(r, O_PATH |
 * O_DIRECTORY, ...): several links of one directory for one path resolution. Only the link
 * text is read (nothing is followed), so the root still holds. */
int sb_link_name_at(int dfd, const char *name, char *buf, size_t len);

/* Attribute readers: one-value sysfs files. Trailing whitespace is removed. */
int sb_attr_str(const struct sb_root *r, char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* Unsigned/signed integers: decimal, or hex with 0x. -EINVAL when not a number, -ERANGE when
 * it overflows. sb_attr_hex: hex with or without 0x. */
int sb_attr_u64(const struct sb_root *r, uint64_t *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sb_attr_s64(const struct sb_root *r, int64_t *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sb_attr_hex(const struct sb_root *r, uint64_t *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 1/0, Y/N, y/n, yes/no, true/false, on/off, enabled/disabled. */
int sb_attr_bool(const struct sb_root *r, bool *v, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "missing", "unreadable", "malformed", "outside root", "too large", "not a regular file"
 * or strerror. */
const char *sb_attr_strerror(int rc);

/* Parse helpers used by the readers, exposed for parsers of multi-value files. */
int sb_parse_u64(const char *s, int base, uint64_t *v);
int sb_parse_s64(const char *s, int base, int64_t *v);
int sb_parse_bool(const char *s, bool *v);
/* Remove trailing whitespace in place; returns s. */
char *sb_rtrim(char *s);

/* Directory listing without "." and "..", in natural order ("rpmsg2" before "rpmsg10"). */
struct sb_dirlist {
	char **names;
	size_t n;
};
int sb_dir_list(const struct sb_root *r, struct sb_dirlist *out, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void sb_dirlist_free(struct sb_dirlist *l);

/* Write a value to an attribute of the live system; -EROFS on a sysroot. */
int sb_attr_write(const struct sb_root *r, const char *value, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The kernel release of the root (/proc/sys/kernel/osrelease). */
int sb_kernel_release(const struct sb_root *r, char *buf, size_t len);
/* Kernel release as a number major*10000+minor*100 (capped patch), 0 when unknown. */
unsigned sb_kernel_version_code(const struct sb_root *r);

#endif
