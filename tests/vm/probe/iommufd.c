// SPDX-License-Identifier: GPL-2.0-or-later
/* vm probe: iommufd IOAS life cycle on /dev/iommu (software-only, no device attached). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "uapi.h"

int vp_iommufd(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	struct vp_iommu_ioas_alloc alloc = { .size = sizeof(alloc) };
	struct vp_iommu_ioas_map map = { .size = sizeof(map) };
	struct vp_iommu_ioas_unmap unmap = { .size = sizeof(unmap) };
	struct vp_iommu_destroy destroy = { .size = sizeof(destroy) };
	bool ok = true;
	void *mem;
	int fd;

	fd = open("/dev/iommu", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return !vp_fail("/dev/iommu", errno);
	if (ioctl(fd, VP_IOMMU_IOAS_ALLOC, &alloc) != 0)
		return !vp_fail("IOMMU_IOAS_ALLOC", errno);
	vp_note("IOMMU_IOAS_ALLOC gave ioas %u", alloc.out_ioas_id);
	mem = mmap(NULL, 4 * (size_t)page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1,
		   0);
	if (mem == MAP_FAILED)
		return !vp_fail("mmap", errno);
	map.flags = VP_IOMMU_IOAS_MAP_READABLE | VP_IOMMU_IOAS_MAP_WRITEABLE;
	map.ioas_id = alloc.out_ioas_id;
	map.user_va = (uintptr_t)mem;
	map.length = 4 * (uint64_t)page;
	if (ioctl(fd, VP_IOMMU_IOAS_MAP, &map) != 0)
		return !vp_fail("IOMMU_IOAS_MAP 4 pages", errno);
	vp_note("IOMMU_IOAS_MAP put 4 pages at iova 0x%llx", (unsigned long long)map.iova);
	unmap.ioas_id = alloc.out_ioas_id;
	unmap.iova = map.iova;
	unmap.length = map.length;
	if (ioctl(fd, VP_IOMMU_IOAS_UNMAP, &unmap) != 0)
		ok = vp_fail("IOMMU_IOAS_UNMAP", errno);
	else if (unmap.length != map.length)
		ok = vp_fail("IOMMU_IOAS_UNMAP unmapped a different length", 0);
	/* A command whose size field is too small must be refused. */
	struct vp_iommu_ioas_alloc shortcmd = { .size = 4 };
	if (ioctl(fd, VP_IOMMU_IOAS_ALLOC, &shortcmd) == 0)
		ok = vp_fail("IOMMU_IOAS_ALLOC with size 4 succeeded", 0);
	destroy.id = alloc.out_ioas_id;
	if (ioctl(fd, VP_IOMMU_DESTROY, &destroy) != 0)
		ok = vp_fail("IOMMU_DESTROY of the ioas", errno);
	if (ioctl(fd, VP_IOMMU_DESTROY, &destroy) == 0)
		ok = vp_fail("a second IOMMU_DESTROY of the same id succeeded", 0);
	munmap(mem, 4 * (size_t)page);
	close(fd);
	return ok ? 0 : 1;
}
