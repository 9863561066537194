// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl ept create|destroy, dev create|release, flow get|set, and the endpoint options
 * (--dev or a temporary endpoint) that send, recv and ping share. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rpmsgctl.h"
#include "socbox/macro.h"

struct ept_opts ept_opt;
static const struct sb_cli_value method_default = SB_CLI_ENUM_VALUE("auto", sb_rpmsg_method_names);
static const struct sb_cli_value ctrl_default = SB_CLI_NUMBER_VALUE("0", 0, INT_MAX);

struct poptOption ept_popt[] = {
	{ "dev", 'd', POPT_ARG_STRING, &ept_opt.dev, 0,
	  "use this existing endpoint device instead of creating one", "rpmsgN" },
	{ "fd", '\0', POPT_ARG_INT, &ept_opt.fd, 0,
	  "use endpoint file descriptor N inherited from the caller (exec 3<>/dev/rpmsg0)", "N" },
	{ "ctrl", '\0', SB_POPT_ARG_VALUE, &ept_opt.ctrl, 0, "control device /dev/rpmsg_ctrlN",
	  "N" },
	{ "name", '\0', POPT_ARG_STRING, &ept_opt.name, 0, "endpoint name", "NAME" },
	{ "src", '\0', POPT_ARG_STRING, &ept_opt.src, 0, "local address (default any)", "ADDR" },
	{ "dst", '\0', POPT_ARG_STRING, &ept_opt.dst, 0, "remote address (default any)", "ADDR" },
	{ "method", 'm', SB_POPT_ARG_VALUE, &ept_opt.method, 0,
	  "the endpoint's path (auto: fd where the kernel has it, else legacy /dev/rpmsgN)",
	  "METHOD" },
	{ "wait", '\0', POPT_ARG_INT, &ept_opt.timeout_ms, 0,
	  "wait this long for /dev/rpmsgN to appear (default 5s)", SB_CLI_DURATION },
	POPT_TABLEEND
};

static const char *default_ept_name = "socbox";

void ept_opts_reset(const char *default_name)
{
	memset(&ept_opt, 0, sizeof(ept_opt));
	ept_opt.method = method_default;
	ept_opt.ctrl = ctrl_default;
	ept_opt.timeout_ms = 5000;
	ept_opt.fd = -1;
	default_ept_name = default_name;
}

int parse_addr(const char *s, uint32_t *addr)
{
	uint64_t v;

	if (!s || !strcmp(s, "any") || !strcmp(s, "-1")) {
		*addr = SB_RPMSG_ADDR_ANY;
		return 0;
	}
	if (sb_parse_u64(s, 0, &v) || v > 0xffffffffu)
		return -EINVAL;
	*addr = (uint32_t)v;
	return 0;
}

void devnode_of(const char *arg, char *buf, size_t len)
{
	if (arg[0] == '/')
		snprintf(buf, len, "%s", arg);
	else if (arg[0] >= '0' && arg[0] <= '9')
		snprintf(buf, len, "/dev/rpmsg%s", arg);
	else
		snprintf(buf, len, "/dev/%s", arg);
}

/* Validated endpoint options. */
static int ept_args(struct sb_ctx *c, uint32_t *src, uint32_t *dst, enum sb_rpmsg_method *m)
{
	if (parse_addr(ept_opt.src, src))
		return sb_usage_error(c, "--src '%s' is not an address (number, 0xHEX or any)",
				      ept_opt.src);
	if (parse_addr(ept_opt.dst, dst))
		return sb_usage_error(c, "--dst '%s' is not an address (number, 0xHEX or any)",
				      ept_opt.dst);
	*m = (enum sb_rpmsg_method)ept_opt.method.value;
	if (ept_opt.timeout_ms <= 0)
		return sb_usage_error(c, "--wait must be positive");
	if (ept_opt.fd < -1 || (ept_opt.fd >= 0 && ept_opt.dev))
		return sb_usage_error(c, "give --fd N (N >= 0) or --dev, not both");
	return 0;
}

/* An endpoint device named on the command line ("rpmsg3", "3", "/dev/rpmsg3"): check the
 * root is live, open it (node gets its path). 0, or the exit code after reporting. */
