/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Feature decoding: Arm SMMUv3 (the "features 0x%08x" value of the probe line in the kernel
 * log; the bit numbers moved between kernel releases and differ in vendor trees, so the table
 * is chosen by kernel version and never guessed: bits a table does not know stay raw),
 * Intel VT-d cap/ecap registers and the AMD-Vi extended feature register. */
#ifndef SOCBOX_SMMU_H
#define SOCBOX_SMMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/kmsg.h"

/* What the arm-smmu-v3 driver logged for one device. */
struct sb_smmu_probe {
	char dev[96];	   /* "arm-smmu-v3.0.auto", "9050000.smmuv3" */
	unsigned ias, oas; /* bits; ias 0 when the line has only "oas" (newer kernels) */
	uint32_t features;
	bool has_features;
	uint32_t options;
	bool has_options;
	char ecmdq[128]; /* the last ECMDQ line of a vendor kernel, empty when none */
};

/* Parse one log line into the probe record of its device (p->dev must match or be empty).
 * Returns true when the line was an arm-smmu-v3 probe, option or ECMDQ line. */
bool sb_smmu_probe_line(const char *text, struct sb_smmu_probe *p);
/* All probe records of a log, one per device (the last probe wins). */
int sb_smmu_probes(const struct sb_kmsg *log, struct sb_smmu_probe **out, size_t *n);
/* The same a line at a time: text folded into the records *out (n of them, room for *cap).
 * -ENOMEM. */
int sb_smmu_probes_add(const char *text, struct sb_smmu_probe **out, size_t *n, size_t *cap);

struct sb_smmu_feat_table {
	const char *name;     /* "mainline-6.16", "openeuler", ... */
	const char *bits[32]; /* NULL: unknown in this table, shown raw */
};
/* The table for a kernel: override (a table name) wins; else vendor markers in the release
 * string, ECMDQ lines in the log (has_ecmdq) and the version code. NULL when override names
 * no table. */
const struct sb_smmu_feat_table *sb_smmu_feat_table(
	const char *release, unsigned version_code, bool has_ecmdq, const char *override);
/* Names of all tables, NULL-terminated. */
extern const char *const sb_smmu_feat_table_names[];

/* Bit decoding shared by all decoders: writes up to max names, returns how many, and sets
 * *unknown to the set bits without a name. */
size_t sb_smmu_decode(const struct sb_smmu_feat_table *t, uint32_t v, const char **names,
		      size_t max, uint32_t *unknown);

/* VT-d cap/ecap: appends "name" or "name=value" strings (lower case) to out[], returns the
 * count. */
size_t sb_vtd_decode_cap(uint64_t cap, char out[][24], size_t max);
size_t sb_vtd_decode_ecap(uint64_t ecap, char out[][24], size_t max, uint64_t *unknown);
/* AMD-Vi extended feature register. */
size_t sb_amd_decode_features(uint64_t efr, char out[][24], size_t max, uint64_t *unknown);

#endif
