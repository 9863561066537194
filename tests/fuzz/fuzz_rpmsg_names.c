// SPDX-License-Identifier: GPL-2.0-or-later
/* Names socbox takes apart: rpmsg device names ("virtio0.rpmsg-raw.-1.31"), the sysfs link
 * targets of rpmsg and remoteproc devices, "remoteprocN"/"rpmsgN" indexes. */
#include "fuzz.h"
#include "socbox/rpmsg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size), parent[64], name[32], rproc[32];
	int64_t src, dst;
	unsigned idx;
	enum sb_rpmsg_method m;

	if (!sb_rpmsg_parse_devname(text, parent, sizeof(parent), name, sizeof(name), &src, &dst))
		FUZZ_ASSERT(parent[0] && name[0] && strlen(parent) < sizeof(parent) &&
			    strlen(name) < sizeof(name));
	sb_rpmsg_parse_devname(text, parent, 1, name, 1, &src, &dst);
	sb_rpmsg_link_parts(text, parent, sizeof(parent), rproc, sizeof(rproc));
	FUZZ_ASSERT(strlen(parent) < sizeof(parent) && strlen(rproc) < sizeof(rproc));
	if (rproc[0])
		FUZZ_ASSERT(!sb_rpmsg_index(rproc, "remoteproc", &idx));
	sb_rpmsg_link_parts(text, parent, 0, rproc, 0);
	sb_rpmsg_index(text, "remoteproc", &idx);
	sb_rpmsg_index(text, "rpmsg", &idx);
	sb_rpmsg_index(text, "", &idx);
	sb_rpmsg_method_parse(text, &m);
	free(text);
	return 0;
}
