/* SPDX-License-Identifier: GPL-2.0-or-later */
/* rpmsgctl internals shared by its command files. */
#ifndef SOCBOX_CMD_RPMSGCTL_H
#define SOCBOX_CMD_RPMSGCTL_H

#include <stdbool.h>
#include <stdint.h>

#include "socbox/cli.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"

#define RPMSGCTL "rpmsgctl"

/* Where a command talks: an existing endpoint device (--dev) or a temporary endpoint it
 * creates on a control device and destroys at the end. */
struct ept_opts {
	char *dev;
	int fd;
	struct sb_cli_value ctrl; /* the N of /dev/rpmsg_ctrlN */
	char *name;
	char *src, *dst;
	struct sb_cli_value method; /* enum sb_rpmsg_method */
	int timeout_ms;
};
extern struct ept_opts ept_opt;
extern struct poptOption ept_popt[];
#define EPT_POPT \
	{ \
		NULL, '\0', POPT_ARG_INCLUDE_TABLE, ept_popt, 0, "Endpoint options:", NULL \
	}
void ept_opts_reset(const char *default_name);

/* "1024", "0x400", "any" or "-1" -> address. 0 or -EINVAL. */
int parse_addr(const char *s, uint32_t *addr);
/* "rpmsg3", "/dev/rpmsg3" or "3" -> "/dev/rpmsg3". */
void devnode_of(const char *arg, char *buf, size_t len);

/* The remoteproc table of 'list' and 'rproc status' (cmd/rpmsgctl_rproc.c); st, when
 * given, fills the channels each processor announced. */
extern const struct sb_col rproc_cols[];
extern const size_t rproc_ncols;
struct sb_table *rproc_table(struct sb_out *o, const char *title, bool primary);
void rproc_row(struct sb_table *t, const struct sb_rproc *p, const struct sb_rpmsg_state *st);
/* What the row cannot say: a crash its driver did not report, a core in devcoredump. */
void rproc_crash_notes(struct sb_out *o, const struct sb_rproc *p);

struct ept_session {
	struct sb_rpmsg_ctl ctl;
	struct sb_rpmsg_ept ept;
	bool temporary;
};
/* Open the endpoint the options name; on error reports and returns the exit code (> 0). */
int ept_session_open(struct sb_ctx *c, struct ept_session *s, int flags);
/* Destroy a temporary endpoint, close everything; returns an exit code. */
int ept_session_close(struct sb_ctx *c, struct ept_session *s);

int rpmsgctl_list(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_ept(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_dev(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_flow(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_send(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_recv(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_ping(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_rproc(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_rproc_cycle(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_bench(struct sb_ctx *c, int argc, const char **argv);
int rpmsgctl_throughput(struct sb_ctx *c, int argc, const char **argv);

#endif
