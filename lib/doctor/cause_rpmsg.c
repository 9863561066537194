// SPDX-License-Identifier: GPL-2.0-or-later
/* Why a remote processor or its rpmsg channels are not there: its firmware, its boot, its
 * crashes, its mailbox, its name-service announcement, the drivers user space needs. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/cmdline.h"
#include "socbox/limits.h"
#include "socbox/macro.h"
#include "socbox/rproc.h"

static bool is_up(const struct sb_rproc *p)
{
	return !strcmp(p->state, "running") || !strcmp(p->state, "attached");
}

static const struct sb_rproc *rproc_by_id(const struct doctor_board *b, const char *id)
{
	for (size_t i = 0; i < b->nprocs; i++)
		if (!strcmp(b->procs[i].id, id))
			return &b->procs[i];
	return NULL;
}

static const struct sb_rproc *rproc_by_device(const struct doctor_board *b, const char *dev)
{
	for (size_t i = 0; i < b->nprocs; i++)
		if (!strcmp(b->procs[i].device, dev))
			return &b->procs[i];
	return NULL;
}

/* Where the loader looks first (drivers/base/firmware_loader/main.c fw_path[]): the
 * firmware_class.path parameter when set, else /lib/firmware (the catalogue lists the
 * rest of the path). */
static void search_dir(const struct doctor_board *b, char *out, size_t len)
{
	char custom[256] = "";

	if (!b->cmdline ||
	    !sb_cmdline_param(b->cmdline, "firmware_class.path", custom, sizeof(custom)))
		sb_attr_str(b->root, custom, sizeof(custom),
			    "/sys/module/firmware_class/parameters/path");
	snprintf(out, len, "%s", custom[0] ? custom : "/lib/firmware");
}

/* One log line of the remoteproc core about a processor that is not up now. */
static void boot_line(struct doctor_board *b, const struct sb_rproc *p, const char *msg,
		      size_t from, size_t at)
{
	const char *line = b->log.lines[at].text;
	struct doctor_reason why;
	/* remoteproc_elf_loader.c rproc_elf_sanity_check(), rproc_elf_load_segments(),
	 * remoteproc_core.c rproc_start() */
	static const char *const rejected[] = {
		"Image is too small",
		"Image is corrupted (bad magic)",
		"Unsupported class",
		"elf64 header is too small",
		"Unsupported firmware endianness",
		"No loadable segments",
		"Firmware size is too small",
		"bad phdr",
		"truncated fw",
		"Failed to load program segments",
		NULL,
	};
	/* remoteproc_core.c rproc_fw_boot(), rproc_start(), rproc_handle_carveout(),
	 * rproc_alloc_registered_carveouts(); remoteproc_elf_loader.c find_table();
	 * remoteproc_sysfs.c state_store() */
	static const char *const failed[] = {
		"Failed to process resources",
		"can't start rproc",
		"can't prepare rproc",
		"Boot failed",
		"Unable to allocate carveout",
		"Failed to allocate associated carveouts",
		"failed to allocate dma memory",
		"rsc table is truncated",
		"carveout rsc",
		"Registered carveout doesn't fit",
		"resource table truncated",
		"header-less resource table",
		"unsupported fw ver",
		"resource table incomplete",
		"iommu_map failed",
		"failed to prepare subdevices",
		"failed to probe subdevices",
		NULL,
	};
	char fw[128], path[256];
	struct sb_cause *c;
	int err;

	/* drivers/base/firmware_loader/main.c _request_firmware(); Debian's kernels say
	 * "firmware: failed to load %s (%d)" before it */
	if (sscanf(msg, "Direct firmware load for %127s failed with error %d", fw, &err) == 2 ||
	    sscanf(msg, "firmware: failed to load %127s (%d)", fw, &err) == 2) {
		/* a firmware name set since then is the one to ask about */
		if (strcmp(fw, p->firmware))
			return;
		c = doctor_cause(b, "rpmsg.firmware-missing", SB_DOCTOR_RPMSG, p->id);
		if (!c)
			return;
		search_dir(b, path, sizeof(path));
		cause_diag(c, "%s (%s): firmware %s not found (error %d)", p->id, p->name, fw, err);
		cause_evidence(c, "kernel log: %s", line);
		cause_fix(c, "install %s in %s, then start it with " SB_FIX_RUN0, fw, path);
		sb_cause_run(c, "rpmsgctl rproc start %s", p->id);
		return;
	}
	for (int i = 0; rejected[i]; i++)
		if (strstr(msg, rejected[i]) &&
		    (c = doctor_cause(b, "rpmsg.firmware-rejected", SB_DOCTOR_RPMSG, p->id))) {
			cause_diag(c, "%s (%s): firmware %s rejected: %s", p->id, p->name,
				   p->firmware, msg);
			cause_evidence(c, "kernel log: %s", line);
		}
	/* a firmware that is missing or rejected is why the boot failed: say that once */
	if (doctor_has_cause(b, p->id))
		return;
	for (int i = 0; failed[i]; i++)
		if (strstr(msg, failed[i]) &&
		    (c = doctor_cause(b, "rpmsg.boot-failed", SB_DOCTOR_RPMSG, p->id))) {
			cause_diag(c, "%s (%s) failed to boot %s: %s", p->id, p->name, p->firmware,
				   msg);
			cause_evidence(c, "kernel log: %s", line);
			/* the remoteproc core speaks for remoteprocN, the driver for its device */
			doctor_reason_find(b, from, at, p->device, NULL, &why);
			doctor_reason_apply(c, b, &why, p->device);
		}
}

