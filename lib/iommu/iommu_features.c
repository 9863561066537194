// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "socbox/iommu_features.h"
#include "socbox/macro.h"
#include "socbox/scan.h"

/* Bits 0-18 have kept their numbers since the 5.x SVA work; later bits moved. */
#define SMMU_COMMON_BITS \
	[0] = "2_LVL_STRTAB", [1] = "2_LVL_CDTAB", [2] = "TT_LE", [3] = "TT_BE", [4] = "PRI", \
	[5] = "ATS", [6] = "SEV", [7] = "MSI", [8] = "COHERENCY", [9] = "TRANS_S1", \
	[10] = "TRANS_S2", [11] = "STALLS", [12] = "HYP", [13] = "STALL_FORCE", [14] = "VAX", \
	[15] = "RANGE_INV", [16] = "BTM", [17] = "SVA", [18] = "E2H"

static const struct sb_smmu_feat_table tables[] = {
	{ "mainline-6.16",
	  { SMMU_COMMON_BITS, [19] = "NESTING", [20] = "ATTR_TYPES_OVR", [21] = "HA", [22] = "HD",
	    [23] = "S2FWB", [24] = "BBML2" } },
	{ "mainline-5.x", { SMMU_COMMON_BITS } },
	{ "openeuler", { SMMU_COMMON_BITS, [23] = "ECMDQ", [24] = "MPAM" } },
	{ "ecmdq-v3", { SMMU_COMMON_BITS, [21] = "ECMDQ" } },
};

const char *const sb_smmu_feat_table_names[] = {
	"mainline-6.16", "mainline-5.x", "openeuler", "ecmdq-v3", NULL
};

const struct sb_smmu_feat_table *sb_smmu_feat_table(
	const char *release, unsigned version_code, bool has_ecmdq, const char *override)
{
	if (override) {
		for (size_t i = 0; i < ARRAY_SIZE(tables); i++)
			if (!strcmp(tables[i].name, override))
				return &tables[i];
		return NULL;
	}
	if (release && (strcasestr(release, "openeuler") || strstr(release, ".oe")))
		return &tables[2];
	/* ECMDQ was never merged: a kernel logging it carries the vendor patch. */
	if (has_ecmdq)
		return version_code >= 61600 ? &tables[2] : &tables[3];
	if (version_code >= 61600)
		return &tables[0];
	return &tables[1];
}

size_t sb_smmu_decode(const struct sb_smmu_feat_table *t, uint32_t v, const char **names,
		      size_t max, uint32_t *unknown)
{
	size_t n = 0;

	*unknown = 0;
	for (unsigned b = 0; b < 32; b++) {
		if (!(v & (1u << b)))
			continue;
		if (t->bits[b] && n < max)
			names[n++] = t->bits[b];
		else
			*unknown |= 1u << b;
	}
	return n;
}

/* "arm-smmu-v3 DEV: rest": the device and the rest, false for other lines. */
static bool smmuv3_line(const char *text, char *dev, size_t len, const char **rest)
{
	const char *p, *colon;

	if (strncmp(text, "arm-smmu-v3 ", 12))
		return false;
	p = text + 12;
	colon = strstr(p, ": ");
	if (!colon || memchr(p, ' ', (size_t)(colon - p)))
		return false;
	snprintf(dev, len, "%.*s", (int)(colon - p), p);
	*rest = colon + 2;
	return true;
}

bool sb_smmu_probe_line(const char *text, struct sb_smmu_probe *p)
{
	char dev[96];
	const char *rest;
	unsigned long ias = 0, oas = 0, feat;
	int used = 0;

	if (!smmuv3_line(text, dev, sizeof(dev), &rest))
		return false;
	if (p->dev[0] && strcmp(p->dev, dev))
		return false;
	if (sb_sscanf(rest, "ias %lu-bit, oas %lu-bit (features 0x%lx)%n", &ias, &oas, &feat,
		      &used) == 3 &&
	    used) {
		p->ias = (unsigned)ias;
	} else if (used = 0,
		   sb_sscanf(rest, "oas %lu-bit (features 0x%lx)%n", &oas, &feat, &used) == 2 &&
			   used) {
		p->ias = 0;
	} else if (sb_sscanf(rest, "option mask 0x%lx", &feat) == 1) {
		snprintf(p->dev, sizeof(p->dev), "%s", dev);
		p->options = (uint32_t)feat;
		p->has_options = true;
		return true;
	} else if (strcasestr(rest, "ecmdq")) {
		snprintf(p->dev, sizeof(p->dev), "%s", dev);
		snprintf(p->ecmdq, sizeof(p->ecmdq), "%s", rest);
		return true;
	} else {
		return false;
	}
	snprintf(p->dev, sizeof(p->dev), "%s", dev);
	p->oas = (unsigned)oas;
	p->features = (uint32_t)feat;
	p->has_features = true;
	return true;
}

int sb_smmu_probes_add(const char *text, struct sb_smmu_probe **out, size_t *n, size_t *cap)
{
	struct sb_smmu_probe tmp = { 0 };
	size_t k;

	if (!sb_smmu_probe_line(text, &tmp))
		return 0;
	for (k = 0; k < *n; k++)
		if (!strcmp((*out)[k].dev, tmp.dev))
			break;
	if (k == *n) {
		if (*n == *cap) {
			size_t c = *cap ? *cap * 2 : 8;
			struct sb_smmu_probe *np = realloc(*out, c * sizeof(*np));

			if (!np)
				return -ENOMEM;
			*out = np;
			*cap = c;
		}
		memset(&(*out)[k], 0, sizeof((*out)[k]));
		(*n)++;
	}
	sb_smmu_probe_line(text, &(*out)[k]);
	return 0;
}

