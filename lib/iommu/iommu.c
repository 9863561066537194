// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "socbox/platform.h"
#include "socbox/macro.h"
#include "socbox/path.h"
#include "socbox/scan.h"

const char *const sb_iommu_group_types[SB_IOMMU_NDOMAIN_TYPES] = {
	[SB_IOMMU_DOMAIN_DMA] = "DMA",
	[SB_IOMMU_DOMAIN_DMA_FQ] = "DMA-FQ",
	[SB_IOMMU_DOMAIN_IDENTITY] = "identity",
	[SB_IOMMU_DOMAIN_BLOCKED] = "blocked",
	[SB_IOMMU_DOMAIN_UNMANAGED] = "unmanaged",
	[SB_IOMMU_DOMAIN_UNKNOWN] = "unknown",
};

const char *sb_iommu_kind_name(enum sb_iommu_kind k)
{
	static const char *const names[] = {
		[SB_IOMMU_SMMUV3] = "arm-smmu-v3",  [SB_IOMMU_SMMU] = "arm-smmu",
		[SB_IOMMU_VTD] = "intel-vt-d",	    [SB_IOMMU_AMD] = "amd-vi",
		[SB_IOMMU_VIRTIO] = "virtio-iommu", [SB_IOMMU_OTHER] = "other",
	};
	return (unsigned)k < ARRAY_SIZE(names) ? names[k] : "other";
}

enum sb_iommu_kind sb_iommu_kind_guess(const char *name, const char *driver)
{
	if (!strncmp(name, "smmu3.", 6) || !strcmp(driver, "arm-smmu-v3"))
		return SB_IOMMU_SMMUV3;
	if (!strncmp(name, "smmu.", 5) || !strcmp(driver, "arm-smmu"))
		return SB_IOMMU_SMMU;
	if (!strncmp(name, "dmar", 4))
		return SB_IOMMU_VTD;
	if (!strncmp(name, "ivhd", 4) || !strncmp(driver, "amd", 3))
		return SB_IOMMU_AMD;
	if (!strcmp(driver, "virtio_iommu") || !strcmp(driver, "virtio-iommu"))
		return SB_IOMMU_VIRTIO;
	return SB_IOMMU_OTHER;
}

/* The hardware device behind a class device: the target of its "device" link, resolved from
 * the class device's real directory (the link text's last component may be "..", depending
 * on how the kernel spelt it). */
static void hw_device(const struct sb_root *r, const char *name, char *out, size_t len)
{
	char text[512], real[1024], dev[1024];
	const char *base;

	out[0] = '\0';
	if (sb_readlink(r, text, sizeof(text), "/sys/class/iommu/%s", name) < 0)
		snprintf(real, sizeof(real), "/sys/class/iommu/%s", name);
	else if (sb_path_join(real, sizeof(real), "/sys/class/iommu", text))
		return;
	if (sb_readlink(r, text, sizeof(text), "%s/device", real) < 0 ||
	    sb_path_join(dev, sizeof(dev), real, text))
		return;
	base = strrchr(dev, '/');
	if (base && base[1])
		snprintf(out, len, "%s", base + 1);
}

