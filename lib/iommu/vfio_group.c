// SPDX-License-Identifier: GPL-2.0-or-later
/* Who else is in a VFIO device's IOMMU group (socbox/iommufd.h): the evidence behind "bind
 * every device of the group to vfio-pci", read from sysfs rather than guessed. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "socbox/iommufd.h"

/* A driver that leaves the group's DMA to user space: those whose struct device_driver
 * sets driver_managed_dma (vfio-pci and its variants, pci-stub, pcieport). Any other
 * driver owns the group's DMA for the kernel, and iommu_device_claim_dma_owner()
 * (drivers/iommu/iommu.c) refuses VFIO with -EBUSY. */
static bool vfio_friendly(const char *drv)
{
	return strstr(drv, "vfio") || !strcmp(drv, "pci-stub") || !strcmp(drv, "pcieport");
}

int sb_vfio_group_others(const struct sb_root *r, const char *devnode, char *buf, size_t len)
{
	const char *cdev = strrchr(devnode, '/') ? strrchr(devnode, '/') + 1 : devnode;
	char bdf[64], drv[64];
	struct sb_dirlist dl;
	size_t used = 0;
	int n = 0, rc;

	if (len)
		buf[0] = '\0';
	rc = sb_link_name(r, bdf, sizeof(bdf), "/sys/class/vfio-dev/%.32s/device", cdev);
	if (rc < 0)
		return rc;
	rc = sb_dir_list(r, &dl, "/sys/bus/pci/devices/%s/iommu_group/devices", bdf);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < dl.n; i++) {
		int w;

		if (!strcmp(dl.names[i], bdf))
			continue;
		if (sb_link_name(r, drv, sizeof(drv), "/sys/bus/pci/devices/%s/driver",
				 dl.names[i]) < 0)
			continue; /* unbound: allowed */
		if (vfio_friendly(drv))
			continue;
		w = snprintf(buf + used, len - used, "%s%s (%s)", n ? ", " : "", dl.names[i], drv);
		if (w > 0 && (size_t)w < len - used)
			used += (size_t)w;
		n++;
	}
	sb_dirlist_free(&dl);
	return n;
}
