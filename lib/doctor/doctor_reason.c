// SPDX-License-Identifier: GPL-2.0-or-later
/* The driver's own reason for a generic failure. The driver core says only that a probe
 * failed ("probe of %s failed with error %d"), the remoteproc core only that a boot failed;
 * the driver said why a few records earlier, on the same device (its dev_printk() prefix
 * or the record's DEVICE= dictionary line). Those records are quoted, and a reason of a
 * known class (the mailbox, reserved memory, clocks...) gives the fix its subject. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/macro.h"

/* What a reason is about. A record's class is given by the words drivers use for it: the
 * KMSG_REASON lines of kmsg_classes.def, in their order (the first word a record holds,
 * case-insensitive, wins), the same words scripts/kmsg-coverage checks every driver string
 * of that file against. The fix is pre, the device, post; a class with a supplier names the
 * board's device of that role too. */
static const struct doctor_reason_class classes[] = {
	{ "mailbox",
	  { NULL },
	  "the mailbox: check the mboxes and mbox-names properties of ",
	  "'s device-tree node (the channels its driver requests)",
	  "mailbox" },
	{ "reserved memory",
	  { NULL },
	  "reserved memory: check the memory-region property of ",
	  "'s device-tree node and the reserved-memory nodes it names (reg, size, no-map)",
	  NULL },
	{ "clock",
	  { NULL },
	  "a clock: check the clocks and clock-names of ",
	  "'s device-tree node and that the clock controller probed",
	  NULL },
	{ "reset",
	  { NULL },
	  "a reset: check the resets of ",
	  "'s device-tree node and that the reset controller (ti,sci on K3) probed",
	  NULL },
	{ "power",
	  { NULL },
	  "power: check the power-domains of ",
	  "'s device-tree node and the power controller (system firmware on K3, the GPC on "
	  "i.MX)",
	  NULL },
	{ "interrupt",
	  { NULL },
	  "an interrupt: check the interrupts of ",
	  "'s device-tree node",
	  NULL },
	{ "system firmware",
	  { NULL },
	  "the system firmware: check that it runs and that the node of ",
	  " names it (ti,sci, arm,scmi)",
	  NULL },
};

static const struct {
	const char *cls, *word;
} words[] = {
#define KMSG_REASON(cls, word) { cls, word },
#include "kmsg_classes.def"
};

/* The first platform device of the board whose role's name holds what. */
static const struct doctor_pdev *pdev_of_role(const struct doctor_board *b, const char *what)
{
	for (size_t i = 0; i < b->npdevs; i++)
		if (b->pdevs[i].role && strstr(b->pdevs[i].role->what, what))
			return &b->pdevs[i];
	return NULL;
}

/* The device a record is of: its DEVICE= name, else its dev_printk() prefix's; NULL for
 * none. The message after the prefix into *msg. */
static const char *device_of(const struct sb_kmsg_line *l, char *pdev, size_t len, const char **msg)
{
	const char *name = sb_kmsg_device_name(l);
	const char *m = doctor_log_dev(l->text, pdev, len);

	*msg = m ? m : l->text;
	return name ? name : m ? pdev : NULL;
}

static bool is_dev(const char *name, const char *dev, const char *alias)
{
	return !strcmp(name, dev) || (alias && !strcmp(name, alias));
}

/* The edge of the device that serves dev and printed a record, NULL when none does. The
 * graph is asked the first time a record of another device comes. */
static const struct sb_devgraph_edge *supplier_named(
	const struct doctor_board *b, const char *dev, const char *name,
	struct sb_devgraph_edge *sup, size_t *nsup, bool *asked)
{
	if (!*asked) {
		*nsup = doctor_suppliers(b, dev, sup, DOCTOR_REASON_SUPPLIERS);
		*asked = true;
	}
	for (size_t k = 0; k < *nsup; k++)
		if (!strcmp(sup[k].supplier, name))
			return &sup[k];
	return NULL;
}

/* Whether a record printed without a device names a reserved-memory node (into node) that
 * dev's memory-region names. */
static bool region_of_dev(const struct doctor_board *b, const char *text, const char *dev,
			  char *node, size_t len)
{
	struct sb_devgraph_edge u[DOCTOR_REASON_SUPPLIERS];
	size_t n;

	if (!doctor_region_of(text, node, len))
		return false;
	n = doctor_region_users(b, node, u, ARRAY_SIZE(u));
	for (size_t k = 0; k < n; k++)
		if (!strcmp(u[k].consumer, dev))
			return true;
	return false;
}

