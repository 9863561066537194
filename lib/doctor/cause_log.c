// SPDX-License-Identifier: GPL-2.0-or-later
/* No silent ok: every record of this boot at err or worse is tied to an object of the board
 * (its DEVICE= dictionary line, its dev_printk() prefix "DRIVER DEVICE: ", or for records
 * printed without a device the prefix of the code that printed it: "cma: ", "iommu: "...)
 * and through it to a subsystem. A record that no other cause explains, that nothing
 * answered later (a remote processor up again) and that is not on the list of known
 * harmless ones makes its subsystem not ok: one log.errors cause per subsystem quotes them
 * and names the object and, where known, the source of the message. Runs after every other
 * detector: what they named is explained. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/macro.h"

/* Drivers, buses and prefixes of records (the first word of the text, or its start) and the
 * subsystem they belong to. */
static const struct {
	const char *prefix;
	int sub;
} owners[] = {
	{ "cma: ", SB_DOCTOR_DMABUF },		    /* mm/cma.c, kernel/dma/contiguous.c pr_fmt */
	{ "OF: reserved mem: ", SB_DOCTOR_DMABUF }, /* drivers/of/of_reserved_mem.c */
	{ "OF: fdt: Reserved memory: ", SB_DOCTOR_DMABUF }, /* 6.1 drivers/of/fdt.c */
	{ "dma_heap", SB_DOCTOR_DMABUF },
	{ "udmabuf", SB_DOCTOR_DMABUF },
	{ "iommu: ", SB_DOCTOR_IOMMU }, /* drivers/iommu/iommu.c pr_fmt */
	{ "arm-smmu-v3 ", SB_DOCTOR_IOMMU },
	{ "arm-smmu ", SB_DOCTOR_IOMMU },
	{ "DMAR: ", SB_DOCTOR_IOMMU },	  /* drivers/iommu/intel/dmar.c pr_fmt */
	{ "DMAR-IR: ", SB_DOCTOR_IOMMU }, /* drivers/iommu/intel/irq_remapping.c */
	{ "AMD-Vi: ", SB_DOCTOR_IOMMU },
	{ "page_pool", SB_DOCTOR_NETDEV },	  /* net/core/page_pool.c */
	{ "virtio_rpmsg_bus ", SB_DOCTOR_RPMSG }, /* drivers/rpmsg/virtio_rpmsg_bus.c */
	{ "rpmsg", SB_DOCTOR_RPMSG },
	{ "remoteproc ", SB_DOCTOR_RPMSG }, /* the remoteproc class device */
	{ "rproc-virtio ", SB_DOCTOR_RPMSG },
};

/* Known harmless records at err or worse: the text that matches one, the file of the kernel
 * that prints it, and why it needs no cause of its own: the KMSG_HARMLESS lines of
 * kmsg_classes.def (scripts/kmsg-coverage checks that each text matches its own string of
 * the kernel source and no other one). */
static const struct {
	const char *text;
	/* for the reader: where the kernel prints it and why it needs no cause */
	// cppcheck-suppress unusedStructMember
	const char *source;
	// cppcheck-suppress unusedStructMember
	const char *why;
} harmless[] = {
#define KMSG_HARMLESS(file, format, match, why) { match, file, why },
#include "kmsg_classes.def"
};

/* Messages whose source and meaning are known: quoted with them. */
static const struct {
	const char *text;
	const char *source;
	const char *fix;
} known[] = {
	{ "timeout waiting for a tx buffer",
	  "drivers/rpmsg/virtio_rpmsg_bus.c, rpmsg_send_offchannel_raw(), dev_err",
	  "the remote processor stopped returning tx buffers (it no longer consumes the "
	  "vring): check that its firmware runs and services its rx vring (rpmsgctl rproc "
	  "trace), then restart it" },
	{ "Failed to reserve ",
	  "mm/cma.c, cma_declare_contiguous_nid(), pr_err \"Failed to reserve %ld MiB\"",
	  "the CMA area could not be reserved at boot, so there is no CMA area or CMA heap: "
	  "lower cma=SIZE (or the linux,cma node's size) or move it (cma=SIZE@START) where "
	  "memory is free of other reserved-memory nodes" },
	{ "failed to reserve memory for node", "drivers/of/of_reserved_mem.c (6.1: fdt.c)",
	  "the region overlaps memory already reserved, so its device does not have it: move "
	  "or shrink the node's reg (dmesg, /proc/iomem)" },
	{ "failed to allocate memory for node", "drivers/of/of_reserved_mem.c",
	  "no free memory held the node's size: lower it or widen its alloc-ranges" },
	{ "Falling back to IOMMU_DOMAIN_DMA",
	  "drivers/iommu/iommu.c, iommu_group_alloc_default_domain(), pr_warn", NULL },
};

