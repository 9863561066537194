// SPDX-License-Identifier: GPL-2.0-or-later
/* The board's object graph (socbox/devgraph.h), read a device at a time: the entries of its
 * sysfs directory named supplier:BUS:NAME and consumer:BUS:NAME (drivers/base/core.c,
 * devlink_add_symlinks()) are its edges; for each, the consumer's device-tree node
 * (of_node) is searched for the supplier's phandle in the properties that reference a
 * provider, which names what the edge is. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/byteorder.h"
#include "socbox/devgraph.h"
#include "socbox/limits.h"
#include "socbox/macro.h"

/* The buses whose devices the kernel log names (dev_printk()'s prefix, DEVICE=+BUS:NAME). */
static const char *const buses[] = { "platform", "amba", "pci" };

/* The properties through which a node references its suppliers (drivers/of/property.c's
 * of_supplier_bindings), the property a supplier's node has when it is one (its cells per
 * reference; NULL: the reference is the phandle alone), and what the supplier is. */
static const struct {
	const char *prop, *cells, *role;
} refs[] = {
	{ "mboxes", "#mbox-cells", "mailbox" },
	{ "memory-region", NULL, "reserved memory" },
	{ "iommus", "#iommu-cells", "IOMMU" },
	{ "resets", "#reset-cells", "reset controller" },
	{ "power-domains", "#power-domain-cells", "power domain" },
};

void sb_devgraph_init(struct sb_devgraph *g, const struct sb_root *root)
{
	memset(g, 0, sizeof(*g));
	g->root = root;
}

void sb_devgraph_free(struct sb_devgraph *g)
{
	for (size_t i = 0; i < g->nread; i++)
		free(g->read[i]);
	free(g->read);
	free(g->edges);
	memset(g, 0, sizeof(*g));
}

const char *sb_devgraph_role(const char *via)
{
	for (size_t i = 0; via && i < ARRAY_SIZE(refs); i++)
		if (!strcmp(via, refs[i].prop))
			return refs[i].role;
	return "supplier";
}

/* The bus dev is on, NULL when it is on none of them. */
static const char *bus_of(const struct sb_root *r, const char *dev)
{
	for (size_t i = 0; i < ARRAY_SIZE(buses); i++)
		if (sb_exists(r, "/sys/bus/%s/devices/%s", buses[i], dev))
			return buses[i];
	return NULL;
}

/* The phandle of the device's device-tree node; false when it has none (no node, or a node
 * nothing references: dtc gives those no phandle). */
static bool phandle_of(const struct sb_root *r, const char *bus, const char *dev, uint32_t *ph)
{
	char *buf;
	ssize_t n = sb_read_file(r, &buf, SB_READ_ATTR_MAX,
				 "/sys/bus/%s/devices/%s/of_node/phandle", bus, dev);

	if (n < 0)
		return false;
	if (n == 4)
		*ph = sb_be32(buf);
	free(buf);
	return n == 4;
}

/* Whether the cells of a property (big-endian u32) hold ph. The cells after a phandle are
 * its provider's arguments, whose count only that provider's node says: each cell equal
 * to ph is taken as a reference, which an argument of another provider of the same kind
 * equal to ph would also be (the device link says the two devices are tied). */
static bool cells_hold(const char *buf, ssize_t n, uint32_t ph)
{
	for (ssize_t i = 0; i + 4 <= n; i += 4)
		if (sb_be32(buf + i) == ph)
			return true;
	return false;
}

/* What the consumer's node references the supplier through. */
static const char *via_of(const struct sb_root *r, const char *sbus, const char *sup,
			  const char *cbus, const char *con)
{
	uint32_t ph;

	if (!sbus || !cbus || !phandle_of(r, sbus, sup, &ph))
		return SB_DEVGRAPH_VIA_LINK;
	for (size_t i = 0; i < ARRAY_SIZE(refs); i++) {
		char *buf;
		ssize_t n;
		bool hit;

		/* a mailbox's node has #mbox-cells, an IOMMU's #iommu-cells...: an IOMMU
		 * stream ID that equals a mailbox's phandle is no reference to it */
		if (refs[i].cells &&
		    !sb_exists(r, "/sys/bus/%s/devices/%s/of_node/%s", sbus, sup, refs[i].cells))
			continue;
		n = sb_read_file(r, &buf, SB_READ_ATTR_MAX, "/sys/bus/%s/devices/%s/of_node/%s",
				 cbus, con, refs[i].prop);
		if (n < 0)
			continue;
		hit = cells_hold(buf, n, ph);
		free(buf);
		if (hit)
			return refs[i].prop;
	}
	return SB_DEVGRAPH_VIA_LINK;
}

