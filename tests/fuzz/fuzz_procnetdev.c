// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/dev (devmemstat top's throughput). */
#include "fuzz.h"
#include "socbox/netdev.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sb_if_counters *v = NULL;
	size_t n = 0;

	if (!sb_nd_parse_proc_net_dev(text, &v, &n))
		for (size_t i = 0; i < n; i++)
			FUZZ_ASSERT(sb_nd_find_if_counters(v, n, v[i].name) != NULL);
	free(v);
	free(text);
	return 0;
}
