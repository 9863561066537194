// SPDX-License-Identifier: GPL-2.0-or-later
/* The event timeline: kernel log lines of remoteproc, rpmsg, page pools and CMA recognised
 * by their format strings (Linux 7.2, named below; older spellings where they differ), IOMMU
 * records from lib/iommu, detached page pools from the netdev state, rpmsg uevents. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/events.h"
#include "socbox/iommu_sid.h"
#include "socbox/macro.h"
#include "socbox/rproc.h"
#include "socbox/scan.h"

static const char *const subsys_names[SB_EV_NSUBSYS] = {
	[SB_EV_IOMMU] = "iommu",   [SB_EV_REMOTEPROC] = "remoteproc", [SB_EV_RPMSG] = "rpmsg",
	[SB_EV_NETDEV] = "netdev", [SB_EV_DMABUF] = "dmabuf",	      [SB_EV_LOG] = "log",
};

const char *sb_ev_subsys_name(enum sb_ev_subsys s)
{
	return (unsigned)s < SB_EV_NSUBSYS ? subsys_names[s] : "?";
}

int sb_ev_subsys_mask(const char *list, unsigned *mask, char *bad, size_t len)
{
	const char *p = list;

	*mask = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		unsigned i;

		for (i = 0; i < SB_EV_NSUBSYS; i++)
			if (strlen(subsys_names[i]) == n && !strncmp(p, subsys_names[i], n))
				break;
		if (i == SB_EV_NSUBSYS) {
			snprintf(bad, len, "%.*s", (int)n, p);
			return -EINVAL;
		}
		*mask |= 1u << i;
		p += n;
		if (*p == ',')
			p++;
	}
	if (!*mask) {
		snprintf(bad, len, "%s", list);
		return -EINVAL;
	}
	return 0;
}

static void set(struct sb_event *ev, const struct sb_kmsg_line *l, enum sb_ev_subsys s,
		const char *kind, const char *object)
{
	memset(ev, 0, sizeof(*ev));
	ev->ts_us = l ? l->ts_us : 0;
	ev->has_ts = l && l->has_ts;
	ev->subsys = s;
	ev->source = "kmsg";
	snprintf(ev->kind, sizeof(ev->kind), "%s", kind);
	snprintf(ev->object, sizeof(ev->object), "%s", object);
}

/* rest starts with prefix: the text after it, else NULL. */
static const char *after(const char *rest, const char *prefix)
{
	size_t n = strlen(prefix);

	return strncmp(rest, prefix, n) ? NULL : rest + n;
}

/* drivers/remoteproc/remoteproc_core.c: every message is dev_*(&rproc->dev, ...), so the
 * prefix is "remoteproc remoteprocN: ". */
static bool parse_rproc(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	static const struct {
		const char *prefix, *kind;
	} simple[] = {
		{ "powering up ", "power-up" },		      /* rproc_boot */
		{ "attaching to ", "attaching" },	      /* rproc_boot */
		{ "stopped remote processor ", "stopped" },   /* rproc_shutdown */
		{ "detached remote processor ", "detached" }, /* rproc_detach */
		{ "recovering ", "recovery" },		      /* rproc_trigger_recovery */
	};
	char dev[64];
	const char *rest = sb_kmsg_dev_msg(l->text, "remoteproc", dev, sizeof(dev)), *p;
	unsigned crash;

	if (!rest)
		return false;
	for (size_t i = 0; i < ARRAY_SIZE(simple); i++)
		if ((p = after(rest, simple[i].prefix))) {
			set(ev, l, SB_EV_REMOTEPROC, simple[i].kind, dev);
			snprintf(ev->detail, sizeof(ev->detail), "%s", p);
			return true;
		}
	if ((p = after(rest, "remote processor "))) { /* rproc_start, rproc_attach */
		const char *up = strstr(p, " is now up"), *att = strstr(p, " is now attached");

		if (!up && !att)
			return false;
		set(ev, l, SB_EV_REMOTEPROC, up ? "up" : "attached", dev);
		snprintf(ev->detail, sizeof(ev->detail), "%.*s", (int)((up ? up : att) - p), p);
		return true;
	}
	if ((p = after(rest, "crash detected in "))) { /* rproc_report_crash: "NAME: type TYPE" */
		const char *type = strstr(p, ": type ");

		set(ev, l, SB_EV_REMOTEPROC, "crash", dev);
		if (type)
			snprintf(ev->detail, sizeof(ev->detail), "%.*s, type %s", (int)(type - p),
				 p, type + 7);
		else
			snprintf(ev->detail, sizeof(ev->detail), "%s", p);
		return true;
	}
	if (sb_rproc_crash_msg(rest, &crash, &p)) { /* rproc_crash_handler_work */
		set(ev, l, SB_EV_REMOTEPROC, "crash-handled", dev);
		snprintf(ev->detail, sizeof(ev->detail), "%s, crash #%u", p, crash);
		return true;
	}
	if ((p = after(rest, "Booting fw image "))) { /* rproc_fw_boot: "NAME, size N" */
		set(ev, l, SB_EV_REMOTEPROC, "booting", dev);
		snprintf(ev->detail, sizeof(ev->detail), "firmware %s", p);
		return true;
	}
	if ((p = after(rest, "Direct firmware load for "))) { /* drivers/base/firmware_loader */
		set(ev, l, SB_EV_REMOTEPROC, "firmware-missing", dev);
		snprintf(ev->detail, sizeof(ev->detail), "%s", p);
		return true;
	}
	return false;
}

