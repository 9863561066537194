/* SPDX-License-Identifier: GPL-2.0-or-later */
/* iommufd and the VFIO device cdev: an IOAS with a device attached (so maps reach real
 * page tables and unmaps send invalidations to the hardware), and the per-CPU map/unmap
 * stress built on it; plus the kernel's dma_map_benchmark as a second path. Live only. */
#ifndef SOCBOX_IOMMUFD_H
#define SOCBOX_IOMMUFD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

struct sb_iommufd {
	int fd; /* /dev/iommu */
	uint32_t ioas;
	int devfd; /* /dev/vfio/devices/vfioN, -1 without a device */
	uint32_t devid;
	uint32_t hwpt; /* paging domain the kernel created on attach */
	char devnode[64];
};

/* Open /dev/iommu and allocate an IOAS. */
int sb_iommufd_open(struct sb_iommufd *f, struct sb_err *e);
/* The VFIO cdev of a PCI device ("0000:00:03.0" or "00:03.0") bound to vfio-pci:
 * /sys/bus/pci/devices/BDF/vfio-dev/vfioN -> /dev/vfio/devices/vfioN. */
int sb_vfio_cdev_path(const struct sb_root *r, const char *bdf, char *buf, size_t len,
		      struct sb_err *e);
/* Bind the device to the iommufd and attach it to the IOAS (r: where its group is read
 * when the kernel refuses). */
int sb_iommufd_attach(struct sb_iommufd *f, const struct sb_root *r, const char *devnode,
		      struct sb_err *e);
/* The other devices of the IOMMU group of the VFIO cdev devnode that a driver other than
 * vfio-pci (or pci-stub, pcieport) holds, as "0000:00:04.0 (e1000e), ..." in buf: how
 * many, or -errno when the group cannot be read. */
int sb_vfio_group_others(const struct sb_root *r, const char *devnode, char *buf, size_t len);
int sb_iommufd_map(const struct sb_iommufd *f, void *va, uint64_t len, uint64_t *iova,
		   struct sb_err *e);
int sb_iommufd_unmap(const struct sb_iommufd *f, uint64_t iova, uint64_t len, struct sb_err *e);
/* IOMMU_OPTION_HUGE_PAGES on the IOAS (0: PAGE_SIZE mappings only). */
int sb_iommufd_huge_pages(const struct sb_iommufd *f, bool on, struct sb_err *e);
void sb_iommufd_close(struct sb_iommufd *f);

enum sb_stress_pattern { SB_PATTERN_FIXED, SB_PATTERN_SEQUENTIAL, SB_PATTERN_RANDOM };
enum sb_stress_method { SB_STRESS_IOMMUFD, SB_STRESS_MAP_BENCHMARK };

struct sb_stress_opts {
	enum sb_stress_method method;
	const unsigned *cpus;
	unsigned ncpus;
	double duration_s;
	uint64_t size;	 /* bytes per map */
	uint64_t window; /* bytes each thread walks through (sequential/random) */
	enum sb_stress_pattern pattern;
	const char *devnode;	    /* iommufd: VFIO cdev; NULL maps into a bare IOAS */
	const struct sb_root *root; /* where the cdev's group is read, when it is refused */
	bool no_huge;		    /* iommufd: force PAGE_SIZE mappings */
	/* iommufd: called from the calling thread about SB_STRESS_TICK_MS apart with the
	 * map+unmap pairs done so far (NULL: none) */
	void (*tick)(void *ctx, uint64_t requests);
	void *tick_ctx;
};
#define SB_STRESS_TICK_MS 200

struct sb_stress_result {
	const char *path; /* "iommufd+vfio", "iommufd-ioas", "dma_map_benchmark" */
	unsigned ncpus;
	unsigned *cpus;
	uint64_t *requests; /* per CPU (iommufd); map+unmap pairs */
	uint64_t total;
	double elapsed_s;
	bool estimated;		 /* dma_map_benchmark: total derived from average latencies */
	double map_ns, unmap_ns; /* average latency per map / unmap */
	double map_stddev_ns, unmap_stddev_ns;
};

int sb_stress_run(const struct sb_stress_opts *o, struct sb_stress_result *res, struct sb_err *e);
void sb_stress_result_free(struct sb_stress_result *res);
const char *sb_stress_pattern_name(enum sb_stress_pattern p);

#endif
