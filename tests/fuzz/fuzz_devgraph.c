// SPDX-License-Identifier: GPL-2.0-or-later
/* The object graph (lib/kernel/devgraph.c) over a small sysroot the input fills: the input
 * is NAME, NUL, then the rest split in two: NAME is an entry of the consumer's directory
 * (what the kernel names supplier:BUS:DEVICE, or anything a hostile snapshot holds; '/'
 * made '_'), the two halves the supplier node's phandle and the consumer node's mboxes
 * (raw big-endian cells, or not). The graph is asked both ways; every edge names devices
 * of the tree or of the entry, never what lies outside the root. */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "socbox/devgraph.h"

#define SUP "sys/devices/platform/sup"
#define CON "sys/devices/platform/con"
#define DT "sys/firmware/devicetree/base"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char last[512];
	static bool made;
	const struct sb_root *r = fuzz_root();
	const uint8_t *nul = memchr(data, 0, size);
	size_t nlen = nul ? (size_t)(nul - data) : size, rest, half;
	struct sb_devgraph_edge out[4];
	struct sb_devgraph g;
	char name[256], rel[1024];
	ssize_t n;

	if (memmem(data, size, FUZZ_CANARY, strlen(FUZZ_CANARY)))
		return 0;
	if (!made) {
		fuzz_link("sys/bus/platform/devices/sup", "../../../devices/platform/sup");
		fuzz_link("sys/bus/platform/devices/con", "../../../devices/platform/con");
		fuzz_link(SUP "/of_node", "../../../firmware/devicetree/base/sup");
		fuzz_link(CON "/of_node", "../../../firmware/devicetree/base/con");
		fuzz_put(DT "/sup/#mbox-cells", "\0\0\0\1", 4);
		fuzz_link(SUP "/consumer:platform:con", "/x");
		made = true;
	}
	snprintf(name, sizeof(name), "%.*s", (int)(nlen < 255 ? nlen : 255), (const char *)data);
	for (char *p = name; *p; p++)
		if (*p == '/')
			*p = '_';
	if (last[0]) { /* the previous input's entry goes */
		snprintf(rel, sizeof(rel), "%s/%s", fuzz_root_dir(), last);
		unlink(rel);
		last[0] = '\0';
	}
	if (name[0] && strcmp(name, ".") && strcmp(name, "..")) {
		snprintf(last, sizeof(last), CON "/%s", name);
		fuzz_link(last, "../../../../canary");
	}
	rest = nul ? size - nlen - 1 : 0;
	half = rest / 2;
	fuzz_put(DT "/sup/phandle", nul ? nul + 1 : data, half);
	fuzz_put(DT "/con/mboxes", nul ? nul + 1 + half : data, rest - half);

	sb_devgraph_init(&g, r);
	n = sb_devgraph_suppliers(&g, "con", out, 4, NULL);
	FUZZ_ASSERT(n >= 0 && n <= 2); /* the entry and sup's consumer link, at most */
	for (ssize_t i = 0; i < n && i < 4; i++) {
		FUZZ_ASSERT(!strcmp(out[i].consumer, "con"));
		FUZZ_ASSERT(!strstr(out[i].supplier, FUZZ_CANARY));
		FUZZ_ASSERT(out[i].via && sb_devgraph_role(out[i].via));
	}
	n = sb_devgraph_consumers(&g, "sup", out, 4, NULL);
	FUZZ_ASSERT(n == 1 && !strcmp(out[0].consumer, "con"));
	FUZZ_ASSERT(!strcmp(out[0].via, "mboxes") || !strcmp(out[0].via, SB_DEVGRAPH_VIA_LINK));
	sb_devgraph_free(&g);
	return 0;
}
