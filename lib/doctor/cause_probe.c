// SPDX-License-Identifier: GPL-2.0-or-later
/* Devices that did not come up, in every subsystem: waiting in deferred probe, a probe that
 * failed, hardware the firmware describes without a driver. Each is tied to the subsystem
 * its device serves (doctor_role_of); devices of no subsystem socbox covers are left out. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"

static const struct doctor_role *role_of_device(
	const struct doctor_board *b, const char *dev, const char *driver)
{
	const struct doctor_pdev *p = doctor_pdev_find(b, dev);

	if (p && p->role)
		return p->role;
	if (doctor_role_of(NULL, dev))
		return doctor_role_of(NULL, dev);
	return driver && driver[0] ? doctor_role_of(NULL, driver) : NULL;
}

static void what_and_driver(const struct doctor_role *role, char *buf, size_t len)
{
	if (role->config)
		snprintf(buf, len, "%s, %s (%s)", role->what, role->config, role->module);
	else
		snprintf(buf, len, "%s", role->what);
}

/* "/bus@f0000/mailbox@29000000" -> the platform device "29000000.mailbox" */
static const struct doctor_pdev *supplier_pdev(const struct doctor_board *b, const char *path)
{
	const char *node = strrchr(path, '/');
	const char *at;
	char name[96];

	node = node ? node + 1 : path;
	at = strchr(node, '@');
	if (!at)
		return doctor_pdev_find(b, node);
	snprintf(name, sizeof(name), "%.*s.%.*s", (int)strcspn(at + 1, " \t"), at + 1,
		 (int)(at - node), node);
	return doctor_pdev_find(b, name);
}

/* The first device that serves dev (the object graph) and has no driver, with what it is
 * to dev ("mailbox 30aa0000.mailbox") into via; NULL when none. */
static const struct doctor_pdev *unbound_supplier(
	const struct doctor_board *b, const char *dev, char *via, size_t len)
{
	struct sb_devgraph_edge e[DOCTOR_REASON_SUPPLIERS];
	size_t n = doctor_suppliers(b, dev, e, DOCTOR_REASON_SUPPLIERS);

	for (size_t i = 0; i < n; i++) {
		const struct doctor_pdev *p = doctor_pdev_find(b, e[i].supplier);

		if (p && !p->bound) {
			snprintf(via, len, "%s %s", sb_devgraph_role(e[i].via), p->name);
			return p;
		}
	}
	return NULL;
}

static void deferred(struct doctor_board *b, const struct doctor_deferred *d)
{
	static const char sup_key[] = "wait for supplier ";
	const char *colon = strstr(d->reason, ": ");
	char driver[64] = "", what[160];
	const char *why = colon ? colon + 2 : d->reason, *sup;
	const struct doctor_role *role;
	const struct doctor_pdev *p, *driverless;
	struct sb_cause *c;
	char via[128];

	if (colon)
		snprintf(driver, sizeof(driver), "%.*s", (int)(colon - d->reason), d->reason);
	/* the log says what waited when the timeout ran: a device bound since came up */
	if (d->record && (p = doctor_pdev_find(b, d->dev)) && p->bound)
		return;
	role = role_of_device(b, d->dev, driver);
	if (!role || !(c = doctor_cause(b, "probe.deferred", role->sub, d->dev)))
		return;
	what_and_driver(role, what, sizeof(what));
	cause_diag(c, "%s (%s) waits in deferred probe: %s", d->dev, role->what,
		   why[0] ? why : "no reason given");
	if (d->record)
		cause_evidence(c, "kernel log: %s", d->record);
	else
		cause_evidence(c, "/sys/kernel/debug/devices_deferred: %s\t%s", d->dev, d->reason);
	/* no reason (6.1's log says none): a supplier of the object graph without a driver */
	if (!why[0] && (driverless = unbound_supplier(b, d->dev, via, sizeof(via)))) {
		doctor_cause_follows(c, NULL, driverless->name);
		cause_diag(c, "%s (%s) waits in deferred probe: its %s has no driver", d->dev,
			   role->what, via);
		if (driverless->role && driverless->role->config)
			cause_fix(c, "bring up its supplier %s (%s): %s, module %s",
				  driverless->name, driverless->role->what,
				  driverless->role->config, driverless->role->module);
		else
			cause_fix(c,
				  "bring up its supplier %s: its driver, or status = \"okay\" "
				  "in its device-tree node",
				  driverless->name);
		return;
	}
	sup = strstr(why, sup_key);
	if (sup) {
		const char *path = sup + sizeof(sup_key) - 1;
		const struct doctor_pdev *s = supplier_pdev(b, path);

		/* what is wrong with the supplier, if doctor names it, is the root */
		if (s)
			doctor_cause_follows(c, NULL, s->name);
		if (s && s->role && s->role->config && !s->bound)
			cause_fix(c, "bring up its supplier %s (%s): %s, module %s", s->name,
				  s->role->what, s->role->config, s->role->module);
		else
			cause_fix(c,
				  "bring up its supplier %s: its driver, or status = \"okay\" in "
				  "its device-tree node",
				  path);
	} else {
		cause_fix(c, "fix what %s's driver waits for (%s); its driver: %s", d->dev, why,
			  what);
	}
}

