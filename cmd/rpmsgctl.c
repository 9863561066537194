// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl: remote processors and rpmsg. This file: the command table and `list`, the joined
 * view of remoteprocs, channels, control devices and endpoint devices with the reasons for
 * whatever is missing. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/kmod.h"
#include "socbox/macro.h"
#include "socbox/rproc.h"
#include "socbox/platform.h"
#include "rpmsgctl.h"
#include "builtins.h"

enum { CH_DEVICE, CH_NAME, CH_SRC, CH_DST, CH_ANNOUNCE, CH_DRIVER, CH_REMOTEPROC };
static const struct sb_col chan_cols[] = {
	[CH_DEVICE] = { "DEVICE", SB_T_STR, 0, SB_COL_LABEL, "rpmsg bus device", 0 },
	/* the DEVICE names the channel already: NAME and ANNOUNCE make room for 80 columns */
	[CH_NAME] = { "NAME", SB_T_STR, 0, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
		      "channel (service) name", 0 },
	[CH_SRC] = { "SRC", SB_T_S64, 0, SB_COL_RIGHT, "local address (-1: any)", 0 },
	[CH_DST] = { "DST", SB_T_S64, 0, SB_COL_RIGHT, "remote address (-1: any)", 0 },
	[CH_ANNOUNCE] = { "ANNOUNCE", SB_T_BOOL, 0, SB_COL_HIDDEN | SB_COL_JSON,
			  "announced to the remote", 0 },
	[CH_DRIVER] = { "DRIVER", SB_T_STR, 0, SB_COL_METRIC, "bound driver (\"\" when none)", 0 },
	[CH_REMOTEPROC] = { "REMOTEPROC", SB_T_STR, 0, SB_COL_LABEL,
			    "remote processor it belongs to", 0 },
};

enum { CT_DEVICE, CT_DEVNODE, CT_CHANNEL, CT_REMOTEPROC };
static const struct sb_col ctrl_cols[] = {
	[CT_DEVICE] = { "DEVICE", SB_T_STR, 0, SB_COL_LABEL, "control device", 0 },
	[CT_DEVNODE] = { "DEVNODE", SB_T_STR, 0, SB_COL_METRIC, "device node", 0 },
	[CT_CHANNEL] = { "CHANNEL", SB_T_STR, 0, 0, "rpmsg device it controls", 0 },
	[CT_REMOTEPROC] = { "REMOTEPROC", SB_T_STR, 0, SB_COL_LABEL, "remote processor", 0 },
};

enum { EP_DEVICE, EP_DEVNODE, EP_NAME, EP_SRC, EP_DST, EP_PARENT, EP_REMOTEPROC };
static const struct sb_col ept_cols[] = {
	[EP_DEVICE] = { "DEVICE", SB_T_STR, 0, SB_COL_LABEL, "endpoint device", 0 },
	[EP_DEVNODE] = { "DEVNODE", SB_T_STR, 0, SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			 "device node (/dev/DEVICE)", 0 },
	[EP_NAME] = { "NAME", SB_T_STR, 0, SB_COL_LABEL, "endpoint name", 0 },
	[EP_SRC] = { "SRC", SB_T_S64, 0, SB_COL_RIGHT, "local address (-1: any)", 0 },
	[EP_DST] = { "DST", SB_T_S64, 0, SB_COL_RIGHT, "remote address (-1: any)", 0 },
	[EP_PARENT] = { "PARENT", SB_T_STR, 0, 0, "control device or channel", 0 },
	[EP_REMOTEPROC] = { "REMOTEPROC", SB_T_STR, 0, SB_COL_LABEL, "remote processor", 0 },
};

static void addr_cell(struct sb_row *row, int col, bool have, int64_t v)
{
	if (have)
		sb_row_s64(row, col, v);
}