static void read_instance(const struct sb_root *r, struct sb_iommu *m)
{
	const char *base = strchr(m->name, '.');

	hw_device(r, m->name, m->hwdev, sizeof(m->hwdev));
	if (sb_link_name(r, m->driver, sizeof(m->driver), "/sys/class/iommu/%s/device/driver",
			 m->name) < 0)
		m->driver[0] = '\0';
	m->kind = sb_iommu_kind_guess(m->name, m->driver);
	/* arm-smmu(-v3) names carry the physical base: "smmu3.0x0000000009050000" (%pa). */
	if (base && (m->kind == SB_IOMMU_SMMUV3 || m->kind == SB_IOMMU_SMMU) &&
	    !sb_parse_u64(base + 1, 16, &m->base))
		m->has_base = true;
	if (m->kind == SB_IOMMU_VTD) {
		m->has_base = sb_attr_hex(r, &m->base, "/sys/class/iommu/%s/intel-iommu/address",
					  m->name) == 0;
		m->has_cap = sb_attr_hex(r, &m->cap, "/sys/class/iommu/%s/intel-iommu/cap",
					 m->name) == 0;
		m->has_ecap = sb_attr_hex(r, &m->ecap, "/sys/class/iommu/%s/intel-iommu/ecap",
					  m->name) == 0;
		if (sb_attr_str(r, m->version, sizeof(m->version),
				"/sys/class/iommu/%s/intel-iommu/version", m->name) < 0)
			m->version[0] = '\0';
		if (sb_attr_u64(r, &m->domains_supported,
				"/sys/class/iommu/%s/intel-iommu/domains_supported", m->name) < 0)
			m->domains_supported = 0;
		if (sb_attr_u64(r, &m->domains_used, "/sys/class/iommu/%s/intel-iommu/domains_used",
				m->name) < 0)
			m->domains_used = 0;
	}
	if (sb_attr_hex(r, &m->amd_cap, "/sys/class/iommu/%s/amd-iommu/cap", m->name) == 0)
		m->has_amd_cap = true;
	if (sb_attr_hex(r, &m->amd_features, "/sys/class/iommu/%s/amd-iommu/features", m->name) ==
	    0)
		m->has_amd_features = true;
	if ((m->has_amd_cap || m->has_amd_features) && m->kind == SB_IOMMU_OTHER)
		m->kind = SB_IOMMU_AMD;
}

int sb_iommu_list(const struct sb_root *r, struct sb_iommu **out, size_t *n, struct sb_err *e)
{
	struct sb_dirlist dl;
	int rc = sb_dir_list(r, &dl, "/sys/class/iommu");

	*out = NULL;
	*n = 0;
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return sb_err_set(e, -rc, "/sys/class/iommu", "list", "mount sysfs on /sys");
	if (!dl.n) {
		sb_dirlist_free(&dl);
		return 0;
	}
	*out = calloc(dl.n ? dl.n : 1, sizeof(**out));
	if (!*out) {
		sb_dirlist_free(&dl);
		return sb_err_set(e, ENOMEM, "/sys/class/iommu", "list", NULL);
	}
	for (size_t i = 0; i < dl.n; i++) {
		struct sb_iommu *m = &(*out)[i];
		struct sb_dirlist devs;

		snprintf(m->name, sizeof(m->name), "%s", dl.names[i]);
		read_instance(r, m);
		if (sb_dir_list(r, &devs, "/sys/class/iommu/%s/devices", m->name) == 0) {
			m->ndevices = (unsigned)devs.n;
			sb_dirlist_free(&devs);
		}
	}
	*n = dl.n;
	sb_dirlist_free(&dl);
	return 0;
}