static int nomem(struct sb_err *e, const char *dev)
{
	return sb_err_set(e, ENOMEM, dev, "read the device links", NULL);
}

static bool has_edge(const struct sb_devgraph *g, const char *sup, const char *con)
{
	for (size_t i = 0; i < g->nedges; i++)
		if (!strcmp(g->edges[i].supplier, sup) && !strcmp(g->edges[i].consumer, con))
			return true;
	return false;
}

static int add_edge(struct sb_devgraph *g, const char *sup, const char *con, const char *via,
		    struct sb_err *e)
{
	struct sb_devgraph_edge *x;

	if (has_edge(g, sup, con))
		return 0;
	if (g->nedges == g->capedges) {
		size_t cap = g->capedges ? 2 * g->capedges : 8;
		void *n = reallocarray(g->edges, cap, sizeof(*g->edges));

		if (!n)
			return nomem(e, con);
		g->edges = n;
		g->capedges = cap;
	}
	x = &g->edges[g->nedges++];
	snprintf(x->supplier, sizeof(x->supplier), "%s", sup);
	snprintf(x->consumer, sizeof(x->consumer), "%s", con);
	x->via = via;
	return 0;
}

static bool was_read(const struct sb_devgraph *g, const char *dev)
{
	for (size_t i = 0; i < g->nread; i++)
		if (!strcmp(g->read[i], dev))
			return true;
	return false;
}

static int mark_read(struct sb_devgraph *g, const char *dev, struct sb_err *e)
{
	char *copy;

	if (g->nread == g->capread) {
		size_t cap = g->capread ? 2 * g->capread : 8;
		void *n = reallocarray(g->read, cap, sizeof(*g->read));

		if (!n)
			return nomem(e, dev);
		g->read = n;
		g->capread = cap;
	}
	copy = strdup(dev);
	if (!copy)
		return nomem(e, dev);
	g->read[g->nread++] = copy;
	return 0;
}

/* "supplier:platform:30aa0000.mailbox" -> bus "platform", name "30aa0000.mailbox" (a name
 * may hold colons, as a PCI device's; a bus name holds none). */
static bool link_entry(const char *entry, const char *kind, char *bus, size_t blen,
		       const char **name)
{
	size_t k = strlen(kind);
	const char *colon;

	if (strncmp(entry, kind, k) || entry[k] != ':')
		return false;
	colon = strchr(entry + k + 1, ':');
	if (!colon || colon == entry + k + 1 || !colon[1] ||
	    (size_t)(colon - entry - k - 1) >= blen)
		return false;
	snprintf(bus, blen, "%.*s", (int)(colon - entry - k - 1), entry + k + 1);
	*name = colon + 1;
	return true;
}

/* Read dev's links into the graph, once. */
static int load(struct sb_devgraph *g, const char *dev, struct sb_err *e)
{
	const char *bus;
	struct sb_dirlist dl;
	int rc;

	if (was_read(g, dev))
		return 0;
	rc = mark_read(g, dev, e);
	if (rc < 0)
		return rc;
	bus = bus_of(g->root, dev);
	if (!bus || sb_dir_list(g->root, &dl, "/sys/bus/%s/devices/%s", bus, dev) < 0)
		return 0; /* not there, or unreadable: no edges */
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char obus[32];
		const char *other;

		if (link_entry(dl.names[i], "supplier", obus, sizeof(obus), &other))
			rc = add_edge(g, other, dev,
				      via_of(g->root, bus_of(g->root, other), other, bus, dev), e);
		else if (link_entry(dl.names[i], "consumer", obus, sizeof(obus), &other))
			rc = add_edge(g, dev, other,
				      via_of(g->root, bus, dev, bus_of(g->root, other), other), e);
	}
	sb_dirlist_free(&dl);
	return rc;
}

