/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Our definitions of the iommufd uAPI (/dev/iommu, Linux 6.2+; bookworm's 6.1 headers lack
 * it). Every command is _IO(';', nr) and every struct starts with its own size. */
#ifndef SOCBOX_UAPI_IOMMUFD_H
#define SOCBOX_UAPI_IOMMUFD_H

#include <linux/types.h>
#include <sys/ioctl.h>

#define SB_IOMMUFD_TYPE ';'
#define SB_IOMMU_DESTROY _IO(SB_IOMMUFD_TYPE, 0x80)
#define SB_IOMMU_IOAS_ALLOC _IO(SB_IOMMUFD_TYPE, 0x81)
#define SB_IOMMU_IOAS_IOVA_RANGES _IO(SB_IOMMUFD_TYPE, 0x84)
#define SB_IOMMU_IOAS_MAP _IO(SB_IOMMUFD_TYPE, 0x85)
#define SB_IOMMU_IOAS_UNMAP _IO(SB_IOMMUFD_TYPE, 0x86)
#define SB_IOMMU_OPTION _IO(SB_IOMMUFD_TYPE, 0x87)

struct sb_iommu_destroy {
	__u32 size;
	__u32 id;
};

struct sb_iommu_ioas_alloc {
	__u32 size;
	__u32 flags;
	__u32 out_ioas_id;
};

enum {
	SB_IOMMU_IOAS_MAP_FIXED_IOVA = 1 << 0,
	SB_IOMMU_IOAS_MAP_WRITEABLE = 1 << 1,
	SB_IOMMU_IOAS_MAP_READABLE = 1 << 2,
};

struct sb_iommu_ioas_map {
	__u32 size;
	__u32 flags;
	__u32 ioas_id;
	__u32 __reserved;
	__aligned_u64 user_va;
	__aligned_u64 length;
	__aligned_u64 iova;
};

struct sb_iommu_ioas_unmap {
	__u32 size;
	__u32 ioas_id;
	__aligned_u64 iova;
	__aligned_u64 length;
};

enum { SB_IOMMU_OPTION_RLIMIT_MODE = 0, SB_IOMMU_OPTION_HUGE_PAGES = 1 };
enum { SB_IOMMU_OPTION_OP_SET = 0, SB_IOMMU_OPTION_OP_GET = 1 };

struct sb_iommu_option {
	__u32 size;
	__u32 option_id;
	__u16 op;
	__u16 __reserved;
	__u32 object_id;
	__aligned_u64 val64;
};

_Static_assert(sizeof(struct sb_iommu_destroy) == 8, "iommu_destroy");
_Static_assert(sizeof(struct sb_iommu_ioas_alloc) == 12, "iommu_ioas_alloc");
_Static_assert(sizeof(struct sb_iommu_ioas_map) == 40, "iommu_ioas_map");
_Static_assert(sizeof(struct sb_iommu_ioas_unmap) == 24, "iommu_ioas_unmap");
_Static_assert(sizeof(struct sb_iommu_option) == 24, "iommu_option");

#endif