/* The subsystem of a record by its prefix or its driver's name, -1 when none; the prefix's
 * name into *name ("OF: reserved mem" of "OF: reserved mem: "), with its length. */
static int owner_of(const char *text, const char *driver, const char **name, int *len)
{
	for (size_t i = 0; i < ARRAY_SIZE(owners); i++) {
		size_t n = strlen(owners[i].prefix);

		if (!strncmp(text, owners[i].prefix, n) ||
		    (driver[0] &&
		     !strncmp(driver, owners[i].prefix, strcspn(owners[i].prefix, " :")))) {
			while (n && strchr(": ", owners[i].prefix[n - 1]))
				n--;
			*name = owners[i].prefix;
			*len = (int)n;
			return owners[i].sub;
		}
	}
	return -1;
}

/* The entry of harmless a record is, -1 when none. */
static int harmless_of(const char *text)
{
	for (size_t i = 0; i < ARRAY_SIZE(harmless); i++)
		if (strstr(text, harmless[i].text))
			return (int)i;
	return -1;
}

/* The remote processor a name is of (its id or its device), NULL when none. */
static const struct sb_rproc *rproc_of(const struct doctor_board *b, const char *name)
{
	for (size_t i = 0; i < b->nprocs; i++)
		if (!strcmp(b->procs[i].id, name) || !strcmp(b->procs[i].name, name) ||
		    !strcmp(b->procs[i].device, name))
			return &b->procs[i];
	return NULL;
}

/* The object of a record and its subsystem: -1 when it is of none socbox covers. A record
 * of a device that serves one object (a mailbox, its remote processor) is that object's,
 * and via says through what ("mailbox 30aa0000.mailbox"; "" for the object's own). */
static int attribute(const struct doctor_board *b, const struct sb_kmsg_line *l, char *obj,
		     size_t len, char *via, size_t vlen)
{
	const char *name = sb_kmsg_device_name(l);
	char dev[96] = "", driver[64] = "", node[64];
	struct sb_devgraph_edge users[2];
	const char *prefix;
	int plen;
	const struct doctor_pdev *p;
	const struct doctor_role *role;
	const char *sp = strchr(l->text, ' ');
	int sub;

	if (doctor_log_dev(l->text, dev, sizeof(dev)) && sp)
		snprintf(driver, sizeof(driver), "%.*s", (int)(sp - l->text), l->text);
	if (name)
		snprintf(dev, sizeof(dev), "%s", name);
	via[0] = '\0';
	if (dev[0] && (sub = doctor_served(b, dev, obj, len, via, vlen)) >= 0)
		return sub;
	if (!dev[0] && doctor_region_of(l->text, node, sizeof(node))) {
		/* a reserved-memory node's record is about the one device that uses it */
		if (doctor_region_users(b, node, users, ARRAY_SIZE(users)) != 1) {
			snprintf(obj, len, "%s", node);
			return SB_DOCTOR_DMABUF;
		}
		snprintf(dev, sizeof(dev), "%s", users[0].consumer);
		snprintf(via, vlen, "reserved memory %s", node);
	}
	if (dev[0]) {
		snprintf(obj, len, "%s", dev);
		p = doctor_pdev_find(b, dev);
		role = p && p->role ? p->role : doctor_role_of(NULL, dev);
		if (!role && driver[0])
			role = doctor_role_of(NULL, driver);
		if (role)
			return role->sub;
		if (rproc_of(b, dev))
			return SB_DOCTOR_RPMSG;
		return owner_of(l->text, driver, &prefix, &plen);
	}
	sub = owner_of(l->text, "", &prefix, &plen);
	if (sub >= 0) /* "cma: x" -> "cma", "OF: reserved mem: x" -> "OF: reserved mem" */
		snprintf(obj, len, "%.*s", plen, prefix);
	return sub;
}

/* Whether a cause of sub already explains records of obj: it names obj or its remote
 * processor, or its evidence quotes obj's records. */
