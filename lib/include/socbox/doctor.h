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

enum sb_health { SB_HEALTH_OK, SB_HEALTH_PARTIAL, SB_HEALTH_MISSING, SB_HEALTH_UNKNOWN };

enum sb_fact_type { SB_FACT_STR, SB_FACT_NUM, SB_FACT_BOOL };

struct sb_fact {
	char key[48];
	enum sb_fact_type type;
	bool live; /* needs the running kernel */
	char str[128];
	int64_t num;
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

struct sb_doctor_report {
	char kernel[128];
	struct sb_doctor_sub subs[SB_DOCTOR_NSUBS];
};

void sb_doctor_run(const struct sb_root *r, struct sb_doctor_report *rep);
void sb_doctor_report_free(struct sb_doctor_report *rep);
void sb_doctor_sub_free(struct sb_doctor_sub *s);
const char *sb_health_name(enum sb_health h);
/* The names of enum sb_health in order, NULL-terminated. */
extern const char *const sb_health_names[];
/* Index of a subsystem by name, -1 when unknown. */
int sb_doctor_index(const char *name);

#endif
