// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's rpmsg probe: a view of what lib/rpmsg (bus, channels, control and endpoint
 * devices) and lib/rpmsg/rproc.c (remote processors) read. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"

static size_t count_running(const struct sb_rproc *p, size_t n)
{
	size_t running = 0;

	for (size_t i = 0; i < n; i++) {
		const char *state = sb_rproc_state_shown(&p[i]); /* one state in every view */

		if (!strcmp(state, "running") || !strcmp(state, "attached"))
			running++;
	}
	return running;
}

#define PLURAL(n) ((n) == 1 ? "" : "s")

/* Whether the firmware describes a remote processor: a platform device of that role. */
static const char *described_rproc(const struct doctor_board *b)
{
	for (size_t i = 0; i < b->npdevs; i++)
		if (b->pdevs[i].role && b->pdevs[i].role->sub == SB_DOCTOR_RPMSG &&
		    strcmp(b->pdevs[i].role->what, "mailbox"))
			return b->pdevs[i].name;
	return NULL;
}

void doctor_probe_rpmsg(struct doctor_board *b, struct sb_doctor_sub *s)
{
	const struct sb_rpmsg_state *st = &b->rpmsg;
	size_t nproc = b->nprocs, running = count_running(b->procs, b->nprocs);
	const char *described;

	if (b->rpmsg_err[0])
		doctor_hint(s, "%s", b->rpmsg_err);
	doctor_num(s, "remoteprocs", (int64_t)nproc, false);
	doctor_num(s, "remoteprocs_running", (int64_t)running, false);
	doctor_bool(s, "rpmsg_bus", st->bus_present, false);
	doctor_num(s, "channels", (int64_t)st->nchannels, false);
	doctor_num(s, "ctrl_devices", (int64_t)st->nctrls, false);
	doctor_num(s, "endpoint_devices", (int64_t)st->nepts, false);

	/* the rpmsg core may be built in on a board that has no remote processor */
	if (!nproc && !st->nchannels) {
		described = described_rproc(b);
		if (!described) {
			/* no remote processor described: nothing is wrong, nothing to advise */
			s->status = SB_HEALTH_ABSENT;
			doctor_summary(s, "no remote processor on this board (%s describes none)",
				       b->plat.fw == SB_FW_DT ? "the device tree" : "the firmware");
			return;
		}
		s->status = SB_HEALTH_MISSING;
		doctor_summary(s, "%s is described, but no remote processor registered", described);
		return;
	}
	doctor_module(b->root, s, "rpmsg_ctrl", "module_rpmsg_ctrl", "CONFIG_RPMSG_CTRL");
	doctor_module(b->root, s, "rpmsg_char", "module_rpmsg_char", "CONFIG_RPMSG_CHAR");
	if (nproc && !running)
		doctor_hint(s, "no remote processor is running: rpmsgctl rproc start NAME");
	s->status =
		st->bus_present && st->nchannels && st->nctrls ? SB_HEALTH_OK : SB_HEALTH_DEGRADED;
	doctor_summary(
		s,
		"%zu remoteproc%s (%zu running), %zu channel%s, %zu ctrl device%s, %zu endpoint%s",
		nproc, PLURAL(nproc), running, st->nchannels, PLURAL(st->nchannels), st->nctrls,
		PLURAL(st->nctrls), st->nepts, PLURAL(st->nepts));
}
