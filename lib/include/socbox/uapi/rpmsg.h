/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpmsg char/ctrl ioctls (ioctl type 0xb5), written as our own definitions so socbox builds
 * against older kernel headers and knows the fd ioctl that mainline does not carry. */
#ifndef SOCBOX_UAPI_RPMSG_H
#define SOCBOX_UAPI_RPMSG_H

#include <stdint.h>
#include <sys/ioctl.h>

#define SB_RPMSG_ADDR_ANY 0xFFFFFFFFu
#define SB_RPMSG_NAME_SIZE 32

struct sb_rpmsg_endpoint_info {
	char name[SB_RPMSG_NAME_SIZE];
	uint32_t src;
	uint32_t dst;
};

/* Proposed by Dawei Li (2025), applied to rpmsg-next, then dropped: not in mainline. */
struct sb_rpmsg_endpoint_fd_info {
	char name[SB_RPMSG_NAME_SIZE];
	uint32_t src;
	uint32_t dst;
	uint32_t flags; /* O_RDONLY/O_WRONLY/O_RDWR | O_NONBLOCK | O_CLOEXEC */
	int32_t fd;	/* out */
};

_Static_assert(sizeof(struct sb_rpmsg_endpoint_info) == 40, "rpmsg_endpoint_info is 40 bytes");
_Static_assert(sizeof(struct sb_rpmsg_endpoint_fd_info) == 48, "rpmsg_endpoint_fd_info is 48 bytes");

#define SB_RPMSG_CREATE_EPT_IOCTL _IOW(0xb5, 0x1, struct sb_rpmsg_endpoint_info)
#define SB_RPMSG_DESTROY_EPT_IOCTL _IO(0xb5, 0x2)
#define SB_RPMSG_CREATE_DEV_IOCTL _IOW(0xb5, 0x3, struct sb_rpmsg_endpoint_info)
#define SB_RPMSG_RELEASE_DEV_IOCTL _IOW(0xb5, 0x4, struct sb_rpmsg_endpoint_info)
#define SB_RPMSG_GET_OUTGOING_FLOWCONTROL _IOR(0xb5, 0x5, int)
/* Declared _IOR, but the kernel takes the value (0 or 1) in the argument itself. */
#define SB_RPMSG_SET_INCOMING_FLOWCONTROL _IOR(0xb5, 0x6, int)
#define SB_RPMSG_CREATE_EPT_FD_IOCTL _IOWR(0xb5, 0x7, struct sb_rpmsg_endpoint_fd_info)

#endif
