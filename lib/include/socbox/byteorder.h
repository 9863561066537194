/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Numbers as firmware stores them, from bytes of any alignment: big-endian device-tree cells
 * (phandles, #...-cells, iommus), little-endian ACPI tables (the IORT). */
#ifndef SOCBOX_BYTEORDER_H
#define SOCBOX_BYTEORDER_H

#include <stdint.h>

static inline uint32_t sb_be32(const void *at)
{
	const uint8_t *p = at;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static inline uint32_t sb_le32(const void *at)
{
	const uint8_t *p = at;

	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

#endif
