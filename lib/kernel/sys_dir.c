// SPDX-License-Identifier: GPL-2.0-or-later
/* Listing a directory below the root (sb_dir_list): its entries, sorted as ls -v does. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/sys.h"
#include "sys_root.h"

static int natural_cmp(const void *a, const void *b)
{
	return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* Read the entries with getdents64 on the fd itself: fdopendir costs an fstat and two
 * fcntl calls per directory, which is most of the cost of listing one IOMMU group. The
 * entries buffer is the heap's: on the stack, below a PATH_MAX path, it made this the
 * deepest frame of a view's start (each new stack page a page fault). */
enum { DIR_LIST_BUF = 8192 };

static int dir_list_fd(int fd, struct sb_dirlist *out, char *dbuf);

int sb_dir_list(const struct sb_root *r, struct sb_dirlist *out, const char *fmt, ...)
{
	char path[PATH_MAX];
	char *dbuf;
	int fd, rc;

	out->names = NULL;
	out->n = 0;
	fd = FORMAT_ARGS(path, fmt);
	if (fd)
		return fd;
	fd = sys_openat(r, path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return -errno;
	dbuf = malloc(DIR_LIST_BUF);
	if (!dbuf) {
		close(fd);
		return -ENOMEM;
	}
	rc = dir_list_fd(fd, out, dbuf);
	free(dbuf);
	return rc;
}

/* The entries of the directory fd, sorted; closes fd. */
static int dir_list_fd(int fd, struct sb_dirlist *out, char *dbuf)
{
	size_t cap = 0;
	ssize_t got;
	int err = 0;

	while ((got = getdents64(fd, dbuf, DIR_LIST_BUF)) > 0) {
		for (ssize_t off = 0; off < got;) {
			struct dirent64 *de = (struct dirent64 *)(void *)(dbuf + off);

			off += de->d_reclen;
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (out->n == SB_DIR_MAX_ENTRIES) {
				close(fd);
				sb_dirlist_free(out);
				return -EFBIG;
			}
			if (out->n == cap) {
				char **nn = realloc(out->names, (cap ? cap * 2 : 16) * sizeof(*nn));
				if (!nn)
					goto oom;
				cap = cap ? cap * 2 : 16;
				out->names = nn;
			}
			out->names[out->n] = strdup(de->d_name);
			if (!out->names[out->n])
				goto oom;
			out->n++;
		}
	}
	if (got < 0) {
		err = errno;
		close(fd);
		sb_dirlist_free(out);
		return -err;
	}
	close(fd);
	if (out->n)
		qsort(out->names, out->n, sizeof(*out->names), natural_cmp);
	return 0;
oom:
	close(fd);
	sb_dirlist_free(out);
	return -ENOMEM;
}

void sb_dirlist_free(struct sb_dirlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	l->names = NULL;
	l->n = 0;
}