static const struct doctor_reason_class *classify(const char *msg)
{
	for (size_t w = 0; w < ARRAY_SIZE(words); w++)
		if (strcasestr(msg, words[w].word))
			for (size_t i = 0; i < ARRAY_SIZE(classes); i++)
				if (!strcmp(classes[i].name, words[w].cls))
					return &classes[i];
	return NULL;
}

void doctor_reason_find(const struct doctor_board *b, size_t from, size_t at, const char *dev,
			const char *alias, struct doctor_reason *r)
{
	struct sb_devgraph_edge sup[DOCTOR_REASON_SUPPLIERS];
	size_t nsup = 0;
	bool asked = false;

	memset(r, 0, sizeof(*r));
	/* nearest first; a record of unknown priority (a dmesg text) may be one */
	for (size_t i = at; i-- > from && r->n < DOCTOR_REASON_MAX;) {
		const struct sb_kmsg_line *l = &b->log.lines[i];
		const struct sb_devgraph_edge *via = NULL;
		const char *msg, *name;
		char pdev[96];

		if (l->prio > 4 || strstr(l->text, " failed with error "))
			continue;
		if (!(name = device_of(l, pdev, sizeof(pdev), &msg))) {
			if (region_of_dev(b, l->text, dev, pdev, sizeof(pdev))) {
				snprintf(r->via[r->n], sizeof(r->via[r->n]), "reserved memory %s",
					 pdev);
				snprintf(r->by[r->n], sizeof(r->by[r->n]), "%s", dev);
				r->line[r->n] = i;
				r->msg[r->n++] = l->text;
			}
			continue;
		}
		if (!is_dev(name, dev, alias) &&
		    !(via = supplier_named(b, dev, name, sup, &nsup, &asked)))
			continue;
		if (via) {
			snprintf(r->via[r->n], sizeof(r->via[r->n]), "%s %s",
				 sb_devgraph_role(via->via), via->supplier);
			snprintf(r->by[r->n], sizeof(r->by[r->n]), "%s", via->supplier);
		}
		r->line[r->n] = i;
		r->msg[r->n] = msg;
		r->n++;
	}
	/* the earliest of them that is classified says what it is about */
	for (size_t k = r->n; k-- > 0 && !r->cls;)
		if ((r->cls = classify(r->msg[k])))
			r->quote = k;
}

void doctor_reason_apply(struct sb_cause *c, const struct doctor_board *b,
			 const struct doctor_reason *r, const char *dev)
{
	char ev[sizeof(c->evidence)];
	size_t q = r->cls ? r->quote : r->n - 1;
	size_t len = strlen(c->diagnosis);

	if (!r->n)
		return;
	if (r->via[q][0]) /* what serves it said why: which object, and through what */
		snprintf(c->diagnosis + len, sizeof(c->diagnosis) - len, "; via %s: \"%s\"",
			 r->via[q], r->msg[q]);
	else
		snprintf(c->diagnosis + len, sizeof(c->diagnosis) - len, "; the driver said \"%s\"",
			 r->msg[q]);
	if (r->via[q][0]) {
		dev = r->by[q]; /* the fix is about the device that said it */
		snprintf(c->via, sizeof(c->via), "%s", r->via[q]);
	}
	snprintf(ev, sizeof(ev), "%s", c->evidence);
	len = (size_t)snprintf(c->evidence, sizeof(c->evidence), "kernel log:");
	for (size_t k = r->n; k-- > 0 && len < sizeof(c->evidence);)
		len += (size_t)snprintf(c->evidence + len, sizeof(c->evidence) - len, " %s |",
					b->log.lines[r->line[k]].text);
	if (len < sizeof(c->evidence)) {
		const char *rest = strncmp(ev, "kernel log: ", 12) ? ev : ev + 12;

		snprintf(c->evidence + len, sizeof(c->evidence) - len, " %.*s",
			 (int)(sizeof(c->evidence) - len - 2), rest);
	}
	if (r->cls) {
		const struct doctor_pdev *sup =
			r->cls->supplier ? pdev_of_role(b, r->cls->supplier) : NULL;

		c->nrun = c->run_ok = 0; /* the commands of the fix it replaces */
		len = (size_t)snprintf(c->fix, sizeof(c->fix), "%s%s%s", r->cls->pre, dev,
				       r->cls->post);
		if (sup && len < sizeof(c->fix))
			snprintf(c->fix + len, sizeof(c->fix) - len, "; %s %s %s", sup->name,
				 sup->bound ? "has its driver" : "has no driver",
				 sup->bound	     ? "(so the node's channels are what to check)"
				 : sup->role->config ? sup->role->config
						     : "");
	}
}