/* "DRIVER: probe of DEV failed with error N" (pr_warn) and, since 6.9, "DRIVER DEV: probe
 * with driver DRIVER failed with error N" (dev_err) */
static bool probe_failure(const char *text, char dev[96], char drv[64], int *err)
{
	const char *msg;

	if (sscanf(text, "%63[^: ]: probe of %95s failed with error %d", drv, dev, err) == 3)
		return true;
	msg = doctor_log_dev(text, dev, 96);
	return msg && sscanf(msg, "probe with driver %63s failed with error %d", drv, err) == 2;
}

static void probe_failures(struct doctor_board *b)
{
	for (size_t i = 0; i < b->log.n; i++) {
		char dev[96], drv[64], what[160];
		struct doctor_reason why;
		const struct doctor_role *role;
		struct sb_cause *c;
		int err;

		if (!strstr(b->log.lines[i].text, "failed with error") ||
		    !probe_failure(b->log.lines[i].text, dev, drv, &err))
			continue;
		role = role_of_device(b, dev, drv);
		if (!role || !(c = doctor_cause(b, "probe.failed", role->sub, dev)))
			continue;
		what_and_driver(role, what, sizeof(what));
		cause_diag(c, "%s (%s): driver %s failed to probe it (error %d, %s)", dev,
			   role->what, drv, err,
			   strerrorname_np(-err) ? strerrorname_np(-err) : "?");
		cause_evidence(c, "kernel log: %s", b->log.lines[i].text);
		cause_fix(c, "read what %s printed before that line with " SB_FIX_RUN0 "; %s", drv,
			  what);
		sb_cause_run(c, "dmesg | grep '%s'", dev);
		doctor_reason_find(b, 0, i, dev, NULL, &why);
		doctor_reason_apply(c, b, &why, dev);
	}
}

static bool is_deferred(const struct doctor_board *b, const char *dev)
{
	for (size_t i = 0; i < b->ndeferred; i++)
		if (!strcmp(b->deferred[i].dev, dev))
			return true;
	return false;
}

static void unbound(struct doctor_board *b)
{
	for (size_t i = 0; i < b->npdevs; i++) {
		const struct doctor_pdev *p = &b->pdevs[i];
		struct sb_cause *c;

		/* only compatibles whose driver is known: a node name alone says too little */
		if (!p->role || !p->role->config || p->bound || is_deferred(b, p->name) ||
		    doctor_has_cause(b, p->name))
			continue;
		c = doctor_cause(b, "probe.no-driver", p->role->sub, p->name);
		if (!c)
			continue;
		cause_diag(c, "%s (%s, %s) has no driver", p->name, p->role->what, p->compatible);
		cause_evidence(c, "/sys/bus/platform/devices/%s: compatible %s, no driver link",
			       p->name, p->compatible);
		cause_fix(c, "build %s (=y, or =m and load it with " SB_FIX_RUN0 ")",
			  p->role->config);
		sb_cause_run(c, "modprobe %s", p->role->module);
	}
}

void doctor_causes_probe(struct doctor_board *b)
{
	probe_failures(b);
	for (size_t i = 0; i < b->ndeferred; i++)
		deferred(b, &b->deferred[i]);
	unbound(b);
}
