/* SPDX-License-Identifier: GPL-2.0-or-later */
/* remoteproc: /sys/class/remoteproc/remoteprocN (name, state, firmware, recovery, coredump)
 * and the debugfs trace buffers; control by writing the sysfs attributes, with the kernel's
 * errors turned into hints. */
#ifndef SOCBOX_RPROC_H
#define SOCBOX_RPROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

struct sb_rproc {
	char id[32]; /* "remoteproc0" */
	unsigned index;
	char name[64];	    /* "5000000.m4fss", "imx-rproc" */
	char state[24];	    /* offline, running, crashed, attached, ... */
	char firmware[128]; /* "unknown" for attached processors */
	char recovery[16];  /* enabled / disabled */
	char coredump[16];
	char device[128]; /* parent device ("5000000.m4fss") */
	unsigned ntraces; /* debugfs trace0..N readable */
	unsigned crashes; /* crashes handled since boot (kernel log), when have_crashes */
	bool have_crashes;
	/* A crash its driver printed but never reported to the remoteproc core (TI K3:
	 * "K3 rproc %s crashed"), not followed by "remote processor %s is now up": the state
	 * attribute still says running. crash_line is that kernel log line. */
	bool crash_unreported;
	char crash_line[256];
	char devcd[32]; /* "devcd3": the devcoredump that holds its core, "" when none */
};

/* The processor's state as doctor and every view show it: "crashed" for a crash its
 * driver did not report (crash_unreported), else the state attribute. */
const char *sb_rproc_state_shown(const struct sb_rproc *p);
/* Why the shown state is not the state attribute: "" when it is. */
void sb_rproc_state_note(const struct sb_rproc *p, char *buf, size_t len);

/* devcoredump (drivers/base/devcoredump.c): the core a crash left, /sys/class/devcoredump/
 * devcdN/data, tied to its processor by the devcdN/failing_device link. The kernel frees
 * it SB_DEVCD_TIMEOUT_S after it was made (DEVCD_TIMEOUT) or at once when data is written:
 * socbox only ever reads it. */
#define SB_DEVCD_CLASS "/sys/class/devcoredump"
#define SB_DEVCD_TIMEOUT_S 300
/* Set p[i].devcd for each processor whose core a devcoredump holds; best effort. */
void sb_rproc_devcd_scan(const struct sb_root *r, struct sb_rproc *p, size_t n);
/* The device a devcdN failed for: the last component of its failing_device link, into
 * dev; -errno when it has none. */
int sb_devcd_failing_device(const struct sb_root *r, const char *devcd, char *dev, size_t len);

/* Every value of the state attribute (drivers/remoteproc/remoteproc_sysfs.c), NULL-terminated. */
extern const char *const sb_rproc_states[];

int sb_rproc_list(const struct sb_root *r, struct sb_rproc **out, size_t *n, struct sb_err *e);
/* spec: "remoteproc1", "1", or the name attribute / parent device name. -ENOENT when none. */
int sb_rproc_find(const struct sb_root *r, const char *spec, struct sb_rproc *out, struct sb_err *e);

enum sb_rproc_action { SB_RPROC_START, SB_RPROC_STOP, SB_RPROC_DETACH };
int sb_rproc_state_write(const struct sb_root *r, const struct sb_rproc *p, enum sb_rproc_action a,
			 struct sb_err *e);
int sb_rproc_firmware_write(const struct sb_root *r, const struct sb_rproc *p, const char *fw,
			    struct sb_err *e);
int sb_rproc_recovery_write(const struct sb_root *r, const struct sb_rproc *p, bool on,
			    struct sb_err *e);
/* The text of debugfs trace<idx>; *text malloc'ed. */
int sb_rproc_trace(const struct sb_root *r, const struct sb_rproc *p, unsigned idx, char **text,
		   struct sb_err *e);

/* Crash types of the debugfs crash file (enum rproc_crash_type). */
enum sb_rproc_crash_type { SB_RPROC_MMUFAULT, SB_RPROC_WATCHDOG, SB_RPROC_FATAL_ERROR };
int sb_rproc_crash_type_parse(const char *s, enum sb_rproc_crash_type *t);
/* Report a crash through debugfs remoteproc/<id>/crash, as the remote's watchdog would;
 * the core then recovers it when recovery is enabled. */
int sb_rproc_crash(const struct sb_root *r, const struct sb_rproc *p, enum sb_rproc_crash_type t,
		   struct sb_err *e);
/* The kernel log as the remoteproc core writes it (dev_*() on the processor's device):
 * "remoteproc <id>: MSG". MSG when text is such a line about id, else NULL. */
const char *sb_rproc_log_msg(const char *text, const char *id);
/* The core's line for a crash it handles (rproc_crash_handler_work), its own crash count:
 * MSG "handling crash #N in NAME". True, with N and where NAME starts (name may be NULL),
 * when msg is that line; the one parser of it (socbox events, the CRASHES column, rproc
 * cycle --crash). */
bool sb_rproc_crash_msg(const char *msg, unsigned *n, const char **name);

struct sb_kmsg_follow;

/* Lifecycle stress: stop and start (or crash and let the core recover) a running remote
 * processor, and after each cycle wait until it runs again, every rpmsg channel and control
 * device it had before the first cycle is back, and optionally a channel answers pings. */
enum sb_rproc_phase {
	SB_CYCLE_DOWN,	  /* stop: the state write; crash: until the core handled the crash */
	SB_CYCLE_UP,	  /* start, or recovery, until the state reads running */
	SB_CYCLE_DEVICES, /* until the channels and control devices are back */
	SB_CYCLE_PING,	  /* the ping requests */
	SB_CYCLE_TOTAL,
	SB_CYCLE_NPHASES,
};
const char *sb_rproc_phase_name(enum sb_rproc_phase ph);

struct sb_rproc_cycle_opts {
	bool crash;
	enum sb_rproc_crash_type crash_type;
	const char *ping_channel; /* NULL: no ping */
	unsigned ping_count;
	size_t ping_size;
	int timeout_ms; /* for each wait */
};

struct sb_rproc_cycle {
	const struct sb_root *root;
	struct sb_rproc p;
	struct sb_rproc_cycle_opts o;
	char **channels; /* the baseline: channel names below the processor */
	size_t nchannels;
	size_t nctrls; /* control devices below it */
	uint32_t ping_dst;
	struct sb_kmsg_follow *kmsg; /* --crash: the kernel log, followed from the start */
	uint32_t cookie;
	unsigned done; /* cycles completed */
};

struct sb_rproc_cycle_result {
	double ms[SB_CYCLE_NPHASES];
	unsigned crash_no; /* crash mode: the kernel's crash number */
};

/* Check the processor runs (and, for --crash, that recovery is enabled), take the
 * baseline, find the ping channel. */
int sb_rproc_cycle_init(struct sb_rproc_cycle *cy, const struct sb_root *r, const char *spec,
			const struct sb_rproc_cycle_opts *o, struct sb_err *e);
/* One cycle. A failure names the cycle (cy->done + 1) and what did not come back. */
int sb_rproc_cycle_run(struct sb_rproc_cycle *cy, struct sb_rproc_cycle_result *res,
		       struct sb_err *e);
void sb_rproc_cycle_free(struct sb_rproc_cycle *cy);

struct sb_platform;
/* What to do when no remote processor registered, for this board: the SoC's remoteproc
 * driver and the core's device-tree node on Arm, nothing on x86 (no remote processors). */
void sb_rproc_missing_hint(const struct sb_platform *p, char *buf, size_t len);

#endif
