/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Which stream IDs a device has at which IOMMU instance, from the firmware, the way the
 * kernel assigns them: the device tree (a platform device's iommus, a PCI host bridge's
 * iommu-map / iommu-map-mask applied to the requester ID bus << 8 | devfn) or the ACPI IORT
 * (a root complex's ID mappings for the PCI segment, a named component's single mappings,
 * matched to the device through its ACPI path). DMA aliases (devices behind a PCIe-to-PCI
 * bridge take the bridge's ID) are not followed. Everything is read through the root, so a
 * snapshot answers as the board did. */
#ifndef SOCBOX_IOMMU_SID_H
#define SOCBOX_IOMMU_SID_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/iommu.h"
#include "socbox/sys.h"

#define SB_SID_MAX 8 /* stream IDs kept per device */

struct sb_dev_sids {
	size_t inst; /* index into the instances given to sb_sid_fw_open() */
	uint32_t sids[SB_SID_MAX];
	size_t n;
	const char *source; /* "dt" or "iort" */
};

struct sb_sid_fw;

/* Read what the firmware says about the instances (their device tree phandles, the IORT).
 * Only -ENOMEM fails: a system without either simply maps nothing. inst must outlive fw.
 * visit, when not NULL, is called with every path (file or link) a successful answer read,
 * so socbox snapshot can keep exactly those. */
int sb_sid_fw_open(const struct sb_root *r, const struct sb_iommu *inst, size_t ninst,
		   void (*visit)(void *ctx, const char *path), void *visit_ctx,
		   struct sb_sid_fw **out);
void sb_sid_fw_close(struct sb_sid_fw *fw);
/* True when there is anything to map with (an instance with a device tree node, or an IORT
 * naming an instance's base). */
bool sb_sid_fw_any(const struct sb_sid_fw *fw);
/* "dt", "iort", "dt+iort" or "none". */
const char *sb_sid_fw_source(const struct sb_sid_fw *fw);
/* The stream IDs of the device at path (a device directory or a link to one, written as on a
 * live system: "/sys/bus/pci/devices/0000:00:02.0"). -ENOENT when the firmware gives none. */
int sb_sid_device(struct sb_sid_fw *fw, const char *path, struct sb_dev_sids *out);
/* The device (its sysfs name) that has stream ID sid at instance inst, searching the PCI and
 * platform devices; -ENOENT when none does. */
int sb_sid_owner(struct sb_sid_fw *fw, size_t inst, uint32_t sid, char *dev, size_t len);
/* Every device with stream IDs (for snapshot: each visits its paths). */
int sb_sid_visit_all(struct sb_sid_fw *fw);

/* The one naming of event records every applet and socbox events use (iommu_names.h): the
 * reporting instance by its class name, PCI clients with their domain, and the client of
 * records that carry only a stream ID (older kernels' raw dumps, "(unassigned sid)"): the
 * device the firmware gives that ID at the reporting SMMU. */
struct sb_iommu_event;
struct sb_sid_namer;
/* Never fails for want of firmware (then nothing gets a name); -ENOMEM. */
int sb_sid_namer_open(const struct sb_root *r, struct sb_sid_namer **out);
/* Set ev->instance and instance_dev when the instance is known (from the source, else from
 * the client's group), complete a short PCI client address, and when ev has a stream ID but
 * no client, set ev->device to the owner and named_by_firmware. */
void sb_sid_namer_name(struct sb_sid_namer *nm, struct sb_iommu_event *ev);
void sb_sid_namer_close(struct sb_sid_namer *nm);

#endif
