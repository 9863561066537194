// SPDX-License-Identifier: GPL-2.0-or-later
/* Why DMA is not translated or faults: an IOMMU the firmware describes that did not
 * register, DMA masters outside every group, faults and lost fault records, passthrough,
 * ATS turned off. What the firmware describes decides between missing and absent. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/cmdline.h"
#include "socbox/iommu.h"
#include "socbox/iommu_events.h"
#include "socbox/iommu_sid.h"

/* Whether the firmware describes an IOMMU: a device-tree node of one (a platform device
 * with that role) or an ACPI table of one. */
bool doctor_iommu_described(const struct doctor_board *b, const char **what)
{
	for (size_t i = 0; i < b->npdevs; i++)
		if (b->pdevs[i].role && b->pdevs[i].role->sub == SB_DOCTOR_IOMMU) {
			*what = b->pdevs[i].name;
			return true;
		}
	*what = b->plat.acpi_iort ? "ACPI IORT" : b->plat.acpi_dmar ? "ACPI DMAR" : "ACPI IVRS";
	return b->plat.acpi_iort || b->plat.acpi_dmar || b->plat.acpi_ivrs;
}

static void missing(struct doctor_board *b)
{
	const char *what;
	struct sb_cause *c;

	if (sb_is_dir(b->root, "/sys/class/iommu") &&
	    b->rep->subs[SB_DOCTOR_IOMMU].status != SB_HEALTH_MISSING)
		return;
	if (!doctor_iommu_described(b, &what))
		return;
	/* a device of its own already says why (deferred, failed, no driver) */
	for (size_t i = 0; i < b->rep->ncauses; i++)
		if (b->rep->causes[i].sub == SB_DOCTOR_IOMMU)
			return;
	c = doctor_cause(b, "iommu.missing", SB_DOCTOR_IOMMU, what);
	if (!c)
		return;
	cause_diag(c, "%s describes an IOMMU but no IOMMU registered", what);
	cause_evidence(c, "%s; /sys/class/iommu: empty", what);
	if (b->plat.acpi_dmar)
		cause_fix(c, "build CONFIG_INTEL_IOMMU and boot with intel_iommu=on");
	else if (b->plat.acpi_ivrs)
		cause_fix(c, "build CONFIG_AMD_IOMMU; check amd_iommu= on the command line");
	else
		cause_fix(c, "build CONFIG_ARM_SMMU_V3 (SMMUv3) or CONFIG_ARM_SMMU (MMU-500), and "
			     "check its probe in the kernel log");
}

static void unmapped_masters(struct doctor_board *b)
{
	for (size_t i = 0; i < b->npdevs; i++) {
		const struct doctor_pdev *p = &b->pdevs[i];
		struct sb_cause *c;

		/* an unbound device gets its group when it probes: its probe says more */
		if (!p->iommus || p->grouped || !p->bound)
			continue;
		c = doctor_cause(b, "iommu.unmapped-master", SB_DOCTOR_IOMMU, p->name);
		if (!c)
			continue;
		cause_diag(c,
			   "%s has an iommus property but is in no IOMMU group: its DMA is not "
			   "translated",
			   p->name);
		cause_evidence(c,
			       "/sys/bus/platform/devices/%s/of_node/iommus present, "
			       "iommu_group absent",
			       p->name);
	}
}

static void overflow(struct doctor_board *b)
{
	struct sb_sid_namer *names = NULL;

	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text;
		struct sb_iommu_event inst = { 0 };
		const char *dev;
		struct sb_cause *c;

		if (!strstr(text, "EVTQ overflow detected") &&
		    !strstr(text, "PRIQ overflow detected"))
			continue;
		/* the SMMU by its one name (smmustat's, socbox events'); the evidence keeps the
		 * log's device name */
		if (!doctor_log_dev(text, inst.source, sizeof(inst.source)))
			snprintf(inst.source, sizeof(inst.source), "smmu");
		if (names || sb_sid_namer_open(b->root, &names) == 0)
			sb_sid_namer_name(names, &inst);
		dev = inst.instance[0] ? inst.instance : inst.source;
		c = doctor_cause(b, "iommu.evtq-overflow", SB_DOCTOR_IOMMU, dev);
		if (!c)
			continue;
		cause_diag(c, "%s: its %s queue overflowed: fault records were lost", dev,
			   strstr(text, "PRIQ") ? "PRI" : "event");
		cause_evidence(c, "kernel log: %s", text);
	}
	sb_sid_namer_close(names);
}

