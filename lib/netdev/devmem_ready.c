// SPDX-License-Identifier: GPL-2.0-or-later
/* What devmem TCP needs of a NIC (socbox/devmem_ready.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/ethtool.h>
#include <linux/genetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "socbox/devmem_ready.h"
#include "socbox/genl.h"
#include "socbox/nl.h"
#include "socbox/uapi/ethtool_nl.h"

static int rings_cb(const struct nlmsghdr *nlh, void *data)
{
	struct sb_devmem_ready *r = data;
	const void *end = sb_nl_msg_end(nlh);

	for (const struct nlattr *a = sb_nl_attr_first(nlh, GENL_HDRLEN); sb_nl_attr_ok(a, end);
	     a = sb_nl_attr_next(a, end)) {
		if (sb_nl_attr_type(a) == SB_ETHTOOL_A_RINGS_TCP_DATA_SPLIT &&
		    sb_nl_attr_len(a) >= 1)
			r->tcp_data_split = *(const uint8_t *)sb_nl_attr_data(a);
		else if (sb_nl_attr_type(a) == SB_ETHTOOL_A_RINGS_HDS_THRESH &&
			 sb_nl_attr_u32(a, &r->hds_thresh) == 0)
			r->have_hds_thresh = true;
	}
	return SB_NL_CB_OK;
}

static void rings(const char *ifname, struct sb_devmem_ready *r)
{
	uint64_t buf[SB_NL_MSG_SIZE / sizeof(uint64_t)];
	struct sb_nl_msg m;
	struct nlattr *hdr;
	struct sb_genl g;
	struct sb_err e;

	sb_err_clear(&e);
	if (sb_genl_open(&g, SB_ETHTOOL_GENL_NAME, &e))
		return;
	sb_genl_msg(&g, &m, buf, sizeof(buf), SB_ETHTOOL_MSG_RINGS_GET, NLM_F_ACK);
	hdr = sb_nl_nest_start(&m, SB_ETHTOOL_A_RINGS_HEADER);
	sb_nl_put_strz(&m, SB_ETHTOOL_A_HEADER_DEV_NAME, ifname);
	sb_nl_nest_end(&m, hdr);
	if (sb_genl_talk(&g, &m, rings_cb, r, &e)) /* no rings (lo, veth...): unknown */
		r->tcp_data_split = -1;
	sb_genl_close(&g);
}

static int ethtool_ioctl(int fd, const char *ifname, void *cmd)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	return ioctl(fd, SIOCETHTOOL, &ifr);
}

int sb_devmem_ready_read(const char *ifname, struct sb_devmem_ready *r, struct sb_err *e)
{
	struct ethtool_channels ch = { .cmd = ETHTOOL_GCHANNELS };
	struct ethtool_value flags = { .cmd = ETHTOOL_GFLAGS };
	int fd;

	memset(r, 0, sizeof(*r));
	if (!if_nametoindex(ifname))
		return sb_err_set(e, ENODEV, ifname, "find the network interface",
				  "see 'devmemstat show' for the interfaces");
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sb_err_set(e, errno, ifname, "open a socket for SIOCETHTOOL", NULL);
	if (ethtool_ioctl(fd, ifname, &flags) == 0) {
		r->have_ntuple = true;
		r->ntuple = flags.data & ETH_FLAG_NTUPLE;
	}
	if (ethtool_ioctl(fd, ifname, &ch) == 0) {
		r->have_channels = true;
		r->combined = ch.combined_count;
		r->rx = ch.rx_count;
	}
	close(fd);
	rings(ifname, r);
	return 0;
}

static void __attribute__((format(printf, 4, 5)))
add(char *buf, size_t len, size_t *off, const char *fmt, ...)
{
	va_list ap;

	if (*off >= len)
		return;
	if (*off)
		*off += (size_t)snprintf(buf + *off, len - *off, "; ");
	if (*off >= len)
		return;
	va_start(ap, fmt);
	*off += (size_t)vsnprintf(buf + *off, len - *off, fmt, ap);
	va_end(ap);
}

bool sb_devmem_ready_lacks(const struct sb_devmem_ready *r, const char *ifname, char *buf,
			   size_t len)
{
	size_t off = 0;

	buf[0] = '\0';
	if (r->tcp_data_split < 0)
		add(buf, len, &off, "no header-data split (no ethtool ring parameters)");
	else if (r->tcp_data_split != SB_ETHTOOL_TCP_DATA_SPLIT_ENABLED)
		add(buf, len, &off, "tcp-data-split off (ethtool -G %s tcp-data-split on)", ifname);
	if (r->have_hds_thresh && r->hds_thresh)
		add(buf, len, &off, "hds-thresh not 0 (ethtool -G %s hds-thresh 0)", ifname);
	if (!r->have_ntuple || !r->ntuple)
		add(buf, len, &off, "n-tuple filters off (ethtool -K %s ntuple on)", ifname);
	if (!r->have_channels || r->combined + r->rx < 2)
		add(buf, len, &off, "fewer than two channels (ethtool -L %s combined 2)", ifname);
	return off > 0;
}
