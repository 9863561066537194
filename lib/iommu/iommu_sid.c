// SPDX-License-Identifier: GPL-2.0-or-later
/* Stream IDs of devices from the firmware (socbox/iommu_sid.h): the device tree under
 * /sys/firmware/devicetree/base reached through of_node links, or the IORT at
 * /sys/firmware/acpi/tables/IORT with devices matched by their firmware_node's ACPI path. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_dt.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_iort.h"
#include "socbox/iommu_names.h"
#include "socbox/iommu_sid.h"
#include "socbox/path.h"
#include "socbox/scan.h"

#define IORT_PATH "/sys/firmware/acpi/tables/IORT"
#define USED_MAX 8 /* paths one answer reads */

struct dt_smmu {
	uint32_t phandle;
	int cells; /* #iommu-cells */
	size_t inst;
};

struct sb_sid_fw {
	const struct sb_root *r;
	const struct sb_iommu *inst;
	size_t ninst;
	struct dt_smmu *dt;
	size_t ndt;
	struct sb_iort iort;
	bool have_iort;
	void (*visit)(void *ctx, const char *path);
	void *visit_ctx;
	char used[USED_MAX][PATH_MAX]; /* what the answer being made read */
	size_t nused;
};

static void use(struct sb_sid_fw *fw, const char *path)
{
	if (fw->visit && fw->nused < USED_MAX && strlen(path) < PATH_MAX)
		memcpy(fw->used[fw->nused++], path, strlen(path) + 1);
}

static void visit_used(struct sb_sid_fw *fw)
{
	for (size_t i = 0; fw->visit && i < fw->nused; i++)
		fw->visit(fw->visit_ctx, fw->used[i]);
	fw->nused = 0;
}

/* The real path of path: every component that is a symlink replaced by its target. */
static int resolve(struct sb_sid_fw *fw, const char *path, char *out, size_t len)
{
	char cur[PATH_MAX] = "", rest[PATH_MAX], *save = NULL, *tok;
	int hops = 0;

	snprintf(rest, sizeof(rest), "%s", path);
	for (tok = strtok_r(rest, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		char next[PATH_MAX], text[PATH_MAX];

		if ((size_t)snprintf(next, sizeof(next), "%s/%s", cur, tok) >= sizeof(next))
			return -ENAMETOOLONG;
		if (sb_readlink(fw->r, text, sizeof(text), "%s", next) >= 0) {
			if (++hops > SB_SID_PATH_HOPS)
				return -ELOOP;
			use(fw, next);
			if (sb_path_join(next, sizeof(next), cur[0] ? cur : "/", text))
				return -ENAMETOOLONG;
		}
		snprintf(cur, sizeof(cur), "%s", next);
	}
	snprintf(out, len, "%s", cur[0] ? cur : "/");
	return 0;
}

/* The target of the link dir/name (dir a real path). */
static int link_at(struct sb_sid_fw *fw, const char *dir, const char *name, char *out, size_t len)
{
	char text[PATH_MAX], path[PATH_MAX];
	int rc;

	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path))
		return -ENAMETOOLONG;
	rc = sb_readlink(fw->r, text, sizeof(text), "%s", path);
	if (rc < 0)
		return rc;
	use(fw, path);
	return sb_path_join(out, len, dir, text);
}

/* A property (or any small binary file) of dir. */
static ssize_t prop(struct sb_sid_fw *fw, const char *dir, const char *name, char **buf)
{
	ssize_t n = sb_read_file(fw->r, buf, SB_READ_ATTR_MAX, "%s/%s", dir, name);

	if (n >= 0) {
		char path[PATH_MAX + 64];

		snprintf(path, sizeof(path), "%s/%s", dir, name);
		use(fw, path);
	}
	return n;
}

static int prop_cell(struct sb_sid_fw *fw, const char *dir, const char *name, uint32_t *v)
{
	char *buf;
	ssize_t n = prop(fw, dir, name, &buf);
	int rc;

	if (n < 0)
		return (int)n;
	rc = sb_dt_cell(buf, (size_t)n, v);
	free(buf);
	return rc;
}

