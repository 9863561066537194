/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board's object graph: which device serves which. The edges are the kernel's device
 * links (a device's supplier:BUS:NAME and consumer:BUS:NAME entries in sysfs, made by
 * fw_devlink from the firmware's references, or by drivers); the device tree says through
 * what: the consumer's node names the supplier's node (its phandle property) in mboxes,
 * memory-region, iommus, resets or power-domains. A device without supplier links
 * (fw_devlink off, or not knowing the property) gets its edges from those references
 * alone. Read a device at a time, the first time it is asked about, through the root
 * (live, --sysroot or a snapshot). */
#ifndef SOCBOX_DEVGRAPH_H
#define SOCBOX_DEVGRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/sys.h"

/* What an edge goes through when the device tree does not say: the device link alone. */
#define SB_DEVGRAPH_VIA_LINK "device link"

struct sb_devgraph_edge {
	char supplier[96]; /* device names as the kernel log has them: "30aa0000.mailbox" */
	char consumer[96];
	const char *via; /* "mboxes", "memory-region", "iommus", "resets", "power-domains",
			    or SB_DEVGRAPH_VIA_LINK */
};

struct sb_devgraph {
	const struct sb_root *root;
	struct sb_devgraph_edge *edges;
	size_t nedges, capedges;
	char **read; /* the devices whose links were read */
	size_t nread, capread;
	bool dt_scanned; /* the device tree's references of the devices without links read */
};

/* An empty graph over root; reads nothing. */
void sb_devgraph_init(struct sb_devgraph *g, const struct sb_root *root);
void sb_devgraph_free(struct sb_devgraph *g);
/* The devices dev serves (its consumers) or that serve it (its suppliers): up to max edges
 * into out, in the order sysfs lists them; returns how many there are (0 for a device with
 * none or that is not there), -ENOMEM with e set. */
ssize_t sb_devgraph_consumers(struct sb_devgraph *g, const char *dev, struct sb_devgraph_edge *out,
			      size_t max, struct sb_err *e);
ssize_t sb_devgraph_suppliers(struct sb_devgraph *g, const char *dev, struct sb_devgraph_edge *out,
			      size_t max, struct sb_err *e);
/* The device tree's reserved-memory nodes (drivers/of/of_reserved_mem.c), by the names the
 * kernel's log gives them ("vdevbuffer@55400000"). */
#define SB_DT_RESERVED_MEMORY "/sys/firmware/devicetree/base/reserved-memory"
/* The devices whose node names reserved-memory node `node` in its memory-region: up to max
 * edges into out (supplier the node, via "memory-region"); returns how many there are, 0
 * for a node the tree does not have or a name that is no node's (a '/', a leading '.'),
 * -ENOMEM with e set. */
ssize_t sb_devgraph_region_users(struct sb_devgraph *g, const char *node,
				 struct sb_devgraph_edge *out, size_t max, struct sb_err *e);
/* What a supplier is, said by the property that ties it: "mailbox" for mboxes,
 * "reserved memory" for memory-region, "IOMMU", "reset controller", "power domain", and
 * "supplier" for a device link alone. */
const char *sb_devgraph_role(const char *via);

#endif
