/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remoteproc: /sys/class/remoteproc/remoteprocN (name, state, firmware, recovery, coredump)
 * and the debugfs trace buffers; control by writing the sysfs attributes, with the kernel's
 * errors turned into hints. */
#ifndef SOCBOX_RPROC_H
#define SOCBOX_RPROC_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/error.h"
#include "socbox/sys.h"

struct sb_rproc {
	char id[32];         /* "remoteproc0" */
	unsigned index;
	char name[64];       /* "5000000.m4fss", "imx-rproc" */
	char state[24];      /* offline, running, crashed, attached, ... */
	char firmware[128];  /* "unknown" for attached processors */
	char recovery[16];   /* enabled / disabled */
	char coredump[16];
	char device[128];    /* parent device ("5000000.m4fss") */
	unsigned ntraces;    /* debugfs trace0..N readable */
};

/* Every value of the state attribute (drivers/remoteproc/remoteproc_sysfs.c), NULL-terminated. */
extern const char *const sb_rproc_states[];

int sb_rproc_list(const struct sb_root *r, struct sb_rproc **out, size_t *n, struct sb_err *e);
/* spec: "remoteproc1", "1", or the name attribute / parent device name. -ENOENT when none. */
int sb_rproc_find(const struct sb_root *r, const char *spec, struct sb_rproc *out,
		  struct sb_err *e);

enum sb_rproc_action { SB_RPROC_START, SB_RPROC_STOP, SB_RPROC_DETACH };
int sb_rproc_state_write(const struct sb_root *r, const struct sb_rproc *p,
			 enum sb_rproc_action a, struct sb_err *e);
int sb_rproc_firmware_write(const struct sb_root *r, const struct sb_rproc *p, const char *fw,
			    struct sb_err *e);
int sb_rproc_recovery_write(const struct sb_root *r, const struct sb_rproc *p, bool on,
			    struct sb_err *e);
/* The text of debugfs trace<idx>; *text malloc'ed. */
int sb_rproc_trace(const struct sb_root *r, const struct sb_rproc *p, unsigned idx, char **text,
		   struct sb_err *e);

#endif
