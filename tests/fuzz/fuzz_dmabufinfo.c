// SPDX-License-Identifier: GPL-2.0-or-later
/* Who holds a dma-buf: /proc/PID/fdinfo/FD, each line of /proc/PID/maps, and debugfs
 * dma_buf/bufinfo, all read from one input. */
#include <string.h>

#include "fuzz.h"
#include "socbox/dmabufinfo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct sb_dmabuf_fdinfo fi;
	struct sb_bufinfo bi = { 0 };
	size_t skipped = 0;

	if (!sb_dmabuf_parse_fdinfo(text, &fi))
		FUZZ_ASSERT(memchr(fi.exp_name, 0, sizeof(fi.exp_name)) &&
			    memchr(fi.name, 0, sizeof(fi.name)));
	for (char *line = text, *next; line; line = next) {
		struct sb_dmabuf_map m;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sb_dmabuf_parse_maps_line(line, &m) == 1)
			FUZZ_ASSERT(memchr(m.name, 0, sizeof(m.name)));
	}
	free(text);
	text = fuzz_text(data, size);
	if (!sb_bufinfo_parse(text, &bi, &skipped)) {
		for (size_t i = 0; i < bi.n; i++)
			for (size_t k = 0; k < bi.v[i].nattached; k++)
				FUZZ_ASSERT(bi.v[i].attached[k] != NULL);
		sb_bufinfo_free(&bi);
	}
	free(text);
	return 0;
}
