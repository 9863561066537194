// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsg sysfs view: channels on the bus, control and endpoint devices in the class. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/rpmsg.h"
#include "socbox/udev.h"

int sb_rpmsg_index(const char *name, const char *prefix, unsigned *index)
{
	size_t plen = strlen(prefix);
	uint64_t v;

	if (strncmp(name, prefix, plen) || !name[plen])
		return -EINVAL;
	for (const char *p = name + plen; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	if (sb_parse_u64(name + plen, 10, &v) || v > 0xffffffffu)
		return -EINVAL;
	*index = (unsigned)v;
	return 0;
}

/* The last two dot-separated fields are signed decimal addresses; the first is the parent
 * (virtio0); everything between is the channel name, which may contain dots itself. */
int sb_rpmsg_parse_devname(const char *dev, char *parent, size_t plen, char *name, size_t nlen,
			   int64_t *src, int64_t *dst)
{
	const char *first = strchr(dev, '.'), *last = strrchr(dev, '.'), *second;
	char buf[32];
	size_t n;

	if (!first || last == first)
		return -EINVAL;
	for (second = last - 1; second > first && *second != '.'; second--)
		;
	if (second == first)
		return -EINVAL;
	if (sb_parse_s64(last + 1, 10, dst))
		return -EINVAL;
	n = (size_t)(last - second - 1);
	if (n == 0 || n >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, second + 1, n);
	buf[n] = '\0';
	if (sb_parse_s64(buf, 10, src))
		return -EINVAL;
	n = (size_t)(second - first - 1);
	if (n == 0 || n >= nlen || (size_t)(first - dev) >= plen || first == dev)
		return -EINVAL;
	memcpy(name, first + 1, n);
	name[n] = '\0';
	memcpy(parent, dev, (size_t)(first - dev));
	parent[first - dev] = '\0';
	return 0;
}

void sb_rpmsg_link_parts(const char *link, char *parent, size_t plen, char *rproc, size_t rlen)
{
	char *copy = strdup(link ? link : ""), *comp[64], *save = NULL;
	unsigned idx;
	int n = 0;

	if (plen)
		parent[0] = '\0';
	if (rlen)
		rproc[0] = '\0';
	if (!copy)
		return;
	for (char *t = strtok_r(copy, "/", &save); t && n < 64; t = strtok_r(NULL, "/", &save))
		comp[n++] = t;
	for (int i = n - 2; i >= 0; i--) {
		if (!strcmp(comp[i], "rpmsg") || !strcmp(comp[i], ".."))
			continue;
		snprintf(parent, plen, "%s", comp[i]);
		break;
	}
	for (int i = n - 1; i >= 0; i--) {
		if (!sb_rpmsg_index(comp[i], "remoteproc", &idx)) {
			snprintf(rproc, rlen, "%s", comp[i]);
			break;
		}
	}
	free(copy);
}

static void *grow(void *arr, size_t n, size_t size)
{
	return reallocarray(arr, n + 1, size);
}

static void scan_channel(const struct sb_root *r, const char *dev, struct sb_rpmsg_channel *c)
{
	char link[512], text[64];
	uint64_t v;
	int64_t s, d;

	memset(c, 0, sizeof(*c));
	snprintf(c->dev, sizeof(c->dev), "%s", dev);
	c->announce = -1;
	if (sb_attr_str(r, c->name, sizeof(c->name), "/sys/bus/rpmsg/devices/%s/name", dev) < 0) {
		char parent[64];

		if (sb_rpmsg_parse_devname(dev, parent, sizeof(parent), c->name, sizeof(c->name),
					   &s, &d))
			c->name[0] = '\0';
	}
	if (sb_attr_hex(r, &v, "/sys/bus/rpmsg/devices/%s/src", dev) >= 0 && v <= 0xffffffffu) {
		c->src = (uint32_t)v;
		c->have_src = true;
	}
	if (sb_attr_hex(r, &v, "/sys/bus/rpmsg/devices/%s/dst", dev) >= 0 && v <= 0xffffffffu) {
		c->dst = (uint32_t)v;
		c->have_dst = true;
	}
	if (sb_attr_str(r, text, sizeof(text), "/sys/bus/rpmsg/devices/%s/announce", dev) >= 0) {
		bool b;

		if (!sb_parse_bool(text, &b))
			c->announce = b;
	}
	if (sb_link_name(r, c->driver, sizeof(c->driver), "/sys/bus/rpmsg/devices/%s/driver", dev) <
	    0)
		c->driver[0] = '\0';
	if (sb_readlink(r, link, sizeof(link), "/sys/bus/rpmsg/devices/%s", dev) >= 0) {
		char parent[128];

		sb_rpmsg_link_parts(link, parent, sizeof(parent), c->remoteproc,
				    sizeof(c->remoteproc));
	}
}

static void scan_class_common(const struct sb_root *r, const char *name, char *devnode, size_t dlen,
			      char *parent, size_t plen, char *rproc, size_t rlen)
{
	char link[512], syspath[192];

	snprintf(syspath, sizeof(syspath), "/sys/class/rpmsg/%s", name);
	if (sb_devnode(r, syspath, devnode, dlen) < 0)
		snprintf(devnode, dlen, "/dev/%s", name);
	if (sb_readlink(r, link, sizeof(link), "%s", syspath) >= 0)
		sb_rpmsg_link_parts(link, parent, plen, rproc, rlen);
}

static void scan_eptdev(const struct sb_root *r, const char *name, struct sb_rpmsg_eptdev *p)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	sb_rpmsg_index(name, "rpmsg", &p->index);
	if (sb_attr_str(r, p->ept_name, sizeof(p->ept_name), "/sys/class/rpmsg/%s/name", name) < 0)
		p->ept_name[0] = '\0';
	p->have_src = sb_attr_s64(r, &p->src, "/sys/class/rpmsg/%s/src", name) >= 0;
	p->have_dst = sb_attr_s64(r, &p->dst, "/sys/class/rpmsg/%s/dst", name) >= 0;
	scan_class_common(r, name, p->devnode, sizeof(p->devnode), p->parent, sizeof(p->parent),
			  p->remoteproc, sizeof(p->remoteproc));
}

