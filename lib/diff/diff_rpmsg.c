// SPDX-License-Identifier: GPL-2.0-or-later
/* Remote processors, rpmsg channels, control and endpoint devices as diff records: what
 * rpmsgctl list shows, keyed by the kernel's names. */
#include <inttypes.h>
#include <stdlib.h>

#include "socbox/diff.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"

static void rprocs(const struct sb_root *r, struct sb_diff_set *s)
{
	struct sb_rproc *p = NULL;
	struct sb_err e;
	size_t n = 0;

	if (sb_rproc_list(r, &p, &n, &e))
		return;
	for (size_t i = 0; i < n; i++) {
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "remoteproc:%s", p[i].id);

		sb_diff_attr_str(s, o, "name", p[i].name);
		sb_diff_attr_str(s, o, "state", sb_rproc_state_shown(&p[i]));
		sb_diff_attr_str(s, o, "firmware", p[i].firmware);
		sb_diff_attr_str(s, o, "recovery", p[i].recovery);
		sb_diff_attr_str(s, o, "device", p[i].device);
		/* no crash and no kernel log to count them in look the same */
		if (p[i].have_crashes && p[i].crashes)
			sb_diff_attr_u64(s, o, "crashes", p[i].crashes);
		if (p[i].devcd[0])
			sb_diff_attr_str(s, o, "devcoredump", p[i].devcd);
	}
	free(p);
}

/* src/dst as rpmsgctl prints them: -1 for RPMSG_ADDR_ANY, "-" when unreadable */
static void addr(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, bool have, int64_t v)
{
	if (have)
		sb_diff_attr_fmt(s, o, key, "%" PRId64, v);
	else
		sb_diff_attr_str(s, o, key, "-");
}

void sb_diff_collect_rpmsg(const struct sb_root *r, struct sb_diff_set *s)
{
	struct sb_rpmsg_state st = { 0 };
	struct sb_err e;

	rprocs(r, s);
	if (sb_rpmsg_scan(r, &st, &e))
		return;
	for (size_t i = 0; i < st.nchannels; i++) {
		const struct sb_rpmsg_channel *c = &st.channels[i];
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "channel:%s", c->dev);

		sb_diff_attr_str(s, o, "name", c->name);
		addr(s, o, "src", c->have_src, (int32_t)c->src);
		addr(s, o, "dst", c->have_dst, (int32_t)c->dst);
		sb_diff_attr_str(s, o, "announce",
				 c->announce < 0 ? "-"
				 : c->announce	 ? "yes"
						 : "no");
		sb_diff_attr_str(s, o, "driver", *c->driver ? c->driver : "-");
		sb_diff_attr_str(s, o, "remoteproc", *c->remoteproc ? c->remoteproc : "-");
	}
	for (size_t i = 0; i < st.nctrls; i++) {
		const struct sb_rpmsg_ctrl *c = &st.ctrls[i];
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "ctrl:%s", c->name);

		sb_diff_attr_str(s, o, "channel", c->channel);
		sb_diff_attr_str(s, o, "remoteproc", *c->remoteproc ? c->remoteproc : "-");
	}
	for (size_t i = 0; i < st.nepts; i++) {
		const struct sb_rpmsg_eptdev *d = &st.epts[i];
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "endpoint:%s", d->name);

		sb_diff_attr_str(s, o, "name", d->ept_name);
		addr(s, o, "src", d->have_src, d->src);
		addr(s, o, "dst", d->have_dst, d->dst);
		sb_diff_attr_str(s, o, "parent", d->parent);
		sb_diff_attr_str(s, o, "remoteproc", *d->remoteproc ? d->remoteproc : "-");
	}
	sb_rpmsg_state_free(&st);
}
