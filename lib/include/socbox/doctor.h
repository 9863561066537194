/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socbox doctor: what each subsystem socbox covers looks like on this system, and what to
 * do about what is missing. Facts come from files (so a snapshot gives the same answer);
 * facts that need the running kernel (device node access, generic netlink) are kept apart
 * as "live" facts and are absent on a sysroot, except netdev's, which a snapshot with a
 * netdev capture answers as the board did. */
#ifndef SOCBOX_DOCTOR_H
#define SOCBOX_DOCTOR_H

#include <stdbool.h>
#include <stdint.h>

#include "socbox/sys.h"

/* The status words a fleet alerts on. ok: works; degraded: works, but something failed (a
 * crashed core, CMA allocations that failed, IOMMU faults); failed: what the board describes
 * did not come up; missing: should be there and is not; absent: this board has no such
 * hardware (no IOMMU on an AM62x), not an alert; unknown: cannot be told from here. */
enum sb_health {
	SB_HEALTH_OK,
	SB_HEALTH_DEGRADED,
	SB_HEALTH_FAILED,
	SB_HEALTH_MISSING,
	SB_HEALTH_ABSENT,
	SB_HEALTH_UNKNOWN,
};

enum sb_fact_type { SB_FACT_STR, SB_FACT_NUM, SB_FACT_BOOL, SB_FACT_LIST };

struct sb_fact {
	char key[48];
	enum sb_fact_type type;
	bool live; /* needs the running kernel */
	char str[128];
	int64_t num;
	char **items; /* SB_FACT_LIST: malloc'ed, nitems of them */
	size_t nitems;
};

#define SB_DOCTOR_MAX_HINTS 8

struct sb_doctor_sub {
	const char *name; /* "rpmsg", "dmabuf", "iommu", "netdev" */
	enum sb_health status;
	bool live_only; /* the subsystem can only be inspected on the live kernel */
	char summary[256];
	struct sb_fact *facts; /* as many as the probe finds */
	int nfacts, capfacts;
	char *hints[SB_DOCTOR_MAX_HINTS]; /* malloc'ed */
	int nhints;
};

enum { SB_DOCTOR_RPMSG, SB_DOCTOR_DMABUF, SB_DOCTOR_IOMMU, SB_DOCTOR_NETDEV, SB_DOCTOR_NSUBS };

/* One entry of the catalogue of causes (lib/doctor/causes.c): what doctor can name. */
struct sb_cause_def {
	const char *code;      /* stable: "rpmsg.firmware-missing" */
	const char *subsystem; /* "rpmsg", "dmabuf", "iommu", "netdev"; NULL: the device's own */
	enum sb_health effect; /* the status it gives its subsystem; OK: a notice only */
	const char *title;     /* one line */
	const char *evidence;  /* what is read, with the kernel's format string and source */
	const char *fix;       /* what to do, in general; a found cause says it for the board */
	unsigned needs;	       /* enum sb_cause_needs: what it takes to look for it at all */
};

/* What a cause can only be looked for with (else doctor cannot say either way). */
enum sb_cause_needs {
	SB_CAUSE_NEEDS_LIVE = 1 << 0,	     /* the running kernel, not a sysroot */
	SB_CAUSE_NEEDS_BUFFER_SIZE = 1 << 1, /* doctor --buffer-size */
	SB_CAUSE_NEEDS_DEVMEM = 1 << 2,	     /* doctor --devmem IF */
};

/* The catalogue, in rank order (the most decisive cause first), NULL-terminated by code. */
extern const struct sb_cause_def sb_cause_catalogue[];
const struct sb_cause_def *sb_cause_find(const char *code);

#define SB_FIX_COMMANDS 4
#define SB_FIX_COMMAND_MAX 192

/* A cause found on this root. */
struct sb_cause {
	const struct sb_cause_def *def;
	int sub;	     /* SB_DOCTOR_RPMSG... */
	char object[128];    /* the device, remote processor, CMA area, pool... */
	char diagnosis[384]; /* one line naming the object (and the driver's own reason) */
	char evidence[768];  /* the lines or file and value that show it */
	char via[128]; /* the object graph's path to the records quoted: the device that serves
			* the object and said why, "mailbox 30aa0000.mailbox"; "" for its own */
	char fix[384]; /* for this board; SB_FIX_RUNi marks where run[i] goes */
	char run[SB_FIX_COMMANDS][SB_FIX_COMMAND_MAX]; /* sb_cause_run() */
	unsigned nrun, run_ok;			       /* run_ok: bit i, run[i] is listed */
	/* a chain: "CODE OBJECT" of the cause this one follows from ("" for a cause of its
	 * own), and how far down its chain it is (0: the root); a chain's causes come one
	 * after the other in the report, root first */
	char follows[192];
	unsigned depth;
};

/* A cause's commands: what a person pastes to act on the fix. sb_cause_run() formats one
 * (%s for a name, %d, %u, %llu) and returns its index i (after cause_fix(), which drops
 * the old fix's); the fix's words say where it goes with SB_FIX_RUNi. It is listed
 * (sb_cause_commands) only when every name in it is a plain word and it was not cut; else
 * it stays in the words only.
 * sb_cause_fix_text: the fix in words, each command in its place, or with refer (the text
 * view, which prints the listed commands on lines of their own) a listed one replaced by
 * "the command below" ("the first command below", ...). */
#define SB_FIX_RUN_MARK "\x1f"
#define SB_FIX_RUN0 SB_FIX_RUN_MARK "0"
#define SB_FIX_RUN1 SB_FIX_RUN_MARK "1"
#define SB_FIX_RUN2 SB_FIX_RUN_MARK "2"
#define SB_FIX_RUN3 SB_FIX_RUN_MARK "3"
int sb_cause_run(struct sb_cause *c, const char *fmt, ...);
size_t sb_cause_commands(const struct sb_cause *c, const char **cmds);
void sb_cause_fix_text(const struct sb_cause *c, bool refer, char *buf, size_t size);

struct sb_doctor_report {
	char kernel[128];
	char arch[16];	 /* sb_arch_name() */
	char fwdesc[16]; /* sb_fwdesc_name() */
	char board[96];	 /* device tree model or compatible, "" */
	struct sb_doctor_sub subs[SB_DOCTOR_NSUBS];
	struct sb_cause *causes; /* ranked */
	size_t ncauses;
};

/* Options of a run: what the user said the board must do. */
struct sb_doctor_opts {
	uint64_t buffer_size;	/* the largest buffer the application allocates; 0: not said */
	const char *devmem_dev; /* the NIC that must take devmem TCP; NULL: none said */
};

void sb_doctor_run(const struct sb_root *r, const struct sb_doctor_opts *opts,
		   struct sb_doctor_report *rep);
void sb_doctor_report_free(struct sb_doctor_report *rep);
void sb_doctor_sub_free(struct sb_doctor_sub *s);
const char *sb_health_name(enum sb_health h);
/* The names of enum sb_health in order, NULL-terminated. */
extern const char *const sb_health_names[];
/* Index of a subsystem by name, -1 when unknown. */
int sb_doctor_index(const char *name);

#endif
