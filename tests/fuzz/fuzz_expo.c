// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox metrics' assembly of views' outputs (lib/metrics/textfile.c): the input, cut at
 * NUL bytes, is a sequence of view outputs, added to an OpenMetrics and to a Prometheus
 * exposition. A chunk is taken whole or refused whole; the result ends as its format wants
 * and names every family (HELP line) once. */
#include "fuzz.h"
#include "socbox/textfile.h"

static void check(struct sb_expo *x)
{
	size_t len;
	const char *s = sb_expo_finish(x, &len);

	FUZZ_ASSERT(s && strlen(s) == len);
	if (x->openmetrics)
		FUZZ_ASSERT(len >= 6 && !strcmp(s + len - 6, "# EOF\n"));
	for (size_t i = 0; i < x->nfamilies; i++)
		for (size_t k = i + 1; k < x->nfamilies; k++)
			FUZZ_ASSERT(strcmp(x->families[i], x->families[k]));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sb_expo om, prom;
	size_t off = 0;

	sb_expo_init(&om, true);
	sb_expo_init(&prom, false);
	while (off <= size) {
		const uint8_t *nul = memchr(data + off, 0, size - off);
		size_t n = nul ? (size_t)(nul - data) - off : size - off;
		char *chunk = malloc(n + 1);
		size_t before = om.len;

		if (!chunk)
			abort();
		memcpy(chunk, data + off, n);
		chunk[n] = '\0';
		if (sb_expo_add(&om, chunk, n))
			FUZZ_ASSERT(om.len == before);
		sb_expo_add(&prom, chunk, n);
		free(chunk);
		off += n + 1;
	}
	check(&om);
	check(&prom);
	sb_expo_free(&om);
	sb_expo_free(&prom);
	return 0;
}
