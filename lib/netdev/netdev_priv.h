/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the netdev modules of libsocbox, not public. */
#ifndef SOCBOX_NETDEV_PRIV_H
#define SOCBOX_NETDEV_PRIV_H

#include "socbox/netdev.h"

/* One part of struct sb_nd_state (lib/netdev/netdev_parts.c). */
struct sb_nd_part_desc {
	unsigned part;	   /* enum sb_nd_part: 1u << its index in sb_nd_parts */
	int cmd;	   /* the dump that fills it */
	int ifindex_attr;  /* the dump's device filter attribute; 0: it has none */
	uint32_t scope;	   /* qstats scope asked for; 0: none */
	const char *needs; /* what brings it when not a kernel version (NULL: "needs Linux X") */
	int (*parse)(const struct nlmsghdr *nlh, void *record);
	bool (*takes)(const struct nlmsghdr *nlh); /* which messages of cmd are its (NULL: all) */
	int (*cmp)(const void *a, const void *b);  /* the order lookups search (NULL: none) */
	size_t items_off, n_off;  /* the array and its count in struct sb_nd_state */
	size_t size, ifindex_off; /* one record and its uint32_t ifindex */
};
extern const struct sb_nd_part_desc sb_nd_parts[SB_ND_NPARTS];

void **sb_nd_part_items(struct sb_nd_state *st, const struct sb_nd_part_desc *d);
size_t *sb_nd_part_count(struct sb_nd_state *st, const struct sb_nd_part_desc *d);
/* The part a message of a dump or a capture belongs to; NULL when none. */
const struct sb_nd_part_desc *sb_nd_part_of_msg(const struct nlmsghdr *nlh);
/* Free the part's array and count it empty. */
void sb_nd_part_drop(struct sb_nd_state *st, const struct sb_nd_part_desc *d);

/* Record that the kernel lacks part (one enum sb_nd_part bit): pe (errno, reason) completed
 * with the command's name and the kernel or config option that brings it, exit 3. */
void sb_nd_mark_unsupported(struct sb_nd_state *st, unsigned part, const struct sb_err *pe);

/* The parts of the state a snapshot's capture holds (sb_nd_source_load() from a sysroot). */
int sb_nd_snapshot_load(const struct sb_root *r, unsigned parts, struct sb_nd_state *st,
			struct sb_err *e);

#endif
