/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Our own definitions of the kernel interfaces the vm probe uses. The build host's
 * linux-libc-dev (bookworm: 6.1) is older than the guest kernels, so nothing here comes
 * from <linux/...>; sizes and ioctl numbers are checked against the documented values.
 */
#ifndef SOCBOX_VMPROBE_UAPI_H
#define SOCBOX_VMPROBE_UAPI_H

#include <stdint.h>
#include <sys/ioctl.h>

/* dma-heap: /dev/dma_heap/<name> */
struct vp_heap_alloc {
	uint64_t len;
	uint32_t fd;
	uint32_t fd_flags;
	uint64_t heap_flags;
};
_Static_assert(sizeof(struct vp_heap_alloc) == 24, "dma_heap_allocation_data is 24 bytes");
#define VP_DMA_HEAP_IOCTL_ALLOC _IOWR('H', 0x0, struct vp_heap_alloc)
_Static_assert(VP_DMA_HEAP_IOCTL_ALLOC == 0xc0184800, "DMA_HEAP_IOCTL_ALLOC");

/* dma-buf */
struct vp_dmabuf_sync {
	uint64_t flags;
};
_Static_assert(sizeof(struct vp_dmabuf_sync) == 8, "dma_buf_sync is 8 bytes");
#define VP_DMA_BUF_SYNC_READ 1u
#define VP_DMA_BUF_SYNC_WRITE 2u
#define VP_DMA_BUF_SYNC_RW 3u
#define VP_DMA_BUF_SYNC_START 0u
#define VP_DMA_BUF_SYNC_END 4u
#define VP_DMA_BUF_IOCTL_SYNC _IOW('b', 0, struct vp_dmabuf_sync)
_Static_assert(VP_DMA_BUF_IOCTL_SYNC == 0x40086200, "DMA_BUF_IOCTL_SYNC");

/* udmabuf: /dev/udmabuf */
struct vp_udmabuf_create {
	uint32_t memfd;
	uint32_t flags;
	uint64_t offset;
	uint64_t size;
};
_Static_assert(sizeof(struct vp_udmabuf_create) == 24, "udmabuf_create is 24 bytes");
#define VP_UDMABUF_FLAGS_CLOEXEC 0x01u
#define VP_UDMABUF_CREATE _IOW('u', 0x42, struct vp_udmabuf_create)
_Static_assert(VP_UDMABUF_CREATE == 0x40187542, "UDMABUF_CREATE");

/* rpmsg: /dev/rpmsg_ctrlN and /dev/rpmsgN */
#define VP_RPMSG_ADDR_ANY 0xffffffffu
#define VP_RPMSG_NAME_SIZE 32
struct vp_rpmsg_endpoint_info {
	char name[VP_RPMSG_NAME_SIZE];
	uint32_t src;
	uint32_t dst;
};
_Static_assert(sizeof(struct vp_rpmsg_endpoint_info) == 40, "rpmsg_endpoint_info is 40 bytes");
#define VP_RPMSG_CREATE_EPT_IOCTL _IOW(0xb5, 0x1, struct vp_rpmsg_endpoint_info)
#define VP_RPMSG_DESTROY_EPT_IOCTL _IO(0xb5, 0x2)
_Static_assert(VP_RPMSG_CREATE_EPT_IOCTL == 0x4028b501, "RPMSG_CREATE_EPT_IOCTL");
_Static_assert(VP_RPMSG_DESTROY_EPT_IOCTL == 0xb502, "RPMSG_DESTROY_EPT_IOCTL");
#define VP_RPMSG_GET_OUTGOING_FLOWCONTROL _IOR(0xb5, 0x5, int)
#define VP_RPMSG_SET_INCOMING_FLOWCONTROL _IOR(0xb5, 0x6, int) /* sic: value in the arg */
_Static_assert(VP_RPMSG_GET_OUTGOING_FLOWCONTROL == 0x8004b505, "RPMSG_GET_OUTGOING_FLOWCONTROL");
_Static_assert(VP_RPMSG_SET_INCOMING_FLOWCONTROL == 0x8004b506, "RPMSG_SET_INCOMING_FLOWCONTROL");
#define VP_RPMSG_MAX_PAYLOAD 496 /* 512-byte virtio buffer minus the 16-byte header */

