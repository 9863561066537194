/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Our definitions of the VFIO device cdev ioctls that bind a device to iommufd (6.6+,
 * CONFIG_VFIO_DEVICE_CDEV): /dev/vfio/devices/vfioN. */
#ifndef SOCBOX_UAPI_VFIO_H
#define SOCBOX_UAPI_VFIO_H

#include <linux/types.h>
#include <sys/ioctl.h>

#define SB_VFIO_TYPE ';'
#define SB_VFIO_BASE 100
#define SB_VFIO_DEVICE_BIND_IOMMUFD _IO(SB_VFIO_TYPE, SB_VFIO_BASE + 18)
#define SB_VFIO_DEVICE_ATTACH_IOMMUFD_PT _IO(SB_VFIO_TYPE, SB_VFIO_BASE + 19)
#define SB_VFIO_DEVICE_DETACH_IOMMUFD_PT _IO(SB_VFIO_TYPE, SB_VFIO_BASE + 20)

struct sb_vfio_device_bind_iommufd {
	__u32 argsz;
	__u32 flags;
	__s32 iommufd;
	__u32 out_devid;
};

/* The kernel accepts argsz up to pt_id (6.6); newer kernels add a pasid member after it. */
struct sb_vfio_device_attach_iommufd_pt {
	__u32 argsz;
	__u32 flags;
	__u32 pt_id;
};

struct sb_vfio_device_detach_iommufd_pt {
	__u32 argsz;
	__u32 flags;
};

_Static_assert(sizeof(struct sb_vfio_device_bind_iommufd) == 16, "bind_iommufd");
_Static_assert(sizeof(struct sb_vfio_device_attach_iommufd_pt) == 12, "attach_iommufd_pt");
_Static_assert(sizeof(struct sb_vfio_device_detach_iommufd_pt) == 8, "detach_iommufd_pt");
_Static_assert(SB_VFIO_DEVICE_BIND_IOMMUFD == 0x3b76, "VFIO_DEVICE_BIND_IOMMUFD");
_Static_assert(SB_VFIO_DEVICE_ATTACH_IOMMUFD_PT == 0x3b77, "VFIO_DEVICE_ATTACH_IOMMUFD_PT");

#endif
