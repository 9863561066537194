// SPDX-License-Identifier: GPL-2.0-or-later
/* dma-buf allocators and udmabuf's limits as diff records. Buffers and their holders are
 * left out: they come and go with every process. So are device node permissions, which only
 * the live system shows. */
#include "socbox/diff.h"
#include "socbox/dmabuf.h"
#include "socbox/dmabufinfo.h"

void sb_diff_collect_dmabuf(const struct sb_root *r, struct sb_diff_set *s)
{
	struct sb_dmabuf_allocators a = { 0 };
	struct sb_udmabuf_limits l = { 0 };
	bool udmabuf;

	if (sb_dmabuf_allocators(r, false, &a)) {
		s->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < a.nheaps; i++)
		sb_diff_obj_add(s, SB_DIFF_DMABUF, "heap:%s", a.v[i].name);
	udmabuf = a.udmabuf;
	sb_dmabuf_allocators_free(&a);
	if (udmabuf || (!sb_udmabuf_limits(r, &l) && l.known)) {
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_DMABUF, "udmabuf");

		sb_diff_attr_bool(s, o, "device", udmabuf);
		if (l.known) {
			sb_diff_attr_u64(s, o, "size_limit_bytes", l.size_limit_bytes);
			sb_diff_attr_u64(s, o, "list_limit", l.list_limit);
		}
	}
}