int sb_iommu_parse_resv(const char *text, struct sb_iommu_resv **out, size_t *n, size_t *bad)
{
	size_t cap = 0;
	const char *line = text;

	*out = NULL;
	*n = 0;
	if (bad)
		*bad = 0;
	while (line && *line) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char tmp[160], kind[32];
		unsigned long long s, en;
		int used = 0;

		snprintf(tmp, sizeof(tmp), "%.*s",
			 (int)(len < sizeof(tmp) - 1 ? len : sizeof(tmp) - 1), line);
		if (len && sb_sscanf(tmp, "%llx %llx %31s %n", &s, &en, kind, &used) >= 3 &&
		    s <= en && len < sizeof(tmp)) {
			if (*n == cap) {
				struct sb_iommu_resv *nr;

				/* most groups have one or two regions: start small (thousands of groups) */
				cap = cap ? cap * 2 : 2;
				nr = realloc(*out, cap * sizeof(*nr));
				if (!nr)
					return -ENOMEM;
				*out = nr;
			}
			(*out)[*n].start = s;
			(*out)[*n].end = en;
			snprintf((*out)[*n].kind, sizeof((*out)[*n].kind), "%.23s", kind);
			(*n)++;
		} else if (len && bad) {
			(*bad)++;
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

static int read_group(const struct sb_root *r, struct sb_iommu_group *g, bool detail)
{
	struct sb_dirlist dl;
	char *text = NULL;

	if (sb_attr_str(r, g->type, sizeof(g->type), "/sys/kernel/iommu_groups/%u/type", g->id) < 0)
		snprintf(g->type, sizeof(g->type), "unknown");
	if (!detail)
		return 0;
	if (sb_attr_str(r, g->name, sizeof(g->name), "/sys/kernel/iommu_groups/%u/name", g->id) < 0)
		g->name[0] = '\0';
	if (sb_read_file(r, &text, SB_READ_TEXT_MAX, "/sys/kernel/iommu_groups/%u/reserved_regions",
			 g->id) >= 0) {
		int rc = sb_iommu_parse_resv(text, &g->resv, &g->nresv, NULL);

		free(text);
		if (rc)
			return rc;
	}
	if (sb_dir_list(r, &dl, "/sys/kernel/iommu_groups/%u/devices", g->id) < 0)
		return 0;
	g->devs = calloc(dl.n ? dl.n : 1, sizeof(*g->devs));
	if (!g->devs) {
		sb_dirlist_free(&dl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < dl.n; i++) {
		struct sb_iommu_gdev *d = &g->devs[i];

		int dfd;

		snprintf(d->name, sizeof(d->name), "%s", dl.names[i]);
		d->driver[0] = d->iommu[0] = '\0';
		/* one resolution of the device directory for both of its links */
		dfd = sb_open(r, O_PATH | O_DIRECTORY, "/sys/kernel/iommu_groups/%u/devices/%s",
			      g->id, d->name);
		if (dfd < 0)
			continue;
		if (sb_link_name_at(dfd, "driver", d->driver, sizeof(d->driver)) < 0)
			d->driver[0] = '\0';
		if (sb_link_name_at(dfd, "iommu", d->iommu, sizeof(d->iommu)) < 0)
			d->iommu[0] = '\0';
		close(dfd);
	}
	g->ndevs = dl.n;
	sb_dirlist_free(&dl);
	return 0;
}

static int read_groups(const struct sb_root *r, struct sb_iommu_group **out, size_t *n,
		       struct sb_err *e, bool detail)
{
	struct sb_dirlist dl;
	size_t used = 0;
	int rc = sb_dir_list(r, &dl, "/sys/kernel/iommu_groups");

	*out = NULL;
	*n = 0;
	if (rc == -ENOENT)
		return 0;
	if (rc < 0)
		return sb_err_set(e, -rc, "/sys/kernel/iommu_groups", "list", "mount sysfs on /sys");
	if (!dl.n) {
		sb_dirlist_free(&dl);
		return 0;
	}
	*out = calloc(dl.n ? dl.n : 1, sizeof(**out));
	if (!*out) {
		sb_dirlist_free(&dl);
		return sb_err_set(e, ENOMEM, "/sys/kernel/iommu_groups", "list", NULL);
	}
	for (size_t i = 0; i < dl.n; i++) {
		uint64_t id;

		if (sb_parse_u64(dl.names[i], 10, &id) || id > UINT32_MAX)
			continue;
		(*out)[used].id = (unsigned)id;
		rc = read_group(r, &(*out)[used], detail);
		used++;
		if (rc) {
			sb_dirlist_free(&dl);
			sb_iommu_groups_free(*out, used);
			*out = NULL;
			return sb_err_set(e, -rc, "/sys/kernel/iommu_groups", "read", NULL);
		}
	}
	*n = used;
	sb_dirlist_free(&dl);
	return 0;
}

int sb_iommu_groups(const struct sb_root *r, struct sb_iommu_group **out, size_t *n,
		    struct sb_err *e)
{
	return read_groups(r, out, n, e, true);
}

int sb_iommu_groups_brief(const struct sb_root *r, struct sb_iommu_group **out, size_t *n,
			  struct sb_err *e)
{
	return read_groups(r, out, n, e, false);
}

void sb_iommu_groups_free(struct sb_iommu_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].devs);
		free(g[i].resv);
	}
	free(g);
}

