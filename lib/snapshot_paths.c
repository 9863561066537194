// SPDX-License-Identifier: GPL-2.0-or-later
/* What `socbox snapshot` copies: every file socbox reads, grouped by who reads it. Add the
 * paths of a new view here in the same change. */
#include <stdio.h>

#include "socbox/snapshot.h"
#include "socbox/sys.h"

const struct sb_snap_path sb_snap_paths[] = {
	/* common: kernel identity, boot parameters, module state */
	{ "/proc/sys/kernel/osrelease", 0, 0 },
	{ "/proc/version", 0, 0 },
	{ "/proc/cmdline", 0, 0 },
	/* doctor: rpmsg */
	{ "/sys/class/remoteproc", 1, SB_SNAP_FOLLOW },
	{ "/sys/bus/rpmsg/devices", 1, SB_SNAP_FOLLOW },
	{ "/sys/class/rpmsg", 1, SB_SNAP_FOLLOW },
	{ "/sys/module/rpmsg_char", 0, 0 },
	{ "/sys/module/rpmsg_ctrl", 0, 0 },
	{ "/sys/module/rpmsg_core", 0, 0 },
	{ "/sys/module/virtio_rpmsg_bus", 0, 0 },
	/* rpmsgctl: list and rproc read the doctor rpmsg paths above (the class/bus links and,
	 * through them, the device attributes), the module lists (hook below) and: */
	{ "/sys/kernel/debug/remoteproc", 1, 0 },
	/* doctor: dma-buf */
	{ "/sys/class/dma_heap", 1, SB_SNAP_FOLLOW },
	{ "/sys/class/misc/udmabuf", 1, SB_SNAP_FOLLOW },
	{ "/sys/module/udmabuf", 1, 0 },
	/* doctor: IOMMU */
	{ "/sys/class/iommu", 2, SB_SNAP_FOLLOW },
	{ "/sys/kernel/iommu_groups", 2, SB_SNAP_FOLLOW },
	{ NULL, 0, 0 },
};

/* modules.builtin and modules.dep of the running kernel (module states offline). */
static int snap_module_lists(struct sb_snap *s)
{
	char release[128], path[256];
	struct sb_root *live;
	int rc;

	if (sb_root_open(&live, "/", NULL))
		return 0;
	rc = sb_kernel_release(live, release, sizeof(release));
	sb_root_close(live);
	if (rc < 0)
		return 0;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", release);
	sb_snap_file(s, path);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	return sb_snap_file(s, path);
}

const sb_snap_hook sb_snap_hooks[] = {
	snap_module_lists,
	NULL,
};