/* drivers/remoteproc/ti_k3_common.c k3_rproc_mbox_callback(): dev_err(dev, "K3 rproc %s
 * crashed\n", rproc->name) on the platform device ("k3-m4-rproc 5000000.m4fss: K3 rproc
 * 5000000.m4fss crashed"). The driver reports no crash to the core, so no crash line of the
 * core follows and nothing recovers it: this line is the crash. The object is the
 * processor's name until sb_ev_name_rproc() finds its remoteprocN. */
static bool parse_k3_crash(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	static const char mid[] = ": K3 rproc ", tail[] = " crashed";
	const char *p = strstr(l->text, mid), *name;
	size_t len;

	if (!p)
		return false;
	name = p + strlen(mid);
	len = strlen(name);
	if (len <= strlen(tail) || strcmp(name + len - strlen(tail), tail))
		return false;
	len -= strlen(tail);
	set(ev, l, SB_EV_REMOTEPROC, "crash", "");
	snprintf(ev->object, sizeof(ev->object), "%.*s", (int)len, name);
	snprintf(ev->detail, sizeof(ev->detail),
		 "%.*s: not reported to the remoteproc core (no recovery)", (int)len, name);
	return true;
}

void sb_ev_name_rproc(const struct sb_root *r, struct sb_event *ev)
{
	struct sb_dirlist d;
	char name[sizeof(ev->object)];

	if (ev->subsys != SB_EV_REMOTEPROC || !strncmp(ev->object, "remoteproc", 10) ||
	    sb_dir_list(r, &d, "/sys/class/remoteproc"))
		return;
	for (size_t i = 0; i < d.n; i++)
		if (sb_attr_str(r, name, sizeof(name), "/sys/class/remoteproc/%s/name",
				d.names[i]) >= 0 &&
		    !strcmp(name, ev->object)) {
			snprintf(ev->object, sizeof(ev->object), "%s", d.names[i]);
			break;
		}
	sb_dirlist_free(&d);
}

/* drivers/rpmsg/rpmsg_ns.c and mtk_rpmsg.c: "%sing channel %s addr 0x%x" (creat/destroy);
 * virtio_rpmsg_bus.c: "rpmsg host is online". */
static bool parse_rpmsg(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	const char *t = l->text, *sp = strchr(t, ' '), *rest, *p;
	char dev[96];

	if (!sp)
		return false;
	{
		char driver[32];

		snprintf(driver, sizeof(driver), "%.*s", (int)(sp - t), t);
		rest = sb_kmsg_dev_msg(t, driver, dev, sizeof(dev));
	}
	if (!rest)
		return false;
	if ((p = after(rest, "creating channel ")) || (p = after(rest, "destroying channel "))) {
		const char *addr = strstr(p, " addr ");
		bool add = rest[0] == 'c';

		set(ev, l, SB_EV_RPMSG, add ? "channel-add" : "channel-remove", "");
		snprintf(ev->object, sizeof(ev->object), "%.*s",
			 addr ? (int)(addr - p) : (int)strlen(p), p);
		snprintf(ev->detail, sizeof(ev->detail), "%s%s(announced on %s)",
			 addr ? addr + 1 : "", addr ? " " : "", dev);
		return true;
	}
	if (!strcmp(rest, "rpmsg host is online")) {
		set(ev, l, SB_EV_RPMSG, "online", dev);
		snprintf(ev->detail, sizeof(ev->detail), "rpmsg host is online");
		return true;
	}
	return false;
}

