// SPDX-License-Identifier: GPL-2.0-or-later
/* What doctor's detectors read, read once per run: the platform, the command line, the
 * kernel log, the devices waiting in deferred probe and the platform devices; and the list
 * of causes they name. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor_probe.h"
#include "socbox/cmdline.h"
#include "socbox/limits.h"

#define DEFERRED "/sys/kernel/debug/devices_deferred"
#define PLATFORM "/sys/bus/platform/devices"

static struct doctor_deferred *deferred_add(struct doctor_board *b, size_t *cap)
{
	if (b->ndeferred == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		void *n = reallocarray(b->deferred, ncap, sizeof(*b->deferred));

		if (!n)
			abort(); /* doctor's lists follow the output layer's OOM rule */
		b->deferred = n;
		*cap = ncap;
	}
	memset(&b->deferred[b->ndeferred], 0, sizeof(*b->deferred));
	return &b->deferred[b->ndeferred++];
}

/* Without debugfs (production images often do not mount it) the kernel log says it once
 * the deferred probe timeout ran (drivers/base/dd.c deferred_probe_timeout_work_func(),
 * for each device still waiting): 6.1 dev_info "deferred probe pending\n", 7.2 dev_warn
 * "deferred probe pending: %s" with the reason devices_deferred shows ("DRIVER: msg\n", or
 * "(reason unknown)\n"). */
static void load_deferred_log(struct doctor_board *b, size_t *cap)
{
	static const char key[] = "deferred probe pending";

	for (size_t i = 0; i < b->log.n; i++) {
		const char *text = b->log.lines[i].text, *name, *msg, *why;
		char dev[96];
		struct doctor_deferred *d;
		bool seen = false;

		if (!strstr(text, key))
			continue;
		msg = doctor_log_dev(text, dev, sizeof(dev));
		name = sb_kmsg_device_name(&b->log.lines[i]);
		if (!name && msg)
			name = dev;
		if (!name || !msg || strncmp(msg, key, sizeof(key) - 1))
			continue;
		for (size_t k = 0; k < b->ndeferred && !seen; k++)
			seen = !strcmp(b->deferred[k].dev, name);
		if (seen)
			continue;
		why = msg + sizeof(key) - 1;
		why = strncmp(why, ": ", 2) || !strncmp(why + 2, "(reason unknown)", 16)
			      ? ""
			      : why + 2;
		d = deferred_add(b, cap);
		snprintf(d->dev, sizeof(d->dev), "%s", name);
		snprintf(d->reason, sizeof(d->reason), "%s", why);
		sb_rtrim(d->reason);
		d->record = text;
	}
}

/* "DEV\tDRIVER: reason\n" per device (drivers/base/dd.c, deferred_devs_show()); a device
 * without a reason is "DEV\t\n". */
static void load_deferred(struct doctor_board *b)
{
	char *text = NULL, *save = NULL;
	size_t cap = 0;

	if (sb_read_file(b->root, &text, SB_READ_TEXT_MAX, DEFERRED) < 0) {
		load_deferred_log(b, &cap);
		return;
	}
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');
		struct doctor_deferred *d;

		if (!tab || tab == line)
			continue;
		d = deferred_add(b, &cap);
		snprintf(d->dev, sizeof(d->dev), "%.*s", (int)(tab - line), line);
		snprintf(d->reason, sizeof(d->reason), "%s", sb_rtrim(tab + 1));
	}
	free(text);
}

/* modalias "of:NnameT(null)Cti,am64-m4fssCti,..." (drivers/of/device.c,
 * of_modalias()): the first compatible; "platform:name" and ACPI ones have none. Node names
 * and types are lower case, so the first 'C' after the 'T' starts the compatibles. */
static void first_compatible(const char *modalias, char *out, size_t len)
{
	const char *t = strncmp(modalias, "of:N", 4) ? NULL : strchr(modalias + 4, 'T');
	const char *c = t ? strchr(t, 'C') : NULL;

	out[0] = '\0';
	if (c)
		snprintf(out, len, "%.*s", (int)strcspn(c + 1, "C"), c + 1);
}

static void load_pdevs(struct doctor_board *b)
{
	struct sb_dirlist l = { 0 };
	char modalias[512];

	if (sb_dir_list(b->root, &l, PLATFORM) < 0 || !l.n)
		goto out;
	b->pdevs = calloc(l.n, sizeof(*b->pdevs));
	if (!b->pdevs)
		abort();
	for (size_t i = 0; i < l.n; i++) {
		struct doctor_pdev *p = &b->pdevs[b->npdevs];

		snprintf(p->name, sizeof(p->name), "%s", l.names[i]);
		if (sb_attr_str(b->root, modalias, sizeof(modalias), PLATFORM "/%s/modalias",
				l.names[i]) > 0)
			first_compatible(modalias, p->compatible, sizeof(p->compatible));
		p->role = doctor_role_of(p->compatible, p->name);
		p->iommus = sb_exists(b->root, PLATFORM "/%s/of_node/iommus", l.names[i]);
		/* the driver and the group only matter for what doctor names */
		if (p->role || p->iommus) { /* the links themselves: a snapshot keeps only them */
			char link[256];

			p->bound = sb_readlink(b->root, link, sizeof(link), PLATFORM "/%s/driver",
					       l.names[i]) > 0;
			p->grouped = sb_readlink(b->root, link, sizeof(link),
						 PLATFORM "/%s/iommu_group", l.names[i]) > 0;
		}
		b->npdevs++;
	}
out:
	sb_dirlist_free(&l);
}