static void mailbox_line(struct doctor_board *b, const char *text)
{
	/* mailbox.c mbox_send_message(); imx_rproc.c and stm32_rproc.c "%s: failed (%d,
	 * err:%d)" from their _kick(); ti_k3_common.c k3_rproc_kick() */
	static const char *const keys[] = {
		"Try increasing MBOX_TX_QUEUE_LEN", "_rproc_kick: failed (",
		"failed to send mailbox message", NULL
	};
	char dev[96];
	struct sb_cause *c;

	for (int i = 0; keys[i]; i++) {
		if (!strstr(text, keys[i]))
			continue;
		if (!doctor_log_dev(text, dev, sizeof(dev)))
			snprintf(dev, sizeof(dev), "mailbox");
		c = doctor_cause(b, "rpmsg.mailbox", SB_DOCTOR_RPMSG, dev);
		if (!c)
			return;
		cause_diag(c, "%s: mailbox messages to the remote fail", dev);
		cause_evidence(c, "kernel log: %s", text);
		return;
	}
}

/* A crash kept in devcoredump: the evidence names it, the fix says how to keep it before
 * the kernel frees it (lib/rpmsg/rproc_devcd.c says where it comes from). */
static void core_evidence(struct sb_cause *c, const struct sb_rproc *p)
{
	size_t n = strlen(c->evidence), f = strlen(c->fix);

	if (!p->devcd[0])
		return;
	snprintf(c->evidence + n, sizeof(c->evidence) - n,
		 "%s%s holds %s's core (" SB_DEVCD_CLASS "/%s/data)", n ? " | " : "", p->devcd,
		 p->id, p->devcd);
	snprintf(c->fix + f, sizeof(c->fix) - f,
		 "%skeep %s's core before the kernel frees it (%d minutes after the crash, or on "
		 "a write to data): socbox snapshot FILE.tar, or cat " SB_DEVCD_CLASS
		 "/%s/data > FILE",
		 f ? "; " : "", p->devcd, SB_DEVCD_TIMEOUT_S / 60, p->devcd);
}

/* A crash its driver printed but did not report to the core (lib/rpmsg/rproc.c reads it
 * for every view): the state still says running and nothing recovers it. */
