// SPDX-License-Identifier: GPL-2.0-or-later
/* The dma-buf inventory: every buffer from debugfs bufinfo (when mounted and readable) and
 * from each process's fdinfo and maps, with the processes holding it. Files only, so it works
 * on a snapshot. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/dmabufinfo.h"

static struct sb_dmabuf_obj *find_obj(struct sb_dmabuf_inventory *inv, uint64_t ino, bool create)
{
	struct sb_dmabuf_obj *nv;

	for (size_t i = 0; i < inv->n; i++)
		if (inv->v[i].ino == ino)
			return &inv->v[i];
	if (!create)
		return NULL;
	nv = realloc(inv->v, (inv->n + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	inv->v = nv;
	memset(&nv[inv->n], 0, sizeof(*nv));
	nv[inv->n].ino = ino;
	return &nv[inv->n++];
}

static struct sb_dmabuf_holder *add_holder(
	struct sb_dmabuf_obj *o, pid_t pid, const char *comm, enum sb_holder_how how)
{
	struct sb_dmabuf_holder *nv;

	if (how == SB_HOLD_MAP)
		for (size_t i = 0; i < o->nholders; i++)
			if (o->holders[i].pid == pid && o->holders[i].how == SB_HOLD_MAP)
				return &o->holders[i];
	nv = realloc(o->holders, (o->nholders + 1) * sizeof(*nv));
	if (!nv)
		return NULL;
	o->holders = nv;
	memset(&nv[o->nholders], 0, sizeof(*nv));
	nv[o->nholders].pid = pid;
	nv[o->nholders].how = how;
	nv[o->nholders].fd = -1;
	snprintf(nv[o->nholders].comm, sizeof(nv[o->nholders].comm), "%s", comm);
	return &nv[o->nholders++];
}

static void free_attached(struct sb_dmabuf_obj *o)
{
	for (size_t k = 0; k < o->nattached; k++)
		free(o->attached[k]);
	free(o->attached);
	o->attached = NULL;
	o->nattached = 0;
}

static int load_bufinfo(const struct sb_root *r, struct sb_dmabuf_inventory *inv)
{
	struct sb_bufinfo bi;
	size_t skipped;
	char *text;
	int rc;

	if (sb_read_file(r, &text, SB_READ_LOG_MAX, "/sys/kernel/debug/dma_buf/bufinfo") < 0)
		return 0;
	rc = sb_bufinfo_parse(text, &bi, &skipped);
	free(text);
	if (rc)
		return rc == -ENOMEM ? rc : 0;
	inv->have_bufinfo = true;
	for (size_t i = 0; i < bi.n; i++) {
		struct sb_dmabuf_obj *o = find_obj(inv, bi.v[i].ino, true);

		if (!o) {
			sb_bufinfo_free(&bi);
			return -ENOMEM;
		}
		o->size = bi.v[i].size;
		o->count = bi.v[i].count;
		o->in_bufinfo = true;
		snprintf(o->exp_name, sizeof(o->exp_name), "%s", bi.v[i].exp_name);
		snprintf(o->name, sizeof(o->name), "%s", bi.v[i].name);
		/* hand the device list over; bufinfo listing an inode twice (only a made-up file
		 * does) keeps the last list */
		free_attached(o);
		o->attached = bi.v[i].attached;
		o->nattached = bi.v[i].nattached;
		bi.v[i].attached = NULL;
		bi.v[i].nattached = 0;
	}
	sb_bufinfo_free(&bi);
	return 0;
}

static bool fd_may_be_dmabuf(const struct sb_root *r, const char *pid, const char *fd)
{
	char link[256];

	/* Snapshots carry only fdinfo: without the link, read the fdinfo to know. */
	if (sb_readlink(r, link, sizeof(link), "/proc/%s/fd/%s", pid, fd) < 0)
		return true;
	return strstr(link, "dmabuf") != NULL;
}

