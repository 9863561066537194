/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One name per IOMMU object in every applet: an instance is its class device name
 * (/sys/class/iommu: "smmu3.0x0000200000000000", "dmar0") whatever the kernel log calls it
 * (its parent device "arm-smmu-v3.1.auto", "49000000.iommu"); a PCI device is its full
 * address with the domain ("0000:17:00.0"), also where the kernel logs "17:00.0". */
#ifndef SOCBOX_IOMMU_NAMES_H
#define SOCBOX_IOMMU_NAMES_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/iommu.h"
#include "socbox/sys.h"

/* The instance whose class name or parent device is name: its index, n when none. */
size_t sb_iommu_instance_index(const struct sb_iommu *inst, size_t n, const char *name);

/* "17:00.0" (bus:device.function without the domain). */
bool sb_pci_addr_short(const char *s);
/* The full address of a short one: the device of the groups with that address when exactly
 * one has it, else domain 0000 (the kernel logs the short form for segment 0 alone on
 * single-segment systems). out gets s unchanged when s is not short. */
void sb_pci_addr_full(const char *s, const struct sb_iommu_group *g, size_t ng, char *out,
		      size_t len);
/* The instance serving the device named dev (full name) in the groups, NULL when unknown. */
const char *sb_iommu_of_device(const struct sb_iommu_group *g, size_t ng, const char *dev);

struct sb_irq_row;
/* The instance that owns an IOMMU interrupt line of kind (sb_irq_iommu_kind()): the one its
 * action names ("dmar0"), else the one whose device tree node lists the line's GIC hwirq in
 * interrupts, else the only instance of that kind's driver; NULL when several could own it
 * (platform MSIs of two SMMUv3s: /proc/interrupts does not say whose). */
const char *sb_iommu_irq_instance(const struct sb_root *r, const struct sb_iommu *inst, size_t n,
				  const struct sb_irq_row *row, const char *kind);

#endif