/* A device with a device-tree node that has a phandle: what a reference can name. */
struct dt_dev {
	uint32_t ph;
	const char *bus;
	const char *name;
};

/* The count a provider's node gives its references' arguments (#mbox-cells...); false
 * when it has none or an absurd one. */
static bool provider_cells(const struct sb_root *r, const struct dt_dev *p, const char *prop,
			   uint32_t *cells)
{
	char *buf;
	ssize_t n;

	if (!prop) { /* memory-region: the phandle alone */
		*cells = 0;
		return true;
	}
	n = sb_read_file(r, &buf, SB_READ_ATTR_MAX, "/sys/bus/%s/devices/%s/of_node/%s", p->bus,
			 p->name, prop);
	if (n < 0)
		return false;
	*cells = n == 4 ? sb_be32(buf) : UINT32_MAX;
	free(buf);
	return *cells < 16;
}

/* The edges of consumer c's references in the device tree, each phandle followed by as
 * many arguments as its provider's node says (so an argument is never taken for one). */
static int dt_refs_of(struct sb_devgraph *g, const struct dt_dev *devs, size_t ndevs,
		      const struct dt_dev *c, struct sb_err *e)
{
	int rc = 0;

	for (size_t k = 0; k < ARRAY_SIZE(refs) && !rc; k++) {
		char *buf;
		ssize_t n = sb_read_file(g->root, &buf, SB_READ_ATTR_MAX,
					 "/sys/bus/%s/devices/%s/of_node/%s", c->bus, c->name,
					 refs[k].prop);

		for (size_t off = 0; n > 0 && off + 4 <= (size_t)n && !rc;) {
			uint32_t ph = sb_be32(buf + off), cells;
			const struct dt_dev *p = NULL;

			for (size_t i = 0; i < ndevs && !p && ph; i++) /* 0 is no phandle */
				p = devs[i].ph == ph ? &devs[i] : NULL;
			if (!p && !refs[k].cells) { /* a reserved-memory node: no device */
				off += 4;
				continue;
			}
			/* a provider that is no device or says no count: where its arguments
			 * end is unknown, so the rest of the property is too */
			if (!p || !provider_cells(g->root, p, refs[k].cells, &cells))
				break;
			rc = add_edge(g, p->name, c->name, refs[k].prop, e);
			off += 4 * (1 + (size_t)cells);
		}
		if (n >= 0)
			free(buf);
	}
	return rc;
}

static bool has_supplier_links(const struct sb_root *r, const struct dt_dev *d)
{
	struct sb_dirlist dl;
	bool any = false;

	if (sb_dir_list(r, &dl, "/sys/bus/%s/devices/%s", d->bus, d->name) < 0)
		return false;
	for (size_t i = 0; i < dl.n && !any; i++)
		any = !strncmp(dl.names[i], "supplier:", 9);
	sb_dirlist_free(&dl);
	return any;
}

/* Without device links (fw_devlink=off, a kernel whose fw_devlink does not know the
 * property, a board that has none): the device tree alone, for every device that has no
 * supplier link, once. A board without a device tree reads nothing more. */