int sb_iommu_type_index(const char *type)
{
	for (int i = 0; i < SB_IOMMU_DOMAIN_UNKNOWN; i++)
		if (!strcmp(type, sb_iommu_group_types[i]))
			return i;
	return SB_IOMMU_DOMAIN_UNKNOWN;
}

void sb_iommu_count_groups(struct sb_iommu *list, size_t n, const struct sb_iommu_group *g,
			   size_t ng)
{
	for (size_t i = 0; i < n; i++) {
		list[i].ngroups = 0;
		memset(list[i].ntypes, 0, sizeof(list[i].ntypes));
	}
	for (size_t k = 0; k < ng; k++) {
		const char *iommu = "";

		if (!g[k].ndevs)
			continue;
		for (size_t d = 0; d < g[k].ndevs && !*iommu; d++)
			iommu = g[k].devs[d].iommu;
		/* A lone IOMMU serves every group even when devices lack the iommu link. */
		for (size_t i = 0; i < n; i++)
			if ((*iommu && !strcmp(iommu, list[i].name)) || (!*iommu && n == 1)) {
				list[i].ngroups++;
				list[i].ntypes[sb_iommu_type_index(g[k].type)]++;
			}
	}
}

/* "00:02.0" matches "0000:00:02.0"; anything else must match exactly. */
static bool dev_matches(const char *have, const char *want)
{
	size_t hl = strlen(have), wl = strlen(want);

	if (!strcmp(have, want))
		return true;
	return wl == 7 && hl == 12 && have[4] == ':' && !strcmp(have + 5, want);
}

int sb_iommu_find_device(const struct sb_iommu_group *g, size_t ng, const char *dev,
			 size_t *group_index, size_t *dev_index)
{
	for (size_t k = 0; k < ng; k++)
		for (size_t d = 0; d < g[k].ndevs; d++)
			if (dev_matches(g[k].devs[d].name, dev)) {
				*group_index = k;
				*dev_index = d;
				return 0;
			}
	return -ENOENT;
}

/* The kernel's order: iommu.strict (last one wins) sets the default; the VT-d and AMD
 * drivers force strict mode at init for intel_iommu=strict and amd_iommu=fullflush, after
 * the early parameters; iommu.passthrough=1 puts the default domain in passthrough. */
bool sb_iommu_cmdline_policy(const char *cmdline, char *mode, size_t len)
{
	char v[64];
	bool set = false;

	if (sb_cmdline_param(cmdline, "iommu.strict", v, sizeof(v))) {
		snprintf(mode, len, "%s", !strcmp(v, "0") ? "lazy" : "strict");
		set = true;
	}
	if ((sb_cmdline_param(cmdline, "intel_iommu", v, sizeof(v)) &&
	     sb_cmdline_has_option(v, "strict")) ||
	    (sb_cmdline_param(cmdline, "amd_iommu", v, sizeof(v)) &&
	     sb_cmdline_has_option(v, "fullflush"))) {
		snprintf(mode, len, "strict");
		set = true;
	}
	if (sb_cmdline_param(cmdline, "iommu.passthrough", v, sizeof(v)) &&
	    (!strcmp(v, "1") || !strcmp(v, "on") || !strcmp(v, "y"))) {
		snprintf(mode, len, "passthrough");
		set = true;
	}
	return set;
}

