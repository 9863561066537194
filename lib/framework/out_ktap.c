// SPDX-License-Identifier: GPL-2.0-or-later
/* --format ktap: the tests of a view in the kernel's test result format (KTAP version 1,
 * Documentation/dev-tools/ktap.rst), as kselftest prints it: a plan, one result line per
 * test, a suite as a nested test (its lines indented by four spaces, "# Subtest: NAME"
 * first), diagnostics as "# " lines before the result they explain, a skip's reason after
 * "# SKIP", and kselftest's "# Totals" line at the end. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "out_model.h"
#include "socbox/escape.h"

static void put_diag(FILE *fp, const char *indent, const char *diag)
{
	char line[1024], esc[4 * sizeof(line)];

	for (const char *p = diag; p && *p;) {
		size_t n = strcspn(p, "\n");

		snprintf(line, sizeof(line), "%.*s", (int)n, p);
		fprintf(fp, "%s# %s\n", indent, sb_escape(esc, sizeof(esc), line, 0));
		p += n + (p[n] == '\n');
	}
}

static void put_result(FILE *fp, const char *indent, size_t num, const char *name,
		       enum sb_test_result r, const char *diag)
{
	char reason[512], esc[4 * sizeof(reason)];

	if (r != SB_TEST_SKIP) {
		put_diag(fp, indent, diag);
		fprintf(fp, "%s%s %zu %s\n", indent, r == SB_TEST_FAIL ? "not ok" : "ok", num,
			name);
		return;
	}
	/* the reason is one line in the directive: '#' could end it, new lines the test */
	snprintf(reason, sizeof(reason), "%s", diag ? diag : "");
	for (char *p = reason; *p; p++)
		if (*p == '\n' || *p == '#')
			*p = ' ';
	fprintf(fp, "%sok %zu %s # SKIP%s%s\n", indent, num, name, reason[0] ? " " : "",
		sb_escape(esc, sizeof(esc), reason, 0));
}

/* Whether the suite of test i was already printed (first appearance decides the order). */
static bool seen_suite(const struct sb_out *o, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (o->tests[k].suite && !strcmp(o->tests[k].suite, o->tests[i].suite))
			return true;
	return false;
}

int sb_out_render_ktap(struct sb_out *o)
{
	size_t top = 0, num = 0, count[3] = { 0 };
	FILE *fp = o->fp;

	for (size_t i = 0; i < o->ntests; i++) {
		count[o->tests[i].result]++;
		if (!o->tests[i].suite || !seen_suite(o, i))
			top++;
	}
	fprintf(fp, "KTAP version 1\n1..%zu\n", top);
	for (size_t i = 0; i < o->ntests; i++) {
		const struct out_test *t = &o->tests[i];
		size_t sub = 0, n = 0;
		bool failed = false, all_skipped = true;

		if (!t->suite) {
			put_result(fp, "", ++num, t->name, t->result, t->diag);
			continue;
		}
		if (seen_suite(o, i))
			continue;
		for (size_t k = i; k < o->ntests; k++)
			if (o->tests[k].suite && !strcmp(o->tests[k].suite, t->suite))
				sub++;
		fprintf(fp, "    KTAP version 1\n    # Subtest: %s\n    1..%zu\n", t->suite, sub);
		for (size_t k = i; k < o->ntests; k++) {
			const struct out_test *s = &o->tests[k];

			if (!s->suite || strcmp(s->suite, t->suite))
				continue;
			put_result(fp, "    ", ++n, s->name, s->result, s->diag);
			failed |= s->result == SB_TEST_FAIL;
			all_skipped &= s->result == SB_TEST_SKIP;
		}
		put_result(fp, "", ++num, t->suite,
			   failed	 ? SB_TEST_FAIL
			   : all_skipped ? SB_TEST_SKIP
					 : SB_TEST_PASS,
			   all_skipped && !failed ? "every test of the suite was skipped" : NULL);
	}
	fprintf(fp, "# Totals: pass:%zu fail:%zu xfail:0 xpass:0 skip:%zu error:0\n",
		count[SB_TEST_PASS], count[SB_TEST_FAIL], count[SB_TEST_SKIP]);
	return fflush(fp) ? -errno : 0;
}
