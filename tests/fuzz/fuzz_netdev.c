// SPDX-License-Identifier: GPL-2.0-or-later
/* The netdev netlink dumps as a capture holds them (devmemstat --load-netlink, a
 * snapshot's netdev.nlmsg): every message through the loader and the dump parsers, again
 * as a monitor notification, then the lookups and figures the views take from the state. */
#include "fuzz.h"
#include "socbox/netdev.h"
#include "socbox/nl.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* a netlink buffer is 4-byte aligned, as the kernel's and as read_fd's malloc() */
	void *buf = malloc(size ? size : 1);
	struct sb_nd_state st = { 0 };
	const struct nlmsghdr *nlh;
	ptrdiff_t left = (ptrdiff_t)size;

	if (!buf)
		abort();
	memcpy(buf, data, size);
	if (sb_nd_state_from_buf(buf, size, &st) != -ENOMEM) {
		for (size_t i = 0; i < st.nqueues; i++) {
			sb_nd_find_qstats(&st, st.queues[i].ifindex, st.queues[i].type,
					  st.queues[i].id);
			sb_nd_find_napi(&st, st.queues[i].napi_id);
			sb_nd_queue_type_name(st.queues[i].type);
		}
		for (size_t i = 0; i < st.npools; i++) {
			const struct sb_nd_pool_stats *ps =
				sb_nd_find_pool_stats(&st, st.pools[i].id);
			uint64_t age;

			if (ps) {
				double rate = sb_nd_recycle_rate(ps);
				FUZZ_ASSERT(rate == -1 || (rate >= 0 && rate <= 1));
			}
			sb_nd_pool_leaked(&st.pools[i], 1000, &age);
			sb_nd_pool_leaked(&st.pools[i], 0, &age);
		}
		for (size_t i = 0; i < st.ndevs; i++)
			sb_nd_find_dev_qstats(&st, st.devs[i].ifindex);
	}
	sb_nd_state_free(&st);
	sb_nl_msg_for_each(nlh, buf, left) {
		struct sb_nd_event ev;

		if (sb_nd_parse_event(nlh, &ev) == 0)
			sb_nd_event_action(ev.cmd);
		sb_nd_cmd_name(sb_nd_msg_cmd(nlh));
	}
	free(buf);
	return 0;
}
