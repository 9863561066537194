// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat: where the netdev state comes from (the live kernel, a --load-netlink capture or
 * a snapshot), the options that choose it, and the interface names. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devmemstat.h"

char *dm_netns;
char *dm_dev;
char *dm_save_netlink;
char *dm_load_netlink;
static FILE *capture_fp;
/* On a sysroot: the snapshot's interface names (the capture carries only ifindexes). */
static struct sb_nd_ifname *snap_names;
static size_t nsnap_names;

struct poptOption dm_popt_ns[] = {
	{ "netns", '\0', POPT_ARG_STRING, &dm_netns, 0,
	  "query the network namespace NAME (/run/netns/NAME) or PATH", "NAME|PATH" },
	{ "dev", 'd', POPT_ARG_STRING, &dm_dev, 0, "only this interface", "IF" },
	POPT_TABLEEND
};

struct poptOption dm_popt_net[] = {
	{ NULL, '\0', POPT_ARG_INCLUDE_TABLE, dm_popt_ns, 0, NULL, NULL },
	{ "save-netlink", '\0', POPT_ARG_STRING, &dm_save_netlink, 0,
	  "also write the raw netlink replies to FILE (for a bug report)", "FILE" },
	{ "load-netlink", '\0', POPT_ARG_STRING, &dm_load_netlink, 0,
	  "answer from a --save-netlink FILE instead of the kernel", "FILE" },
	POPT_TABLEEND
};

const char *dm_ifname(uint32_t ifindex, char *buf)
{
	const char *name;

	if (snap_names) {
		name = sb_nd_ifname_of(snap_names, nsnap_names, ifindex);
		snprintf(buf, IF_NAMESIZE, "%s", name && ifindex ? name : "-");
		return buf;
	}
	/* A capture carries no names, and this machine's names would be wrong. */
	if (!ifindex || dm_load_netlink || !if_indextoname(ifindex, buf))
		snprintf(buf, IF_NAMESIZE, "-");
	return buf;
}

int dm_enter(struct sb_ctx *c, uint32_t *ifindex)
{
	struct sb_err e;

	sb_err_clear(&e);
	*ifindex = 0;
	if (!sb_root_is_live(c->root)) {
		sb_err_set(&e, EOPNOTSUPP, sb_root_path(c->root), "query netdev netlink", NULL);
		sb_err_reason(&e, "needs the live kernel (netlink cannot be read from a sysroot)");
		sb_err_hint(&e,
			    "on the board run with --save-netlink FILE, then here --load-netlink FILE");
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(c->applet, &e);
	}
	if (dm_netns && sb_netns_enter(dm_netns, &e))
		return sb_report(c->applet, &e);
	if (dm_dev) {
		*ifindex = if_nametoindex(dm_dev);
		if (!*ifindex) {
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   dm_netns ? "see 'ip -n %s link'"
					    : "see 'ip link'; --netns for another namespace",
				   dm_netns);
			return sb_report(c->applet, &e);
		}
	}
	return 0;
}

int dm_open(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	struct sb_err e;
	int rc;

	if (dm_load_netlink) {
		char *end;
		*ifindex = 0;
		if (dm_dev) {
			unsigned long v = strtoul(dm_dev, &end, 10);
			if (*end || !v || v > UINT32_MAX)
				return sb_usage_error(c,
						      "with --load-netlink, --dev takes an ifindex");
			*ifindex = (uint32_t)v;
		}
		return 0;
	}
	rc = dm_enter(c, ifindex);
	if (rc)
		return rc;
	if (dm_save_netlink) {
		capture_fp = fopen(dm_save_netlink, "we");
		if (!capture_fp) {
			sb_err_set(&e, errno, dm_save_netlink, "create", NULL);
			return sb_report(c->applet, &e);
		}
		sb_nd_set_capture(capture_fp);
	}
	sb_err_clear(&e);
	if (sb_nd_open(g, &e))
		return sb_report(c->applet, &e);
	sb_verbose(c->applet, "netdev family id %u version %u, %u multicast groups", g->id,
		   g->version, g->ngroups);
	return 0;
}