static int scan_fds(const struct sb_root *r, struct sb_dmabuf_inventory *inv, const char *pid,
		    const char *comm)
{
	struct sb_dirlist fds;
	int rc;

	rc = sb_dir_list(r, &fds, "/proc/%s/fdinfo", pid);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < fds.n; i++) {
		struct sb_dmabuf_fdinfo fi;
		struct sb_dmabuf_obj *o;
		struct sb_dmabuf_holder *h;
		char *text;

		if (!fd_may_be_dmabuf(r, pid, fds.names[i]))
			continue;
		if (sb_read_file(r, &text, SB_READ_ATTR_MAX, "/proc/%s/fdinfo/%s", pid,
				 fds.names[i]) < 0)
			continue;
		sb_dmabuf_parse_fdinfo(text, &fi);
		free(text);
		if (!fi.is_dmabuf || !fi.ino)
			continue;
		o = find_obj(inv, fi.ino, true);
		h = o ? add_holder(o, (pid_t)atoi(pid), comm, SB_HOLD_FD) : NULL;
		if (!h) {
			sb_dirlist_free(&fds);
			return -ENOMEM;
		}
		h->fd = atoi(fds.names[i]);
		if (fi.size)
			o->size = fi.size;
		if (!o->count)
			o->count = fi.count;
		if (!o->exp_name[0])
			snprintf(o->exp_name, sizeof(o->exp_name), "%s", fi.exp_name);
		if (!o->name[0])
			snprintf(o->name, sizeof(o->name), "%s", fi.name);
	}
	sb_dirlist_free(&fds);
	return 0;
}

static int scan_maps(const struct sb_root *r, struct sb_dmabuf_inventory *inv, const char *pid,
		     const char *comm)
{
	char *text, *save = NULL;
	int rc = 0;

	if (sb_read_file(r, &text, SB_READ_PROC_MAX, "/proc/%s/maps", pid) < 0)
		return -EACCES;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct sb_dmabuf_map m;
		struct sb_dmabuf_obj *o;
		struct sb_dmabuf_holder *h;

		if (!strstr(line, "dmabuf") || sb_dmabuf_parse_maps_line(line, &m) != 1)
			continue;
		o = find_obj(inv, m.ino, true);
		h = o ? add_holder(o, (pid_t)atoi(pid), comm, SB_HOLD_MAP) : NULL;
		if (!h) {
			rc = -ENOMEM;
			break;
		}
		h->map_bytes += m.end - m.start;
		if (!o->name[0])
			snprintf(o->name, sizeof(o->name), "%s", m.name);
	}
	free(text);
	return rc;
}

static bool holds(const struct sb_dmabuf_obj *o, pid_t pid)
{
	for (size_t i = 0; i < o->nholders; i++)
		if (o->holders[i].pid == pid)
			return true;
	return false;
}

static void free_obj(struct sb_dmabuf_obj *o)
{
	free_attached(o);
	free(o->holders);
}

int sb_dmabuf_inventory(const struct sb_root *r, pid_t pid, struct sb_dmabuf_inventory *inv,
			struct sb_err *e)
{
	struct sb_dirlist procs;
	int rc;

	memset(inv, 0, sizeof(*inv));
	rc = load_bufinfo(r, inv);
	if (rc) {
		sb_dmabuf_inventory_free(inv);
		return sb_err_set(e, -rc, "bufinfo", "read", NULL);
	}
	rc = sb_dir_list(r, &procs, "/proc");
	if (rc < 0) {
		sb_dmabuf_inventory_free(inv);
		return sb_err_set(e, -rc, "/proc", "list processes", "mount procfs");
	}
	for (size_t i = 0; i < procs.n; i++) {
		const char *p = procs.names[i];
		char comm[32] = "?";

		if (*p < '1' || *p > '9' || strspn(p, "0123456789") != strlen(p))
			continue;
		inv->procs_seen++;
		sb_attr_str(r, comm, sizeof(comm), "/proc/%s/comm", p);
		rc = scan_fds(r, inv, p, comm);
		if (rc == -ENOMEM)
			break;
		if (rc == -EACCES || rc == -EPERM)
			inv->procs_denied++;
		rc = scan_maps(r, inv, p, comm);
		if (rc == -ENOMEM)
			break;
		rc = 0;
	}
	sb_dirlist_free(&procs);
	if (rc) {
		sb_dmabuf_inventory_free(inv);
		return sb_err_set(e, -rc, "/proc", "scan processes", NULL);
	}
	if (pid) {
		size_t keep = 0;

		for (size_t i = 0; i < inv->n; i++) {
			if (holds(&inv->v[i], pid))
				inv->v[keep++] = inv->v[i];
			else
				free_obj(&inv->v[i]);
		}
		inv->n = keep;
	}
	return 0;
}

void sb_dmabuf_inventory_free(struct sb_dmabuf_inventory *inv)
{
	for (size_t i = 0; i < inv->n; i++)
		free_obj(&inv->v[i]);
	free(inv->v);
	memset(inv, 0, sizeof(*inv));
}
