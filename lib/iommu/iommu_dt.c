// SPDX-License-Identifier: GPL-2.0-or-later
/* Device tree IOMMU properties: iommus, iommu-map, iommu-map-mask (socbox/iommu_dt.h). */
#include <errno.h>
#include <stdlib.h>

#include "socbox/byteorder.h"
#include "socbox/iommu_dt.h"

int sb_dt_cell(const void *buf, size_t len, uint32_t *v)
{
	if (len != 4)
		return -EINVAL;
	*v = sb_be32(buf);
	return 0;
}

int sb_dt_parse_map(const void *buf, size_t len, struct sb_dt_map **out, size_t *n)
{
	const uint8_t *p = buf;

	*out = NULL;
	*n = 0;
	if (!len || len % 16)
		return -EINVAL;
	*out = calloc(len / 16, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t off = 0; off < len; off += 16) {
		struct sb_dt_map *m = &(*out)[(*n)++];

		m->id_base = sb_be32(p + off);
		m->phandle = sb_be32(p + off + 4);
		m->out_base = sb_be32(p + off + 8);
		m->length = sb_be32(p + off + 12);
	}
	return 0;
}

int sb_dt_map_id(const struct sb_dt_map *m, size_t n, uint32_t mask, uint32_t id, uint32_t *phandle,
		 uint32_t *out)
{
	uint32_t masked = id & mask;

	for (size_t i = 0; i < n; i++) {
		if (m[i].id_base & ~mask)
			return -EINVAL;
		if (masked < m[i].id_base || masked - m[i].id_base >= m[i].length)
			continue;
		*phandle = m[i].phandle;
		*out = masked - m[i].id_base + m[i].out_base;
		return 0;
	}
	return -ENOENT;
}

size_t sb_dt_parse_iommus(const void *buf, size_t len, int (*cells_of)(void *ctx, uint32_t phandle),
			  void *ctx, struct sb_dt_iommus *out, size_t max)
{
	const uint8_t *p = buf;
	size_t ncells = len / 4, i = 0, got = 0;

	if (len % 4)
		return 0;
	while (i < ncells && got < max) {
		uint32_t ph = sb_be32(p + 4 * i);
		int cells = cells_of(ctx, ph);

		if (cells < 0 || (size_t)cells > ncells - i - 1)
			break;
		if (cells >= 1) {
			out[got].phandle = ph;
			out[got].sid = sb_be32(p + 4 * (i + 1));
			got++;
		}
		i += 1 + (size_t)cells;
	}
	return got;
}

size_t sb_dt_gic_hwirqs(const void *buf, size_t len, uint32_t *out, size_t max)
{
	const uint8_t *p = buf;
	size_t got = 0;

	if (len % 12)
		return 0;
	for (size_t off = 0; off < len && got < max; off += 12) {
		uint32_t type = sb_be32(p + off), num = sb_be32(p + off + 4);

		if (type <= 1 && num <= 0xffffffffu - 32)
			out[got++] = num + (type == 0 ? 32 : 16);
	}
	return got;
}
