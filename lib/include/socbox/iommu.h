/* SPDX-License-Identifier: GPL-2.0-or-later */
/* IOMMU state from sysfs: instances (/sys/class/iommu), groups (/sys/kernel/iommu_groups)
 * with their devices and reserved regions, the default-domain policy (iommu.strict,
 * iommu.passthrough). Fault and event records: socbox/iommu_events.h. */
#ifndef SOCBOX_IOMMU_H
#define SOCBOX_IOMMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/kmsg.h"
#include "socbox/sys.h"

enum sb_iommu_kind {
	SB_IOMMU_SMMUV3,
	SB_IOMMU_SMMU,
	SB_IOMMU_VTD,
	SB_IOMMU_AMD,
	SB_IOMMU_VIRTIO,
	SB_IOMMU_OTHER,
};

/* Default domain types of a group (its "type" attribute): the index of
 * sb_iommu_group_types[] and of sb_iommu.ntypes[]. */
enum sb_iommu_domain_type {
	SB_IOMMU_DOMAIN_DMA,	   /* "DMA": strict invalidation */
	SB_IOMMU_DOMAIN_DMA_FQ,	   /* "DMA-FQ": lazy, through a flush queue */
	SB_IOMMU_DOMAIN_IDENTITY,  /* "identity": passthrough */
	SB_IOMMU_DOMAIN_BLOCKED,   /* "blocked" */
	SB_IOMMU_DOMAIN_UNMANAGED, /* "unmanaged": owned by VFIO or a driver */
	SB_IOMMU_DOMAIN_UNKNOWN,   /* anything else */
	SB_IOMMU_NDOMAIN_TYPES
};

struct sb_iommu {
	char name[80]; /* class device name: "smmu3.0x0000000009050000", "dmar0" */
	enum sb_iommu_kind kind;
	char hwdev[96];	 /* parent device ("arm-smmu-v3.0.auto"), as named in the log */
	char driver[64]; /* parent's driver, empty when none */
	uint64_t base;	 /* MMIO base; valid when has_base */
	bool has_base;
	unsigned ndevices;			 /* links in devices/ */
	unsigned ngroups;			 /* groups whose devices sit behind this instance */
	unsigned ntypes[SB_IOMMU_NDOMAIN_TYPES]; /* groups per enum sb_iommu_domain_type */
	/* intel-iommu/ */
	uint64_t cap, ecap;
	bool has_cap, has_ecap;
	char version[16];
	uint64_t domains_supported, domains_used;
	/* amd-iommu/ */
	uint64_t amd_cap, amd_features;
	bool has_amd_cap, has_amd_features;
};

/* The names of enum sb_iommu_domain_type, as the group's "type" attribute spells them. */
extern const char *const sb_iommu_group_types[SB_IOMMU_NDOMAIN_TYPES];
/* The enum sb_iommu_domain_type of a group type (SB_IOMMU_DOMAIN_UNKNOWN when not one of
 * them). */
int sb_iommu_type_index(const char *type);

struct sb_iommu_resv {
	uint64_t start, end; /* end inclusive */
	char kind[24];	     /* direct, direct-relaxable, reserved, msi */
};

struct sb_iommu_gdev {
	char name[96];	 /* "0000:00:02.0", "ff880000.dma" */
	char driver[64]; /* empty when unbound */
	char iommu[80];	 /* instance serving the device, empty when unknown */
};

struct sb_iommu_group {
	unsigned id;
	char type[16]; /* default domain type, "unknown" when the file is absent */
	char name[64]; /* optional group name */
	struct sb_iommu_gdev *devs;
	size_t ndevs;
	struct sb_iommu_resv *resv;
	size_t nresv;
};

/* Instances and groups of the root (instances get group counts). Empty lists are not an
 * error; *n == 0 when the kernel has no IOMMU. */
int sb_iommu_list(const struct sb_root *r, struct sb_iommu **out, size_t *n, struct sb_err *e);
int sb_iommu_groups(const struct sb_root *r, struct sb_iommu_group **out, size_t *n,
		    struct sb_err *e);
/* Only the id and type of every group (no name, devices or reserved regions): what a
 * summary needs, a few reads per group instead of a dozen. */
int sb_iommu_groups_brief(const struct sb_root *r, struct sb_iommu_group **out, size_t *n,
			  struct sb_err *e);
void sb_iommu_groups_free(struct sb_iommu_group *g, size_t n);
/* Count groups per instance into list[].ngroups / ntypes[]. */
void sb_iommu_count_groups(struct sb_iommu *list, size_t n, const struct sb_iommu_group *g,
			   size_t ng);

/* Parse reserved_regions text ("0x%016llx 0x%016llx %s" per line); bad lines are skipped and
 * counted in *bad (may be NULL). */
int sb_iommu_parse_resv(const char *text, struct sb_iommu_resv **out, size_t *n, size_t *bad);

/* Find the group serving a device given as a bus address or device name
 * ("0000:00:02.0", "00:02.0", "ff880000.dma"). -ENOENT when no group has it. */
int sb_iommu_find_device(const struct sb_iommu_group *g, size_t ng, const char *dev,
			 size_t *group_index, size_t *dev_index);

const char *sb_iommu_kind_name(enum sb_iommu_kind k);
enum sb_iommu_kind sb_iommu_kind_guess(const char *name, const char *driver);

/* The invalidation policy: "strict", "lazy" or "passthrough", from the kernel command line
 * (iommu.strict, iommu.passthrough, intel_iommu=strict, amd_iommu=fullflush), then the
 * kernel log, then the group types; source names which ("cmdline", "log", "groups",
 * "default"). */
struct sb_iommu_policy {
	char mode[16];
	char source[16];
	char domain_default[16]; /* "Translated", "Passthrough" or empty (from the log) */
};
/* The policy the kernel command line sets into mode ("strict", "lazy", "passthrough");
 * false when it sets none. */
bool sb_iommu_cmdline_policy(const char *cmdline, char *mode, size_t len);
/* cmdline is the root's /proc/cmdline (sb_cmdline_read) or NULL when it has none. */
void sb_iommu_policy(const char *cmdline, const struct sb_kmsg *log, const struct sb_iommu_group *g,
		     size_t ng, struct sb_iommu_policy *p);
/* The same for a log read a line at a time: each line's say into p (zeroed before the
 * first), then the decision with the command line and the groups. */
void sb_iommu_policy_line(const char *text, struct sb_iommu_policy *p);
void sb_iommu_policy_decide(const char *cmdline, const struct sb_iommu_group *g, size_t ng,
			    struct sb_iommu_policy *p);

struct sb_platform;
/* What to do when no IOMMU registered, for this board's architecture and firmware (VT-d
 * and intel_iommu= on x86 only; the SMMU drivers and the device tree or IORT on Arm). */
void sb_iommu_missing_hint(const struct sb_platform *p, char *buf, size_t len);

#endif