static void k3_crashes(struct doctor_board *b)
{
	for (size_t i = 0; i < b->nprocs; i++) {
		const struct sb_rproc *p = &b->procs[i];
		struct sb_cause *c;

		if (!p->crash_unreported ||
		    !(c = doctor_cause(b, "rpmsg.crashed", SB_DOCTOR_RPMSG, p->id)))
			continue;
		cause_diag(c,
			   "%s (%s) crashed; its driver does not recover it (state still says %s)",
			   p->id, p->name, p->state);
		cause_evidence(c, "kernel log: %s", p->crash_line);
		cause_fix(c, "read its trace with " SB_FIX_RUN0
			     ", then stop and start it with " SB_FIX_RUN1);
		sb_cause_run(c, "rpmsgctl rproc trace %s", p->id);
		sb_cause_run(c, "rpmsgctl rproc stop %s && rpmsgctl rproc start %s", p->id, p->id);
		core_evidence(c, p);
	}
}

/* The processor a log line is about, and the line's message: the core prints on the
 * remoteproc device, some drivers on the processor's platform device. */
static const struct sb_rproc *line_rproc(const struct doctor_board *b, const char *text,
					 const char **msg)
{
	const struct sb_rproc *p = NULL;
	char id[96];

	*msg = strncmp(text, "remoteproc ", 11)
		       ? NULL
		       : sb_kmsg_dev_msg(text, "remoteproc", id, sizeof(id));
	if (*msg)
		p = rproc_by_id(b, id);
	if (!p && (*msg = doctor_log_dev(text, id, sizeof(id))))
		p = rproc_by_device(b, id);
	return p;
}

/* The lines of a processor that is not up since its last boot attempt ("powering up %s",
 * rproc_boot()): what an earlier boot said was answered by a later one. */
static void log_lines(struct doctor_board *b)
{
	const char *msg;

	k3_crashes(b);
	for (size_t i = 0; i < b->log.n; i++)
		mailbox_line(b, b->log.lines[i].text);
	for (size_t k = 0; k < b->nprocs; k++) {
		const struct sb_rproc *p = &b->procs[k];
		size_t from = 0;

		if (is_up(p))
			continue;
		for (size_t i = 0; i < b->log.n; i++)
			if (line_rproc(b, b->log.lines[i].text, &msg) == p &&
			    !strncmp(msg, "powering up ", 12))
				from = i;
		for (size_t i = from; i < b->log.n; i++)
			if (line_rproc(b, b->log.lines[i].text, &msg) == p)
				boot_line(b, p, msg, from, i);
	}
}

/* A crash whose recovery failed: the remoteproc core printed "crash detected in %s: type
 * %s" (rproc_report_crash()), "recovering %s" (rproc_trigger_recovery()), and the boot
 * of the recovery (rproc_boot_recovery(): request_firmware(), rproc_start()) failed, which
 * boot_line() named. The crash is the root of the chain, the boot failure follows. */