static void render(struct sb_out *o, const struct sb_rproc *rp, size_t nrp,
		   const struct sb_rpmsg_state *st)
{
	struct sb_table *t = rproc_table(o, "Remote processors", false);

	for (size_t i = 0; i < nrp; i++)
		rproc_row(t, &rp[i], st);
	t = sb_out_table(o, "channels", "rpmsg channels", chan_cols, ARRAY_SIZE(chan_cols), true);
	for (size_t i = 0; i < st->nchannels; i++) {
		const struct sb_rpmsg_channel *ch = &st->channels[i];
		struct sb_row *row = sb_table_row(t);

		sb_row_str(row, CH_DEVICE, ch->dev);
		sb_row_str(row, CH_NAME, ch->name[0] ? ch->name : NULL);
		/* the bus prints hex and 0xffffffff for "any"; shown signed like the class */
		addr_cell(row, CH_SRC, ch->have_src, (int32_t)ch->src);
		addr_cell(row, CH_DST, ch->have_dst, (int32_t)ch->dst);
		if (ch->announce >= 0)
			sb_row_bool(row, CH_ANNOUNCE, ch->announce);
		sb_row_str(row, CH_DRIVER, ch->driver[0] ? ch->driver : NULL);
		sb_row_str(row, CH_REMOTEPROC, ch->remoteproc[0] ? ch->remoteproc : NULL);
	}
	t = sb_out_table(o, "control_devices", "Control devices", ctrl_cols, ARRAY_SIZE(ctrl_cols),
			 false);
	for (size_t i = 0; i < st->nctrls; i++) {
		const struct sb_rpmsg_ctrl *ct = &st->ctrls[i];
		struct sb_row *row = sb_table_row(t);

		sb_row_str(row, CT_DEVICE, ct->name);
		sb_row_str(row, CT_DEVNODE, ct->devnode);
		sb_row_str(row, CT_CHANNEL, ct->channel[0] ? ct->channel : NULL);
		sb_row_str(row, CT_REMOTEPROC, ct->remoteproc[0] ? ct->remoteproc : NULL);
	}
	t = sb_out_table(o, "endpoints", "Endpoint devices", ept_cols, ARRAY_SIZE(ept_cols), false);
	for (size_t i = 0; i < st->nepts; i++) {
		const struct sb_rpmsg_eptdev *ep = &st->epts[i];
		struct sb_row *row = sb_table_row(t);

		sb_row_str(row, EP_DEVICE, ep->name);
		sb_row_str(row, EP_DEVNODE, ep->devnode);
		sb_row_str(row, EP_NAME, ep->ept_name[0] ? ep->ept_name : NULL);
		addr_cell(row, EP_SRC, ep->have_src, ep->src);
		addr_cell(row, EP_DST, ep->have_dst, ep->dst);
		sb_row_str(row, EP_PARENT, ep->parent[0] ? ep->parent : NULL);
		sb_row_str(row, EP_REMOTEPROC, ep->remoteproc[0] ? ep->remoteproc : NULL);
	}
}

static const struct sb_rpmsg_channel *find_channel(
	const struct sb_rpmsg_state *st, const char *name, const char *rproc)
{
	for (size_t i = 0; i < st->nchannels; i++)
		if ((!name || !strcmp(st->channels[i].name, name)) &&
		    (!rproc || !strcmp(st->channels[i].remoteproc, rproc)))
			return &st->channels[i];
	return NULL;
}

static void module_note(struct sb_out *o, const struct sb_root *r, const char *mod,
			const char *config, const char *effect)
{
	enum sb_mod_state ms;

	char hint[256];

	sb_kmod_state(r, mod, &ms);
	if (sb_kmod_hint(hint, sizeof(hint), ms, mod, config, effect))
		sb_out_note(o, "%s%s", hint,
			    ms == SB_MOD_AVAILABLE ? ", or 'rpmsgctl list --load-modules'" : "");
}

/* Why something a user expects is not there (rpmsg being there: its absence is an error). */
static void explain(struct sb_out *o, const struct sb_root *r, const struct sb_rproc *rp,
		    size_t nrp, const struct sb_rpmsg_state *st)
{
	const struct sb_rpmsg_channel *ch;

	for (size_t i = 0; i < nrp; i++) {
		const char *s = sb_rproc_state_shown(&rp[i]);

		if (!strcmp(s, "offline"))
			sb_out_note(o, "%s (%s) is offline: 'rpmsgctl rproc start %s' boots %s",
				    rp[i].id, rp[i].name, rp[i].id, rp[i].firmware);
		else if (!strcmp(s, "crashed") && !rp[i].crash_unreported)
			sb_out_problem(
				o,
				"%s (%s) has crashed (recovery %s): see 'rpmsgctl rproc trace %s' and dmesg",
				rp[i].id, rp[i].name, rp[i].recovery, rp[i].id);
		else if ((!strcmp(s, "running") || !strcmp(s, "attached")) &&
			 !find_channel(st, NULL, rp[i].id))
			sb_out_problem(o,
				       "%s (%s) is %s but announced no rpmsg channel: the firmware has no "
				       "vdev resource or has not started rpmsg yet",
				       rp[i].id, rp[i].name, s);
		rproc_crash_notes(o, &rp[i]);
	}
	if (!st->bus_present)
		sb_out_note(o,
			    "no rpmsg bus: enable CONFIG_RPMSG_VIRTIO (or the SoC's rpmsg backend)");
	else if (!st->nchannels)
		sb_out_note(o, "no rpmsg channel announced: no remote runs rpmsg firmware");
	ch = find_channel(st, "rpmsg_ctrl", NULL);
	if (!st->nctrls && st->nchannels && (!ch || !ch->driver[0]))
		module_note(o, r, "rpmsg_ctrl", "CONFIG_RPMSG_CTRL",
			    "there is no /dev/rpmsg_ctrlN");
	for (size_t i = 0; i < st->nchannels; i++) {
		ch = &st->channels[i];
		if ((!strcmp(ch->name, "rpmsg-raw") || !strcmp(ch->name, "rpmsg_chrdev")) &&
		    !ch->driver[0]) {
			module_note(o, r, "rpmsg_char", "CONFIG_RPMSG_CHAR",
				    "raw channels have no /dev/rpmsgN");
			break;
		}
	}
}