void sb_iommu_policy_line(const char *t, struct sb_iommu_policy *p)
{
	const char *q;

	if ((q = strstr(t, "Default domain type: "))) {
		q += strlen("Default domain type: ");
		snprintf(p->domain_default, sizeof(p->domain_default), "%.*s",
			 (int)strcspn(q, " \n"), q);
	}
	if ((q = strstr(t, "TLB invalidation policy: "))) {
		q += strlen("TLB invalidation policy: ");
		snprintf(p->mode, sizeof(p->mode), "%.*s", (int)strcspn(q, " \n"), q);
		snprintf(p->source, sizeof(p->source), "log");
	}
}

void sb_iommu_policy(const char *cmdline, const struct sb_kmsg *log, const struct sb_iommu_group *g,
		     size_t ng, struct sb_iommu_policy *p)
{
	memset(p, 0, sizeof(*p));
	for (size_t i = 0; log && i < log->n; i++)
		sb_iommu_policy_line(log->lines[i].text, p);
	sb_iommu_policy_decide(cmdline, g, ng, p);
}

void sb_iommu_policy_decide(const char *cmdline, const struct sb_iommu_group *g, size_t ng,
			    struct sb_iommu_policy *p)
{
	unsigned counts[SB_IOMMU_NDOMAIN_TYPES] = { 0 };

	if (!strcmp(p->domain_default, "Passthrough")) {
		snprintf(p->mode, sizeof(p->mode), "passthrough");
		snprintf(p->source, sizeof(p->source), "log");
	}
	if (cmdline && *cmdline && sb_iommu_cmdline_policy(cmdline, p->mode, sizeof(p->mode)))
		snprintf(p->source, sizeof(p->source), "cmdline");
	if (p->mode[0])
		return;
	for (size_t k = 0; k < ng; k++)
		counts[sb_iommu_type_index(g[k].type)]++;
	if (counts[SB_IOMMU_DOMAIN_DMA_FQ] || counts[SB_IOMMU_DOMAIN_DMA]) {
		bool lazy = counts[SB_IOMMU_DOMAIN_DMA_FQ] >= counts[SB_IOMMU_DOMAIN_DMA];

		snprintf(p->mode, sizeof(p->mode), "%s", lazy ? "lazy" : "strict");
		snprintf(p->source, sizeof(p->source), "groups");
	} else if (counts[SB_IOMMU_DOMAIN_IDENTITY]) {
		snprintf(p->mode, sizeof(p->mode), "passthrough");
		snprintf(p->source, sizeof(p->source), "groups");
	}
}

void sb_iommu_missing_hint(const struct sb_platform *p, char *buf, size_t len)
{
	if (sb_arch_is_x86(p->arch) && p->acpi_dmar)
		snprintf(buf, len, "build CONFIG_INTEL_IOMMU and boot with intel_iommu=on");
	else if (sb_arch_is_x86(p->arch) && p->acpi_ivrs)
		snprintf(buf, len, "build CONFIG_AMD_IOMMU (amd_iommu= on the command line)");
	else if (sb_arch_is_x86(p->arch))
		snprintf(buf, len,
			 "the firmware has no DMAR or IVRS table: enable VT-d or AMD-Vi in its setup, "
			 "then boot with intel_iommu=on or amd_iommu=on");
	else if (sb_arch_is_arm(p->arch) && p->fw == SB_FW_ACPI)
		snprintf(buf, len, "build CONFIG_ARM_SMMU_V3 (the IORT%s describes the SMMUs)",
			 p->acpi_iort ? "" : ", absent here,");
	else if (sb_arch_is_arm(p->arch))
		snprintf(buf, len,
			 "where the SoC has an SMMU, build CONFIG_ARM_SMMU_V3 or CONFIG_ARM_SMMU "
			 "and check its device-tree node; SoCs such as the AM62x, i.MX8MP and "
			 "STM32MP1 have none");
	else
		snprintf(buf, len,
			 "build the IOMMU driver of this platform and enable the IOMMU "
			 "in its firmware");
}
