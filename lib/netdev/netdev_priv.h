/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared between the netdev modules of libsocbox, not public. */
#ifndef SOCBOX_NETDEV_PRIV_H
#define SOCBOX_NETDEV_PRIV_H

#include "socbox/netdev.h"

/* Record that the kernel lacks part (one enum sb_nd_part bit): pe (errno, reason) completed
 * with the command's name and the kernel or config option that brings it, exit 3. */
void sb_nd_mark_unsupported(struct sb_nd_state *st, unsigned part, const struct sb_err *pe);

#endif