/* Each SMMU instance's device tree node: its phandle and #iommu-cells. */
static int load_dt(struct sb_sid_fw *fw)
{
	fw->dt = calloc(fw->ninst ? fw->ninst : 1, sizeof(*fw->dt));
	if (!fw->dt)
		return -ENOMEM;
	for (size_t i = 0; i < fw->ninst; i++) {
		char cls[PATH_MAX], node[PATH_MAX];
		struct dt_smmu *d = &fw->dt[fw->ndt];
		uint32_t cells;

		fw->nused = 0;
		snprintf(cls, sizeof(cls), "/sys/class/iommu/%s/device", fw->inst[i].name);
		if (resolve(fw, cls, cls, sizeof(cls)) ||
		    link_at(fw, cls, "of_node", node, sizeof(node)))
			continue;
		if (prop_cell(fw, node, "phandle", &d->phandle) &&
		    prop_cell(fw, node, "linux,phandle", &d->phandle))
			continue;
		d->cells =
			prop_cell(fw, node, "#iommu-cells", &cells) || cells > 4 ? -1 : (int)cells;
		d->inst = i;
		visit_used(fw);
		fw->ndt++;
	}
	fw->nused = 0;
	return 0;
}

static void load_iort(struct sb_sid_fw *fw)
{
	char *buf;
	ssize_t n = sb_read_file(fw->r, &buf, SB_READ_TEXT_MAX, IORT_PATH);

	if (n < 0)
		return;
	if (!sb_iort_parse(buf, (size_t)n, &fw->iort)) {
		fw->have_iort = true;
		if (fw->visit)
			fw->visit(fw->visit_ctx, IORT_PATH);
	}
	free(buf);
}

int sb_sid_fw_open(const struct sb_root *r, const struct sb_iommu *inst, size_t ninst,
		   void (*visit)(void *ctx, const char *path), void *visit_ctx,
		   struct sb_sid_fw **out)
{
	struct sb_sid_fw *fw = calloc(1, sizeof(*fw));

	*out = NULL;
	if (!fw)
		return -ENOMEM;
	fw->r = r;
	fw->inst = inst;
	fw->ninst = ninst;
	fw->visit = visit;
	fw->visit_ctx = visit_ctx;
	if (load_dt(fw)) {
		sb_sid_fw_close(fw);
		return -ENOMEM;
	}
	load_iort(fw);
	*out = fw;
	return 0;
}

void sb_sid_fw_close(struct sb_sid_fw *fw)
{
	if (!fw)
		return;
	free(fw->dt);
	sb_iort_free(&fw->iort);
	free(fw);
}

/* The instance whose base is that of an IORT SMMU node. */
static bool iort_inst(const struct sb_sid_fw *fw, const struct sb_iort_node *smmu, size_t *inst)
{
	for (size_t i = 0; smmu && i < fw->ninst; i++)
		if (fw->inst[i].has_base && fw->inst[i].base == smmu->base) {
			*inst = i;
			return true;
		}
	return false;
}

static bool iort_any(const struct sb_sid_fw *fw)
{
	size_t inst;

	for (size_t i = 0; fw->have_iort && i < fw->iort.n; i++)
		if (iort_inst(fw, &fw->iort.nodes[i], &inst))
			return true;
	return false;
}

bool sb_sid_fw_any(const struct sb_sid_fw *fw)
{
	return fw && (fw->ndt || iort_any(fw));
}

const char *sb_sid_fw_source(const struct sb_sid_fw *fw)
{
	bool dt = fw && fw->ndt, iort = fw && iort_any(fw);

	return dt && iort ? "dt+iort" : dt ? "dt" : iort ? "iort" : "none";
}

static const struct dt_smmu *dt_smmu(const struct sb_sid_fw *fw, uint32_t phandle)
{
	for (size_t i = 0; i < fw->ndt; i++)
		if (fw->dt[i].phandle == phandle)
			return &fw->dt[i];
	return NULL;
}

static int cells_of(void *ctx, uint32_t phandle)
{
	const struct dt_smmu *d = dt_smmu(ctx, phandle);

	return d ? d->cells : -1;
}