static void load_rpmsg(struct doctor_board *b)
{
	struct sb_err e;

	sb_err_clear(&e);
	if (sb_rproc_list(b->root, &b->procs, &b->nprocs, &e) < 0)
		sb_err_format(&e, b->rpmsg_err, sizeof(b->rpmsg_err));
	sb_err_clear(&e);
	if (sb_rpmsg_scan(b->root, &b->rpmsg, &e) < 0) {
		if (!b->rpmsg_err[0])
			sb_err_format(&e, b->rpmsg_err, sizeof(b->rpmsg_err));
		memset(&b->rpmsg, 0, sizeof(b->rpmsg));
	}
}

void doctor_board_load(struct doctor_board *b, const struct sb_root *r,
		       const struct sb_doctor_opts *opts, struct sb_doctor_report *rep)
{
	memset(b, 0, sizeof(*b));
	b->root = r;
	b->opts = opts;
	b->rep = rep;
	sb_platform_read(r, &b->plat);
	b->cmdline = sb_cmdline_read(r);
	doctor_log_load(b);
	load_deferred(b);
	load_pdevs(b);
	load_rpmsg(b);
	doctor_graph_init(b);
}

void doctor_board_free(struct doctor_board *b)
{
	free(b->cmdline);
	sb_kmsg_free(&b->log);
	free(b->log_count);
	free(b->log_first);
	free(b->evgroups);
	free(b->deferred);
	free(b->pdevs);
	free(b->procs);
	sb_rpmsg_state_free(&b->rpmsg);
	doctor_graph_free(b);
	memset(b, 0, sizeof(*b));
}

const struct doctor_pdev *doctor_pdev_find(const struct doctor_board *b, const char *name)
{
	for (size_t i = 0; i < b->npdevs; i++)
		if (!strcmp(b->pdevs[i].name, name))
			return &b->pdevs[i];
	return NULL;
}

const char *doctor_log_dev(const char *text, char *dev, size_t len)
{
	const char *sp = strchr(text, ' '), *colon;

	if (!sp || sp == text || memchr(text, ':', (size_t)(sp - text)))
		return NULL;
	colon = strstr(sp + 1, ": ");
	if (!colon || colon == sp + 1 || memchr(sp + 1, ' ', (size_t)(colon - sp - 1)))
		return NULL;
	snprintf(dev, len, "%.*s", (int)(colon - sp - 1), sp + 1);
	return colon + 2;
}

bool doctor_has_cause(const struct doctor_board *b, const char *object)
{
	for (size_t i = 0; i < b->rep->ncauses; i++)
		if (!strcmp(b->rep->causes[i].object, object))
			return true;
	return false;
}

struct sb_cause *doctor_cause(struct doctor_board *b, const char *code, int sub, const char *object)
{
	struct sb_doctor_report *rep = b->rep;
	const struct sb_cause_def *def = sb_cause_find(code);
	struct sb_cause *c;

	if (!def)
		abort(); /* a detector naming a code the catalogue lacks is a bug */
	for (size_t i = 0; i < rep->ncauses; i++)
		if (rep->causes[i].def == def && !strcmp(rep->causes[i].object, object))
			return NULL;
	if (rep->ncauses == b->capcauses) {
		size_t ncap = b->capcauses ? b->capcauses * 2 : 8;
		void *n = reallocarray(rep->causes, ncap, sizeof(*rep->causes));

		if (!n)
			abort();
		rep->causes = n;
		b->capcauses = ncap;
	}
	c = &rep->causes[rep->ncauses++];
	memset(c, 0, sizeof(*c));
	c->def = def;
	c->sub = sub;
	snprintf(c->object, sizeof(c->object), "%s", object);
	snprintf(c->fix, sizeof(c->fix), "%s", def->fix);
	snprintf(c->diagnosis, sizeof(c->diagnosis), "%s: %s", object, def->title);
	return c;
}

#define CAUSE_SETTER(name, field) \
	void name(struct sb_cause *c, const char *fmt, ...) \
	{ \
		va_list ap; \
\
		va_start(ap, fmt); \
		vsnprintf(c->field, sizeof(c->field), fmt, ap); \
		va_end(ap); \
	}
CAUSE_SETTER(cause_diag, diagnosis)
CAUSE_SETTER(cause_evidence, evidence)
/* a new fix: its commands (sb_cause_run(), after it) are its own */
void cause_fix(struct sb_cause *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->fix, sizeof(c->fix), fmt, ap);
	va_end(ap);
	c->nrun = 0;
	c->run_ok = 0;
}
