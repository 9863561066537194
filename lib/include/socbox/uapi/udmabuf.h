/* SPDX-License-Identifier: GPL-2.0-or-later */
/* udmabuf (type 'u', /dev/udmabuf): dma-bufs over memfd pages, our own definitions. */
#ifndef SOCBOX_UAPI_UDMABUF_H
#define SOCBOX_UAPI_UDMABUF_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define SB_UDMABUF_FLAGS_CLOEXEC 0x01

struct sb_udmabuf_create {
	__u32 memfd;
	__u32 flags;
	__u64 offset;
	__u64 size;
};
_Static_assert(sizeof(struct sb_udmabuf_create) == 24, "udmabuf_create is 24 bytes");

#define SB_UDMABUF_CREATE _IOW('u', 0x42, struct sb_udmabuf_create)
_Static_assert(SB_UDMABUF_CREATE == 0x40187542u, "UDMABUF_CREATE ioctl number");

#endif