static int open_named_ept(struct sb_ctx *c, const char *arg, struct sb_rpmsg_ept *ept, char *node,
			  size_t len)
{
	struct sb_err e;
	int rc;

	if ((rc = sb_cli_live(c)))
		return rc;
	devnode_of(arg, node, len);
	sb_err_clear(&e);
	if (sb_rpmsg_ept_open(node, O_CLOEXEC, ept, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	return 0;
}

int ept_session_open(struct sb_ctx *c, struct ept_session *s, int flags)
{
	enum sb_rpmsg_method m;
	uint32_t src, dst;
	struct sb_err e;
	int rc;

	memset(s, 0, sizeof(*s));
	s->ctl.fd = -1;
	s->ept.fd = -1;
	if ((rc = ept_args(c, &src, &dst, &m)) || (rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	/* Caught before the endpoint exists: a stop signal now ends the command's loop, which
	 * prints what it has, and ept_session_close() destroys a temporary endpoint. */
	sb_catch_stop_signals();
	if (ept_opt.fd >= 0) {
		if (fcntl(ept_opt.fd, F_GETFD) < 0)
			return sb_usage_error(c, "--fd %d is not an open file descriptor",
					      ept_opt.fd);
		s->ept.fd = ept_opt.fd;
		sb_probe_ran(&s->ept.path, SB_RPMSG_LEGACY);
		return 0;
	}
	if (ept_opt.dev) {
		char node[64];

		devnode_of(ept_opt.dev, node, sizeof(node));
		if (sb_rpmsg_ept_open(node, flags, &s->ept, &e) < 0)
			return sb_report(RPMSGCTL, &e);
		return 0;
	}
	if (sb_rpmsg_ctl_open(c->root, (unsigned)ept_opt.ctrl.value, &s->ctl, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	s->ctl.timeout_ms = ept_opt.timeout_ms;
	if (sb_rpmsg_ept_create(&s->ctl, ept_opt.name ? ept_opt.name : default_ept_name, src, dst,
				flags, m, &s->ept, &e) < 0) {
		sb_rpmsg_ctl_close(&s->ctl);
		return sb_report(RPMSGCTL, &e);
	}
	s->temporary = true;
	sb_verbose(RPMSGCTL, "endpoint created by the %s path%s%s",
		   sb_rpmsg_method_name(s->ept.path.ran), s->ept.devnode[0] ? ": " : "",
		   s->ept.devnode);
	return 0;
}

int ept_session_close(struct sb_ctx *c, struct ept_session *s)
{
	struct sb_err e;
	int rc = 0;

	sb_err_clear(&e);
	if (s->temporary && sb_rpmsg_ept_destroy(&s->ept, &e) < 0)
		rc = sb_report(RPMSGCTL, &e);
	sb_rpmsg_ept_close(&s->ept);
	sb_rpmsg_ctl_close(&s->ctl);
	return rc;
}

enum { EC_DEVICE, EC_DEVNODE, EC_NAME, EC_SRC, EC_DST, EC_METHOD };
static const struct sb_col create_cols[] = {
	[EC_DEVICE] = { "DEVICE", SB_T_STR, 0, 0, "endpoint device (legacy path)", 0 },
	[EC_DEVNODE] = { "DEVNODE", SB_T_STR, 0, 0, "device node (legacy path)", 0 },
	[EC_NAME] = { "NAME", SB_T_STR, 0, 0, "endpoint name", 0 },
	[EC_SRC] = { "SRC", SB_T_S64, 0, SB_COL_RIGHT, "local address (-1: any)", 0 },
	[EC_DST] = { "DST", SB_T_S64, 0, SB_COL_RIGHT, "remote address (-1: any)", 0 },
	[EC_METHOD] = { "METHOD", SB_T_STR, 0, 0, "path that ran: legacy or fd", 0 },
};

static int ept_create(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption table[] = { EPT_POPT, SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	enum sb_rpmsg_method asked, m;
	struct ept_session s;
	struct sb_table *t;
	struct sb_row *row;
	struct sb_out *o;
	uint32_t src, dst;
	struct sb_err e;
	int rc;

	ept_opts_reset("socbox");
	rc = sb_cli_parse(c, table, "NAME", argc, argv, create_cols, ARRAY_SIZE(create_cols));
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "give exactly one endpoint NAME");
	if (strlen(c->args[0]) >= SB_RPMSG_NAME_SIZE)
		return sb_usage_error(c, "NAME is longer than %d bytes", SB_RPMSG_NAME_SIZE - 1);
	if (ept_opt.dev || ept_opt.fd >= 0)
		return sb_usage_error(c,
				      "--dev and --fd name an existing endpoint; create takes --ctrl");
	free(ept_opt.name); /* NAME wins over a --name given to create */
	ept_opt.name = (char *)c->args[0];
	asked = (enum sb_rpmsg_method)ept_opt.method.value;
	sb_err_clear(&e);
	if (sb_rpmsg_method_lasting(asked, &m, &e) < 0)
		return sb_usage_error(c, "%s: %s (%s)", e.object, e.reason, e.hint);
	if (asked == SB_RPMSG_AUTO)
		sb_verbose(RPMSGCTL,
			   "--method auto means legacy for ept create: only a /dev/rpmsgN "
			   "endpoint outlives this process (an fd endpoint dies with its fd)");
	ept_opt.method.value = m;
	rc = ept_session_open(c, &s, O_CLOEXEC);
	if (rc)
		return rc;
	parse_addr(ept_opt.src, &src);
	parse_addr(ept_opt.dst, &dst);
	o = sb_out_new(&c->out, stdout);
	t = sb_out_table(o, "endpoints", NULL, create_cols, ARRAY_SIZE(create_cols), true);
	row = sb_table_row(t);
	if (s.ept.devnode[0]) {
		sb_row_str(row, EC_DEVICE, strrchr(s.ept.devnode, '/') + 1);
		sb_row_str(row, EC_DEVNODE, s.ept.devnode);
	}
	sb_row_str(row, EC_NAME, c->args[0]);
	sb_row_s64(row, EC_SRC, (int32_t)src);
	sb_row_s64(row, EC_DST, (int32_t)dst);
	sb_row_str(row, EC_METHOD, sb_rpmsg_method_name(s.ept.path.ran));
	/* auto never means fd here: say what was asked beside the path that ran */
	sb_out_field_str(o, "requested_method", sb_rpmsg_method_name(asked));
	rc = sb_out_print(o) < 0 ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	/* the legacy endpoint device stays until 'ept destroy'; only our fd goes */
	sb_rpmsg_ept_close(&s.ept);
	sb_rpmsg_ctl_close(&s.ctl);
	return rc;
}

static int ept_destroy(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption table[] = { SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_rpmsg_ept ept;
	struct sb_err e;
	int rc = sb_cli_parse(c, table, "rpmsgN...", argc, argv, NULL, 0);

	if (rc)
		return rc;
	if (c->nargs < 1)
		return sb_usage_error(c,
				      "name at least one endpoint device (rpmsgN or /dev/rpmsgN)");
	for (int i = 0; i < c->nargs; i++) {
		char node[64];
		int r = open_named_ept(c, c->args[i], &ept, node, sizeof(node));

		if (r) {
			rc = r;
			if (!sb_root_is_live(c->root))
				break; /* the same for every device: say it once */
			continue;
		}
		sb_err_clear(&e);
		if (sb_rpmsg_ept_destroy(&ept, &e) < 0) {
			rc = sb_report(RPMSGCTL, &e);
			continue;
		}
		sb_verbose(RPMSGCTL, "%s destroyed", node);
	}
	return rc;
}

int rpmsgctl_ept(struct sb_ctx *c, int argc, const char **argv)
{
	static const struct sb_cmd sub[] = {
		{ "create", ept_create, "NAME", "create an endpoint on a control device",
		  SB_CMD_LIVE },
		{ "destroy", ept_destroy, "rpmsgN...", "destroy endpoint devices", SB_CMD_LIVE },
		{ NULL, NULL, NULL, NULL, 0 },
	};
	return sb_cli_dispatch(RPMSGCTL " ept", "Create or destroy rpmsg endpoints.", sub, NULL,
			       argc, argv);
}

static int dev_common(struct sb_ctx *c, int argc, const char **argv, bool create)
{
	struct poptOption table[] = { EPT_POPT, SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_rpmsg_ctl ctl;
	enum sb_rpmsg_method m;
	uint32_t src, dst;
	struct sb_err e;
	int rc;

	ept_opts_reset(NULL);
	rc = sb_cli_parse(c, table, "NAME", argc, argv, NULL, 0);
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "give exactly one channel NAME");
	if ((rc = ept_args(c, &src, &dst, &m)) || (rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	if (sb_rpmsg_ctl_open(c->root, (unsigned)ept_opt.ctrl.value, &ctl, &e) < 0)
		return sb_report(RPMSGCTL, &e);
	rc = create ? sb_rpmsg_dev_create(&ctl, c->args[0], src, dst, &e)
		    : sb_rpmsg_dev_release(&ctl, c->args[0], src, dst, &e);
	sb_rpmsg_ctl_close(&ctl);
	if (rc < 0)
		return sb_report(RPMSGCTL, &e);
	sb_verbose(RPMSGCTL, "channel %s %s", c->args[0], create ? "created" : "released");
	return 0;
}

static int dev_create(struct sb_ctx *c, int argc, const char **argv)
{
	return dev_common(c, argc, argv, true);
}

static int dev_release(struct sb_ctx *c, int argc, const char **argv)
{
	return dev_common(c, argc, argv, false);
}

int rpmsgctl_dev(struct sb_ctx *c, int argc, const char **argv)
{
	static const struct sb_cmd sub[] = {
		{ "create", dev_create, "NAME", "RPMSG_CREATE_DEV_IOCTL: create a channel device",
		  SB_CMD_LIVE },
		{ "release", dev_release, "NAME",
		  "RPMSG_RELEASE_DEV_IOCTL: release a channel device", SB_CMD_LIVE },
		{ NULL, NULL, NULL, NULL, 0 },
	};
	return sb_cli_dispatch(RPMSGCTL " dev", "Create or release rpmsg channel devices.", sub,
			       NULL, argc, argv);
}

static int flow_get(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption table[] = { SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_rpmsg_ept ept;
	struct sb_out *o;
	struct sb_err e;
	char node[64];
	bool paused;
	int rc = sb_cli_parse(c, table, "rpmsgN", argc, argv, NULL, 0);

	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "name one endpoint device");
	if ((rc = open_named_ept(c, c->args[0], &ept, node, sizeof(node))))
		return rc;
	sb_err_clear(&e);
	rc = sb_rpmsg_get_outgoing_flow(ept.fd, &paused, &e);
	sb_rpmsg_ept_close(&ept);
	if (rc < 0)
		return sb_report(RPMSGCTL, &e);
	o = sb_out_new(&c->out, stdout);
	sb_out_field_str(o, "device", node);
	sb_out_field_bool(o, "outgoing_paused", paused);
	rc = sb_out_print(o) < 0 ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	return rc;
}

static int flow_set(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption table[] = { SB_POPT_COMMON, POPT_TABLEEND };
	struct sb_rpmsg_ept ept;
	struct sb_err e;
	char node[64];
	bool pause;
	int rc = sb_cli_parse(c, table, "rpmsgN pause|resume", argc, argv, NULL, 0);

	if (rc)
		return rc;
	if (c->nargs != 2)
		return sb_usage_error(c, "give an endpoint device and pause or resume");
	if (!strcmp(c->args[1], "pause"))
		pause = true;
	else if (!strcmp(c->args[1], "resume"))
		pause = false;
	else
		return sb_usage_error(c, "'%s': say pause or resume", c->args[1]);
	if ((rc = open_named_ept(c, c->args[0], &ept, node, sizeof(node))))
		return rc;
	sb_err_clear(&e);
	rc = sb_rpmsg_set_incoming_flow(ept.fd, pause, &e);
	sb_rpmsg_ept_close(&ept);
	return rc < 0 ? sb_report(RPMSGCTL, &e) : 0;
}

int rpmsgctl_flow(struct sb_ctx *c, int argc, const char **argv)
{
	static const struct sb_cmd sub[] = {
		{ "get", flow_get, "rpmsgN",
		  "RPMSG_GET_OUTGOING_FLOWCONTROL: has the remote paused us?", SB_CMD_LIVE },
		{ "set", flow_set, "rpmsgN pause|resume",
		  "RPMSG_SET_INCOMING_FLOWCONTROL: pause or resume the remote", SB_CMD_LIVE },
		{ NULL, NULL, NULL, NULL, 0 },
	};
	return sb_cli_dispatch(RPMSGCTL " flow", "rpmsg endpoint flow control.", sub, NULL, argc,
			       argv);
}