static void frame(struct doctor_board *b, struct sb_cause *c, const struct sb_iommu_event *ev,
		  size_t count)
{
	const char *inst = ev->instance[0] ? ev->instance : ev->source;
	const char *s = count == 1 ? "" : "s";
	char at[32] = "";

	if (ev->has_addr)
		snprintf(at, sizeof(at), " at 0x%llx", (unsigned long long)ev->addr);
	switch (sb_iommu_event_class(ev)) {
	case SB_IOMMU_SMMU_ERROR:
		cause_diag(c,
			   "%s: the SMMU itself failed: %zu %s event%s since boot, not a "
			   "master's DMA",
			   ev->device, count, ev->kind, s);
		cause_evidence(c, "kernel log of %s: %s%s%s", ev->source, ev->kind,
			       ev->reason[0] ? ": " : "", ev->reason);
		cause_fix(c,
			  "the SMMU stopped consuming its command queue or reported a global "
			  "error: check its firmware description (%s), its power domain and "
			  "clocks, and the SMMU's errata; the masters behind it cannot be trusted "
			  "until it works",
			  b->plat.acpi_iort ? "the IORT SMMUv3 node" : "its device-tree node");
		return;
	case SB_IOMMU_STREAM_CONFIG:
		cause_diag(c,
			   "%s: %zu %s event%s in %s: the SMMU has no valid stream table "
			   "entry for it%s",
			   ev->device, count, ev->kind, s, inst,
			   ev->has_sid ? "" : " (no stream ID in the record)");
		cause_evidence(c, "kernel log of %s: %s by %s%s%s (smmustat events)", ev->source,
			       ev->kind, ev->device, ev->reason[0] ? ": " : "", ev->reason);
		if (ev->named_by_firmware || ev->client_known)
			cause_fix(c,
				  "the firmware gives stream ID 0x%x to %s but no driver attached it "
				  "to the SMMU: check that %s probed and is in an IOMMU group",
				  ev->sid, ev->device, ev->device);
		else
			cause_fix(c,
				  "no device the firmware describes has stream ID 0x%x: add it to the "
				  "%s of the master that sends it (the firmware's stream-ID "
				  "description), or stop that master",
				  ev->sid,
				  b->plat.acpi_iort ? "IORT ID mappings"
						    : "iommus or iommu-map property");
		return;
	case SB_IOMMU_INTR_REMAP:
		cause_diag(c,
			   "%s: %zu interrupt-remapping fault%s in %s: the IOMMU blocked its "
			   "interrupt requests",
			   ev->device, count, s, inst);
		cause_evidence(c, "kernel log of %s: %s fault by %s: %s (smmustat events)",
			       ev->source, ev->kind, ev->device, ev->reason);
		cause_fix(c,
			  "an interrupt of %s has no valid entry in the interrupt remapping table "
			  "(the fault reason says which check failed): check its driver's MSI "
			  "setup and the DMAR table's device scope for it (BIOS); intremap=off "
			  "only to confirm",
			  ev->device);
		return;
	case SB_IOMMU_DMA_FAULT:
	case SB_IOMMU_RECORDS_LOST: /* not framed: faults() leaves them to overflow() */
		break;
	}
	/* the diagnosis names the instance by its one name (as smmustat and socbox events
	 * do) and stays short for the console; the evidence has the kernel log's device name
	 * and the decoded reason */
	cause_diag(c, "%s: %zu DMA fault%s in %s since boot (%s)", ev->device, count, s, inst,
		   ev->kind);
	cause_evidence(c, "kernel log of %s: %s fault%s by %s%s%s (smmustat events)", ev->source,
		       ev->kind, at, ev->device, ev->reason[0] ? ": " : "", ev->reason);
	cause_fix(c, SB_FIX_RUN0 " shows each fault; check %s's driver's DMA mapping", ev->device);
	sb_cause_run(c, "smmustat events");
}

