// SPDX-License-Identifier: GPL-2.0-or-later
/* Where the netdev state comes from: the live kernel, a capture file or a snapshot's
 * capture, with --dev resolved the way each of them can, and the interface names. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev_priv.h"
#include "socbox/limits.h"
#include "socbox/netdev.h"

int sb_nd_source_enter(struct sb_nd_source *s, struct sb_err *e)
{
	s->origin = SB_ND_FROM_KERNEL;
	s->ifindex = 0;
	if (!sb_root_is_live(s->root)) {
		sb_err_set(e, EOPNOTSUPP, sb_root_path(s->root), "query netdev netlink", NULL);
		sb_err_reason(e, "needs the live kernel (netlink cannot be read from a sysroot)");
		sb_err_hint(e,
			    "on the board run with --save-netlink FILE, then here --load-netlink FILE");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -EOPNOTSUPP;
	}
	if (s->netns) {
		int rc = sb_netns_enter(s->netns, e);

		if (rc)
			return rc;
	}
	if (s->dev) {
		s->ifindex = if_nametoindex(s->dev);
		if (!s->ifindex)
			return sb_err_set(e, ENODEV, s->dev, "find interface",
					  s->netns ? "see 'ip -n %s link'"
						   : "see 'ip link'; --netns for another namespace",
					  s->netns);
	}
	return 0;
}

static int open_kernel(struct sb_nd_source *s, struct sb_err *e)
{
	int rc = sb_nd_source_enter(s, e);

	if (rc)
		return rc;
	if (s->record) {
		s->record_fp = fopen(s->record, "we");
		if (!s->record_fp)
			return sb_err_set(e, errno, s->record, "create", NULL);
	}
	rc = sb_nd_open(&s->g, e);
	s->family_absent = rc == -ENOENT;
	return rc;
}

/* A capture has no names: the device is given by its ifindex. */
static int open_capture(struct sb_nd_source *s, struct sb_err *e)
{
	char *end;
	unsigned long v;

	if (!s->dev)
		return 0;
	v = strtoul(s->dev, &end, 10);
	if (*end || !v || v > UINT32_MAX) {
		sb_err_set(e, EINVAL, s->dev, "find interface", NULL);
		sb_err_reason(e, "a capture has no interface names: give the ifindex");
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	s->ifindex = (uint32_t)v;
	return 0;
}

/* A snapshot: names from its /sys/class/net, dev by those. */
static int open_snapshot(struct sb_nd_source *s, struct sb_err *e)
{
	if (s->netns || s->record) {
		sb_err_set(e, EOPNOTSUPP, s->netns ? s->netns : s->record,
			   s->netns ? "enter network namespace" : "record netlink replies", NULL);
		sb_err_reason(e, "needs the live kernel, not a sysroot");
		sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -EOPNOTSUPP;
	}
	s->family_absent = sb_nd_snapshot_family_absent(s->root);
	if (sb_nd_read_ifnames(s->root, &s->names, &s->nnames) == -ENOMEM)
		return sb_err_set(e, ENOMEM, "interface names", "read", NULL);
	if (s->dev) {
		s->ifindex = sb_nd_ifindex_of(s->names, s->nnames, s->dev);
		if (!s->ifindex)
			return sb_err_set(e, ENODEV, s->dev, "find interface",
					  "the snapshot's interfaces are under %s/sys/class/net",
					  sb_root_path(s->root));
	}
	return 0;
}

int sb_nd_source_open(struct sb_nd_source *s, struct sb_err *e)
{
	s->ifindex = 0;
	s->family_absent = false;
	if (s->capture) {
		s->origin = SB_ND_FROM_CAPTURE;
		return open_capture(s, e);
	}
	if (!sb_root_is_live(s->root)) {
		s->origin = SB_ND_FROM_SNAPSHOT;
		return open_snapshot(s, e);
	}
	return open_kernel(s, e);
}

static int load_capture(const struct sb_nd_source *s, struct sb_nd_state *st, struct sb_err *e)
{
	char *buf = NULL;
	ssize_t n = sb_read_user_file(s->capture, &buf, SB_READ_CAPTURE_MAX);
	size_t parsed;
	int rc;

	if (n < 0)
		return sb_err_set(e, (int)-n, s->capture, "read netlink capture",
				  n == -EFBIG ? "over %u MiB" : NULL, SB_READ_CAPTURE_MAX >> 20);
	rc = sb_nd_state_from_buf(buf, (size_t)n, st);
	parsed = sb_nd_state_records(st);
	free(buf);
	if (rc < 0 && parsed == 0) { /* nothing parsed: not a capture at all */
		sb_err_set(e, EINVAL, s->capture, "read netlink capture",
			   "a file written by --save-netlink");
		sb_err_reason(e, "not a sequence of netlink messages");
		return -EINVAL;
	}
	if (rc < 0)
		st->malformed++;
	return 0;
}

/* After the state is cut to ifindex: an ifindex the capture lacks is not there. */
static int captured(const struct sb_nd_source *s, const struct sb_nd_state *st, struct sb_err *e)
{
	if (!s->ifindex || !(st->have & SB_ND_DEVS) || st->ndevs)
		return 0;
	sb_err_set(e, ENODEV, s->dev, "find interface",
		   "'devmemstat --load-netlink %s' lists the captured devices", s->capture);
	sb_err_reason(e, "no device with ifindex %u in the capture", s->ifindex);
	return -ENODEV;
}

static int load_kernel(struct sb_nd_source *s, unsigned parts, struct sb_nd_state *st,
		       struct sb_err *e)
{
	int rc;

	sb_nd_set_capture(s->record_fp);
	rc = sb_nd_collect(&s->g, parts, s->ifindex, st, e);
	sb_nd_set_capture(NULL);
	if (s->record_fp) {
		fclose(s->record_fp);
		s->record_fp = NULL;
	}
	return rc;
}

int sb_nd_source_load(struct sb_nd_source *s, unsigned parts, struct sb_nd_state *st,
		      struct sb_err *e)
{
	int rc;

	memset(st, 0, sizeof(*st));
	switch (s->origin) {
	case SB_ND_FROM_CAPTURE:
		rc = load_capture(s, st, e);
		break;
	case SB_ND_FROM_SNAPSHOT:
		rc = sb_nd_snapshot_load(s->root, parts, st, e);
		break;
	default:
		rc = load_kernel(s, parts, st, e);
		break;
	}
	if (!rc) {
		sb_nd_state_keep_ifindex(st, s->ifindex);
		if (s->origin == SB_ND_FROM_CAPTURE)
			rc = captured(s, st, e);
	}
	if (rc)
		sb_nd_state_free(st);
	return rc;
}

const char *sb_nd_source_ifname(const struct sb_nd_source *s, uint32_t ifindex, char *buf)
{
	const char *name;

	if (s->origin == SB_ND_FROM_SNAPSHOT) {
		name = sb_nd_ifname_of(s->names, s->nnames, ifindex);
		snprintf(buf, IF_NAMESIZE, "%s", name && ifindex ? name : "-");
		return buf;
	}
	/* A capture carries no names, and this machine's names would be wrong. */
	if (!ifindex || s->origin == SB_ND_FROM_CAPTURE || !if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "-");
	return buf;
}

void sb_nd_source_close(struct sb_nd_source *s)
{
	if (s->record_fp)
		fclose(s->record_fp);
	s->record_fp = NULL;
	sb_genl_close(&s->g);
	free(s->names);
	s->names = NULL;
	s->nnames = 0;
}

int sb_nd_state_from_root(const struct sb_root *r, unsigned parts, struct sb_nd_state *st,
			  struct sb_err *e)
{
	struct sb_nd_source s = { .root = r };
	int rc = sb_nd_source_open(&s, e);

	memset(st, 0, sizeof(*st));
	if (!rc)
		rc = sb_nd_source_load(&s, parts, st, e);
	sb_nd_source_close(&s);
	return rc;
}