static int load_modules(struct sb_ctx *c)
{
	static const char *const mods[] = { "rpmsg_char", "rpmsg_ctrl" };
	struct sb_err e;

	int rc = sb_need_live(c, "--load-modules");

	if (rc)
		return rc;
	for (size_t i = 0; i < ARRAY_SIZE(mods); i++) {
		enum sb_mod_state ms;

		sb_kmod_state(c->root, mods[i], &ms);
		if (ms != SB_MOD_AVAILABLE)
			continue;
		sb_err_clear(&e);
		sb_verbose(RPMSGCTL, "loading %s", mods[i]);
		if (sb_kmod_load(mods[i], &e) < 0)
			return sb_report(RPMSGCTL, &e);
	}
	return 0;
}

int rpmsgctl_list(struct sb_ctx *c, int argc, const char **argv)
{
	static int load;
	struct poptOption table[] = {
		{ "load-modules", '\0', POPT_ARG_NONE, &load, 0,
		  "load rpmsg_char and rpmsg_ctrl first when they are available", NULL },
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct sb_rpmsg_state st;
	struct sb_rproc *rp = NULL;
	struct sb_out *o;
	struct sb_err e;
	size_t nrp = 0;
	bool absent;
	int rc;

	const struct sb_cli_table others[] = {
		{ "the remote processors", "rpmsgctl rproc status", rproc_cols, rproc_ncols },
		{ "the control devices", NULL, ctrl_cols, ARRAY_SIZE(ctrl_cols) },
		{ "the endpoint devices", NULL, ept_cols, ARRAY_SIZE(ept_cols) },
	};

	load = 0;
	c->others = others;
	c->nothers = ARRAY_SIZE(others);
	rc = sb_cli_parse(c, table, NULL, argc, argv, chan_cols, ARRAY_SIZE(chan_cols));
	if (rc)
		return rc;
	if (load && (rc = load_modules(c)))
		return rc;
	sb_err_clear(&e);
	if (sb_rproc_list(c->root, &rp, &nrp, &e) < 0 || sb_rpmsg_scan(c->root, &st, &e) < 0) {
		free(rp);
		return sb_report(RPMSGCTL, &e);
	}
	/* no rpmsg at all: one line saying so, not four empty tables and a note repeating it
	 * (as smmustat says it of a board without an IOMMU) */
	absent = !nrp && !st.bus_present;
	rc = 0;
	if (!absent) {
		o = sb_out_new(&c->out, stdout);
		render(o, rp, nrp, &st);
		explain(o, c->root, rp, nrp, &st);
		rc = sb_out_print(o);
		sb_out_free(o);
	}
	sb_rpmsg_state_free(&st);
	free(rp);
	if (rc < 0)
		return SB_EXIT_FAIL;
	if (absent) {
		struct sb_platform plat;
		char hint[256];

		sb_platform_read(c->root, &plat);
		sb_rproc_missing_hint(&plat, hint, sizeof(hint));
		sb_err_set(&e, ENODEV, "rpmsg", "list", "%s", hint);
		sb_err_reason(&e, "no remote processors and no rpmsg bus in this kernel");
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(RPMSGCTL, &e);
	}
	return 0;
}

const struct sb_cmd rpmsgctl_cmds[] = {
	{ "list", rpmsgctl_list, NULL, "remoteprocs, channels, control and endpoint devices",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "ept", rpmsgctl_ept, "create|destroy ...",
	  "create or destroy an endpoint (/dev/rpmsgN or fd)", SB_CMD_GROUP },
	{ "dev", rpmsgctl_dev, "create|release ...",
	  "create or release a channel device on the remote", SB_CMD_GROUP },
	{ "flow", rpmsgctl_flow, "get|set ...", "flow control of an endpoint", SB_CMD_GROUP },
	{ "send", rpmsgctl_send, "[TEXT]", "send a message (argument, --file or stdin)",
	  SB_CMD_LIVE },
	{ "recv", rpmsgctl_recv, NULL, "receive messages to stdout", SB_CMD_LIVE },
	{ "ping", rpmsgctl_ping, NULL, "echo round trips with latency statistics",
	  SB_CMD_LIVE | SB_CMD_TESTS },
	{ "rproc", rpmsgctl_rproc,
	  "status|start|stop|detach|firmware|recovery|trace|crash|cycle ...",
	  "remote processor control", SB_CMD_GROUP },
	{ "bench", rpmsgctl_bench, NULL, "endpoint create/open/destroy/close: legacy vs fd path",
	  SB_CMD_LIVE },
	{ "throughput", rpmsgctl_throughput, NULL,
	  "messages/s and MB/s over sizes and endpoints, one way and echoed", SB_CMD_LIVE },
	{ NULL, NULL, NULL, NULL, 0 },
};

int rpmsgctl_main(int argc, const char **argv)
{
	return sb_cli_dispatch(RPMSGCTL, applet_summary(RPMSGCTL), rpmsgctl_cmds, "list", argc,
			       argv);
}
