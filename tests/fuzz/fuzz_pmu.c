// SPDX-License-Identifier: GPL-2.0-or-later
/* A PMU's format/ and events/ files and the -e terms encoded through them. Input lines:
 *   F NAME TEXT   a format file (format/NAME holding TEXT, "config:0-7")
 *   E NAME TEXT   an event file (events/NAME holding TEXT, "event=0x01")
 *   T TERMS       terms to encode (-e)
 *   C TEXT        a cpumask file */
#include "fuzz.h"
#include "socbox/iommu_pmu.h"

#define MAX_ITEMS 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), *save = NULL;
	struct sb_perf_format formats[MAX_ITEMS];
	struct sb_perf_evdef events[MAX_ITEMS];
	struct sb_pmu p = { .name = "fuzz", .formats = formats, .events = events };
	const char *terms[MAX_ITEMS];
	size_t nterms = 0;

	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *name = line + 1, *val;

		if (line[0] == 'T' && line[1] == ' ' && nterms < MAX_ITEMS) {
			terms[nterms++] = line + 2;
			continue;
		}
		if (line[0] == 'C' && line[1] == ' ') {
			FUZZ_ASSERT(sb_perf_first_cpu(line + 2) >= -1);
			continue;
		}
		if (*name++ != ' ' || !(val = strchr(name, ' ')))
			continue;
		*val++ = '\0';
		if (line[0] == 'F' && p.nformats < MAX_ITEMS) {
			struct sb_perf_format *f = &formats[p.nformats];

			if (sb_perf_parse_format(name, val, f))
				continue;
			FUZZ_ASSERT(f->word <= 2 && f->nranges >= 1 &&
				    f->nranges <= SB_PERF_MAX_RANGES);
			for (unsigned i = 0; i < f->nranges; i++)
				FUZZ_ASSERT(f->lo[i] <= f->hi[i] && f->hi[i] <= 63);
			p.nformats++;
		} else if (line[0] == 'E' && p.nevents < MAX_ITEMS) {
			snprintf(events[p.nevents].name, sizeof(events[0].name), "%s", name);
			snprintf(events[p.nevents].terms, sizeof(events[0].terms), "%s", val);
			p.nevents++;
		}
	}
	for (size_t i = 0; i < nterms; i++) {
		uint64_t cfg[3];
		struct sb_err e;

		sb_err_clear(&e);
		if (sb_perf_encode(&p, terms[i], cfg, &e))
			FUZZ_ASSERT(e.errnum == EINVAL);
	}
	free(text);
	return 0;
}
