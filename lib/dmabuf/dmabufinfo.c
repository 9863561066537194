// SPDX-License-Identifier: GPL-2.0-or-later
/* Parsers for the files that tell who holds which dma-buf: fdinfo, maps and debugfs bufinfo. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/dmabufinfo.h"
#include "socbox/scan.h"

static void copy_field(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		n = len - 1;
	memcpy(dst, src, n);
	dst[n] = '\0';
	sb_rtrim(dst);
}

int sb_dmabuf_parse_fdinfo(const char *text, struct sb_dmabuf_fdinfo *fi)
{
	memset(fi, 0, sizeof(*fi));
	for (const char *line = text; line && *line;) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		const char *colon = memchr(line, ':', len);
		char key[16], val[64];

		if (colon && (size_t)(colon - line) < sizeof(key)) {
			const char *v = colon + 1;
			size_t vlen;

			copy_field(key, sizeof(key), line, (size_t)(colon - line));
			while (v < line + len && (*v == ' ' || *v == '\t'))
				v++;
			vlen = (size_t)(line + len - v);
			copy_field(val, sizeof(val), v, vlen);
			if (!strcmp(key, "exp_name")) {
				fi->is_dmabuf = true;
				snprintf(fi->exp_name, sizeof(fi->exp_name), "%s", val);
			} else if (!strcmp(key, "name")) {
				snprintf(fi->name, sizeof(fi->name), "%s", val);
			} else if (!strcmp(key, "ino")) {
				sb_parse_u64(val, 10, &fi->ino);
			} else if (!strcmp(key, "size")) {
				sb_parse_u64(val, 10, &fi->size);
			} else if (!strcmp(key, "count")) {
				sb_parse_u64(val, 10, &fi->count);
			} else if (!strcmp(key, "flags")) {
				sb_parse_u64(val, 8, &fi->flags);
			}
		}
		line = nl ? nl + 1 : NULL;
	}
	if (fi->is_dmabuf && !fi->exp_name[0])
		snprintf(fi->exp_name, sizeof(fi->exp_name), "?");
	return 0;
}

int sb_dmabuf_parse_maps_line(const char *line, struct sb_dmabuf_map *m)
{
	unsigned long long start, end, off, ino;
	unsigned maj, min;
	char perms[8];
	int pos = 0;
	const char *path;

	memset(m, 0, sizeof(*m));
	if (sb_sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, perms, &off, &maj,
		      &min, &ino, &pos) < 7 ||
	    pos == 0 || end < start)
		return -EINVAL;
	path = line + pos;
	if (!strncmp(path, "/dmabuf:", 8)) {
		size_t n = strcspn(path + 8, "\n");
		copy_field(m->name, sizeof(m->name), path + 8, n);
	} else if (strncmp(path, "anon_inode:dmabuf", 17) || (path[17] && path[17] != '\n')) {
		return 0;
	}
	m->start = start;
	m->end = end;
	m->ino = ino;
	return 1;
}

static int split_tabs(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static int add_attached(char ***v, size_t *n, const char *dev)
{
	char **nv = realloc(*v, (*n + 1) * sizeof(**v));

	if (!nv)
		return -ENOMEM;
	*v = nv;
	nv[*n] = strdup(dev);
	if (!nv[*n])
		return -ENOMEM;
	(*n)++;
	return 0;
}

static int parse_bufinfo_row(char *line, struct sb_bufinfo_entry *be)
{
	char *f[8];
	int n = split_tabs(line, f, 8);

	memset(be, 0, sizeof(*be));
	if (n < 6)
		return -EINVAL;
	for (int i = 0; i < n; i++)
		sb_rtrim(f[i]);
	if (!all_digits(f[0]) || !all_digits(f[3]) || !all_digits(f[5]))
		return -EINVAL;
	if (sb_parse_u64(f[0], 10, &be->size) || sb_parse_u64(f[3], 10, &be->count) ||
	    sb_parse_u64(f[5], 10, &be->ino))
		return -EINVAL;
	snprintf(be->exp_name, sizeof(be->exp_name), "%s", f[4]);
	if (n > 6 && strcmp(f[6], "<none>"))
		snprintf(be->name, sizeof(be->name), "%s", f[6]);
	return 0;
}

int sb_bufinfo_parse(const char *text, struct sb_bufinfo *bi, size_t *skipped)
{
	char *copy = strdup(text), *save = NULL, *line;
	struct sb_bufinfo_entry *cur = NULL;
	bool started = false, attach = false;
	int rc = 0;

	memset(bi, 0, sizeof(*bi));
	*skipped = 0;
	if (!copy)
		return -ENOMEM;
	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long a, b;

		if (!started) {
			started = !strncmp(line, "Dma-buf Objects:", 16);
			continue;
		}
		if (line[0] == '\t') {
			char *dev = line + 1;

			sb_rtrim(dev);
			if (!strcmp(dev, "Attached Devices:"))
				attach = cur != NULL;
			else if (attach && *dev && !strchr(dev, ' ') &&
				 add_attached(&cur->attached, &cur->nattached, dev))
				rc = -ENOMEM;
			continue;
		}
		attach = false;
		if (sb_sscanf(line, "Total %llu objects, %llu bytes", &a, &b) == 2) {
			bi->total_objects = a;
			bi->total_bytes = b;
			continue;
		}
		if (!strncmp(line, "Total ", 6) || !strncmp(line, "size", 4))
			continue;
		struct sb_bufinfo_entry be;
		if (parse_bufinfo_row(line, &be)) {
			(*skipped)++;
			cur = NULL;
			continue;
		}
		struct sb_bufinfo_entry *nv = realloc(bi->v, (bi->n + 1) * sizeof(*nv));
		if (!nv) {
			rc = -ENOMEM;
			break;
		}
		bi->v = nv;
		nv[bi->n] = be;
		cur = &nv[bi->n++];
	}
	free(copy);
	if (!rc && !started)
		rc = -EINVAL;
	if (rc)
		sb_bufinfo_free(bi);
	return rc;
}

void sb_bufinfo_free(struct sb_bufinfo *bi)
{
	for (size_t i = 0; i < bi->n; i++) {
		for (size_t k = 0; k < bi->v[i].nattached; k++)
			free(bi->v[i].attached[k]);
		free(bi->v[i].attached);
	}
	free(bi->v);
	memset(bi, 0, sizeof(*bi));
}

static void allocator_node(const struct sb_root *r, struct sb_dmabuf_allocator *al)
{
	struct stat st;
	int fd;

	if (!sb_root_is_live(r))
		return;
	al->node_checked = true;
	if (stat(al->node, &st))
		return;
	al->node_exists = true;
	al->mode = (unsigned)(st.st_mode & 07777);
	al->uid = (unsigned)st.st_uid;
	al->gid = (unsigned)st.st_gid;
	fd = open(al->node, (al->is_udmabuf ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	al->can_open = fd >= 0;
	if (fd >= 0)
		close(fd);
}

int sb_dmabuf_allocators(const struct sb_root *r, bool dev_fallback, struct sb_dmabuf_allocators *a)
{
	struct sb_dirlist heaps = { 0 };
	bool live = sb_root_is_live(r);

	memset(a, 0, sizeof(*a));
	if (sb_dir_list(r, &heaps, "/sys/class/dma_heap") < 0 && dev_fallback && live)
		sb_dir_list(r, &heaps, "/dev/dma_heap");
	a->udmabuf = sb_exists(r, "/sys/class/misc/udmabuf") ||
		     (dev_fallback && live && access("/dev/udmabuf", F_OK) == 0);
	a->v = calloc(heaps.n + 1, sizeof(*a->v));
	if (!a->v) {
		sb_dirlist_free(&heaps);
		return -ENOMEM;
	}
	for (size_t i = 0; i < heaps.n; i++) {
		struct sb_dmabuf_allocator *al = &a->v[a->n++];

		snprintf(al->name, sizeof(al->name), "%s", heaps.names[i]);
		snprintf(al->node, sizeof(al->node), "/dev/dma_heap/%s", heaps.names[i]);
		allocator_node(r, al);
	}
	a->nheaps = a->n;
	if (a->udmabuf) {
		struct sb_dmabuf_allocator *al = &a->v[a->n++];

		snprintf(al->name, sizeof(al->name), "udmabuf");
		snprintf(al->node, sizeof(al->node), "/dev/udmabuf");
		al->is_udmabuf = true;
		allocator_node(r, al);
	}
	sb_dirlist_free(&heaps);
	return 0;
}

void sb_dmabuf_allocators_free(struct sb_dmabuf_allocators *a)
{
	free(a->v);
	memset(a, 0, sizeof(*a));
}
