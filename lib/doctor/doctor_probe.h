/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Internal to doctor: one probe per subsystem and the helpers they share. */
#ifndef SOCBOX_DOCTOR_PROBE_H
#define SOCBOX_DOCTOR_PROBE_H

#include "socbox/devgraph.h"
#include "socbox/doctor.h"
#include "socbox/iommu_events.h"
#include "socbox/kmod.h"
#include "socbox/kmsg.h"
#include "socbox/platform.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"

/* What a device the firmware describes is for, by its compatible or its name. */
struct doctor_role {
	const char *match;  /* a compatible; with a leading '*', a part of the compatible or name */
	int sub;	    /* SB_DOCTOR_RPMSG... */
	const char *what;   /* "remote processor", "mailbox", "SMMUv3", "Ethernet controller" */
	const char *config; /* "CONFIG_TI_K3_M4_REMOTEPROC", NULL when the SoC decides */
	const char *module; /* its module, NULL when none */
};
const struct doctor_role *doctor_role_of(const char *compatible, const char *name);

/* A platform device (one the device tree or ACPI describes). */
struct doctor_pdev {
	char name[96];
	char compatible[96]; /* the first one of its modalias, "" */
	bool bound;	     /* has a driver */
	bool iommus;	     /* its device-tree node has an iommus property */
	bool grouped;	     /* it is in an IOMMU group */
	const struct doctor_role *role;
};

/* A line of /sys/kernel/debug/devices_deferred. */
struct doctor_deferred {
	char dev[96];
	char reason[256];
	/* without debugfs: the kernel log's "deferred probe pending" record of the device
	 * (b->log), NULL when devices_deferred said it */
	const char *record;
};

/* IOMMU events of one IOMMU, client, stream ID and kind: the first and how many. */
struct doctor_evgroup {
	struct sb_iommu_event ev;
	size_t count;
};

/* Everything the detectors read, read once. */
struct doctor_board {
	const struct sb_root *root;
	const struct sb_doctor_opts *opts;
	struct sb_doctor_report *rep;
	struct sb_platform plat;
	char *cmdline;
	/* the kernel log as doctor keeps it (doctor_log.c): the records the detectors read,
	 * each distinct one once where it came last, log_count[i] times; empty when
	 * unreadable */
	struct sb_kmsg log;
	size_t *log_count;
	uint64_t *log_first;  /* the ordinal of its first occurrence among the log's lines */
	uint64_t log_dropped; /* records that went for lack of room */
	bool log_read;
	struct doctor_evgroup *evgroups; /* IOMMU events of the log, grouped */
	size_t nevgroups;
	uint64_t evgroups_dropped;
	bool iommu_groups_read;		     /* doctor_probe_iommu() counted the groups: */
	size_t iommu_groups, iommu_identity; /* all, and those of type identity */
	struct doctor_deferred *deferred;
	size_t ndeferred;
	struct doctor_pdev *pdevs;
	size_t npdevs;
	struct sb_rproc *procs; /* remote processors */
	size_t nprocs;
	struct sb_rpmsg_state rpmsg;
	char rpmsg_err[SB_ERR_LINE_MAX]; /* why they could not be read, "" */
	/* the object graph (doctor_graph.c), read a device at a time when a record asks;
	 * NULL on the unit tests' boards */
	struct sb_devgraph *graph;
	size_t capcauses;
};

void doctor_board_load(struct doctor_board *b, const struct sb_root *r,
		       const struct sb_doctor_opts *opts, struct sb_doctor_report *rep);
void doctor_board_free(struct doctor_board *b);
/* Read the kernel log into b->log, b->log_count and b->evgroups (doctor_log.c). */
void doctor_log_load(struct doctor_board *b);
/* The same from a log text (the unit tests' boards). */
void doctor_log_load_text(struct doctor_board *b, const char *text);
/* The platform device named name, NULL when none. */
const struct doctor_pdev *doctor_pdev_find(const struct doctor_board *b, const char *name);
/* A kernel log line as dev_printk() writes it, "DRIVER DEVICE: MSG", whatever the driver:
 * MSG, with DEVICE in dev; NULL when the line has not that shape. */
const char *doctor_log_dev(const char *text, char *dev, size_t len);

/* The object graph (doctor_graph.c). */
void doctor_graph_init(struct doctor_board *b);
void doctor_graph_free(struct doctor_board *b);
/* The devices that serve dev (its mailbox, IOMMU, reset and power controllers...): up to
 * max edges into out, how many of them. */
size_t doctor_suppliers(const struct doctor_board *b, const char *dev, struct sb_devgraph_edge *out,
			size_t max);
/* The one object of a subsystem that dev serves (a mailbox's remote processor): its name
 * into obj, "ROLE DEV" into via ("mailbox 30aa0000.mailbox"), its subsystem returned; -1 when
 * dev serves none or several (then dev is the object). */
int doctor_served(const struct doctor_board *b, const char *dev, char *obj, size_t olen, char *via,
		  size_t vlen);

/* The reserved-memory node a record printed without a device names ("OF: reserved mem:
 * failed to allocate memory for node 'X'..."): into node; false when it names none. */
