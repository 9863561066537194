// SPDX-License-Identifier: GPL-2.0-or-later
/* Loading and decoding shared by the overview and check commands. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "smmustat.h"
#include "socbox/cmdline.h"

int smmu_state_load(struct sb_ctx *c, struct smmu_state *s, const char *table_override, bool events)
{
	struct sb_err e;
	bool ecmdq = false;
	char *cmdline;

	memset(s, 0, sizeof(*s));
	sb_err_clear(&e);
	if (sb_iommu_list(c->root, &s->inst, &s->ninst, &e) ||
	    sb_iommu_groups(c->root, &s->groups, &s->ngroups, &e)) {
		smmu_state_free(s); /* the instances when the groups failed */
		return sb_report(c->applet, &e);
	}
	sb_iommu_count_groups(s->inst, s->ninst, s->groups, s->ngroups);
	sb_err_clear(&s->log_err);
	s->have_log = sb_iommu_log_read(c->root, events, &s->log, &s->log_err) == 0;
	if (s->have_log)
		sb_verbose(c->applet, "kernel log: %llu lines from %s",
			   (unsigned long long)s->log.lines, s->log.source);
	for (size_t i = 0; i < s->log.nprobes; i++)
		ecmdq |= s->log.probes[i].ecmdq[0] != '\0';
	if (sb_kernel_release(c->root, s->release, sizeof(s->release)) < 0)
		s->release[0] = '\0';
	s->version_code = sb_kernel_version_code(c->root);
	s->table = sb_smmu_feat_table(s->release, s->version_code, ecmdq, table_override);
	cmdline = sb_cmdline_read(c->root);
	s->policy = s->log.policy;
	sb_iommu_policy_decide(cmdline, s->groups, s->ngroups, &s->policy);
	free(cmdline);
	return 0;
}

void smmu_state_free(struct smmu_state *s)
{
	free(s->inst);
	sb_iommu_groups_free(s->groups, s->ngroups);
	sb_iommu_log_free(&s->log);
	memset(s, 0, sizeof(*s));
}

static const struct sb_smmu_probe *probe_for(const struct smmu_state *s, const struct sb_iommu *m)
{
	for (size_t i = 0; i < s->log.nprobes; i++)
		if (m->hwdev[0] && !strcmp(s->log.probes[i].dev, m->hwdev))
			return &s->log.probes[i];
	return NULL;
}

static void add_upper(struct smmu_features *f, const char *name)
{
	if (f->n < SMMU_MAX_FEATURES)
		snprintf(f->names[f->n++], sizeof(f->names[0]), "%s", name);
}

void smmu_features(const struct smmu_state *s, const struct sb_iommu *m, struct smmu_features *f)
{
	memset(f, 0, sizeof(*f));
	if (m->kind == SB_IOMMU_SMMUV3) {
		const struct sb_smmu_probe *p = probe_for(s, m);
		const char *names[32];
		uint32_t unknown;
		size_t n;

		if (!p)
			return;
		snprintf(f->ecmdq, sizeof(f->ecmdq), "%s", p->ecmdq);
		f->ias = p->ias;
		f->oas = p->oas;
		if (!p->has_features || !s->table)
			return;
		snprintf(f->raw, sizeof(f->raw), "0x%08x", p->features);
		snprintf(f->table, sizeof(f->table), "%s", s->table->name);
		n = sb_smmu_decode(s->table, p->features, names, 32, &unknown);
		for (size_t i = 0; i < n; i++)
			add_upper(f, names[i]);
		if (unknown)
			snprintf(f->unknown, sizeof(f->unknown), "0x%08x", unknown);
	} else if (m->kind == SB_IOMMU_VTD && (m->has_cap || m->has_ecap)) {
		uint64_t unknown = 0;

		if (m->has_cap)
			f->n += sb_vtd_decode_cap(m->cap, f->names + f->n, SMMU_MAX_FEATURES - f->n);
		if (m->has_ecap)
			f->n += sb_vtd_decode_ecap(m->ecap, f->names + f->n,
						   SMMU_MAX_FEATURES - f->n, &unknown);
		snprintf(f->raw, sizeof(f->raw), "cap=0x%llx,ecap=0x%llx",
			 (unsigned long long)m->cap, (unsigned long long)m->ecap);
		if (unknown)
			snprintf(f->unknown, sizeof(f->unknown), "ecap:0x%llx",
				 (unsigned long long)unknown);
	} else if (m->kind == SB_IOMMU_AMD && m->has_amd_features) {
		uint64_t unknown = 0;

		f->n = sb_amd_decode_features(m->amd_features, f->names, SMMU_MAX_FEATURES,
					      &unknown);
		snprintf(f->raw, sizeof(f->raw), "features=0x%llx",
			 (unsigned long long)m->amd_features);
		if (unknown)
			snprintf(f->unknown, sizeof(f->unknown), "0x%llx",
				 (unsigned long long)unknown);
	}
}

void smmu_domain_summary(const struct sb_iommu *m, char *buf, size_t len)
{
	size_t o = 0;
	unsigned kinds = 0;

	for (int i = 0; i < SB_IOMMU_NDOMAIN_TYPES; i++)
		kinds += m->ntypes[i] != 0;
	if (!kinds) {
		snprintf(buf, len, "-");
		return;
	}
	buf[0] = '\0';
	for (int i = 0; i < 6 && o < len; i++) {
		if (!m->ntypes[i])
			continue;
		if (kinds == 1)
			o += (size_t)snprintf(buf + o, len - o, "%s", sb_iommu_group_types[i]);
		else
			o += (size_t)snprintf(buf + o, len - o, "%s%s:%u", o ? "," : "",
					      sb_iommu_group_types[i], m->ntypes[i]);
	}
}
