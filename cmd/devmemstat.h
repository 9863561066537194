/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared parts of the devmemstat applet (views, top, monitor, bind), in
 * cmd/devmemstat_source.c. */
#ifndef SOCBOX_CMD_DEVMEMSTAT_H
#define SOCBOX_CMD_DEVMEMSTAT_H

#include <net/if.h>
#include <string.h>

#include "socbox/cli.h"
#include "socbox/genl.h"
#include "socbox/netdev.h"

#define DM_APPLET "devmemstat"

/* --netns and --dev, shared by every command. */
extern char *dm_netns;
extern char *dm_dev;
extern char *dm_save_netlink;		/* --save-netlink FILE: keep the raw dump replies */
extern char *dm_load_netlink;		/* --load-netlink FILE: answer from such a capture */
extern struct poptOption dm_popt_net[]; /* --netns --dev and the capture options (views) */
extern struct poptOption dm_popt_ns[];	/* --netns --dev (top, monitor, bind) */
#define DM_POPT_NET \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, dm_popt_net, 0, "Network options:", NULL \
	}
#define DM_POPT_NS \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, dm_popt_ns, 0, "Network options:", NULL \
	}

/* Enter --netns, resolve --dev to *ifindex (0 when not given) and open the netdev family.
 * Needs the live kernel. Returns 0, or an exit code after reporting the problem. */
int dm_open(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex);
/* The views' struct sb_nd_source, chosen by --load-netlink and --sysroot, opened with --netns,
 * --dev (its ifindex into *ifindex) and --save-netlink; dm_collect then loads from it. The
 * source holds the family and the ifindex: g and ifindex of dm_collect are not read (nor g
 * written), and only remain for the callers. Each returns 0, or an exit code after a
 * report. */
int dm_open_view(struct sb_ctx *c, struct sb_genl *g, uint32_t *ifindex);
int dm_collect(struct sb_ctx *c, struct sb_genl *g, unsigned parts, uint32_t ifindex,
	       struct sb_nd_state *st);
/* Only the namespace and --dev (no netlink): for top's interface-counter fallback. */
int dm_enter(struct sb_ctx *c, uint32_t *ifindex);
/* The name of an interface as the views' source knows it (without one: the current
 * namespace's), or "-". */
const char *dm_ifname(uint32_t ifindex, char *buf);
/* An interface name for a cell: NULL (JSON null, "-" in text) for the "-" of no name. */
static inline const char *dm_known(const char *name)
{
	return name && strcmp(name, "-") ? name : NULL;
}
/* CLOCK_BOOTTIME seconds for pool ages: when st was collected (live, or the snapshot's
 * capture); 0 when answering from a --load-netlink file (another boot, time unknown). */
uint64_t dm_boottime_s(const struct sb_nd_state *st);
/* One note per part the kernel could not answer. */
void dm_note_unsupported(struct sb_out *o, const struct sb_nd_state *st);
/* Close the views' source (at the applet's end). */
void dm_source_done(void);

int dm_top(struct sb_ctx *c, int argc, const char **argv);
int dm_monitor(struct sb_ctx *c, int argc, const char **argv);
/* --size of bind and rx (the udmabuf's bytes) */
extern struct sb_cli_value dm_size;
#define DM_POPT_SIZE \
	{ \
		"size", 's', SB_POPT_ARG_VALUE, &dm_size, 0, "udmabuf size, K, M or G suffix", \
			"SIZE" \
	}
/* --dev, --queues and --size of bind and rx: 0, or the usage error's exit code. */
int dm_binding_args(struct sb_ctx *c, const char *queues_arg, unsigned **queues, unsigned *nqueues,
		    uint64_t *size);
int dm_bind(struct sb_ctx *c, int argc, const char **argv);
int dm_rx(struct sb_ctx *c, int argc, const char **argv);

#endif
