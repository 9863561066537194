// SPDX-License-Identifier: GPL-2.0-or-later
/* IOMMU instances and groups as diff records: what smmustat's overview and groups show.
 * Interrupt and fault counts are left out (they grow while the board runs; doctor's causes
 * name faults), and so is VT-d's domains_used, which moves with every attach. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/diff.h"
#include "socbox/iommu.h"

static void instances(const struct sb_root *r, struct sb_diff_set *s,
		      const struct sb_iommu_group *g, size_t ng)
{
	struct sb_iommu *v = NULL;
	struct sb_err e;
	size_t n = 0;

	if (sb_iommu_list(r, &v, &n, &e))
		return;
	sb_iommu_count_groups(v, n, g, ng);
	for (size_t i = 0; i < n; i++) {
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_IOMMU, "instance:%s", v[i].name);

		sb_diff_attr_str(s, o, "kind", sb_iommu_kind_name(v[i].kind));
		sb_diff_attr_str(s, o, "hwdev", *v[i].hwdev ? v[i].hwdev : "-");
		sb_diff_attr_str(s, o, "driver", *v[i].driver ? v[i].driver : "-");
		if (v[i].has_base)
			sb_diff_attr_fmt(s, o, "base", "0x%" PRIx64, v[i].base);
		sb_diff_attr_u64(s, o, "devices", v[i].ndevices);
		sb_diff_attr_u64(s, o, "groups", v[i].ngroups);
		for (int t = 0; t < SB_IOMMU_NDOMAIN_TYPES; t++) {
			char key[48];

			if (!v[i].ntypes[t])
				continue;
			snprintf(key, sizeof(key), "groups_%s", sb_iommu_group_types[t]);
			sb_diff_attr_u64(s, o, key, v[i].ntypes[t]);
		}
		if (*v[i].version)
			sb_diff_attr_str(s, o, "version", v[i].version);
		if (v[i].has_cap)
			sb_diff_attr_fmt(s, o, "cap", "0x%" PRIx64, v[i].cap);
		if (v[i].has_ecap)
			sb_diff_attr_fmt(s, o, "ecap", "0x%" PRIx64, v[i].ecap);
		if (v[i].has_amd_features)
			sb_diff_attr_fmt(s, o, "features", "0x%" PRIx64, v[i].amd_features);
	}
	free(v);
}

/* "dev(driver)@instance,..." in the order the group lists them */
static void group_devices(struct sb_diff_set *s, struct sb_diff_obj *o,
			  const struct sb_iommu_group *g)
{
	char buf[1024];
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < g->ndevs && len < sizeof(buf); i++)
		len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s%s%s%s", i ? "," : "",
					g->devs[i].name, *g->devs[i].driver ? "(" : "",
					g->devs[i].driver, *g->devs[i].driver ? ")" : "");
	sb_diff_attr_str(s, o, "devices", buf);
	if (g->ndevs && *g->devs[0].iommu)
		sb_diff_attr_str(s, o, "instance", g->devs[0].iommu);
}

void sb_diff_collect_iommu(const struct sb_root *r, struct sb_diff_set *s)
{
	struct sb_iommu_group *g = NULL;
	struct sb_err e;
	size_t ng = 0;

	if (sb_iommu_groups(r, &g, &ng, &e))
		ng = 0;
	instances(r, s, g, ng);
	for (size_t i = 0; i < ng; i++) {
		struct sb_diff_obj *o = sb_diff_obj_add(s, SB_DIFF_IOMMU, "group:%u", g[i].id);

		sb_diff_attr_str(s, o, "type", g[i].type);
		if (*g[i].name)
			sb_diff_attr_str(s, o, "name", g[i].name);
		group_devices(s, o, &g[i]);
		if (g[i].nresv)
			sb_diff_attr_u64(s, o, "reserved_regions", g[i].nresv);
	}
	sb_iommu_groups_free(g, ng);
}