static bool explained(const struct doctor_board *b, int sub, const char *obj, const char *text)
{
	const struct sb_rproc *p = rproc_of(b, obj);

	for (size_t i = 0; i < b->rep->ncauses; i++) {
		const struct sb_cause *c = &b->rep->causes[i];

		if (!strcmp(c->def->code, "log.errors"))
			continue;
		if (!strcmp(c->object, obj) ||
		    (p && (!strcmp(c->object, p->id) || !strcmp(c->object, p->device))))
			return true;
		if (c->sub == sub && (strstr(c->evidence, obj) || strstr(c->evidence, text)))
			return true;
	}
	return false;
}

/* The remote processor an rpmsg channel ("virtio0.rpmsg_chrdev.-1.14") or a virtio device
 * with channels ("virtio0") is below, NULL when none. */
static const char *rproc_of_rpmsg(const struct doctor_board *b, const char *obj)
{
	size_t n = strlen(obj);

	for (size_t i = 0; i < b->rpmsg.nchannels; i++) {
		const struct sb_rpmsg_channel *ch = &b->rpmsg.channels[i];

		if (ch->remoteproc[0] && !strncmp(ch->dev, obj, n) &&
		    (ch->dev[n] == '.' || !ch->dev[n]))
			return ch->remoteproc;
	}
	return NULL;
}

/* A later record of the same object (or its remote processor, also the one an rpmsg
 * channel is below: a restart answers a channel's tx timeout) that says it is up again:
 * "remote processor %s is now up" (drivers/remoteproc/remoteproc_core.c, rproc_start()).
 * up[k] is one past the index of the last such record of b->procs[k], 0 when none (found
 * in one pass: a scan after each record would be quadratic in the log). */
static bool answered(const struct doctor_board *b, const size_t *up, size_t at, const char *obj)
{
	const struct sb_rproc *p = rproc_of(b, obj);
	const char *rp;

	if (!p && (rp = rproc_of_rpmsg(b, obj)))
		p = rproc_of(b, rp);
	return p && up && up[p - b->procs] > at + 1;
}

static size_t *last_up(const struct doctor_board *b)
{
	size_t *up;

	if (!b->nprocs)
		return NULL;
	up = calloc(b->nprocs, sizeof(*up));
	if (!up)
		abort();
	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text;
		const struct sb_rproc *p;
		char dev[96];

		if (strstr(text, " is now up") && doctor_log_dev(text, dev, sizeof(dev)) &&
		    (p = rproc_of(b, dev)))
			up[p - b->procs] = i + 1;
	}
	return up;
}

struct unexplained {
	size_t first, count; /* the first object's records */
	size_t others;	     /* records of the subsystem's other objects */
	char obj[96];
	char via[128]; /* a device that serves obj printed some: "mailbox 30aa0000.mailbox" */
};

static int by_first(const void *x, const void *y, void *arg)
{
	const uint64_t *first = arg;
	size_t a = *(const size_t *)x, b = *(const size_t *)y;

	return first[a] < first[b] ? -1 : first[a] > first[b];
}

/* The records of obj at err or worse into buf (at *len), as the log had them: b->log keeps
 * each distinct record once with its count, so they are quoted in rounds in the order they
 * came first, each while its count lasts (A B A B for a log that said A B A B). */
static void quote_records(const struct doctor_board *b, int sub, const char *obj, char *buf,
			  size_t size, size_t *len)
{
	size_t *v = NULL, *left = NULL, n = 0;
	bool more = true, quoted = false;
	char o[96], via[128];

	for (size_t i = 0; i < b->log.n; i++) {
		const struct sb_kmsg_line *l = &b->log.lines[i];

		if (l->prio < 0 || l->prio > 3 ||
		    attribute(b, l, o, sizeof(o), via, sizeof(via)) != sub || strcmp(o, obj))
			continue;
		if (!(n % 16)) {
			size_t *nv = reallocarray(v, n + 16, sizeof(*v));
			size_t *nl = nv ? reallocarray(left, n + 16, sizeof(*left)) : NULL;

			if (!nv || !nl)
				abort(); /* doctor's lists follow the output layer's OOM rule */
			v = nv;
			left = nl;
		}
		v[n++] = i;
	}
	if (n)
		qsort_r(v, n, sizeof(*v), by_first, b->log_first);
	for (size_t k = 0; k < n; k++)
		left[k] = b->log_count[v[k]];
	while (more && *len < size) {
		more = false;
		for (size_t k = 0; k < n && *len < size; k++)
			if (left[k]) {
				left[k]--;
				more = true;
				*len += (size_t)snprintf(buf + *len, size - *len, " %s%s",
							 quoted ? "| " : "",
							 b->log.lines[v[k]].text);
				quoted = true;
			}
	}
	free(v);
	free(left);
}

