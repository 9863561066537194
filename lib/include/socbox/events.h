/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One timeline of what the subsystems report: IOMMU faults, remote processor state changes,
 * crashes and recoveries, rpmsg channels and endpoint devices coming and going, page pools
 * that stall or are detached without draining, dma-buf heap (CMA) allocation failures.
 * Sources: the kernel log (live or a snapshot's), the netdev state (detached pools), and
 * when following, uevents (rpmsg devices) and netdev notifications (page pools). The kernel
 * log parsers for IOMMU events are lib/iommu's; the others are here, written against the
 * kernel's format strings (named next to each). */
#ifndef SOCBOX_EVENTS_H
#define SOCBOX_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/iommu_events.h"
#include "socbox/kmsg.h"
#include "socbox/netdev.h"
#include "socbox/sys.h"

enum sb_ev_subsys {
	SB_EV_IOMMU,
	SB_EV_REMOTEPROC,
	SB_EV_RPMSG,
	SB_EV_NETDEV,
	SB_EV_DMABUF,
	SB_EV_LOG, /* the timeline itself: records lost before they were read (kind "lost") */
	SB_EV_NSUBSYS
};
#define SB_EV_ALL ((1u << SB_EV_NSUBSYS) - 1)

struct sb_event {
	uint64_t ts_us; /* since boot (kernel log clock; netdev detach times are whole seconds) */
	bool has_ts;
	enum sb_ev_subsys subsys;
	char kind[24]; /* "fault", "crash", "recovery", "up", "channel-add", "pool-stalled", ... */
	char object[96];   /* what it is about: a device, "remoteproc0", a channel, "pool 12" */
	char detail[256];  /* the rest, as text */
	char instance[80]; /* IOMMU faults: the reporting instance (class name), empty if unknown */
	const char *iommu_class; /* IOMMU faults: sb_iommu_class_name() (JSON "class"), or NULL */
	const char *source;	 /* "kmsg", "netdev", "uevent" */
	size_t seq;		 /* order of arrival, for equal times */
	uint64_t key_us;	 /* where it goes in the timeline (sb_ev_add) */
};

const char *sb_ev_subsys_name(enum sb_ev_subsys s);
/* "iommu,rpmsg" -> mask; -EINVAL naming the unknown word in bad (len bytes). */
int sb_ev_subsys_mask(const char *list, unsigned *mask, char *bad, size_t len);

/* Recognise one kernel log line of remoteproc, rpmsg, page pool or CMA. Returns true and
 * fills ev. IOMMU lines are not recognised here (sb_iommu_event_parse). */
bool sb_ev_parse_kmsg(const struct sb_kmsg_line *l, struct sb_event *ev);
/* A remote processor's event named by the processor's name (a driver's own line, such as
 * TI K3's unreported crash) gets the remoteprocN every view uses, when r has it. */
void sb_ev_name_rproc(const struct sb_root *r, struct sb_event *ev);
/* An IOMMU record as an event (name it first: sb_sid_namer_name()). */
void sb_ev_from_iommu(const struct sb_iommu_event *ie, struct sb_event *ev);
/* A detached page pool that still holds pages, as an event at its detach time. */
bool sb_ev_from_pool(const struct sb_nd_pool *p, const char *ifname, struct sb_event *ev);
/* An rpmsg uevent (bus device = channel, class device = endpoint or control device). */
bool sb_ev_from_uevent(const char *action, const char *devpath, const char *devname,
		       uint64_t now_us, struct sb_event *ev);

struct sb_ev_list {
	struct sb_event *v;
	size_t n, cap;
	uint64_t last_kmsg_key; /* see sb_ev_add */
};

/* Receives each event in time order: 0 to go on, > 0 to stop (enough), -errno to fail. */
typedef int (*sb_ev_emit_fn)(void *arg, const struct sb_event *ev);

struct sb_ev_each_info {
	const char *log_source;
	uint64_t last_ts_us;	 /* newest kernel log record */
	unsigned netdev_missing; /* the netdev state could not be read (why in netdev_err) */
	struct sb_err netdev_err;
};
/* Everything of a root, its kernel log and its netdev state (live or a snapshot's capture;
 * its absence is noted in info, not an error), handed to emit in time order (sb_ev_add()'s,
 * sb_ev_sort()'s) while the log is read: memory stays bounded whatever the log's size. 0,
 * emit's non-zero answer (e untouched), or -errno with e set when the log cannot be read
 * (events may have been handed over when it fails part way). */
int sb_ev_each(const struct sb_root *r, unsigned mask, sb_ev_emit_fn emit, void *arg,
	       struct sb_ev_each_info *info, struct sb_err *e);
/* Add an event. Kernel log events (but IOMMU records, placed by their time) must come in log
 * order: their place in the timeline is their time, but never before a record the kernel
 * logged earlier (printk times come from per-CPU clocks and can step back a little across
 * CPUs; the log's order is the truth). */
int sb_ev_add(struct sb_ev_list *l, const struct sb_event *ev);
/* Time order (the place sb_ev_add gave), arrival order for equal places. */
void sb_ev_sort(struct sb_ev_list *l);
void sb_ev_list_free(struct sb_ev_list *l);

/* Events counted per subsystem, kind and object, in the order each was first seen. */
struct sb_ev_count {
	enum sb_ev_subsys subsys;
	char kind[24];
	char object[96];
	uint64_t n;
	bool last_has_ts; /* the time of the last one counted */
	uint64_t last_ts_us;
	uint32_t hash;
};
struct sb_ev_counts {
	struct sb_ev_count *v;
	size_t n, cap;
	size_t *slot; /* open addressing: indexes into v, SIZE_MAX when free */
	size_t nslots;
};
int sb_ev_counts_add(struct sb_ev_counts *c, const struct sb_event *ev);
void sb_ev_counts_free(struct sb_ev_counts *c);

/* Following the live system: the kernel log always; rpmsg uevents and netdev page-pool
 * notifications where the mask asks for them and the system has them. */
struct sb_ev_follow;
struct sb_ev_follow_sources {
	bool uevents, pool_ntf;		       /* what is listened to besides the log */
	struct sb_err no_uevents, no_pool_ntf; /* why not, for a verbose line */
};
/* Open the sources (before collecting what came so far, so nothing falls in between).
 * -errno when the kernel log cannot be followed. */
int sb_ev_follow_open(const struct sb_root *r, unsigned mask, struct sb_ev_follow **f,
		      struct sb_ev_follow_sources *src, struct sb_err *e);
/* Kernel log records up to this time were reported already (by sb_ev_each). */
void sb_ev_follow_skip_until(struct sb_ev_follow *f, uint64_t ts_us);
/* Hand events to emit until a stop signal, timeout_s (0: none) or emit says stop; what was
 * read and held is handed over before it returns. 0, or -errno (of emit, or of a wait). */
int sb_ev_follow_run(struct sb_ev_follow *f, double timeout_s, sb_ev_emit_fn emit, void *arg);
void sb_ev_follow_close(struct sb_ev_follow *f);

#endif