/* "0000:00:02.0" -> segment 0, requester ID bus << 8 | device << 3 | function. */
static bool pci_rid(const char *name, uint32_t *segment, uint32_t *rid)
{
	unsigned dom, bus, dev, fn;
	int used = 0;

	if (sb_sscanf(name, "%4x:%2x:%2x.%1u%n", &dom, &bus, &dev, &fn, &used) != 4 || name[used] ||
	    dev > 31 || fn > 7)
		return false;
	*segment = dom;
	*rid = bus << 8 | dev << 3 | fn;
	return true;
}

/* A platform device's iommus property: the specifiers of its first known SMMU. */
static int dt_platform(struct sb_sid_fw *fw, const char *dev, struct sb_dev_sids *out)
{
	struct sb_dt_iommus spec[SB_SID_MAX];
	char node[PATH_MAX], *buf;
	const struct dt_smmu *d;
	ssize_t len;
	size_t n;

	if (link_at(fw, dev, "of_node", node, sizeof(node)) ||
	    (len = prop(fw, node, "iommus", &buf)) < 0)
		return -ENOENT;
	n = sb_dt_parse_iommus(buf, (size_t)len, cells_of, fw, spec, SB_SID_MAX);
	free(buf);
	if (!n || !(d = dt_smmu(fw, spec[0].phandle)))
		return -ENOENT;
	out->inst = d->inst;
	for (size_t i = 0; i < n; i++)
		if (spec[i].phandle == spec[0].phandle)
			out->sids[out->n++] = spec[i].sid;
	return 0;
}

/* A PCI device: the iommu-map of the nearest ancestor whose node has one (the host bridge). */
static int dt_pci(struct sb_sid_fw *fw, const char *dev, uint32_t rid, struct sb_dev_sids *out)
{
	char anc[PATH_MAX], node[PATH_MAX], *slash;

	snprintf(anc, sizeof(anc), "%s", dev);
	while ((slash = strrchr(anc, '/')) && slash != anc && strcmp(anc, "/sys/devices")) {
		struct sb_dt_map *map;
		const struct dt_smmu *d;
		uint32_t mask = 0xffffffff, ph, sid;
		size_t nmap;
		ssize_t len;
		char *buf;
		int rc;

		*slash = '\0';
		if (link_at(fw, anc, "of_node", node, sizeof(node)))
			continue;
		if ((len = prop(fw, node, "iommu-map", &buf)) < 0) {
			fw->nused = fw->nused ? fw->nused - 1
					      : 0; /* that of_node link served nothing */
			continue;
		}
		rc = sb_dt_parse_map(buf, (size_t)len, &map, &nmap);
		free(buf);
		if (rc)
			return -ENOENT;
		if (prop_cell(fw, node, "iommu-map-mask", &mask) == -EINVAL)
			mask = 0xffffffff;
		rc = sb_dt_map_id(map, nmap, mask, rid, &ph, &sid);
		free(map);
		if (rc || !(d = dt_smmu(fw, ph)))
			return -ENOENT;
		out->inst = d->inst;
		out->sids[out->n++] = sid;
		return 0;
	}
	return -ENOENT;
}

static int iort_pci(struct sb_sid_fw *fw, uint32_t segment, uint32_t rid, struct sb_dev_sids *out)
{
	for (size_t i = 0; i < fw->iort.n; i++) {
		const struct sb_iort_node *n = &fw->iort.nodes[i], *smmu;
		uint32_t sid;

		if (n->type != SB_IORT_ROOT_COMPLEX || n->segment != segment)
			continue;
		if (sb_iort_map_id(&fw->iort, n, rid, &smmu, &sid) ||
		    !iort_inst(fw, smmu, &out->inst))
			return -ENOENT;
		out->sids[out->n++] = sid;
		use(fw, IORT_PATH);
		return 0;
	}
	return -ENOENT;
}