static void failed_recovery(struct doctor_board *b)
{
	static const char *const boot[] = {
		"rpmsg.firmware-missing", "rpmsg.firmware-rejected", "rpmsg.boot-failed"
	};

	for (size_t k = 0; k < b->nprocs; k++) {
		const struct sb_rproc *p = &b->procs[k];
		size_t from = 0, crash = 0, recover = 0;
		struct sb_cause *c, *follower = NULL;
		const char *msg;
		char type[64] = "";

		if (is_up(p))
			continue;
		for (size_t i = 0; i < b->log.n; i++) {
			if (line_rproc(b, b->log.lines[i].text, &msg) != p)
				continue;
			if (!strncmp(msg, "powering up ", 12))
				from = i + 1;
			else if (!strncmp(msg, "crash detected in ", 18))
				crash = i + 1;
			else if (!strncmp(msg, "recovering ", 11))
				recover = i + 1;
		}
		if (!crash || crash < from || recover < crash)
			continue;
		for (size_t i = 0; i < b->rep->ncauses && !follower; i++)
			for (size_t j = 0; j < sizeof(boot) / sizeof(boot[0]); j++)
				if (!strcmp(b->rep->causes[i].def->code, boot[j]) &&
				    !strcmp(b->rep->causes[i].object, p->id))
					follower = &b->rep->causes[i];
		if (!follower)
			continue;
		doctor_cause_follows(follower, "rpmsg.crashed", p->id);
		if (!(c = doctor_cause(b, "rpmsg.crashed", SB_DOCTOR_RPMSG, p->id)))
			continue;
		line_rproc(b, b->log.lines[crash - 1].text, &msg);
		sscanf(msg, "crash detected in %*[^:]: type %63s", type);
		cause_diag(c, "%s (%s) crashed%s%s%s; its recovery failed and it stays %s", p->id,
			   p->name, type[0] ? " (" : "", type, type[0] ? ")" : "", p->state);
		cause_evidence(c, "kernel log: %s | %s", b->log.lines[crash - 1].text,
			       b->log.lines[recover - 1].text);
		cause_fix(c, "fix what failed the recovery (the cause that follows), then start it "
			     "with " SB_FIX_RUN0 "; its trace (" SB_FIX_RUN1 ") and its coredump "
			     "say why it crashed");
		sb_cause_run(c, "rpmsgctl rproc start %s", p->id);
		sb_cause_run(c, "rpmsgctl rproc trace %s", p->id);
		core_evidence(c, p);
	}
}

/* Its virtio device: "remoteprocN#vdevMbuffer" before 5.13, "rproc-virtio.N.auto" (a
 * platform device of drivers/remoteproc/remoteproc_virtio.c) since. */
static bool has_vdev(const struct doctor_board *b, const struct sb_rproc *p)
{
	struct sb_dirlist l = { 0 };
	bool found = false;

	if (sb_dir_list(b->root, &l, "/sys/class/remoteproc/%s", p->id) == 0)
		for (size_t i = 0; i < l.n && !found; i++)
			found = strstr(l.names[i], "#vdev") ||
				!strncmp(l.names[i], "rproc-virtio.", 13);
	sb_dirlist_free(&l);
	return found;
}

static size_t channels_of(const struct doctor_board *b, const char *id)
{
	size_t n = 0;

	/* the bus makes rpmsg_ctrl (and rpmsg_ns) itself: only the remote announces the rest */
	for (size_t i = 0; i < b->rpmsg.nchannels; i++)
		n += !strcmp(b->rpmsg.channels[i].remoteproc, id) &&
		     strcmp(b->rpmsg.channels[i].name, "rpmsg_ctrl") &&
		     strcmp(b->rpmsg.channels[i].name, "rpmsg_ns");
	return n;
}

static void processors(struct doctor_board *b)
{
	for (size_t i = 0; i < b->nprocs; i++) {
		const struct sb_rproc *p = &b->procs[i];
		struct sb_cause *c;

		if (!strcmp(p->state, "crashed") && !strcmp(p->recovery, "disabled") &&
		    (c = doctor_cause(b, "rpmsg.crashed", SB_DOCTOR_RPMSG, p->id))) {
			cause_diag(c, "%s (%s) crashed and stays down: recovery is disabled", p->id,
				   p->name);
			cause_evidence(c,
				       "/sys/class/remoteproc/%s: state crashed, recovery disabled",
				       p->id);
			cause_fix(c, "read its trace with " SB_FIX_RUN0 ", then stop and start it "
				     "with " SB_FIX_RUN1 "; " SB_FIX_RUN2 " restarts it "
				     "after a crash");
			sb_cause_run(c, "rpmsgctl rproc trace %s", p->id);
			sb_cause_run(c, "rpmsgctl rproc stop %s && rpmsgctl rproc start %s", p->id,
				     p->id);
			sb_cause_run(c, "rpmsgctl rproc recovery %s on", p->id);
			core_evidence(c, p);
		}
		if (p->have_crashes && p->crashes >= 3 && strcmp(p->recovery, "disabled") &&
		    (c = doctor_cause(b, "rpmsg.crash-loop", SB_DOCTOR_RPMSG, p->id))) {
			cause_diag(c,
				   "%s (%s) crashed %u times since boot and was recovered each time",
				   p->id, p->name, p->crashes);
			cause_evidence(c, "kernel log: \"handling crash #%u in %s\"", p->crashes,
				       p->name);
			cause_fix(c, "read its trace with " SB_FIX_RUN0 "; " SB_FIX_RUN1
				     " keeps the next crash for a debugger or coredump");
			sb_cause_run(c, "rpmsgctl rproc trace %s", p->id);
			sb_cause_run(c, "rpmsgctl rproc recovery %s off", p->id);
			core_evidence(c, p);
		}
		if (!strcmp(p->state, "running") && b->rpmsg.bus_present &&
		    !channels_of(b, p->id) && has_vdev(b, p) &&
		    (c = doctor_cause(b, "rpmsg.no-channel", SB_DOCTOR_RPMSG, p->id))) {
			cause_diag(c, "%s (%s) runs %s but announced no rpmsg channel", p->id,
				   p->name, p->firmware);
			cause_evidence(c,
				       "/sys/class/remoteproc/%s: state running, a vdev; no device "
				       "of it in /sys/bus/rpmsg/devices",
				       p->id);
		}
	}
}