/* Test-kernel patches (tests/vm/patches): the fd endpoint ioctl and DMA_BUF_IOCTL_RW_FILE. */
struct vp_rpmsg_endpoint_fd_info {
	char name[VP_RPMSG_NAME_SIZE];
	uint32_t src;
	uint32_t dst;
	uint32_t flags;
	int32_t fd;
};
_Static_assert(sizeof(struct vp_rpmsg_endpoint_fd_info) == 48, "rpmsg_endpoint_fd_info is 48 bytes");
#define VP_RPMSG_CREATE_EPT_FD_IOCTL _IOWR(0xb5, 0x7, struct vp_rpmsg_endpoint_fd_info)
_Static_assert(VP_RPMSG_CREATE_EPT_FD_IOCTL == 0xc030b507, "RPMSG_CREATE_EPT_FD_IOCTL");

struct vp_dmabuf_rw_file {
	uint32_t flags;
	int32_t fd;
	uint64_t file_offset;
	uint64_t buf_offset;
	uint64_t buf_len;
};
_Static_assert(sizeof(struct vp_dmabuf_rw_file) == 32, "dma_buf_rw_file is 32 bytes");
#define VP_DMA_BUF_RW_READ 1u
#define VP_DMA_BUF_RW_WRITE 2u
#define VP_DMA_BUF_RW_DIRECT (1u << 31)
#define VP_DMA_BUF_IOCTL_RW_FILE _IOW('b', 4, struct vp_dmabuf_rw_file)
_Static_assert(VP_DMA_BUF_IOCTL_RW_FILE == 0x40206204, "DMA_BUF_IOCTL_RW_FILE");

/* iommufd: /dev/iommu; every command is _IO(';', nr) and starts with its own size */
#define VP_IOMMUFD_TYPE ';'
struct vp_iommu_destroy {
	uint32_t size;
	uint32_t id;
};
_Static_assert(sizeof(struct vp_iommu_destroy) == 8, "iommu_destroy is 8 bytes");
struct vp_iommu_ioas_alloc {
	uint32_t size;
	uint32_t flags;
	uint32_t out_ioas_id;
};
_Static_assert(sizeof(struct vp_iommu_ioas_alloc) == 12, "iommu_ioas_alloc is 12 bytes");
struct vp_iommu_ioas_map {
	uint32_t size;
	uint32_t flags;
	uint32_t ioas_id;
	uint32_t reserved;
	uint64_t user_va;
	uint64_t length;
	uint64_t iova;
};
_Static_assert(sizeof(struct vp_iommu_ioas_map) == 40, "iommu_ioas_map is 40 bytes");
struct vp_iommu_ioas_unmap {
	uint32_t size;
	uint32_t ioas_id;
	uint64_t iova;
	uint64_t length;
};
_Static_assert(sizeof(struct vp_iommu_ioas_unmap) == 24, "iommu_ioas_unmap is 24 bytes");
#define VP_IOMMU_IOAS_MAP_FIXED_IOVA 1u
#define VP_IOMMU_IOAS_MAP_WRITEABLE 2u
#define VP_IOMMU_IOAS_MAP_READABLE 4u
#define VP_IOMMU_DESTROY _IO(VP_IOMMUFD_TYPE, 0x80)
#define VP_IOMMU_IOAS_ALLOC _IO(VP_IOMMUFD_TYPE, 0x81)
#define VP_IOMMU_IOAS_MAP _IO(VP_IOMMUFD_TYPE, 0x85)
#define VP_IOMMU_IOAS_UNMAP _IO(VP_IOMMUFD_TYPE, 0x86)
_Static_assert(VP_IOMMU_DESTROY == 0x3b80, "IOMMU_DESTROY");
_Static_assert(VP_IOMMU_IOAS_ALLOC == 0x3b81, "IOMMU_IOAS_ALLOC");
_Static_assert(VP_IOMMU_IOAS_MAP == 0x3b85, "IOMMU_IOAS_MAP");
_Static_assert(VP_IOMMU_IOAS_UNMAP == 0x3b86, "IOMMU_IOAS_UNMAP");

#endif
