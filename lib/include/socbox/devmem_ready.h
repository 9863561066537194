/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What devmem TCP needs of a NIC, as the kernel reports it: header-data split on with
 * hds-thresh 0 (ethtool netlink rings), n-tuple filters on and at least two channels
 * (SIOCETHTOOL), so that a flow can be steered to a queue bound to a dma-buf. Live only. */
#ifndef SOCBOX_DEVMEM_READY_H
#define SOCBOX_DEVMEM_READY_H

#include <stdbool.h>
#include <stdint.h>

#include "socbox/error.h"

struct sb_devmem_ready {
	int tcp_data_split; /* enum sb_ethtool_tcp_data_split; -1 when the NIC has no rings */
	bool have_hds_thresh;
	uint32_t hds_thresh;
	bool have_ntuple; /* the flags could be read */
	bool ntuple;
	bool have_channels;
	uint32_t combined, rx; /* channel counts */
};

/* Read what ifname reports. Parts the NIC or kernel does not answer stay unknown (have_*
 * false, tcp_data_split -1); an interface that does not exist is -ENODEV. */
int sb_devmem_ready_read(const char *ifname, struct sb_devmem_ready *r, struct sb_err *e);
/* What is missing, in words a person acts on ("tcp-data-split off (ethtool -G IF
 * tcp-data-split on)"), joined by "; " into buf; false when nothing is. */
bool sb_devmem_ready_lacks(const struct sb_devmem_ready *r, const char *ifname, char *buf,
			   size_t len);

#endif
