// SPDX-License-Identifier: GPL-2.0-or-later
/* The walk below a root for kernels without openat2 (sb_root_resolve). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/limits.h"
#include "socbox/sys.h"
#include "sys_root.h"

/* Without openat2 (kernels before 5.6, qemu-user before 9.0): resolve path below the root
 * a component at a time the way RESOLVE_IN_ROOT does, into a path relative to the root
 * without symlinks or "..": ".." never climbs above the root, and a link is read and its
 * target put in front of what is left (an absolute one starting again at the root). */
int sb_root_resolve(const struct sb_root *r, const char *path, char *out, size_t outlen)
{
	char todo[PATH_MAX], target[PATH_MAX], next[PATH_MAX];
	unsigned links = 0;
	size_t olen = 0;

	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (char *p = todo; *p;) {
		char *comp = p, *slash = strchr(p, '/');
		size_t clen = slash ? (size_t)(slash - p) : strlen(p);
		struct stat st;
		ssize_t n;

		p = slash ? slash + 1 : p + clen;
		if (clen == 0 || (clen == 1 && comp[0] == '.'))
			continue;
		if (clen == 2 && comp[0] == '.' && comp[1] == '.') {
			char *last = strrchr(out, '/');
			olen = last ? (size_t)(last - out) : 0;
			out[olen] = '\0';
			continue;
		}
		if (olen + 1 + clen >= outlen)
			return -ENAMETOOLONG;
		if (olen)
			out[olen++] = '/';
		memcpy(out + olen, comp, clen);
		olen += clen;
		out[olen] = '\0';
		if (fstatat(r->fd, out, &st, AT_SYMLINK_NOFOLLOW))
			return *p ? -errno
				  : 0; /* a missing last component is the open's to report */
		if (!S_ISLNK(st.st_mode)) {
			/* "file/", "file/." and "file/.." are not directories, as in the kernel */
			if (slash && !S_ISDIR(st.st_mode))
				return -ENOTDIR;
			continue;
		}
		if (++links > SB_RESOLVE_MAX_LINKS)
			return -ELOOP;
		n = readlinkat(r->fd, out, target, sizeof(target) - 1);
		if (n < 0)
			return -errno;
		if (n == 0) /* an empty link leads nowhere, as for the kernel */
			return -ENOENT;
		target[n] = '\0';
		/* the rest after the link; a "/" only where the path had one ("link/" asks
		 * for a directory, "link" does not) */
		if (snprintf(next, sizeof(next), "%s%s%s", target, slash ? "/" : "", p) >=
		    (int)sizeof(next))
			return -ENAMETOOLONG;
		memcpy(todo, next, sizeof(todo));
		p = todo;
		/* The link itself is replaced by its target, from where the link was. */
		{
			char *last = strrchr(out, '/');
			olen = target[0] == '/' ? 0 : last ? (size_t)(last - out) : 0;
			out[olen] = '\0';
		}
	}
	if (!olen)
		snprintf(out, outlen, ".");
	return 0;
}
