// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cpustat.h"

static const char *next_line(const char *p)
{
	const char *nl = strchr(p, '\n');
	return nl ? nl + 1 : NULL;
}

/* Parse "cpu[N] v1 v2 ..." up to the end of the line. */
static int parse_cpu_line(const char *line, struct sb_cpu_times *t)
{
	const char *p = line + 3;
	char *end;
	int n = 0;

	memset(t, 0, sizeof(*t));
	if (*p == ' ') {
		t->cpu = -1;
	} else {
		unsigned long cpu;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		cpu = strtoul(p, &end, 10);
		if (errno || cpu > 1u << 20 || *end != ' ')
			return -EINVAL;
		t->cpu = (int)cpu;
		p = end;
	}
	while (*p && *p != '\n' && n < SB_CPU_NFIELDS) {
		while (*p == ' ')
			p++;
		if (*p == '\n' || !*p)
			break;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		t->t[n++] = strtoull(p, &end, 10);
		if (errno || (*end != ' ' && *end != '\n' && *end))
			return -EINVAL;
		p = end;
	}
	/* user nice system idle at least (2.4 kernels had only those four). */
	return n >= 4 ? 0 : -EINVAL;
}

int sb_cpustat_parse_stat(const char *text, struct sb_cpustat *st)
{
	bool have_all = false;
	size_t cap = 0;

	memset(st, 0, sizeof(*st));
	for (const char *p = text; p && *p; p = next_line(p)) {
		struct sb_cpu_times t;
		if (strncmp(p, "cpu", 3) || parse_cpu_line(p, &t))
			continue;
		if (t.cpu < 0) {
			st->all = t;
			have_all = true;
			continue;
		}
		if (st->ncpus == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct sb_cpu_times *n = realloc(st->cpus, ncap * sizeof(*n));
			if (!n) {
				sb_cpustat_free(st);
				return -ENOMEM;
			}
			st->cpus = n;
			cap = ncap;
		}
		st->cpus[st->ncpus++] = t;
	}
	if (!have_all) {
		sb_cpustat_free(st);
		return -EINVAL;
	}
	return 0;
}

const struct sb_cpu_times *sb_cpustat_find(const struct sb_cpustat *st, int cpu)
{
	if (cpu < 0)
		return &st->all;
	for (size_t i = 0; i < st->ncpus; i++)
		if (st->cpus[i].cpu == cpu)
			return &st->cpus[i];
	return NULL;
}

/* The CPU numbers of the header "   CPU0  CPU1 ..." (online CPUs only). */
static int parse_softirq_header(const char *line, int **cpus, size_t *n)
{
	const char *p = line;
	size_t cap = 0;

	*cpus = NULL;
	*n = 0;
	while (*p && *p != '\n') {
		char *end;
		unsigned long cpu;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\n' || !*p)
			break;
		if (strncmp(p, "CPU", 3))
			goto bad;
		errno = 0;
		cpu = strtoul(p + 3, &end, 10);
		if (errno || end == p + 3 || cpu > 1u << 20)
			goto bad;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			int *c = realloc(*cpus, ncap * sizeof(*c));
			if (!c)
				goto bad;
			*cpus = c;
			cap = ncap;
		}
		(*cpus)[(*n)++] = (int)cpu;
		p = end;
	}
	return *n ? 0 : -EINVAL;
bad:
	free(*cpus);
	*cpus = NULL;
	*n = 0;
	return -EINVAL;
}

int sb_cpustat_parse_softirqs(const char *text, struct sb_cpustat *st)
{
	int *cpus;
	size_t ncols;
	bool found = false;

	if (parse_softirq_header(text, &cpus, &ncols))
		return -EINVAL;
	for (const char *p = next_line(text); p && *p; p = next_line(p)) {
		bool rx, tx;
		while (*p == ' ')
			p++;
		rx = !strncmp(p, "NET_RX:", 7);
		tx = !strncmp(p, "NET_TX:", 7);
		if (!rx && !tx)
			continue;
		p += 7;
		for (size_t i = 0; i < ncols; i++) {
			char *end;
			unsigned long long v;
			while (*p == ' ' || *p == '\t')
				p++;
			if (*p < '0' || *p > '9')
				break;
			v = strtoull(p, &end, 10);
			p = end;
			for (size_t k = 0; k < st->ncpus; k++) {
				if (st->cpus[k].cpu != cpus[i])
					continue;
				if (rx)
					st->cpus[k].net_rx = v;
				else
					st->cpus[k].net_tx = v;
				st->cpus[k].have_softirqs = true;
			}
			if (rx)
				st->all.net_rx += v;
			else
				st->all.net_tx += v;
		}
		found = true;
	}
	free(cpus);
	st->all.have_softirqs = found;
	return found ? 0 : -EINVAL;
}

int sb_cpustat_read(const struct sb_root *root, struct sb_cpustat *st, struct sb_err *e)
{
	char *buf = NULL;
	ssize_t n = sb_read_file(root, &buf, SB_READ_PROC_MAX, "/proc/stat");
	int rc;

	if (n < 0)
		return sb_err_set(e, (int)-n, "/proc/stat", "read", NULL);
	rc = sb_cpustat_parse_stat(buf, st);
	free(buf);
	if (rc) {
		sb_err_set(e, -rc, "/proc/stat", "parse", NULL);
		sb_err_reason(e, "no cpu line");
		return rc;
	}
	buf = NULL;
	if (sb_read_file(root, &buf, SB_READ_PROC_MAX, "/proc/softirqs") >= 0)
		sb_cpustat_parse_softirqs(buf, st);
	free(buf);
	return 0;
}

void sb_cpustat_free(struct sb_cpustat *st)
{
	free(st->cpus);
	st->cpus = NULL;
	st->ncpus = 0;
}

static uint64_t delta(const struct sb_cpu_times *prev, const struct sb_cpu_times *cur, int f)
{
	uint64_t a = prev ? prev->t[f] : 0;
	/* iowait (and after CPU hotplug anything) can go backwards: count that as no time. */
	return cur->t[f] > a ? cur->t[f] - a : 0;
}

void sb_cpu_pct(const struct sb_cpu_times *prev, const struct sb_cpu_times *cur,
		struct sb_cpu_pct *p)
{
	uint64_t d[SB_CPU_NFIELDS], total = 0;

	memset(p, 0, sizeof(*p));
	for (int f = 0; f < SB_CPU_NFIELDS; f++)
		d[f] = delta(prev, cur, f);
	/* guest and guest_nice are already counted in user and nice. */
	for (int f = SB_CPU_USER; f <= SB_CPU_STEAL; f++)
		total += d[f];
	if (!total)
		return;
	p->usr = 100.0 * (double)(d[SB_CPU_USER] + d[SB_CPU_NICE]) / (double)total;
	p->sys = 100.0 * (double)d[SB_CPU_SYSTEM] / (double)total;
	p->idle = 100.0 * (double)d[SB_CPU_IDLE] / (double)total;
	p->iow = 100.0 * (double)d[SB_CPU_IOWAIT] / (double)total;
	p->irq = 100.0 * (double)d[SB_CPU_IRQ] / (double)total;
	p->sirq = 100.0 * (double)d[SB_CPU_SOFTIRQ] / (double)total;
}