/* An event's group: its device and class; first and count once grouped. */
struct ev_key {
	const char *device;
	enum sb_iommu_class cls;
	size_t first, count;
};

static int ev_key_cmp(const void *a, const void *b)
{
	const struct ev_key *x = a, *y = b;
	int d = strcmp(x->device, y->device);

	if (d)
		return d;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

static int ev_key_first_cmp(const void *a, const void *b)
{
	const struct ev_key *x = a, *y = b;

	return x->first < y->first ? -1 : x->first > y->first;
}

static void faults(struct doctor_board *b)
{
	struct sb_iommu_event *ev = NULL;
	struct sb_sid_namer *names = NULL;
	struct ev_key *keys = NULL;
	size_t n = 0, ngroups = 0;

	/* the log's events come grouped by IOMMU, client, stream ID and kind (doctor_log.c):
	 * one of each group, its count beside it */
	if (!(n = b->nevgroups))
		goto out;
	ev = calloc(n, sizeof(*ev));
	if (!ev)
		abort();
	for (size_t i = 0; i < n; i++)
		ev[i] = b->evgroups[i].ev;
	if (sb_sid_namer_open(b->root, &names) == 0)
		for (size_t i = 0; i < n; i++)
			sb_sid_namer_name(names, &ev[i]);
	/* the SMMU's own errors are the instance's; a client nobody named is its stream ID */
	for (size_t i = 0; i < n; i++)
		if (sb_iommu_event_class(&ev[i]) == SB_IOMMU_SMMU_ERROR)
			snprintf(ev[i].device, sizeof(ev[i].device), "%s",
				 ev[i].instance[0] ? ev[i].instance : ev[i].source);
		else if (!sb_iommu_event_device(&ev[i]) && ev[i].has_sid)
			snprintf(ev[i].device, sizeof(ev[i].device), "sid 0x%x", ev[i].sid);
		else if (!sb_iommu_event_device(&ev[i]))
			snprintf(ev[i].device, sizeof(ev[i].device), "unknown client of %.64s",
				 ev[i].source);
	/* the events by device and class, sorted once (a count per event over all of them
	 * would be quadratic in the log); each group named in the order it first appears */
	keys = calloc(n, sizeof(*keys));
	if (!keys)
		abort();
	for (size_t i = 0; i < n; i++)
		keys[i] = (struct ev_key){ ev[i].device, sb_iommu_event_class(&ev[i]), i,
					   b->evgroups[i].count };
	qsort(keys, n, sizeof(*keys), ev_key_cmp);
	for (size_t i = 0, run = 0; i < n; i = run) {
		size_t count = 0;

		for (run = i; run < n && keys[run].cls == keys[i].cls &&
			      !strcmp(keys[run].device, keys[i].device);
		     run++)
			count += keys[run].count;
		keys[ngroups].first = keys[i].first; /* the run's earliest, by the sort */
		keys[ngroups++].count = count;
	}
	qsort(keys, ngroups, sizeof(*keys), ev_key_first_cmp);
	for (size_t g = 0; g < ngroups; g++) {
		struct sb_cause *c;
		size_t i = keys[g].first;

		/* lost records are iommu.evtq-overflow's (overflow()), not a client's fault */
		if (sb_iommu_event_class(&ev[i]) == SB_IOMMU_RECORDS_LOST ||
		    !(c = doctor_cause(b, "iommu.faults", SB_DOCTOR_IOMMU, ev[i].device)))
			continue;
		frame(b, c, &ev[i], keys[g].count);
	}
out:
	free(keys);
	sb_sid_namer_close(names);
	free(ev);
}

static void policy(struct doctor_board *b)
{
	struct sb_iommu_group *g = NULL;
	size_t ng = 0, identity = 0, fellback = 0;
	char val[32], object[64] = "";
	struct sb_cause *c;

	if (b->cmdline && sb_cmdline_param(b->cmdline, "iommu.passthrough", val, sizeof(val)) &&
	    (!strcmp(val, "1") || !strcmp(val, "y") || !strcmp(val, "on")))
		snprintf(object, sizeof(object), "iommu.passthrough=%s", val);
	else if (b->cmdline && sb_cmdline_param(b->cmdline, "iommu", val, sizeof(val)) &&
		 sb_cmdline_has_option(val, "pt"))
		snprintf(object, sizeof(object), "iommu=%s", val);
	/* "Failed to allocate default IOMMU domain of type %u for group %s - Falling back to
	 * IOMMU_DOMAIN_DMA" (drivers/iommu/iommu.c, iommu_group_alloc_default_domain(),
	 * pr_warn with pr_fmt "iommu: "): the last one, as its index + 1 */
	for (size_t i = 0; i < b->log.n; i++)
		if (!strncmp(b->log.lines[i].text, "iommu: Failed to allocate default IOMMU domain",
			     46) &&
		    strstr(b->log.lines[i].text, "Falling back to IOMMU_DOMAIN_DMA"))
			fellback = i + 1;
	if (b->iommu_groups_read) { /* the summary's walk of the groups, not another */
		ng = b->iommu_groups;
		identity = b->iommu_identity;
	} else {
		if (sb_iommu_groups_brief(b->root, &g, &ng, NULL))
			ng = 0;
		for (size_t i = 0; i < ng; i++)
			identity += !strcmp(g[i].type, "identity");
		sb_iommu_groups_free(g, ng);
	}
	if (object[0] && !identity && fellback &&
	    (c = doctor_cause(b, "iommu.passthrough", SB_DOCTOR_IOMMU, object))) {
		/* asked for and not given: the IOMMU driver refused identity domains */
		cause_diag(c,
			   "%s asked for passthrough, but the kernel fell back to DMA domains: "
			   "%zu of %zu groups translate",
			   object, ng, ng);
		cause_evidence(c,
			       "/proc/cmdline: %s; /sys/kernel/iommu_groups/N/type: no identity; "
			       "kernel log: %s",
			       object, b->log.lines[fellback - 1].text);
		cause_fix(c,
			  "DMA is translated, not bypassed: the IOMMU driver could not give these "
			  "groups an identity domain (drivers/iommu/iommu.c "
			  "iommu_group_alloc_default_domain() fell back); the devices work. For "
			  "passthrough, check the IOMMU driver's identity-domain support and "
			  "echo identity > /sys/kernel/iommu_groups/N/type (the error says why); "
			  "else drop %s as it has no effect",
			  object);
	} else if (object[0] &&
		   (c = doctor_cause(b, "iommu.passthrough", SB_DOCTOR_IOMMU, object))) {
		cause_diag(c, "%s on the command line: %zu of %zu groups bypass the IOMMU", object,
			   identity, ng);
		cause_evidence(c, "/proc/cmdline: %s", object);
		cause_fix(c,
			  "no isolation or translation for those devices; remove %s, or echo "
			  "DMA > /sys/kernel/iommu_groups/N/type",
			  object);
	} else if (identity &&
		   (c = doctor_cause(b, "iommu.passthrough", SB_DOCTOR_IOMMU, "identity groups"))) {
		cause_diag(c, "%zu of %zu IOMMU groups are identity (passthrough) domains",
			   identity, ng);
		cause_evidence(c, "/sys/kernel/iommu_groups/N/type: identity in %zu groups",
			       identity);
		cause_fix(c, "no isolation or translation for those devices: echo DMA > "
			     "/sys/kernel/iommu_groups/N/type (the command line asks for none)");
	}
	if (b->cmdline && sb_cmdline_param(b->cmdline, "pci", val, sizeof(val)) &&
	    sb_cmdline_has_option(val, "noats") &&
	    (c = doctor_cause(b, "iommu.ats-off", SB_DOCTOR_IOMMU, "pci=noats"))) {
		cause_diag(c, "pci=noats: no PCIe device uses ATS or PRI");
		cause_evidence(c, "/proc/cmdline: pci=%s", val);
	}
}

void doctor_causes_iommu(struct doctor_board *b)
{
	missing(b);
	overflow(b);
	faults(b);
	unmapped_masters(b);
	policy(b);
}