/* Channels whose driver is in the kernel tree: unbound, that driver is missing. */
static void channels(struct doctor_board *b)
{
	static const struct {
		const char *name, *module, *config;
	} drivers[] = {
		{ "rpmsg-raw", "rpmsg_char", "CONFIG_RPMSG_CHAR" },
		{ "rpmsg_chrdev", "rpmsg_char", "CONFIG_RPMSG_CHAR" },
		{ "rpmsg-tty", "rpmsg_tty", "CONFIG_RPMSG_TTY" },
		{ "rpmsg-client-sample", "rpmsg_client_sample", "CONFIG_SAMPLE_RPMSG_CLIENT" },
	};
	for (size_t i = 0; i < b->rpmsg.nchannels; i++) {
		const struct sb_rpmsg_channel *ch = &b->rpmsg.channels[i];
		struct sb_cause *c;

		for (size_t k = 0; k < ARRAY_SIZE(drivers); k++) {
			if (ch->driver[0] || strcmp(ch->name, drivers[k].name))
				continue;
			c = doctor_cause(b, "rpmsg.channel-unbound", SB_DOCTOR_RPMSG, ch->dev);
			if (!c)
				break;
			cause_diag(c, "channel %s (%s) has no driver: %s is not loaded", ch->dev,
				   ch->name, drivers[k].module);
			cause_evidence(c, "/sys/bus/rpmsg/devices/%s: no driver link", ch->dev);
			cause_fix(c, "enable %s or modprobe %s", drivers[k].config,
				  drivers[k].module);
		}
	}
}

void doctor_causes_rpmsg(struct doctor_board *b)
{
	struct sb_cause *c;

	log_lines(b);
	processors(b);
	failed_recovery(b);
	if (b->nprocs && !b->rpmsg.bus_present &&
	    (c = doctor_cause(b, "rpmsg.no-bus", SB_DOCTOR_RPMSG, "rpmsg"))) {
		cause_diag(c, "%zu remote processor%s but no rpmsg bus", b->nprocs,
			   b->nprocs == 1 ? "" : "s");
		cause_evidence(c, "/sys/class/remoteproc: %zu entries; /sys/bus/rpmsg: absent",
			       b->nprocs);
	}
	channels(b);
	if (b->rpmsg.bus_present && b->rpmsg.nchannels && !b->rpmsg.nctrls &&
	    (c = doctor_cause(b, "rpmsg.char-missing", SB_DOCTOR_RPMSG, "rpmsg_ctrl"))) {
		cause_diag(c, "%zu channel%s but no /dev/rpmsg_ctrlN: endpoints cannot be made",
			   b->rpmsg.nchannels, b->rpmsg.nchannels == 1 ? "" : "s");
		cause_evidence(c, "/sys/class/rpmsg: no rpmsg_ctrlN");
	}
}