static int scan_class(const struct sb_root *r, struct sb_rpmsg_state *st, struct sb_err *e)
{
	struct sb_dirlist l = { 0 };
	int rc = sb_dir_list(r, &l, "/sys/class/rpmsg");
	unsigned idx;

	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return sb_err_set(e, -rc, "/sys/class/rpmsg", "list rpmsg devices", NULL);
	st->class_present = true;
	for (size_t i = 0; i < l.n; i++) {
		const char *name = l.names[i];

		if (!sb_rpmsg_index(name, "rpmsg_ctrl", &idx)) {
			struct sb_rpmsg_ctrl *c, *arr = grow(st->ctrls, st->nctrls, sizeof(*c));

			if (!arr)
				goto nomem;
			st->ctrls = arr;
			c = &arr[st->nctrls++];
			memset(c, 0, sizeof(*c));
			snprintf(c->name, sizeof(c->name), "%s", name);
			c->index = idx;
			scan_class_common(r, name, c->devnode, sizeof(c->devnode), c->channel,
					  sizeof(c->channel), c->remoteproc, sizeof(c->remoteproc));
		} else if (!sb_rpmsg_index(name, "rpmsg", &idx)) {
			struct sb_rpmsg_eptdev *arr = grow(st->epts, st->nepts, sizeof(*arr));

			if (!arr)
				goto nomem;
			st->epts = arr;
			scan_eptdev(r, name, &arr[st->nepts++]);
		}
	}
	sb_dirlist_free(&l);
	return 0;
nomem:
	sb_dirlist_free(&l);
	return sb_err_set(e, ENOMEM, "/sys/class/rpmsg", "list rpmsg devices", NULL);
}

int sb_rpmsg_scan(const struct sb_root *r, struct sb_rpmsg_state *st, struct sb_err *e)
{
	struct sb_dirlist l = { 0 };
	int rc;

	memset(st, 0, sizeof(*st));
	rc = sb_dir_list(r, &l, "/sys/bus/rpmsg/devices");
	st->bus_present = rc >= 0 || sb_is_dir(r, "/sys/bus/rpmsg");
	if (rc < 0 && rc != -ENOENT)
		return sb_err_set(e, -rc, "/sys/bus/rpmsg/devices", "list rpmsg channels", NULL);
	if (rc >= 0 && l.n) {
		st->channels = calloc(l.n, sizeof(*st->channels));
		if (!st->channels) {
			sb_dirlist_free(&l);
			return sb_err_set(e, ENOMEM, "/sys/bus/rpmsg/devices",
					  "list rpmsg channels", NULL);
		}
		for (size_t i = 0; i < l.n; i++)
			scan_channel(r, l.names[i], &st->channels[st->nchannels++]);
	}
	sb_dirlist_free(&l);
	rc = scan_class(r, st, e);
	if (rc < 0)
		sb_rpmsg_state_free(st);
	return rc;
}

void sb_rpmsg_state_free(struct sb_rpmsg_state *st)
{
	free(st->channels);
	free(st->ctrls);
	free(st->epts);
	memset(st, 0, sizeof(*st));
}

const char *const sb_rpmsg_method_names
	[] = { [SB_RPMSG_AUTO] = "auto", [SB_RPMSG_LEGACY] = "legacy", [SB_RPMSG_FD] = "fd", NULL };

const char *sb_rpmsg_method_name(enum sb_rpmsg_method m)
{
	return m == SB_RPMSG_LEGACY || m == SB_RPMSG_FD ? sb_rpmsg_method_names[m] : "auto";
}

int sb_rpmsg_method_parse(const char *s, enum sb_rpmsg_method *m)
{
	for (int i = 0; sb_rpmsg_method_names[i]; i++)
		if (!strcmp(s, sb_rpmsg_method_names[i])) {
			*m = (enum sb_rpmsg_method)i;
			return 0;
		}
	return -EINVAL;
}

int sb_rpmsg_method_lasting(enum sb_rpmsg_method m, enum sb_rpmsg_method *out, struct sb_err *e)
{
	if (m == SB_RPMSG_FD) {
		sb_err_set(e, EINVAL, "--method fd", "create a lasting endpoint",
			   "use --method legacy (or auto) for a /dev/rpmsgN that stays; send, recv and ping take --method fd");
		sb_err_reason(
			e,
			"an fd endpoint is destroyed when its last file descriptor closes, so it would be gone when this process exits");
		return -EINVAL;
	}
	*out = SB_RPMSG_LEGACY;
	return 0;
}
