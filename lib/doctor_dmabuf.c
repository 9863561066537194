// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "doctor_probe.h"

/* Live only: the device node's mode and whether this user may open it read-write. */
static void node_access(const struct sb_root *r, struct sb_doctor_sub *s, const char *node,
			const char *key, int *denied)
{
	struct stat st;
	char desc[64];

	if (!sb_root_is_live(r))
		return;
	if (stat(node, &st)) {
		snprintf(desc, sizeof(desc), "no device node");
		doctor_hint(s, "%s is missing: mount devtmpfs on /dev (CONFIG_DEVTMPFS)", node);
	} else {
		bool ok = access(node, R_OK | W_OK) == 0 || (access(node, R_OK) == 0 && !strstr(node, "udmabuf"));
		snprintf(desc, sizeof(desc), "%04o uid %u gid %u%s", st.st_mode & 07777, st.st_uid, st.st_gid,
			 ok ? "" : " (no access)");
		if (!ok) {
			(*denied)++;
			doctor_hint(s, "%s is not accessible to this user: run as root or add a udev rule "
				       "(e.g. GROUP=\"video\", MODE=\"0660\")", node);
		}
	}
	doctor_str(s, key, desc, true);
}

void doctor_probe_dmabuf(const struct sb_root *r, struct sb_doctor_sub *s)
{
	struct sb_dirlist heaps = { 0 };
	bool udmabuf = sb_exists(r, "/sys/class/misc/udmabuf");
	char names[128] = "", node[96], key[64];
	uint64_t limit = 0;
	int denied = 0;
	size_t off = 0;

	sb_dir_list(r, &heaps, "/sys/class/dma_heap");
	for (size_t i = 0; i < heaps.n && off < sizeof(names); i++)
		off += (size_t)snprintf(names + off, sizeof(names) - off, "%s%s", i ? "," : "", heaps.names[i]);
	doctor_num(s, "heaps", (int64_t)heaps.n, false);
	doctor_str(s, "heap_names", names, false);
	for (size_t i = 0; i < heaps.n && i < 8; /* facts are bounded; eight heaps is plenty */ i++) {
		snprintf(node, sizeof(node), "/dev/dma_heap/%s", heaps.names[i]);
		snprintf(key, sizeof(key), "access_%s", heaps.names[i]);
		node_access(r, s, node, key, &denied);
	}
	doctor_bool(s, "udmabuf", udmabuf, false);
	if (udmabuf) {
		if (sb_attr_u64(r, &limit, "/sys/module/udmabuf/parameters/size_limit_mb") == 0)
			doctor_num(s, "udmabuf_size_limit_mb", (int64_t)limit, false);
		node_access(r, s, "/dev/udmabuf", "access_udmabuf", &denied);
	}

	if (!heaps.n)
		doctor_hint(s, "no dma-heap: enable CONFIG_DMABUF_HEAPS and CONFIG_DMABUF_HEAPS_SYSTEM "
			       "(CONFIG_DMABUF_HEAPS_CMA for contiguous memory)");
	if (!udmabuf)
		doctor_module(r, s, "udmabuf", "module_udmabuf", "CONFIG_UDMABUF");
	if (heaps.n && udmabuf) {
		s->status = SB_HEALTH_OK;
	} else if (heaps.n || udmabuf) {
		s->status = SB_HEALTH_PARTIAL;
	} else {
		s->status = SB_HEALTH_MISSING;
	}
	if (s->status == SB_HEALTH_MISSING)
		doctor_summary(s, "no dma-heap and no udmabuf");
	else
		doctor_summary(s, "%zu heap%s%s%s, udmabuf %s", heaps.n, heaps.n == 1 ? "" : "s",
			       heaps.n ? " " : "", names, udmabuf ? "present" : "missing");
	sb_dirlist_free(&heaps);
}
