// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat: where the netdev state comes from (the live kernel, a --load-netlink capture or
 * a snapshot: struct sb_nd_source), the options that choose it, and the interface names. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>

#include "devmemstat.h"

char *dm_netns;
char *dm_dev;
char *dm_save_netlink;
char *dm_load_netlink;
/* The views' source, open from dm_open_view() to the applet's end (dm_ifname() names by it);
 * all zero for top, monitor and bind, which ask the kernel. */
static struct sb_nd_source src;

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
	return sb_nd_source_ifname(&src, ifindex, buf);
}

int dm_enter(struct sb_ctx *c, uint32_t *ifindex)
{
	struct sb_nd_source kernel = { .root = c->root, .netns = dm_netns, .dev = dm_dev };
	struct sb_err e;

	sb_err_clear(&e);
	*ifindex = 0;
	if (sb_nd_source_enter(&kernel, &e))
		return sb_report(c->applet, &e);
	*ifindex = kernel.ifindex;
	return 0;
}

static void say_family(const struct sb_ctx *c, const struct sb_genl *g)
{
	sb_verbose(c->applet, "netdev family id %u version %u, %u multicast groups", g->id,
		   g->version, g->ngroups);
}

int dm_open(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	struct sb_err e;
	int rc = sb_cli_live(c);

	if (rc || (rc = dm_enter(c, ifindex)))
		return rc;
	sb_err_clear(&e);
	if (sb_nd_open(g, &e))
		return sb_report(c->applet, &e);
	say_family(c, g);
	return 0;
}

int dm_open_view(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex)
{
	struct sb_err e;
	int rc;

	*ifindex = 0;
	if (!dm_load_netlink && !sb_root_is_live(c->root)) {
		if (dm_netns)
			return sb_need_live(c, "--netns");
		if (dm_save_netlink) /* the snapshot keeps the replies in SB_ND_SNAP_MSGS */
			return sb_need_live(c, "--save-netlink");
	}
	src = (struct sb_nd_source){
		.root = c->root,
		.capture = dm_load_netlink,
		.record = dm_save_netlink,
		.netns = dm_netns,
		.dev = dm_dev
	};
	sb_err_clear(&e);
	rc = sb_nd_source_open(&src, &e);
	if (rc && sb_err_exit_code(&e) == SB_EXIT_USAGE)
		return sb_usage_error(c, "with --load-netlink, --dev takes an ifindex");
	if (rc)
		return sb_report(c->applet, &e);
	if (src.origin == SB_ND_FROM_KERNEL)
		say_family(c, &src.g);
	*ifindex = src.ifindex;
	return 0;
}

uint64_t dm_boottime_s(const struct sb_nd_state *st)
{
	return st->boottime_s;
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
	if (sb_nd_source_load(&src, parts, st, &e))
		return sb_report(c->applet, &e);
	return 0;
}

void dm_source_done(void)
{
	sb_nd_source_close(&src);
}
