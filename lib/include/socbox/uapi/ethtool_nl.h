/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ethtool generic netlink family's ring parameters (Documentation/netlink/specs/
 * ethtool.yaml): what devmem TCP needs of header-data split. Our own definitions: bookworm's
 * 6.1 headers have no hds-thresh (6.13). */
#ifndef SOCBOX_UAPI_ETHTOOL_NL_H
#define SOCBOX_UAPI_ETHTOOL_NL_H

#define SB_ETHTOOL_GENL_NAME "ethtool"
#define SB_ETHTOOL_MSG_RINGS_GET 15 /* request and reply */

#define SB_ETHTOOL_A_HEADER_DEV_NAME 2 /* string, in the request's header nest */

#define SB_ETHTOOL_A_RINGS_HEADER 1	     /* nest */
#define SB_ETHTOOL_A_RINGS_TCP_DATA_SPLIT 11 /* u8, enum below (6.0+) */
#define SB_ETHTOOL_A_RINGS_HDS_THRESH 17     /* u32 (6.13+) */

enum sb_ethtool_tcp_data_split {
	SB_ETHTOOL_TCP_DATA_SPLIT_UNKNOWN,
	SB_ETHTOOL_TCP_DATA_SPLIT_DISABLED,
	SB_ETHTOOL_TCP_DATA_SPLIT_ENABLED,
};

#endif
