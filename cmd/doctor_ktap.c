// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox doctor --format ktap: the diagnosis as KTAP test results. A cause of the catalogue
 * that was found is a failed test (a notice passes, with its diagnosis), one that was not
 * found passes, and one doctor cannot look for here is skipped, saying why: the same tests,
 * by the same names, on every board and every run. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doctor.h"
#include "socbox/out.h"
#include "socbox/sys.h"

static bool required(const char *require, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = require; p && *p;) {
		size_t len = strcspn(p, ",");

		if (len == n && !strncmp(p, name, n))
			return true;
		p += len + (p[len] == ',');
	}
	return false;
}

static void status_test(struct sb_out *o, const struct sb_doctor_sub *s, bool must)
{
	enum sb_test_result r;

	switch (s->status) {
	case SB_HEALTH_OK:
		r = SB_TEST_PASS;
		break;
	case SB_HEALTH_ABSENT:
	case SB_HEALTH_UNKNOWN:
		r = must ? SB_TEST_FAIL : SB_TEST_SKIP;
		break;
	default:
		r = SB_TEST_FAIL;
		break;
	}
	sb_out_test(o, s->name, "status", r, "%s%s: %s", must ? "required, " : "",
		    sb_health_name(s->status), s->summary);
}

/* Why the cause def cannot be looked for in this run, NULL when it can. */
static const char *cannot_look(const struct sb_ctx *c, const struct sb_cause_def *def,
			       const struct sb_doctor_opts *opts)
{
	if ((def->needs & SB_CAUSE_NEEDS_LIVE) && !sb_root_is_live(c->root))
		return "needs the live kernel";
	if ((def->needs & SB_CAUSE_NEEDS_BUFFER_SIZE) && !opts->buffer_size)
		return "needs --buffer-size SIZE";
	if ((def->needs & SB_CAUSE_NEEDS_DEVMEM) && !opts->devmem_dev)
		return "needs --devmem IF";
	return NULL;
}

static void cause_test(struct sb_out *o, const struct sb_ctx *c, const char *suite,
		       const struct sb_cause_def *def, const struct sb_doctor_report *rep,
		       const struct sb_doctor_opts *opts, const struct sb_doctor_sub *sub)
{
	const char *why = cannot_look(c, def, opts);
	char *diag = NULL, fix[sizeof(rep->causes->fix) + SB_FIX_COMMANDS * SB_FIX_COMMAND_MAX];
	size_t len = 0, found = 0;
	FILE *m;

	if (!why && sub && sub->status == SB_HEALTH_UNKNOWN)
		why = sub->summary;
	if (why) {
		sb_out_test(o, suite, def->code, SB_TEST_SKIP, "%s", why);
		return;
	}
	m = open_memstream(&diag, &len);
	if (!m)
		abort();
	for (size_t k = 0; k < rep->ncauses; k++) {
		const struct sb_cause *cs = &rep->causes[k];

		if (cs->def != def)
			continue;
		sb_cause_fix_text(cs, false, fix, sizeof(fix));
		fprintf(m, "%s%s\nevidence: %s\nfix: %s", found++ ? "\n" : "", cs->diagnosis,
			cs->evidence, fix);
		/* a chain: what it follows from, and what follows from it */
		if (cs->follows[0])
			fprintf(m, "\nfollows from: %s", cs->follows);
		for (size_t j = k + 1; j < rep->ncauses && rep->causes[j].depth > cs->depth; j++)
			if (rep->causes[j].depth == cs->depth + 1)
				fprintf(m, "\nleads to: %s %s", rep->causes[j].def->code,
					rep->causes[j].object);
	}
	if (fclose(m))
		abort();
	sb_out_test(o, suite, def->code,
		    found && def->effect != SB_HEALTH_OK ? SB_TEST_FAIL : SB_TEST_PASS,
		    found ? "%s" : NULL, diag);
	free(diag);
}

int doctor_print_ktap(const struct sb_ctx *c, const struct sb_doctor_report *rep,
		      const struct sb_doctor_opts *opts, const char *require)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	int rc;

	/* a device that did not come up first, as doctor ranks it */
	for (const struct sb_cause_def *d = sb_cause_catalogue; d->code; d++)
		if (!d->subsystem)
			cause_test(o, c, "devices", d, rep, opts, NULL);
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *s = &rep->subs[i];

		status_test(o, s, required(require, s->name));
		for (const struct sb_cause_def *d = sb_cause_catalogue; d->code; d++)
			if (d->subsystem && !strcmp(d->subsystem, s->name))
				cause_test(o, c, s->name, d, rep, opts, s);
	}
	rc = sb_out_print(o);
	sb_out_free(o);
	return rc ? SB_EXIT_FAIL : 0;
}
