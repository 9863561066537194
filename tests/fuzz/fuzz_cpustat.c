// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/stat and /proc/softirqs (devmemstat top): one input is read as both, into one
 * sample, and the percentages are taken against an earlier sample of the same text. */
#include "fuzz.h"
#include "socbox/cpustat.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sb_cpustat st = { 0 };

	if (!sb_cpustat_parse_stat(text, &st)) {
		struct sb_cpu_pct p;

		sb_cpustat_parse_softirqs(text, &st);
		for (size_t i = 0; i < st.ncpus; i++) {
			FUZZ_ASSERT(sb_cpustat_find(&st, st.cpus[i].cpu) != NULL);
			sb_cpu_pct(NULL, &st.cpus[i], &p);
			sb_cpu_pct(&st.all, &st.cpus[i], &p);
		}
		sb_cpu_pct(NULL, &st.all, &p);
	}
	sb_cpustat_free(&st);
	free(text);
	return 0;
}