static void name_cause(struct doctor_board *b, int sub, const struct unexplained *u)
{
	const char *text = b->log.lines[u->first].text;
	char dev[96];
	const char *msg = doctor_log_dev(text, dev, sizeof(dev));
	const char *rp = rproc_of_rpmsg(b, u->obj);
	const char *source = NULL, *fix = NULL;
	struct sb_cause *c = doctor_cause(b, "log.errors", sub, u->obj);
	size_t len;

	if (!c)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(known); i++)
		if (strstr(text, known[i].text)) {
			source = known[i].source;
			fix = known[i].fix;
		}
	snprintf(c->via, sizeof(c->via), "%s", u->via);
	cause_diag(c, "%s%s%s%s%s%s%s: %zu kernel error%s no other cause explains%s, first \"%s\"",
		   u->obj, rp ? " (rpmsg, of " : "", rp ? rp : "", rp ? ")" : "",
		   u->via[0] ? " (via " : "", u->via, u->via[0] ? ")" : "", u->count,
		   u->count == 1 ? "" : "s", u->others ? " (and more of other objects)" : "",
		   msg ? msg : text);
	len = (size_t)snprintf(c->evidence, sizeof(c->evidence), "kernel log:");
	quote_records(b, sub, u->obj, c->evidence, sizeof(c->evidence), &len);
	if (source && len < sizeof(c->evidence))
		snprintf(c->evidence + len, sizeof(c->evidence) - len, " (%s)", source);
	if (fix) {
		cause_fix(c, "%s", fix);
	} else {
		cause_fix(c,
			  "read the records of %s with " SB_FIX_RUN0 "%s%s: they are printed by "
			  "its driver, and no cause of doctor's catalogue matches them",
			  u->obj, source ? "; " : "", source ? source : "");
		sb_cause_run(c, "dmesg | grep '%s'", u->obj);
	}
}

/* The subsystem of a record no other cause explains (and its object into obj), -1 for a
 * record that raises nothing. */
static int unexplained_of(const struct doctor_board *b, const size_t *up, size_t i, char *obj,
			  size_t len, char *via, size_t vlen)
{
	const struct sb_kmsg_line *l = &b->log.lines[i];
	int sub;

	if (l->prio < 0 || l->prio > 3 || harmless_of(l->text) >= 0)
		return -1;
	sub = attribute(b, l, obj, len, via, vlen);
	if (sub < 0 || explained(b, sub, obj, l->text) || answered(b, up, i, obj))
		return -1;
	return sub;
}

void doctor_causes_log(struct doctor_board *b)
{
	struct unexplained u[SB_DOCTOR_NSUBS];
	size_t *up = last_up(b);
	bool seen[SB_DOCTOR_NSUBS] = { false };
	char obj[96], via[128];
	int sub;

	memset(u, 0, sizeof(u));
	/* per subsystem the object of the record that came first (b->log is in the order
	 * records came last, b->log_first says where each came first) */
	for (size_t i = 0; i < b->log.n; i++)
		if ((sub = unexplained_of(b, up, i, obj, sizeof(obj), via, sizeof(via))) >= 0 &&
		    (!seen[sub] || b->log_first[i] < b->log_first[u[sub].first])) {
			seen[sub] = true;
			u[sub].first = i;
			snprintf(u[sub].obj, sizeof(u[sub].obj), "%s", obj);
		}
	for (size_t i = 0; i < b->log.n; i++)
		if ((sub = unexplained_of(b, up, i, obj, sizeof(obj), via, sizeof(via))) >= 0) {
			if (!strcmp(u[sub].obj, obj)) {
				u[sub].count += b->log_count[i];
				if (via[0] && !u[sub].via[0])
					snprintf(u[sub].via, sizeof(u[sub].via), "%s", via);
			} else
				u[sub].others += b->log_count[i];
		}
	free(up);
	for (int s = 0; s < SB_DOCTOR_NSUBS; s++)
		if (u[s].count)
			name_cause(b, s, &u[s]);
}