/* net/core/page_pool.c page_pool_release_retry(): "%s() stalled pool shutdown: id %u, %d
 * inflight %d sec" (6.8+), "%s() stalled pool shutdown %d inflight %d sec" before. */
static bool parse_pool(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	const char *p = strstr(l->text, "stalled pool shutdown");
	unsigned id;
	int inflight, sec;

	if (!p || !strstr(l->text, "page_pool_release_retry"))
		return false;
	p += strlen("stalled pool shutdown");
	if (sb_sscanf(p, ": id %u, %d inflight %d sec", &id, &inflight, &sec) == 3) {
		set(ev, l, SB_EV_NETDEV, "pool-stalled", "");
		snprintf(ev->object, sizeof(ev->object), "pool %u", id);
	} else if (sb_sscanf(p, " %d inflight %d sec", &inflight, &sec) == 2) {
		set(ev, l, SB_EV_NETDEV, "pool-stalled", "pool ?");
	} else {
		return false;
	}
	snprintf(ev->detail, sizeof(ev->detail), "%d pages in flight %d s after its netdev went",
		 inflight, sec);
	return true;
}

/* mm/cma.c: "%s: %s: alloc failed, req-size: %lu pages, ret: %d" (function, area: 7.2
 * names the function __cma_alloc_frozen, 6.x cma_alloc; 5.x "cma: cma_alloc: alloc failed,
 * ..." without the area). The CMA dma-buf heap allocates there. */
static bool parse_cma(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	const char *t = l->text, *p = strstr(t, "alloc failed, req-size: ");
	const char *area = NULL;
	char pre[160];

	if (!p || p - t < 2 || strncmp(p - 2, ": ", 2))
		return false;
	snprintf(pre, sizeof(pre), "%.*s", (int)(p - 2 - t), t);
	if (!strstr(pre, "cma_alloc"))
		return false;
	for (const char *q = strstr(pre, ": "); q; q = strstr(q + 2, ": "))
		area = q + 2;
	set(ev, l, SB_EV_DMABUF, "alloc-failed", area && !strstr(area, "cma_alloc") ? area : "cma");
	snprintf(ev->detail, sizeof(ev->detail), "CMA %s", p + strlen("alloc failed, "));
	return true;
}

bool sb_ev_parse_kmsg(const struct sb_kmsg_line *l, struct sb_event *ev)
{
	if (!l->text || !*l->text)
		return false;
	return parse_rproc(l, ev) || parse_k3_crash(l, ev) || parse_pool(l, ev) ||
	       parse_cma(l, ev) || parse_rpmsg(l, ev);
}

void sb_ev_from_iommu(const struct sb_iommu_event *ie, struct sb_event *ev)
{
	int n;

	memset(ev, 0, sizeof(*ev));
	ev->ts_us = ie->ts_us;
	ev->has_ts = ie->has_ts;
	ev->subsys = SB_EV_IOMMU;
	ev->source = "kmsg";
	/* the class decides the kind: a master's fault, the SMMU's own error, or records its
	 * event queue lost (the timeline's "lost", as the kernel log's overflow) */
	switch (sb_iommu_event_class(ie)) {
	case SB_IOMMU_RECORDS_LOST:
		snprintf(ev->kind, sizeof(ev->kind), "lost");
		break;
	case SB_IOMMU_SMMU_ERROR:
		snprintf(ev->kind, sizeof(ev->kind), "error");
		break;
	default:
		snprintf(ev->kind, sizeof(ev->kind), "fault");
	}
	ev->iommu_class = sb_iommu_class_name(sb_iommu_event_class(ie));
	/* none (an event-queue overflow concerns no device): empty, so JSON says null and
	 * text "-" */
	snprintf(ev->object, sizeof(ev->object), "%s", sb_iommu_event_device(ie) ? ie->device : "");
	n = snprintf(ev->detail, sizeof(ev->detail), "%s", ie->kind);
	if (ie->has_addr && n >= 0 && (size_t)n < sizeof(ev->detail))
		n += snprintf(ev->detail + n, sizeof(ev->detail) - (size_t)n, " addr 0x%" PRIx64,
			      ie->addr);
	if (ie->reason[0] && n >= 0 && (size_t)n < sizeof(ev->detail))
		n += snprintf(ev->detail + n, sizeof(ev->detail) - (size_t)n, ": %s", ie->reason);
	snprintf(ev->instance, sizeof(ev->instance), "%s", ie->instance);
	if (n < 0 || (size_t)n >= sizeof(ev->detail))
		return;
	if (ie->instance[0] && ie->instance_dev[0])
		snprintf(ev->detail + n, sizeof(ev->detail) - (size_t)n, " (%s, %s)", ie->instance,
			 ie->instance_dev);
	else if (ie->instance[0] || ie->source[0])
		snprintf(ev->detail + n, sizeof(ev->detail) - (size_t)n, " (%s)",
			 ie->instance[0] ? ie->instance : ie->source);
}

