// SPDX-License-Identifier: GPL-2.0-or-later
/* Attributes read through the path layer of a sysroot: the input, cut at NUL bytes, fills
 * the files of a small tree (kernel release, modules.builtin/dep, udmabuf's initstate, a
 * remoteproc's attributes and the target of its class link, an rpmsg channel and endpoint
 * device with their uevent) and every reader of them runs: sb_attr_*, the kmod state, the
 * remoteproc list, the rpmsg scan, the uevent DEVNAME. The links may point anywhere: nothing
 * outside the root (the canary beside it) is ever read. */
#define _GNU_SOURCE
#include <string.h>

#include "fuzz.h"
#include "socbox/kmod.h"
#include "socbox/macro.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"
#include "socbox/sys.h"
#include "socbox/udev.h"

#define RPROC_DEV "sys/devices/platform/r5f/remoteproc/remoteproc0"
#define CHAN_DEV RPROC_DEV "/remoteproc0#vdev0buffer/virtio0/virtio0.rpmsg-raw.-1.31"

static const char *const files[] = {
	"proc/sys/kernel/osrelease",
	"lib/modules/6.6.0/modules.builtin",
	"lib/modules/6.6.0/modules.dep",
	"sys/module/udmabuf/initstate",
	RPROC_DEV "/name",
	RPROC_DEV "/state",
	RPROC_DEV "/firmware",
	RPROC_DEV "/recovery",
	RPROC_DEV "/coredump",
	NULL, /* the target of sys/class/remoteproc/remoteproc0 */
	CHAN_DEV "/name",
	CHAN_DEV "/src",
	CHAN_DEV "/dst",
	CHAN_DEV "/announce",
	NULL, /* the target of sys/bus/rpmsg/devices/virtio0.rpmsg-raw.-1.31 */
	CHAN_DEV "/rpmsg/rpmsg0/name",
	CHAN_DEV "/rpmsg/rpmsg0/src",
	CHAN_DEV "/rpmsg/rpmsg0/dst",
	CHAN_DEV "/rpmsg/rpmsg0/uevent",
};
#define NPARTS ARRAY_SIZE(files)

static void no_canary(const char *s)
{
	FUZZ_ASSERT(!strstr(s, FUZZ_CANARY));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool made;
	const struct sb_root *r = fuzz_root();
	char *text, buf[256];
	const char *part[NPARTS] = { 0 };
	struct sb_rproc *procs = NULL;
	struct sb_rpmsg_state st;
	enum sb_mod_state ms;
	size_t n = 0, np = 0;
	struct sb_err e;
	uint64_t u;
	int64_t s;
	bool b;

	/* an input naming the canary itself would "find" it inside the root */
	if (memmem(data, size, FUZZ_CANARY, strlen(FUZZ_CANARY)))
		return 0;
	text = fuzz_text(data, size);
	if (!made) {
		fuzz_link("sys/class/rpmsg/rpmsg0", "../../../" CHAN_DEV "/rpmsg/rpmsg0");
		made = true;
	}
	for (size_t off = 0; off <= size && n < NPARTS; off += strlen(text + off) + 1)
		part[n++] = text + off;
	for (size_t i = 0; i < NPARTS; i++) {
		static char *last[NPARTS];
		const char *v = part[i] ? part[i] : "";

		/* a mutation changes one part or two: the others stay as written */
		if (last[i] && !strcmp(last[i], v))
			continue;
		free(last[i]);
		last[i] = strdup(v);
		if (i == 9)
			fuzz_link("sys/class/remoteproc/remoteproc0",
				  v[0] ? v : "../../devices/platform/r5f/remoteproc/remoteproc0");
		else if (i == 14)
			fuzz_link("sys/bus/rpmsg/devices/virtio0.rpmsg-raw.-1.31",
				  v[0] ? v : "../../../" CHAN_DEV);
		else
			fuzz_put(files[i], v, strlen(v));
	}
	for (size_t i = 0; i < NPARTS; i++) {
		char path[256];

		if (!files[i])
			continue;
		snprintf(path, sizeof(path), "/%s", files[i]);
		/* sb_attr_s64/hex/bool are sb_attr_u64's read and another parse */
		sb_attr_u64(r, &u, "%s", path);
		if (sb_attr_str(r, buf, sizeof(buf), "%s", path) >= 0) {
			no_canary(buf);
			sb_parse_u64(buf, 0, &u);
			sb_parse_s64(buf, 0, &s);
			sb_parse_u64(buf, 16, &u);
			sb_parse_bool(buf, &b);
		}
	}
	if (sb_kernel_release(r, buf, sizeof(buf)) >= 0)
		no_canary(buf);
	sb_kernel_version_code(r);
	sb_kmod_state(r, "udmabuf", &ms);
	sb_kmod_state(r, "virtio_rpmsg_bus", &ms);
	sb_kmod_state(r, "rpmsg-char", &ms);
	sb_err_clear(&e);
	if (!sb_rproc_list(r, &procs, &np, &e)) {
		for (size_t i = 0; i < np; i++) {
			no_canary(procs[i].name);
			no_canary(procs[i].state);
			no_canary(procs[i].firmware);
		}
		free(procs);
	}
	if (!sb_rpmsg_scan(r, &st, &e)) {
		for (size_t i = 0; i < st.nchannels; i++)
			no_canary(st.channels[i].name);
		for (size_t i = 0; i < st.nepts; i++)
			no_canary(st.epts[i].ept_name);
		sb_rpmsg_state_free(&st);
	}
	if (sb_devnode(r, "/sys/class/rpmsg/rpmsg0", buf, sizeof(buf)) >= 0)
		no_canary(buf);
	free(text);
	return 0;
}