bool doctor_region_of(const char *text, char *node, size_t len);
/* The devices whose memory-region names that node: up to max edges, how many of them. */
size_t doctor_region_users(const struct doctor_board *b, const char *node,
			   struct sb_devgraph_edge *out, size_t max);

/* The driver's own reason for a generic failure (doctor_reason.c): the records of the
 * device that precede the generic one and say why. */
struct doctor_reason_class {
	const char *name;	/* "mailbox" */
	const char *words[6];	/* any of them in a record's text, NULL-terminated */
	const char *pre, *post; /* the fix: pre DEVICE post */
	const char *supplier;	/* the role (doctor_role.what) of the device it is about, NULL */
};
#define DOCTOR_REASON_MAX 3
#define DOCTOR_REASON_SUPPLIERS 8 /* the devices that serve one asked about */
struct doctor_reason {
	size_t line[DOCTOR_REASON_MAX];	    /* the records, nearest first */
	const char *msg[DOCTOR_REASON_MAX]; /* their text after the device prefix */
	/* a record of a device that serves dev: "mailbox 30aa0000.mailbox" and that device;
	 * "" for dev's own */
	char via[DOCTOR_REASON_MAX][128];
	char by[DOCTOR_REASON_MAX][96];
	size_t n;
	const struct doctor_reason_class *cls; /* NULL: none classified */
	size_t quote; /* the one quoted in the diagnosis: the classified one */
};
/* The records of dev (or of alias, may be NULL) at warning or worse among lines
 * [from, at) of the log, and those of the devices that serve dev (the object graph). */
void doctor_reason_find(const struct doctor_board *b, size_t from, size_t at, const char *dev,
			const char *alias, struct doctor_reason *r);
/* Quote them in c's diagnosis and evidence; a classified reason makes the fix. */
void doctor_reason_apply(struct sb_cause *c, const struct doctor_board *b,
			 const struct doctor_reason *r, const char *dev);

/* Whether a cause already names object (a later detector then says no more of it). */
bool doctor_has_cause(const struct doctor_board *b, const char *object);
/* Name a cause: NULL when the same code already names the same object. */
struct sb_cause *doctor_cause(struct doctor_board *b, const char *code, int sub, const char *object);
void cause_diag(struct sb_cause *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cause_evidence(struct sb_cause *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cause_fix(struct sb_cause *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* The detectors, one per area; each reads the board and names what it finds. */
void doctor_causes_probe(struct doctor_board *b);
void doctor_causes_rpmsg(struct doctor_board *b);
void doctor_causes_dmabuf(struct doctor_board *b);
struct sb_dmabuf_allocators;
/* CMA fragmentation and areas without a heap (cause_cma.c), before dmabuf.cma-exhausted */
void doctor_causes_cma(struct doctor_board *b, const struct sb_dmabuf_allocators *a);
/* After every detector: causes whose evidence is a contiguous allocation that failed follow
 * a CMA reservation that failed at boot (cause_cma.c). */
void doctor_causes_cma_follow(struct doctor_board *b);
void doctor_causes_iommu(struct doctor_board *b);
void doctor_causes_netdev(struct doctor_board *b);
/* Last: kernel errors of the subsystems' objects that no other cause explains. */
void doctor_causes_log(struct doctor_board *b);
struct sb_nd_pool;
/* A pool detached from its netdev that still holds pages (netdev family). */
void doctor_cause_pool(struct doctor_board *b, const struct sb_nd_pool *p, uint64_t age_s);
/* c follows from the cause of object (of that code; code NULL: any code), when doctor names
 * one: they are shown as one chain, root first (doctor_chain.c). */
void doctor_cause_follows(struct sb_cause *c, const char *code, const char *object);
/* Order the ranked causes as chains: each chain where its best-ranked cause was, its root
 * first and each cause's followers after it; follows and depth set. */
void doctor_causes_chain(struct sb_doctor_report *rep);
/* Rank the causes and raise each subsystem's status to what its causes say. */
void doctor_causes_rank(struct sb_doctor_report *rep);

void doctor_num(struct sb_doctor_sub *s, const char *key, int64_t v, bool live);
void doctor_bool(struct sb_doctor_sub *s, const char *key, bool v, bool live);
void doctor_str(struct sb_doctor_sub *s, const char *key, const char *v, bool live);
/* A list fact (JSON array), an item at a time; item NULL makes it empty. */
void doctor_list_add(struct sb_doctor_sub *s, const char *key, const char *item, bool live);
void doctor_hint(struct sb_doctor_sub *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doctor_summary(struct sb_doctor_sub *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void doctor_module(const struct sb_root *r, struct sb_doctor_sub *s, const char *module,
		   const char *key, const char *config);

/* The probes: facts, summary and the status of what is there. */
void doctor_probe_rpmsg(struct doctor_board *b, struct sb_doctor_sub *s);
void doctor_probe_dmabuf(struct doctor_board *b, struct sb_doctor_sub *s);
void doctor_probe_iommu(struct doctor_board *b, struct sb_doctor_sub *s);
void doctor_probe_netdev(struct doctor_board *b, struct sb_doctor_sub *s);
/* Whether the firmware describes an IOMMU; *what names the node or table. */
bool doctor_iommu_described(const struct doctor_board *b, const char **what);

#endif
