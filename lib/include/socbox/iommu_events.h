/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IOMMU fault and event records in the kernel log, one record per event however many lines
 * the kernel spent on it.
 *
 * An SMMUv3 event is logged by arm_smmu_dump_event() (drivers/iommu/arm/arm-smmu-v3/
 * arm-smmu-v3.c) as, on newer kernels (the 7.2 source; dev_err):
 *   event 0x10 received:                      the raw dump: a header and
 *   \t0x0000001000000010                      four dword lines
 *   \t0x0000000800000000
 *   \t0x0000000000100000
 *   \t0x0000000000000000
 *   event: F_TRANSLATION client: 0000:00:02.0 sid: 0x10 ssid: 0x0 iova: 0x100000 ipa: 0x0
 *   unpriv data read s1 "CD fetch" stag: 0x0  the qualifier (translation, address size,
 *                                             access and permission faults only)
 * and on older ones (6.6) as the raw dump alone (dev_info). The assembler below folds such runs
 * into one record; lines of another SMMU may interleave. Everything else (SMMUv3 global
 * errors, CMD_SYNC timeouts, event queue overflow, arm-smmu context faults, VT-d DMAR and
 * AMD-Vi lines) is one line per record. */
#ifndef SOCBOX_IOMMU_EVENTS_H
#define SOCBOX_IOMMU_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "socbox/kmsg.h"

struct sb_iommu_event {
	char source[96]; /* the IOMMU's device as named in the log ("arm-smmu-v3.0.auto", "DMAR") */
	char device[96]; /* faulting client: bus address or device name, "sid 0x42", or "-" */
	char kind[48];	 /* "F_TRANSLATION", "DMA Read", "IO_PAGE_FAULT", "context-fault" */
	char reason[128]; /* the qualifier (SMMUv3: as the kernel prints it), fault reason */
	uint64_t addr;	  /* faulting address (IOVA) */
	bool has_addr;
	uint32_t sid; /* stream id (SMMUv3, arm-smmu), valid when has_sid */
	bool has_sid;
	bool client_known;	/* device names the client as the log did (not just a stream id) */
	bool named_by_firmware; /* device found from the stream id in the firmware (iommu_sid.h) */
	/* set by sb_sid_namer_name(): the reporting instance by its class name, and that
	 * instance's parent device (the name the log uses; empty for VT-d and AMD-Vi) */
	char instance[80];
	char instance_dev[96];
	uint64_t ts_us;
	bool has_ts;
};

/* What an IOMMU event says, by its kind: whose problem it is and so what to do. The names
 * are the same in every view (smmustat events' CLASS, socbox events' kind, doctor). */
enum sb_iommu_class {
	SB_IOMMU_DMA_FAULT,	/* a master used an address it has no mapping or permission for */
	SB_IOMMU_STREAM_CONFIG, /* no valid stream table or context entry for a stream ID: the
				 * firmware's description of the master */
	SB_IOMMU_SMMU_ERROR,	/* the SMMU itself: its command queue or a global error */
	SB_IOMMU_INTR_REMAP,	/* x86: an interrupt request the remapping table blocked */
	SB_IOMMU_RECORDS_LOST,	/* the event queue overflowed: records the kernel never saw */
};
enum sb_iommu_class sb_iommu_event_class(const struct sb_iommu_event *ev);
/* "dma-fault", "stream-config", "smmu-error", "intr-remap-fault", "records-lost" */
const char *sb_iommu_class_name(enum sb_iommu_class c);

/* Recognise one log line on its own: 1 and ev filled for a line that starts a record
 * (an SMMUv3 raw header or decoded line is only its start), 0 otherwise. */
int sb_iommu_event_parse(const struct sb_kmsg_line *l, struct sb_iommu_event *ev);
/* The faulting client the record names, NULL when it names none ("-": an event-queue
 * overflow, a fault whose client the log leaves out). */
static inline const char *sb_iommu_event_device(const struct sb_iommu_event *ev)
{
	return ev->device[0] && strcmp(ev->device, "-") ? ev->device : NULL;
}

/* The assembler: feed lines in log order; each call hands back the records it finished. */
#define SB_IOMMU_EVASM_SLOTS 8 /* SMMUs whose dumps may interleave */
#define SB_IOMMU_EVASM_OUT 3   /* records one line can finish */
struct sb_iommu_evasm {
	struct sb_iommu_evasm_slot {
		struct sb_iommu_event ev;
		int state;
		int ndwords;
		uint64_t dw[4];
	} slot[SB_IOMMU_EVASM_SLOTS];
	size_t nslots;
	uint64_t suppressed; /* dumps the kernel's rate limit dropped ("callbacks suppressed") */
};
void sb_iommu_evasm_init(struct sb_iommu_evasm *a);
/* Returns how many records were finished into out[] (0..SB_IOMMU_EVASM_OUT). */
size_t sb_iommu_evasm_feed(struct sb_iommu_evasm *a, const struct sb_kmsg_line *l,
			   struct sb_iommu_event out[SB_IOMMU_EVASM_OUT]);
/* A record still waiting for lines that may follow (when following the live log, flush
 * after a short quiet time). */
bool sb_iommu_evasm_pending(const struct sb_iommu_evasm *a);
/* Finish the oldest pending record into out; false when none is left. */
bool sb_iommu_evasm_flush(struct sb_iommu_evasm *a, struct sb_iommu_event *out);

/* All records of a log, in log order; *suppressed (may be NULL) gets the number of event
 * dumps the kernel's rate limit suppressed. */
int sb_iommu_events(const struct sb_kmsg *log, struct sb_iommu_event **out, size_t *n,
		    uint64_t *suppressed);
/* Add ev to the records *out (n of them, room for *cap), in time order: records of
 * interleaved SMMUs may finish out of order. -ENOMEM. */
int sb_iommu_event_push(struct sb_iommu_event **out, size_t *n, size_t *cap,
			const struct sb_iommu_event *ev);
/* The records of a root's kernel log, read a line at a time (sb_kmsg_each(): the log is not
 * held): fn gets each record when it is finished, in that order (see sb_iommu_event_push()),
 * and returns 0 to go on. info and suppressed may be NULL. 0, fn's non-zero return, or
 * -errno with e set when the log cannot be read. */
int sb_iommu_events_each(const struct sb_root *r,
			 int (*fn)(void *arg, const struct sb_iommu_event *ev), void *arg,
			 struct sb_kmsg_info *info, uint64_t *suppressed, struct sb_err *e);
/* SMMUv3 event id -> name ("F_TRANSLATION"), NULL when unknown. */
const char *sb_smmu_event_name(unsigned id);
/* The qualifier the kernel prints after a decoded translation-class event (ids 0x10-0x13),
 * made from the raw dump's dword 1: 'unpriv data read s1 "CD fetch" stag: 0x0'. False
 * for other ids. */
bool sb_smmu_event_qualifier(unsigned id, uint64_t dw1, char *buf, size_t len);

#endif
