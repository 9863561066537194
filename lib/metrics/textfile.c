// SPDX-License-Identifier: GPL-2.0-or-later
/* One exposition from several views, and its atomic write for node_exporter. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/textfile.h"

#define EOF_LINE "# EOF\n"

void sb_expo_init(struct sb_expo *x, bool openmetrics)
{
	memset(x, 0, sizeof(*x));
	x->openmetrics = openmetrics;
}

void sb_expo_free(struct sb_expo *x)
{
	for (size_t i = 0; i < x->nfamilies; i++)
		free(x->families[i]);
	free(x->families);
	free(x->text);
	memset(x, 0, sizeof(*x));
}

static int append(struct sb_expo *x, const char *s, size_t n)
{
	if (x->len + n + 1 > x->cap) {
		size_t cap = x->cap ? x->cap : 4096;
		char *t;

		while (cap < x->len + n + 1)
			cap *= 2;
		t = realloc(x->text, cap);
		if (!t)
			return -ENOMEM;
		x->text = t;
		x->cap = cap;
	}
	memcpy(x->text + x->len, s, n);
	x->len += n;
	x->text[x->len] = '\0';
	return 0;
}

static bool seen(const struct sb_expo *x, const char *name, size_t n)
{
	for (size_t i = 0; i < x->nfamilies; i++)
		if (strlen(x->families[i]) == n && !memcmp(x->families[i], name, n))
			return true;
	return false;
}

static int remember(struct sb_expo *x, const char *name, size_t n)
{
	char **v = realloc(x->families, (x->nfamilies + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	x->families = v;
	v[x->nfamilies] = strndup(name, n);
	if (!v[x->nfamilies])
		return -ENOMEM;
	x->nfamilies++;
	return 0;
}

int sb_expo_add(struct sb_expo *x, const char *chunk, size_t len)
{
	size_t body = len, start = x->len, nfam = x->nfamilies;
	bool keep = true;
	int rc = 0;

	if (len && chunk[len - 1] != '\n')
		return -EINVAL;
	if (x->openmetrics) {
		size_t el = strlen(EOF_LINE);

		if (len < el || memcmp(chunk + len - el, EOF_LINE, el))
			return -EINVAL;
		body = len - el;
		if (body && chunk[body - 1] != '\n')
			return -EINVAL; /* "x# EOF": the EOF is not a line of its own */
		if (memmem(chunk, body, EOF_LINE, el) == chunk ||
		    memmem(chunk, body, "\n" EOF_LINE, el + 1))
			return -EINVAL; /* text after an EOF */
	}
	for (size_t off = 0; off < body && !rc;) {
		const char *line = chunk + off;
		const char *nl = memchr(line, '\n', body - off);
		size_t n = nl ? (size_t)(nl - line) + 1 : body - off;

		if (n > 7 && !memcmp(line, "# HELP ", 7)) {
			const char *name = line + 7;
			size_t nn = strcspn(name, " \n");

			keep = !seen(x, name, nn);
			if (keep)
				rc = remember(x, name, nn);
			else
				x->dropped++;
		}
		if (keep && !rc)
			rc = append(x, line, n);
		off += n;
	}
	if (rc) { /* as if never added */
		x->len = start;
		if (x->text)
			x->text[start] = '\0';
		while (x->nfamilies > nfam)
			free(x->families[--x->nfamilies]);
	}
	return rc;
}

const char *sb_expo_finish(struct sb_expo *x, size_t *len)
{
	if (x->openmetrics && append(x, EOF_LINE, strlen(EOF_LINE)))
		return NULL;
	if (!x->text && append(x, "", 0))
		return NULL;
	*len = x->len;
	return x->text;
}

int sb_textfile_write(const char *dir, const char *name, const char *data, size_t len,
		      struct sb_err *e)
{
	char *tmp = NULL, *dst = NULL;
	int fd = -1, dfd = -1, rc = 0;
	size_t off = 0;

	if (asprintf(&tmp, "%s/.%s.XXXXXX", dir, name) < 0 ||
	    asprintf(&dst, "%s/%s", dir, name) < 0) {
		rc = sb_err_set(e, ENOMEM, dir, "write the textfile", NULL);
		goto out;
	}
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0) {
		rc = sb_err_set(e, errno, dir, "open the textfile directory",
				errno == ENOENT
					? "create it, or name the one node_exporter's --collector.textfile.directory reads"
					: NULL);
		goto out;
	}
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0) {
		rc = sb_err_set(e, errno, dir, "create a temporary file", NULL);
		goto out;
	}
	/* node_exporter runs as its own user: the file must be readable by it */
	if (fchmod(fd, 0644) < 0) {
		rc = sb_err_set(e, errno, tmp, "chmod", NULL);
		goto out;
	}
	while (off < len) {
		ssize_t n = write(fd, data + off, len - off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = sb_err_set(e, n < 0 ? errno : EIO, tmp, "write", NULL);
			goto out;
		}
		off += (size_t)n;
	}
	if (fsync(fd) < 0) {
		rc = sb_err_set(e, errno, tmp, "fsync", NULL);
		goto out;
	}
	if (rename(tmp, dst) < 0) {
		rc = sb_err_set(e, errno, dst, "rename the new textfile into place", NULL);
		goto out;
	}
	free(tmp);
	tmp = NULL;
	fsync(dfd); /* the rename reaches the disk; a failure here loses nothing written */
out:
	if (fd >= 0)
		close(fd);
	if (dfd >= 0)
		close(dfd);
	if (tmp && fd >= 0)
		unlink(tmp);
	free(tmp);
	free(dst);
	return rc;
}