static int dt_scan(struct sb_devgraph *g, struct sb_err *e)
{
	struct dt_dev *devs = NULL;
	struct sb_dirlist lists[ARRAY_SIZE(buses)];
	size_t ndevs = 0, cap = 0;
	int rc = 0;

	g->dt_scanned = true;
	if (!sb_exists(g->root, "/sys/firmware/devicetree/base"))
		return 0;
	for (size_t b = 0; b < ARRAY_SIZE(buses); b++) {
		if (sb_dir_list(g->root, &lists[b], "/sys/bus/%s/devices", buses[b]) < 0)
			lists[b] = (struct sb_dirlist){ 0 };
		for (size_t i = 0; i < lists[b].n && !rc; i++) {
			uint32_t ph = 0;

			if (!sb_exists(g->root, "/sys/bus/%s/devices/%s/of_node", buses[b],
				       lists[b].names[i]))
				continue;
			phandle_of(g->root, buses[b], lists[b].names[i], &ph);
			if (ndevs == cap) {
				size_t ncap = cap ? 2 * cap : 32;
				void *n = ncap <= SB_DIR_MAX_ENTRIES
						  ? reallocarray(devs, ncap, sizeof(*devs))
						  : NULL;

				if (!n) {
					rc = nomem(e, lists[b].names[i]);
					break;
				}
				devs = n;
				cap = ncap;
			}
			devs[ndevs++] = (struct dt_dev){ ph, buses[b], lists[b].names[i] };
		}
	}
	for (size_t i = 0; i < ndevs && !rc; i++)
		if (!has_supplier_links(g->root, &devs[i]))
			rc = dt_refs_of(g, devs, ndevs, &devs[i], e);
	free(devs);
	for (size_t b = 0; b < ARRAY_SIZE(buses); b++)
		sb_dirlist_free(&lists[b]);
	return rc;
}

static size_t count_edges(const struct sb_devgraph *g, const char *dev, bool consumers)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nedges; i++)
		n += !strcmp(consumers ? g->edges[i].supplier : g->edges[i].consumer, dev);
	return n;
}

static ssize_t edges_of(struct sb_devgraph *g, const char *dev, bool consumers,
			struct sb_devgraph_edge *out, size_t max, struct sb_err *e)
{
	size_t n = 0;
	int rc = load(g, dev, e);

	if (!rc && !g->dt_scanned && !count_edges(g, dev, consumers))
		rc = dt_scan(g, e);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < g->nedges; i++) {
		const struct sb_devgraph_edge *x = &g->edges[i];

		if (strcmp(consumers ? x->supplier : x->consumer, dev))
			continue;
		if (n < max)
			out[n] = *x;
		n++;
	}
	return (ssize_t)n;
}

ssize_t sb_devgraph_consumers(struct sb_devgraph *g, const char *dev, struct sb_devgraph_edge *out,
			      size_t max, struct sb_err *e)
{
	return edges_of(g, dev, true, out, max, e);
}

ssize_t sb_devgraph_suppliers(struct sb_devgraph *g, const char *dev, struct sb_devgraph_edge *out,
			      size_t max, struct sb_err *e)
{
	return edges_of(g, dev, false, out, max, e);
}

ssize_t sb_devgraph_region_users(struct sb_devgraph *g, const char *node,
				 struct sb_devgraph_edge *out, size_t max, struct sb_err *e)
{
	struct sb_dirlist dl;
	size_t n = 0;
	uint32_t ph = 0;
	char *buf;
	ssize_t len;

	/* the name comes from a log record: it may only name a node below the directory */
	if (!node[0] || node[0] == '.' || strchr(node, '/') ||
	    strlen(node) >= sizeof(out->supplier))
		return 0;
	len = sb_read_file(g->root, &buf, SB_READ_ATTR_MAX, SB_DT_RESERVED_MEMORY "/%s/phandle",
			   node);
	if (len < 0)
		return len == -ENOMEM ? nomem(e, node) : 0;
	if (len == 4)
		ph = sb_be32(buf);
	free(buf);
	if (!ph || sb_dir_list(g->root, &dl, "/sys/bus/platform/devices") < 0)
		return 0;
	for (size_t i = 0; i < dl.n; i++) {
		len = sb_read_file(g->root, &buf, SB_READ_ATTR_MAX,
				   "/sys/bus/platform/devices/%s/of_node/memory-region",
				   dl.names[i]);
		if (len == -ENOMEM) {
			int rc = nomem(e, dl.names[i]);

			sb_dirlist_free(&dl);
			return rc;
		}
		if (len < 0)
			continue;
		if (cells_hold(buf, len, ph) && n++ < max) {
			snprintf(out[n - 1].supplier, sizeof(out->supplier), "%s", node);
			snprintf(out[n - 1].consumer, sizeof(out->consumer), "%s", dl.names[i]);
			out[n - 1].via = "memory-region";
		}
		free(buf);
	}
	sb_dirlist_free(&dl);
	return (ssize_t)n;
}
