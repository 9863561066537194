// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_irq.h"
#include "socbox/macro.h"

static int parse_header(const char *line, size_t len, struct sb_irq_table *t)
{
	const char *p = line, *end = line + len;
	unsigned cap = 0;

	while (p < end) {
		while (p < end && isspace((unsigned char)*p))
			p++;
		if (p >= end)
			break;
		if (end - p > 3 && !strncmp(p, "CPU", 3) && isdigit((unsigned char)p[3])) {
			unsigned id = (unsigned)strtoul(p + 3, NULL, 10);

			if (t->ncpus == cap) {
				unsigned *n;

				cap = cap ? cap * 2 : 16;
				n = realloc(t->cpu_ids, cap * sizeof(*n));
				if (!n)
					return -ENOMEM;
				t->cpu_ids = n;
			}
			t->cpu_ids[t->ncpus++] = id;
		} else {
			return -EINVAL;
		}
		while (p < end && !isspace((unsigned char)*p))
			p++;
	}
	return t->ncpus ? 0 : -EINVAL;
}

static bool is_count(const char *tok, size_t len)
{
	if (!len)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)tok[i]))
			return false;
	return true;
}

/* Copy s[0..len) into dst collapsing whitespace runs to one space. */
static void copy_squeezed(char *dst, size_t cap, const char *s, size_t len)
{
	size_t o = 0;
	bool space = false;

	for (size_t i = 0; i < len && o + 1 < cap; i++) {
		if (isspace((unsigned char)s[i])) {
			space = o > 0;
			continue;
		}
		if (space && o + 2 < cap)
			dst[o++] = ' ';
		space = false;
		dst[o++] = s[i];
	}
	dst[o] = '\0';
}

static int parse_row(const char *line, size_t len, struct sb_irq_table *t, struct sb_irq_row *row)
{
	const char *p = line, *end = line + len, *tok, *colon, *rest, *gap = NULL;
	unsigned i;

	memset(row, 0, sizeof(*row));
	while (p < end && isspace((unsigned char)*p))
		p++;
	colon = memchr(p, ':', (size_t)(end - p));
	if (!colon || colon == p)
		return -EINVAL;
	for (tok = p; tok < colon; tok++)
		if (isspace((unsigned char)*tok))
			return -EINVAL;
	snprintf(row->name, sizeof(row->name), "%.*s", (int)(colon - p), p);
	row->counts = calloc(t->ncpus, sizeof(*row->counts));
	if (!row->counts)
		return -ENOMEM;
	p = colon + 1;
	for (i = 0; i < t->ncpus; i++) {
		const char *q;

		while (p < end && isspace((unsigned char)*p))
			p++;
		for (q = p; q < end && !isspace((unsigned char)*q); q++)
			;
		if (!is_count(p, (size_t)(q - p)))
			break;
		row->counts[i] = strtoull(p, NULL, 10);
		row->total += row->counts[i];
		p = q;
	}
	while (p < end && isspace((unsigned char)*p))
		p++;
	rest = p;
	copy_squeezed(row->desc, sizeof(row->desc), rest, (size_t)(end - rest));
	for (p = rest; p < end && !isspace((unsigned char)*p); p++)
		;
	snprintf(row->chip, sizeof(row->chip), "%.*s", (int)(p - rest), rest);
	/* Action names follow the last run of two or more spaces (the kernel prints "  %s"). */
	for (const char *q = rest; q + 1 < end; q++)
		if (q[0] == ' ' && q[1] == ' ') {
			while (q + 1 < end && q[1] == ' ')
				q++;
			gap = q + 1;
		}
	if (gap && gap < end && gap > rest + (p - rest))
		copy_squeezed(row->actions, sizeof(row->actions), gap, (size_t)(end - gap));
	return 0;
}

int sb_irq_parse(const char *text, struct sb_irq_table *t)
{
	const char *line = text, *nl;
	size_t cap = 0;
	int rc;

	memset(t, 0, sizeof(*t));
	nl = strchr(line, '\n');
	rc = parse_header(line, nl ? (size_t)(nl - line) : strlen(line), t);
	if (rc) {
		sb_irq_free(t);
		return rc;
	}
	while (nl) {
		struct sb_irq_row row;

		line = nl + 1;
		nl = strchr(line, '\n');
		if (parse_row(line, nl ? (size_t)(nl - line) : strlen(line), t, &row))
			continue;
		if (t->nrows == cap) {
			struct sb_irq_row *n;

			cap = cap ? cap * 2 : 64;
			n = realloc(t->rows, cap * sizeof(*n));
			if (!n) {
				free(row.counts);
				sb_irq_free(t);
				return -ENOMEM;
			}
			t->rows = n;
		}
		t->rows[t->nrows++] = row;
	}
	return 0;
}

int sb_irq_read(const struct sb_root *r, struct sb_irq_table *t, struct sb_err *e)
{
	char *buf = NULL;
	ssize_t n = sb_read_file(r, &buf, SB_READ_PROC_MAX, "/proc/interrupts");
	int rc;

	memset(t, 0, sizeof(*t));
	if (n < 0)
		return sb_err_set(e, (int)-n, "/proc/interrupts", "read", "mount procfs on /proc");
	rc = sb_irq_parse(buf, t);
	free(buf);
	if (rc == -EINVAL) {
		sb_err_set(e, EINVAL, "/proc/interrupts", "parse", NULL);
		sb_err_reason(e, "no CPU header line");
	} else if (rc) {
		sb_err_set(e, -rc, "/proc/interrupts", "parse", NULL);
	}
	return rc;
}

void sb_irq_free(struct sb_irq_table *t)
{
	for (size_t i = 0; i < t->nrows; i++)
		free(t->rows[i].counts);
	free(t->rows);
	free(t->cpu_ids);
	memset(t, 0, sizeof(*t));
}

const struct sb_irq_row *sb_irq_find(const struct sb_irq_table *t, const char *name)
{
	for (size_t i = 0; i < t->nrows; i++)
		if (!strcmp(t->rows[i].name, name))
			return &t->rows[i];
	return NULL;
}

uint64_t sb_irq_count_cpu(const struct sb_irq_table *t, const struct sb_irq_row *row, unsigned cpu)
{
	for (unsigned i = 0; i < t->ncpus; i++)
		if (t->cpu_ids[i] == cpu)
			return row->counts[i];
	return 0;
}

const char *sb_irq_iommu_kind(const struct sb_irq_row *row)
{
	static const struct {
		const char *needle;
		const char *kind;
	} map[] = {
		{ "arm-smmu-v3-evtq", "evtq" },
		{ "arm-smmu-v3-gerror", "gerror" },
		{ "arm-smmu-v3-priq", "priq" },
		{ "arm-smmu-v3-combined-irq", "combined" },
		{ "arm-smmu-v3-cmdq-sync", "cmdq-sync" },
		{ "arm-smmu global fault", "global" },
		{ "arm-smmu-context-fault", "context" },
		{ "arm-smmu-global-fault", "global" },
		{ "AMD-Vi", "amd-vi" },
	};
	const char *a = row->actions;

	for (size_t i = 0; i < ARRAY_SIZE(map); i++)
		if (strstr(a, map[i].needle))
			return map[i].kind;
	if ((!strncmp(a, "dmar", 4) && isdigit((unsigned char)a[4])) ||
	    !strncmp(row->chip, "DMAR-MSI", 8))
		return "dmar";
	return NULL;
}
