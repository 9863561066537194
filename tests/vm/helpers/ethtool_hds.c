// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-ethtool-hds: header-data split on or off for a device, with hds-thresh 0, through
 * the ethtool netlink family (ETHTOOL_MSG_RINGS_SET). A devmem binding needs both; Debian
 * bookworm's ethtool (6.1) cannot set either, and the guest has no ethtool at all.
 *   socbox-ethtool-hds IFNAME on|off */
#define _GNU_SOURCE
#include <net/if.h>
#include <stdio.h>
#include <string.h>

#include "socbox/genl.h"
#include "socbox/nl.h"

/* include/uapi/linux/ethtool_netlink_generated.h */
enum {
	ETHTOOL_MSG_RINGS_SET = 16,
	ETHTOOL_A_RINGS_HEADER = 1,
	ETHTOOL_A_RINGS_TCP_DATA_SPLIT = 11,
	ETHTOOL_A_RINGS_HDS_THRESH = 17,
	ETHTOOL_A_HEADER_DEV_INDEX = 1,
	ETHTOOL_TCP_DATA_SPLIT_DISABLED = 1,
	ETHTOOL_TCP_DATA_SPLIT_ENABLED = 2,
};

int main(int argc, char **argv)
{
	unsigned char buf[SB_NL_MSG_SIZE] __attribute__((aligned(8)));
	uint8_t split;
	struct sb_genl g;
	struct sb_nl_msg m;
	struct nlattr *hdr;
	struct sb_err e;
	unsigned ifindex;

	if (argc != 3 || (strcmp(argv[2], "on") && strcmp(argv[2], "off"))) {
		fprintf(stderr, "usage: %s IFNAME on|off\n", argv[0]);
		return 2;
	}
	ifindex = if_nametoindex(argv[1]);
	if (!ifindex) {
		perror(argv[1]);
		return 1;
	}
	split = strcmp(argv[2], "on") ? ETHTOOL_TCP_DATA_SPLIT_DISABLED
				      : ETHTOOL_TCP_DATA_SPLIT_ENABLED;
	sb_err_clear(&e);
	if (sb_genl_open(&g, "ethtool", &e)) {
		fprintf(stderr, "%s: ethtool family: %s\n", argv[0], strerror(e.errnum));
		return 1;
	}
	sb_genl_msg(&g, &m, buf, sizeof(buf), ETHTOOL_MSG_RINGS_SET, NLM_F_ACK);
	hdr = sb_nl_nest_start(&m, ETHTOOL_A_RINGS_HEADER);
	sb_nl_put_u32(&m, ETHTOOL_A_HEADER_DEV_INDEX, ifindex);
	sb_nl_nest_end(&m, hdr);
	sb_nl_put(&m, ETHTOOL_A_RINGS_TCP_DATA_SPLIT, &split, sizeof(split));
	sb_nl_put_u32(&m, ETHTOOL_A_RINGS_HDS_THRESH, 0);
	if (sb_genl_talk(&g, &m, NULL, NULL, &e)) {
		fprintf(stderr, "%s: %s: rings set: %s%s%s\n", argv[0], argv[1], strerror(e.errnum),
			e.reason[0] ? ": " : "", e.reason);
		sb_genl_close(&g);
		return 1;
	}
	sb_genl_close(&g);
	return 0;
}