/* A named component: the node whose name is the ACPI path of the device's firmware node. */
static int iort_nc(struct sb_sid_fw *fw, const char *dev, struct sb_dev_sids *out)
{
	char fwnode[PATH_MAX], path[160];

	if (link_at(fw, dev, "firmware_node", fwnode, sizeof(fwnode)) ||
	    sb_attr_str(fw->r, path, sizeof(path), "%s/path", fwnode) < 0)
		return -ENOENT;
	{
		char used[PATH_MAX + 8];

		snprintf(used, sizeof(used), "%s/path", fwnode);
		use(fw, used);
	}
	for (size_t i = 0; i < fw->iort.n; i++) {
		const struct sb_iort_node *n = &fw->iort.nodes[i], *smmu;

		if (n->type != SB_IORT_NAMED_COMPONENT || strcmp(n->name, path))
			continue;
		out->n = sb_iort_nc_sids(&fw->iort, n, &smmu, out->sids, SB_SID_MAX);
		if (!out->n || !iort_inst(fw, smmu, &out->inst))
			return -ENOENT;
		use(fw, IORT_PATH);
		return 0;
	}
	return -ENOENT;
}

int sb_sid_device(struct sb_sid_fw *fw, const char *path, struct sb_dev_sids *out)
{
	const char *name = strrchr(path, '/');
	char dev[PATH_MAX];
	uint32_t segment = 0, rid = 0;
	bool pci;
	int rc = -ENOENT;

	memset(out, 0, sizeof(*out));
	fw->nused = 0;
	if (!sb_sid_fw_any(fw) || !name)
		return -ENOENT;
	name++;
	pci = pci_rid(name, &segment, &rid);
	if (resolve(fw, path, dev, sizeof(dev)))
		return -ENOENT;
	if (fw->ndt) {
		rc = pci ? dt_pci(fw, dev, rid, out) : dt_platform(fw, dev, out);
		out->source = "dt";
	}
	if (rc && fw->have_iort) {
		memset(out, 0, sizeof(*out));
		rc = pci ? iort_pci(fw, segment, rid, out) : iort_nc(fw, dev, out);
		out->source = "iort";
	}
	if (rc) {
		fw->nused = 0;
		memset(out, 0, sizeof(*out));
		return rc;
	}
	visit_used(fw);
	return 0;
}

/* Each device of a bus, by its link in /sys/bus/BUS/devices; stop when fn returns non-zero. */
static int each_device(
	struct sb_sid_fw *fw, const char *bus,
	int (*fn)(struct sb_sid_fw *fw, const char *path, const char *name, void *ctx), void *ctx)
{
	struct sb_dirlist dl;
	int rc = 0;

	if (sb_dir_list(fw->r, &dl, "/sys/bus/%s/devices", bus) < 0)
		return 0;
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char path[PATH_MAX];

		snprintf(path, sizeof(path), "/sys/bus/%s/devices/%s", bus, dl.names[i]);
		rc = fn(fw, path, dl.names[i], ctx);
	}
	sb_dirlist_free(&dl);
	return rc;
}

struct owner_q {
	size_t inst;
	uint32_t sid;
	char *dev;
	size_t len;
};

static int owner_fn(struct sb_sid_fw *fw, const char *path, const char *name, void *ctx)
{
	struct owner_q *q = ctx;
	struct sb_dev_sids s;

	if (sb_sid_device(fw, path, &s) || s.inst != q->inst)
		return 0;
	for (size_t i = 0; i < s.n; i++)
		if (s.sids[i] == q->sid) {
			snprintf(q->dev, q->len, "%s", name);
			return 1;
		}
	return 0;
}

int sb_sid_owner(struct sb_sid_fw *fw, size_t inst, uint32_t sid, char *dev, size_t len)
{
	struct owner_q q = { inst, sid, dev, len };

	if (!sb_sid_fw_any(fw))
		return -ENOENT;
	if (each_device(fw, "pci", owner_fn, &q) > 0 ||
	    each_device(fw, "platform", owner_fn, &q) > 0)
		return 0;
	return -ENOENT;
}

static int visit_fn(struct sb_sid_fw *fw, const char *path, const char *name, void *ctx)
{
	struct sb_dev_sids s;

	(void)name;
	(void)ctx;
	sb_sid_device(fw, path, &s);
	return 0;
}

