// SPDX-License-Identifier: GPL-2.0-or-later
/* A snapshot's netdev capture through the loader of a sysroot: the input is the text of
 * sys/kernel/socbox/netdev.parts (family version, boot time, the parts there and the ones
 * the kernel lacked, with errno and reason), a line "%%", then netdev.nlmsg. Each view's
 * choice of parts is loaded from it. */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz.h"
#include "socbox/macro.h"
#include "socbox/netdev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned parts[] = {
		SB_ND_ALL_PARTS, SB_ND_DEVS | SB_ND_QUEUES, SB_ND_POOLS | SB_ND_POOL_STATS,
		SB_ND_QSTATS_QUEUE | SB_ND_QSTATS_DEV
	};
	const uint8_t *sep = memmem(data, size, "\n%%\n", 4);
	size_t text_len = sep ? (size_t)(sep - data) + 1 : size;

	fuzz_put("sys/kernel/socbox/netdev.parts", data, text_len);
	if (sep)
		fuzz_put("sys/kernel/socbox/netdev.nlmsg", sep + 4, size - text_len - 3);
	else
		fuzz_put("sys/kernel/socbox/netdev.nlmsg", "", 0);
	for (size_t i = 0; i < ARRAY_SIZE(parts); i++) {
		struct sb_nd_state st;
		struct sb_err e;

		sb_err_clear(&e);
		if (sb_nd_state_from_root(fuzz_root(), parts[i], &st, &e) == 0) {
			FUZZ_ASSERT((st.have & ~parts[i]) == 0 &&
				    (st.unsupported & ~parts[i]) == 0);
			for (unsigned bit = 0; bit < 8; bit++)
				FUZZ_ASSERT(memchr(st.part_err[bit].reason, 0,
						   sizeof(st.part_err[bit].reason)));
			sb_nd_state_free(&st);
		} else {
			FUZZ_ASSERT(e.errnum != 0);
		}
	}
	return 0;
}
