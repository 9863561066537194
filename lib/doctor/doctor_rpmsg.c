// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <string.h>

#include "doctor_probe.h"

void doctor_probe_rpmsg(const struct sb_root *r, struct sb_doctor_sub *s)
{
	struct sb_dirlist procs;
	int nproc = 0, running = 0, channels, ctrls, endpoints;
	bool bus = sb_is_dir(r, "/sys/bus/rpmsg");
	char state[32];

	if (sb_dir_list(r, &procs, "/sys/class/remoteproc") == 0) {
		for (size_t i = 0; i < procs.n; i++) {
			nproc++;
			if (sb_attr_str(r, state, sizeof(state), "/sys/class/remoteproc/%s/state", procs.names[i]) >= 0 &&
			    (!strcmp(state, "running") || !strcmp(state, "attached")))
				running++;
		}
		sb_dirlist_free(&procs);
	}
	channels = doctor_count(r, "/sys/bus/rpmsg/devices", NULL);
	ctrls = doctor_count(r, "/sys/class/rpmsg", "rpmsg_ctrl");
	endpoints = doctor_count(r, "/sys/class/rpmsg", "rpmsg") - (ctrls > 0 ? ctrls : 0);
	doctor_num(s, "remoteprocs", nproc, false);
	doctor_num(s, "remoteprocs_running", running, false);
	doctor_bool(s, "rpmsg_bus", bus, false);
	doctor_num(s, "channels", channels > 0 ? channels : 0, false);
	doctor_num(s, "ctrl_devices", ctrls > 0 ? ctrls : 0, false);
	doctor_num(s, "endpoint_devices", endpoints > 0 ? endpoints : 0, false);

	if (!nproc && !bus) {
		s->status = SB_HEALTH_MISSING;
		doctor_summary(s, "no remote processor and no rpmsg bus");
		doctor_hint(s, "no remoteproc: enable CONFIG_REMOTEPROC and the SoC's remoteproc driver "
			       "(e.g. ti_k3_r5_remoteproc, imx_rproc, qcom_q6v5_pas) and describe the core in the device tree");
		doctor_hint(s, "no rpmsg bus: enable CONFIG_RPMSG_VIRTIO (module virtio_rpmsg_bus) or the SoC's rpmsg transport");
		doctor_module(r, s, "rpmsg_ctrl", "module_rpmsg_ctrl", "CONFIG_RPMSG_CTRL");
		doctor_module(r, s, "rpmsg_char", "module_rpmsg_char", "CONFIG_RPMSG_CHAR");
		return;
	}
	doctor_module(r, s, "rpmsg_ctrl", "module_rpmsg_ctrl", "CONFIG_RPMSG_CTRL");
	doctor_module(r, s, "rpmsg_char", "module_rpmsg_char", "CONFIG_RPMSG_CHAR");
	if (nproc && !running)
		doctor_hint(s, "no remote processor is running: rpmsgctl rproc start NAME "
			       "(or echo start > /sys/class/remoteproc/remoteprocN/state)");
	if (!bus)
		doctor_hint(s, "no rpmsg bus: enable CONFIG_RPMSG_VIRTIO (module virtio_rpmsg_bus)");
	else if (channels <= 0)
		doctor_hint(s, "no rpmsg channel announced: check that the remote firmware runs and sends its name-service announcement");
	if (bus && ctrls <= 0)
		doctor_hint(s, "no /dev/rpmsg_ctrlN: the rpmsg_ctrl driver has not bound (CONFIG_RPMSG_CTRL, kernel 5.18+)");
	s->status = bus && channels > 0 && ctrls > 0 ? SB_HEALTH_OK : SB_HEALTH_PARTIAL;
	doctor_summary(s, "%d remoteproc%s (%d running), %d channel%s, %d ctrl device%s, %d endpoint%s",
		       nproc, nproc == 1 ? "" : "s", running, channels > 0 ? channels : 0,
		       channels == 1 ? "" : "s", ctrls > 0 ? ctrls : 0, ctrls == 1 ? "" : "s",
		       endpoints > 0 ? endpoints : 0, endpoints == 1 ? "" : "s");
}