int sb_smmu_probes(const struct sb_kmsg *log, struct sb_smmu_probe **out, size_t *n)
{
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < log->n; i++)
		if (sb_smmu_probes_add(log->lines[i].text, out, n, &cap))
			return -ENOMEM;
	return 0;
}

#define BIT(v, b) (((v) >> (b)) & 1)
#define FIELD(v, lo, width) (((v) >> (lo)) & ((1ull << (width)) - 1))

static size_t add(char out[][24], size_t n, size_t max, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t add(char out[][24], size_t n, size_t max, const char *fmt, ...)
{
	va_list ap;

	if (n >= max)
		return n;
	va_start(ap, fmt);
	vsnprintf(out[n], 24, fmt, ap);
	va_end(ap);
	return n + 1;
}

/* Intel VT-d specification, Capability Register. */
size_t sb_vtd_decode_cap(uint64_t cap, char out[][24], size_t max)
{
	static const unsigned sagaw_bits[] = { 30, 39, 48, 57, 64 };
	char levels[24] = "";
	size_t n = 0, o = 0;

	n = add(out, n, max, "nd=%llu", 1ull << (4 + 2 * FIELD(cap, 0, 3)));
	for (unsigned i = 0; i < 5; i++)
		if (BIT(cap, 8 + i))
			o += (size_t)snprintf(levels + o, sizeof(levels) - o, "%s%u", o ? "/" : "",
					      sagaw_bits[i]);
	if (o)
		n = add(out, n, max, "sagaw=%s", levels);
	n = add(out, n, max, "mgaw=%llu", FIELD(cap, 16, 6) + 1);
	if (BIT(cap, 3))
		n = add(out, n, max, "afl");
	if (BIT(cap, 4))
		n = add(out, n, max, "rwbf");
	if (BIT(cap, 5))
		n = add(out, n, max, "plmr");
	if (BIT(cap, 6))
		n = add(out, n, max, "phmr");
	if (BIT(cap, 7))
		n = add(out, n, max, "cm");
	if (BIT(cap, 22))
		n = add(out, n, max, "zlr");
	if (FIELD(cap, 34, 4)) {
		n = add(out, n, max, "sllps=%s%s%s", "4k", BIT(cap, 34) ? "/2m" : "",
			BIT(cap, 35) ? "/1g" : "");
	}
	if (BIT(cap, 39))
		n = add(out, n, max, "psi");
	n = add(out, n, max, "nfr=%llu", FIELD(cap, 40, 8) + 1);
	if (BIT(cap, 54))
		n = add(out, n, max, "dwd");
	if (BIT(cap, 55))
		n = add(out, n, max, "drd");
	if (BIT(cap, 56))
		n = add(out, n, max, "fl1gp");
	if (BIT(cap, 59))
		n = add(out, n, max, "pi");
	if (BIT(cap, 60))
		n = add(out, n, max, "fl5lp");
	if (BIT(cap, 62))
		n = add(out, n, max, "esirtps");
	if (BIT(cap, 63))
		n = add(out, n, max, "esrtps");
	return n;
}

/* Intel VT-d specification, Extended Capability Register. */
size_t sb_vtd_decode_ecap(uint64_t ecap, char out[][24], size_t max, uint64_t *unknown)
{
	static const struct {
		unsigned bit;
		const char *name;
	} flags[] = {
		{ 0, "c" },	{ 1, "qi" },	{ 2, "dt" },	 { 3, "ir" },	 { 4, "eim" },
		{ 6, "pt" },	{ 7, "sc" },	{ 25, "mts" },	 { 26, "nest" }, { 29, "prs" },
		{ 30, "ers" },	{ 31, "srs" },	{ 33, "nwfs" },	 { 34, "eafs" }, { 40, "pasid" },
		{ 41, "dit" },	{ 42, "pds" },	{ 43, "smts" },	 { 44, "vcs" },	 { 45, "slads" },
		{ 46, "slts" }, { 47, "flts" }, { 48, "smpwc" }, { 49, "rps" },	 { 51, "pms" },
	};
	/* Multi-bit fields decoded below: IRO 17:8, MHMV 23:20, PSS 39:35. */
	uint64_t known = (0x3ffull << 8) | (0xfull << 20) | (0x1full << 35);
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		known |= 1ull << flags[i].bit;
		if (BIT(ecap, flags[i].bit))
			n = add(out, n, max, "%s", flags[i].name);
	}
	if (BIT(ecap, 40))
		n = add(out, n, max, "pss=%llu", FIELD(ecap, 35, 5) + 1);
	if (BIT(ecap, 2))
		n = add(out, n, max, "mhmv=%llu", FIELD(ecap, 20, 4));
	*unknown = ecap & ~known;
	return n;
}

/* AMD I/O Virtualization Technology specification, Extended Feature Register. */
size_t sb_amd_decode_features(uint64_t efr, char out[][24], size_t max, uint64_t *unknown)
{
	static const struct {
		unsigned bit;
		const char *name;
	} flags[] = {
		{ 0, "pref" }, { 1, "ppr" },	    { 2, "xt" },   { 3, "nx" },
		{ 4, "gt" },   { 6, "ia" },	    { 7, "ga" },   { 8, "he" },
		{ 9, "pc" },   { 21, "gam_vapic" }, { 63, "snp" },
	};
	uint64_t known = 0;
	size_t n = 0;

	for (size_t i = 0; i < ARRAY_SIZE(flags); i++) {
		known |= 1ull << flags[i].bit;
		if (BIT(efr, flags[i].bit))
			n = add(out, n, max, "%s", flags[i].name);
	}
	*unknown = efr & ~known;
	return n;
}
