// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor_probe.h"
#include "socbox/doctor.h"

const char *const sb_health_names[] = {
	"ok", "degraded", "failed", "missing", "absent", "unknown", NULL
};

const char *sb_health_name(enum sb_health h)
{
	return sb_health_names[h];
}

int sb_doctor_index(const char *name)
{
	static const char *const names[] = { "rpmsg", "dmabuf", "iommu", "netdev" };
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++)
		if (!strcmp(names[i], name))
			return i;
	return -1;
}

static struct sb_fact *fact(struct sb_doctor_sub *s, const char *key, enum sb_fact_type t, bool live)
{
	struct sb_fact *f;

	if (s->nfacts == s->capfacts) {
		int cap = s->capfacts ? s->capfacts * 2 : 8;
		struct sb_fact *nf = realloc(s->facts, (size_t)cap * sizeof(*nf));

		if (!nf)
			abort(); /* out of memory: the OOM rule of the output layer (HACKING.md) */
		s->facts = nf;
		s->capfacts = cap;
	}
	f = &s->facts[s->nfacts++];
	memset(f, 0, sizeof(*f));
	snprintf(f->key, sizeof(f->key), "%s", key);
	f->type = t;
	f->live = live;
	return f;
}

void doctor_num(struct sb_doctor_sub *s, const char *key, int64_t v, bool live)
{
	fact(s, key, SB_FACT_NUM, live)->num = v;
}

void doctor_bool(struct sb_doctor_sub *s, const char *key, bool v, bool live)
{
	fact(s, key, SB_FACT_BOOL, live)->num = v;
}

void doctor_str(struct sb_doctor_sub *s, const char *key, const char *v, bool live)
{
	struct sb_fact *f = fact(s, key, SB_FACT_STR, live);

	snprintf(f->str, sizeof(f->str), "%s", v);
}

void doctor_list_add(struct sb_doctor_sub *s, const char *key, const char *item, bool live)
{
	struct sb_fact *f = NULL;
	char **nv;

	for (int k = 0; k < s->nfacts; k++)
		if (s->facts[k].type == SB_FACT_LIST && !strcmp(s->facts[k].key, key))
			f = &s->facts[k];
	if (!f)
		f = fact(s, key, SB_FACT_LIST, live);
	if (!item)
		return;
	nv = realloc(f->items, (f->nitems + 1) * sizeof(*nv));
	if (!nv)
		abort();
	f->items = nv;
	f->items[f->nitems] = strdup(item);
	if (!f->items[f->nitems])
		abort();
	f->nitems++;
}

void doctor_hint(struct sb_doctor_sub *s, const char *fmt, ...)
{
	va_list ap;

	if (s->nhints >= SB_DOCTOR_MAX_HINTS)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s->hints[s->nhints], fmt, ap) < 0)
		abort(); /* out of memory: the OOM rule of the output layer (HACKING.md) */
	s->nhints++;
	va_end(ap);
}

void doctor_summary(struct sb_doctor_sub *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->summary, sizeof(s->summary), fmt, ap);
	va_end(ap);
}

/* Module state as a fact plus a hint when the module's code is not in the kernel. */
void doctor_module(const struct sb_root *r, struct sb_doctor_sub *s, const char *module,
		   const char *key, const char *config)
{
	enum sb_mod_state st;

	char hint[256];

	sb_kmod_state(r, module, &st);
	doctor_str(s, key, sb_kmod_state_name(st), false);
	if (sb_kmod_hint(hint, sizeof(hint), st, module, config, NULL))
		doctor_hint(s, "%s", hint);
}

/* How bad a status is, for a cause raising its subsystem's: absent and unknown are
 * replaced by any cause, a notice (ok) changes nothing. */
static int severity(enum sb_health h)
{
	switch (h) {
	case SB_HEALTH_DEGRADED:
		return 1;
	case SB_HEALTH_MISSING:
		return 2;
	case SB_HEALTH_FAILED:
		return 3;
	default:
		return 0;
	}
}

static int cause_cmp(const void *a, const void *b)
{
	const struct sb_cause *x = a, *y = b;
	int d = severity(y->def->effect) - severity(x->def->effect);

	if (d)
		return d;
	if (x->def != y->def)
		return x->def < y->def ? -1 : 1;
	return strcmp(x->object, y->object);
}

void doctor_causes_rank(struct sb_doctor_report *rep)
{
	if (rep->ncauses)
		qsort(rep->causes, rep->ncauses, sizeof(*rep->causes), cause_cmp);
	doctor_causes_chain(rep);
	for (size_t i = 0; i < rep->ncauses; i++) {
		struct sb_doctor_sub *s = &rep->subs[rep->causes[i].sub];
		enum sb_health e = rep->causes[i].def->effect;

		if (e == SB_HEALTH_OK)
			continue;
		if (s->status == SB_HEALTH_ABSENT || s->status == SB_HEALTH_UNKNOWN ||
		    severity(e) > severity(s->status))
			s->status = e;
	}
}

void sb_doctor_run(const struct sb_root *r, const struct sb_doctor_opts *opts,
		   struct sb_doctor_report *rep)
{
	struct doctor_board b;

	memset(rep, 0, sizeof(*rep));
	if (sb_kernel_release(r, rep->kernel, sizeof(rep->kernel)) < 0)
		snprintf(rep->kernel, sizeof(rep->kernel), "unknown");
	rep->subs[SB_DOCTOR_RPMSG].name = "rpmsg";
	rep->subs[SB_DOCTOR_DMABUF].name = "dmabuf";
	rep->subs[SB_DOCTOR_IOMMU].name = "iommu";
	rep->subs[SB_DOCTOR_NETDEV].name = "netdev";
	doctor_board_load(&b, r, opts, rep);
	snprintf(rep->arch, sizeof(rep->arch), "%s", sb_arch_name(b.plat.arch));
	snprintf(rep->fwdesc, sizeof(rep->fwdesc), "%s", sb_fwdesc_name(b.plat.fw));
	snprintf(rep->board, sizeof(rep->board), "%s",
		 b.plat.model[0] ? b.plat.model : b.plat.compatible);
	/* devices that did not come up first: the subsystems' detectors skip what they name */
	doctor_causes_probe(&b);
	doctor_probe_rpmsg(&b, &rep->subs[SB_DOCTOR_RPMSG]);
	doctor_probe_dmabuf(&b, &rep->subs[SB_DOCTOR_DMABUF]);
	doctor_probe_iommu(&b, &rep->subs[SB_DOCTOR_IOMMU]);
	doctor_probe_netdev(&b, &rep->subs[SB_DOCTOR_NETDEV]);
	doctor_causes_rpmsg(&b);
	doctor_causes_dmabuf(&b);
	doctor_causes_iommu(&b);
	doctor_causes_netdev(&b);
	doctor_causes_log(&b);
	doctor_causes_cma_follow(&b);
	doctor_causes_rank(rep);
	doctor_board_free(&b);
}

void sb_doctor_sub_free(struct sb_doctor_sub *s)
{
	for (int k = 0; k < s->nfacts; k++) {
		for (size_t i = 0; i < s->facts[k].nitems; i++)
			free(s->facts[k].items[i]);
		free(s->facts[k].items);
	}
	free(s->facts);
	for (int k = 0; k < s->nhints; k++)
		free(s->hints[k]);
	s->facts = NULL;
	s->nfacts = s->capfacts = s->nhints = 0;
}

void sb_doctor_report_free(struct sb_doctor_report *rep)
{
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++)
		sb_doctor_sub_free(&rep->subs[i]);
	free(rep->causes);
	memset(rep, 0, sizeof(*rep));
}
