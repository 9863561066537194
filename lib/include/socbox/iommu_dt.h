/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Device tree properties that tie devices to IOMMU stream IDs, as sysfs shows them under
 * /sys/firmware/devicetree/base (raw property values: big-endian 32-bit cells):
 *   iommus = <&smmu SID ...>, one specifier of #iommu-cells cells per IOMMU (platform devices);
 *   iommu-map = <rid-base &smmu sid-base length ...> and iommu-map-mask (PCI host bridges),
 *   the requester ID mapped the way of_map_id() (drivers/of/base.c) does it.
 * Parsers take a buffer and its length (a snapshot's property may be anything). */
#ifndef SOCBOX_IOMMU_DT_H
#define SOCBOX_IOMMU_DT_H

#include <stddef.h>
#include <stdint.h>

struct sb_dt_map {
	uint32_t id_base, phandle, out_base, length;
};

/* One cell (phandle, #iommu-cells, iommu-map-mask): -EINVAL unless exactly 4 bytes. */
int sb_dt_cell(const void *buf, size_t len, uint32_t *v);
/* iommu-map: 4 cells per entry, -EINVAL when the length is not a multiple of 16 bytes. */
int sb_dt_parse_map(const void *buf, size_t len, struct sb_dt_map **out, size_t *n);
/* of_map_id(): the first entry holding id & mask; -EINVAL for an entry whose base has bits
 * outside the mask (the kernel refuses the map), -ENOENT when no entry holds it. */
int sb_dt_map_id(const struct sb_dt_map *m, size_t n, uint32_t mask, uint32_t id, uint32_t *phandle,
		 uint32_t *out);

/* iommus: <phandle cell...> specifiers; the cell count of each comes from its IOMMU's
 * #iommu-cells (cells_of returns it, or -1 when the phandle is no known IOMMU: the rest of
 * the property cannot be split and is left). The first cell of a specifier is the stream
 * ID (a second one, arm-smmu's mask, is dropped). Returns the specifiers found, up to max. */
struct sb_dt_iommus {
	uint32_t phandle, sid;
};
size_t sb_dt_parse_iommus(const void *buf, size_t len, int (*cells_of)(void *ctx, uint32_t phandle),
			  void *ctx, struct sb_dt_iommus *out, size_t max);

/* interrupts = <type number flags ...> of a node whose parent is an Arm GIC (3 cells per
 * interrupt): the hwirq numbers /proc/interrupts shows beside a GIC chip (SPI n: n + 32,
 * PPI n: n + 16). Returns how many were put in out (up to max); 0 when the length is not a
 * multiple of 12 bytes. */
size_t sb_dt_gic_hwirqs(const void *buf, size_t len, uint32_t *out, size_t max);

#endif