bool sb_ev_from_pool(const struct sb_nd_pool *p, const char *ifname, struct sb_event *ev)
{
	if (!(p->has & SB_ND_POOL_DETACHED) || !(p->has & SB_ND_POOL_INFLIGHT) || !p->inflight)
		return false;
	memset(ev, 0, sizeof(*ev));
	ev->ts_us = p->detach_time * 1000000u;
	ev->has_ts = true;
	ev->subsys = SB_EV_NETDEV;
	ev->source = "netdev";
	snprintf(ev->kind, sizeof(ev->kind), "pool-not-drained");
	snprintf(ev->object, sizeof(ev->object), "pool %" PRIu64, p->id);
	snprintf(ev->detail, sizeof(ev->detail),
		 "detached from %s with %" PRIu64 " pages (%" PRIu64 " bytes) still in flight",
		 ifname && *ifname ? ifname : "its netdev", p->inflight,
		 p->has & SB_ND_POOL_INFLIGHT_MEM ? p->inflight_mem : 0);
	return true;
}

bool sb_ev_from_uevent(const char *action, const char *devpath, const char *devname,
		       uint64_t now_us, struct sb_event *ev)
{
	const char *base = strrchr(devpath, '/');
	const char *what;

	base = base ? base + 1 : devpath;
	if (strcmp(action, "add") && strcmp(action, "remove"))
		return false;
	if (devname && *devname)
		what = !strncmp(devname, "rpmsg_ctrl", 10) ? "ctrl" : "endpoint";
	else
		what = "channel";
	memset(ev, 0, sizeof(*ev));
	ev->ts_us = now_us;
	ev->has_ts = true;
	ev->subsys = SB_EV_RPMSG;
	ev->source = "uevent";
	snprintf(ev->kind, sizeof(ev->kind), "%s-%s", what, action);
	snprintf(ev->object, sizeof(ev->object), "%s", base);
	if (devname && *devname)
		snprintf(ev->detail, sizeof(ev->detail), "/dev/%s", devname);
	return true;
}

int sb_ev_add(struct sb_ev_list *l, const struct sb_event *ev)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct sb_event *v = realloc(l->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		l->v = v;
		l->cap = cap;
	}
	l->v[l->n] = *ev;
	l->v[l->n].seq = l->n ? l->v[l->n - 1].seq + 1 : 0;
	l->v[l->n].key_us = ev->ts_us;
	/* IOMMU records come out of lib/iommu's assembler when they are whole, which may be
	 * lines later: their own time places them */
	if (ev->source && !strcmp(ev->source, "kmsg") && ev->subsys != SB_EV_IOMMU) {
		if (!ev->has_ts || ev->ts_us < l->last_kmsg_key)
			l->v[l->n].key_us = l->last_kmsg_key;
		l->last_kmsg_key = l->v[l->n].key_us;
	}
	l->n++;
	return 0;
}

static int by_time(const void *a, const void *b)
{
	const struct sb_event *x = a, *y = b;

	if (x->key_us != y->key_us)
		return x->key_us < y->key_us ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

void sb_ev_sort(struct sb_ev_list *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof(*l->v), by_time);
}

void sb_ev_list_free(struct sb_ev_list *l)
{
	free(l->v);
	memset(l, 0, sizeof(*l));
}