int sb_sid_visit_all(struct sb_sid_fw *fw)
{
	each_device(fw, "pci", visit_fn, NULL);
	each_device(fw, "platform", visit_fn, NULL);
	return 0;
}

#define NAMER_CACHE 64

struct sb_sid_namer {
	const struct sb_root *r;
	struct sb_iommu_group *groups; /* read when a record first needs them */
	size_t ngroups;
	bool have_groups;
	struct sb_iommu *inst;
	size_t ninst;
	struct sb_sid_fw *fw;
	struct {
		size_t inst;
		uint32_t sid;
		char dev[96]; /* empty: nobody */
	} cache[NAMER_CACHE];
	size_t ncache;
};

int sb_sid_namer_open(const struct sb_root *r, struct sb_sid_namer **out)
{
	struct sb_sid_namer *nm = calloc(1, sizeof(*nm));

	*out = NULL;
	if (!nm)
		return -ENOMEM;
	nm->r = r;
	if (sb_iommu_list(r, &nm->inst, &nm->ninst, NULL))
		nm->ninst = 0;
	if (sb_sid_fw_open(r, nm->inst, nm->ninst, NULL, NULL, &nm->fw)) {
		sb_sid_namer_close(nm);
		return -ENOMEM;
	}
	*out = nm;
	return 0;
}

static void name_by_sid(struct sb_sid_namer *nm, size_t inst, struct sb_iommu_event *ev)
{
	size_t k;

	if (!ev->has_sid || ev->client_known || !sb_sid_fw_any(nm->fw))
		return;
	for (k = 0; k < nm->ncache; k++)
		if (nm->cache[k].inst == inst && nm->cache[k].sid == ev->sid)
			break;
	if (k == nm->ncache) {
		k = nm->ncache < NAMER_CACHE ? nm->ncache++ : NAMER_CACHE - 1;
		nm->cache[k].inst = inst;
		nm->cache[k].sid = ev->sid;
		if (sb_sid_owner(nm->fw, inst, ev->sid, nm->cache[k].dev, sizeof(nm->cache[k].dev)))
			nm->cache[k].dev[0] = '\0';
	}
	if (!nm->cache[k].dev[0])
		return;
	snprintf(ev->device, sizeof(ev->device), "%s", nm->cache[k].dev);
	ev->named_by_firmware = true;
}

static void need_groups(struct sb_sid_namer *nm)
{
	if (nm->have_groups)
		return;
	nm->have_groups = true;
	if (sb_iommu_groups(nm->r, &nm->groups, &nm->ngroups, NULL)) {
		nm->groups = NULL;
		nm->ngroups = 0;
	}
}

void sb_sid_namer_name(struct sb_sid_namer *nm, struct sb_iommu_event *ev)
{
	size_t inst;

	if (!nm)
		return;
	if (sb_pci_addr_short(ev->device)) {
		char full[sizeof(ev->device)];

		need_groups(nm);
		sb_pci_addr_full(ev->device, nm->groups, nm->ngroups, full, sizeof(full));
		snprintf(ev->device, sizeof(ev->device), "%s", full);
	}
	inst = sb_iommu_instance_index(nm->inst, nm->ninst, ev->source);
	if (inst < nm->ninst)
		name_by_sid(nm, inst, ev);
	else if (ev->client_known) {
		const char *in;

		need_groups(nm);
		in = sb_iommu_of_device(nm->groups, nm->ngroups, ev->device);
		inst = sb_iommu_instance_index(nm->inst, nm->ninst, in);
	}
	if (inst < nm->ninst) {
		snprintf(ev->instance, sizeof(ev->instance), "%s", nm->inst[inst].name);
		snprintf(ev->instance_dev, sizeof(ev->instance_dev), "%s", nm->inst[inst].hwdev);
	}
}

void sb_sid_namer_close(struct sb_sid_namer *nm)
{
	if (!nm)
		return;
	sb_sid_fw_close(nm->fw);
	sb_iommu_groups_free(nm->groups, nm->ngroups);
	free(nm->inst);
	free(nm);
}
