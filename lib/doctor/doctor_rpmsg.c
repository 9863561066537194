// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's rpmsg probe: a view of what lib/rpmsg (bus, channels, control and endpoint
 * devices) and lib/rpmsg/rproc.c (remote processors) read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/limits.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"

static size_t count_running(const struct sb_rproc *p, size_t n)
{
	size_t running = 0;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(p[i].state, "running") || !strcmp(p[i].state, "attached"))
			running++;
	return running;
}

#define PLURAL(n) ((n) == 1 ? "" : "s")

void doctor_probe_rpmsg(const struct sb_root *r, struct sb_doctor_sub *s)
{
	struct sb_rpmsg_state st;
	struct sb_rproc *procs = NULL;
	size_t nproc = 0, running;
	struct sb_err e;
	char why[SB_ERR_LINE_MAX];

	sb_err_clear(&e);
	if (sb_rproc_list(r, &procs, &nproc, &e) < 0) {
		sb_err_format(&e, why, sizeof(why));
		doctor_hint(s, "%s", why);
	}
	sb_err_clear(&e);
	if (sb_rpmsg_scan(r, &st, &e) < 0) {
		sb_err_format(&e, why, sizeof(why));
		doctor_hint(s, "%s", why);
		memset(&st, 0, sizeof(st));
	}
	running = count_running(procs, nproc);
	doctor_num(s, "remoteprocs", (int64_t)nproc, false);
	doctor_num(s, "remoteprocs_running", (int64_t)running, false);
	doctor_bool(s, "rpmsg_bus", st.bus_present, false);
	doctor_num(s, "channels", (int64_t)st.nchannels, false);
	doctor_num(s, "ctrl_devices", (int64_t)st.nctrls, false);
	doctor_num(s, "endpoint_devices", (int64_t)st.nepts, false);

	if (!nproc && !st.bus_present) {
		s->status = SB_HEALTH_MISSING;
		doctor_summary(s, "no remote processor and no rpmsg bus");
		doctor_hint(
			s,
			"no remoteproc: enable CONFIG_REMOTEPROC and the SoC's remoteproc driver "
			"(e.g. ti_k3_r5_remoteproc, imx_rproc, qcom_q6v5_pas) and describe the core in the device tree");
		doctor_hint(
			s,
			"no rpmsg bus: enable CONFIG_RPMSG_VIRTIO (module virtio_rpmsg_bus) or the SoC's rpmsg transport");
		doctor_module(r, s, "rpmsg_ctrl", "module_rpmsg_ctrl", "CONFIG_RPMSG_CTRL");
		doctor_module(r, s, "rpmsg_char", "module_rpmsg_char", "CONFIG_RPMSG_CHAR");
		goto out;
	}
	doctor_module(r, s, "rpmsg_ctrl", "module_rpmsg_ctrl", "CONFIG_RPMSG_CTRL");
	doctor_module(r, s, "rpmsg_char", "module_rpmsg_char", "CONFIG_RPMSG_CHAR");
	if (nproc && !running)
		doctor_hint(s, "no remote processor is running: rpmsgctl rproc start NAME "
			       "(or echo start > /sys/class/remoteproc/remoteprocN/state)");
	if (!st.bus_present)
		doctor_hint(s,
			    "no rpmsg bus: enable CONFIG_RPMSG_VIRTIO (module virtio_rpmsg_bus)");
	else if (!st.nchannels)
		doctor_hint(
			s,
			"no rpmsg channel announced: check that the remote firmware runs and sends its name-service announcement");
	if (st.bus_present && !st.nctrls)
		doctor_hint(
			s,
			"no /dev/rpmsg_ctrlN: the rpmsg_ctrl driver has not bound (CONFIG_RPMSG_CTRL, kernel 5.18+)");
	s->status = st.bus_present && st.nchannels && st.nctrls ? SB_HEALTH_OK : SB_HEALTH_PARTIAL;
	doctor_summary(
		s,
		"%zu remoteproc%s (%zu running), %zu channel%s, %zu ctrl device%s, %zu endpoint%s",
		nproc, PLURAL(nproc), running, st.nchannels, PLURAL(st.nchannels), st.nctrls,
		PLURAL(st.nctrls), st.nepts, PLURAL(st.nepts));
out:
	sb_rpmsg_state_free(&st);
	free(procs);
}