/* A snapshot: the state of the board, names from its /sys/class/net, --dev by those. */
static int open_snapshot(struct sb_ctx *c, uint32_t *ifindex)
{
	struct sb_err e;

	*ifindex = 0;
	if (dm_netns)
		return sb_need_live(c, "--netns");
	if (dm_save_netlink) /* the snapshot keeps the replies in SB_ND_SNAP_MSGS */
		return sb_need_live(c, "--save-netlink");
	if (sb_nd_read_ifnames(c->root, &snap_names, &nsnap_names) < 0)
		nsnap_names = 0;
	if (!snap_names)
		snap_names = calloc(1, sizeof(*snap_names));
	if (!snap_names) {
		sb_err_set(&e, ENOMEM, "interface names", "read", NULL);
		return sb_report(c->applet, &e);
	}
	if (dm_dev) {
		*ifindex = sb_nd_ifindex_of(snap_names, nsnap_names, dm_dev);
		if (!*ifindex) {
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   "the snapshot's interfaces are under %s/sys/class/net",
				   sb_root_path(c->root));
			return sb_report(c->applet, &e);
		}
	}
	return 0;
}

int dm_open_view(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	if (!dm_load_netlink && !sb_root_is_live(c->root))
		return open_snapshot(c, ifindex);
	return dm_open(c, g, ifindex);
}

uint64_t dm_boottime_s(const struct sb_nd_state *st)
{
	return dm_load_netlink ? 0 : st->boottime_s;
}

void dm_note_unsupported(struct sb_out *o, const struct sb_nd_state *st)
{
	char buf[1024];

	for (unsigned bit = 0; bit < 8; bit++) {
		if (!(st->unsupported & (1u << bit)))
			continue;
		sb_err_format(&st->part_err[bit], buf, sizeof(buf));
		sb_out_note(o, "%s", buf);
	}
	if (st->malformed)
		sb_out_problem(o, "%u netlink messages could not be parsed and were skipped",
			       st->malformed);
}

int dm_collect(struct sb_ctx *c, struct sb_genl *g, unsigned parts, uint32_t ifindex,
	       struct sb_nd_state *st)
{
	struct sb_err e;

	sb_err_clear(&e);
	memset(st, 0, sizeof(*st));
	if (dm_load_netlink) {
		char *buf = NULL;
		ssize_t n = sb_read_user_file(dm_load_netlink, &buf, SB_READ_CAPTURE_MAX);

		if (n < 0) {
			sb_err_set(&e, (int)-n, dm_load_netlink, "read netlink capture",
				   n == -EFBIG ? "over %u MiB" : NULL, SB_READ_CAPTURE_MAX >> 20);
			return sb_report(c->applet, &e);
		}
		int rc = sb_nd_state_from_buf(buf, (size_t)n, st);
		size_t parsed = sb_nd_state_records(st);

		free(buf);
		if (rc < 0 && parsed == 0) {
			/* nothing parsed: not a capture at all */
			sb_err_set(&e, EINVAL, dm_load_netlink, "read netlink capture",
				   "a file written by --save-netlink");
			sb_err_reason(&e, "not a sequence of netlink messages");
			sb_nd_state_free(st);
			return sb_report(c->applet, &e);
		}
		if (rc < 0)
			st->malformed++;
		sb_nd_state_keep_ifindex(st, ifindex);
		if (ifindex && (st->have & SB_ND_DEVS) && !st->ndevs) { /* named, not there */
			sb_nd_state_free(st);
			sb_err_set(&e, ENODEV, dm_dev, "find interface",
				   "'devmemstat --load-netlink %s' lists the captured devices",
				   dm_load_netlink);
			sb_err_reason(&e, "no device with ifindex %u in the capture", ifindex);
			return sb_report(c->applet, &e);
		}
		return 0;
	}
	if (!sb_root_is_live(c->root)) {
		if (sb_nd_state_from_root(c->root, parts, st, &e))
			return sb_report(c->applet, &e);
		sb_nd_state_keep_ifindex(st, ifindex);
		return 0;
	}
	if (sb_nd_collect(g, parts, ifindex, st, &e)) {
		sb_nd_state_free(st);
		return sb_report(c->applet, &e);
	}
	if (capture_fp) {
		sb_nd_set_capture(NULL);
		fclose(capture_fp);
		capture_fp = NULL;
	}
	sb_nd_state_keep_ifindex(st, ifindex);
	return 0;
}

void dm_source_done(void)
{
	free(snap_names);
	snap_names = NULL;
}
