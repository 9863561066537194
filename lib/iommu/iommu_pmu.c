// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "socbox/iommu_pmu.h"

#define PMU_DIR "/sys/bus/event_source/devices"

int sb_perf_parse_format(const char *name, const char *text, struct sb_perf_format *f)
{
	const char *p = text;
	char *end;

	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	if (!strncmp(p, "config2:", 8)) {
		f->word = 2;
		p += 8;
	} else if (!strncmp(p, "config1:", 8)) {
		f->word = 1;
		p += 8;
	} else if (!strncmp(p, "config:", 7)) {
		f->word = 0;
		p += 7;
	} else {
		return -EINVAL;
	}
	for (;;) {
		unsigned long lo, hi;

		if (!isdigit((unsigned char)*p) || f->nranges == SB_PERF_MAX_RANGES)
			return -EINVAL;
		lo = hi = strtoul(p, &end, 10);
		if (*end == '-') {
			p = end + 1;
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			hi = strtoul(p, &end, 10);
		}
		if (lo > hi || hi > 63)
			return -EINVAL;
		f->lo[f->nranges] = (unsigned)lo;
		f->hi[f->nranges] = (unsigned)hi;
		f->nranges++;
		p = end;
		if (*p != ',')
			break;
		p++;
	}
	while (*p && isspace((unsigned char)*p))
		p++;
	return *p ? -EINVAL : 0;
}

int sb_perf_first_cpu(const char *text)
{
	char *end;
	long v;

	while (*text && isspace((unsigned char)*text))
		text++;
	if (!isdigit((unsigned char)*text))
		return -1;
	v = strtol(text, &end, 10);
	if (v > 1 << 20 || (*end && *end != ',' && *end != '-' && !isspace((unsigned char)*end)))
		return -1;
	return (int)v;
}

int sb_pmu_list(const struct sb_root *r, const char *prefix, struct sb_dirlist *out)
{
	struct sb_dirlist all;
	size_t k = 0;
	int rc = sb_dir_list(r, &all, PMU_DIR);

	out->names = NULL;
	out->n = 0;
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < all.n; i++) {
		if (!strncmp(all.names[i], prefix, strlen(prefix)))
			all.names[k++] = all.names[i];
		else
			free(all.names[i]);
	}
	all.n = k;
	*out = all;
	return 0;
}

static int read_events(const struct sb_root *r, struct sb_pmu *p)
{
	struct sb_dirlist dl;

	if (sb_dir_list(r, &dl, PMU_DIR "/%s/events", p->name) < 0)
		return 0;
	p->events = calloc(dl.n ? dl.n : 1, sizeof(*p->events));
	if (!p->events) {
		sb_dirlist_free(&dl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < dl.n; i++) {
		struct sb_perf_evdef *ev = &p->events[p->nevents];

		/* ".scale"/".unit" companions are not events. */
		if (strchr(dl.names[i], '.'))
			continue;
		snprintf(ev->name, sizeof(ev->name), "%s", dl.names[i]);
		if (sb_attr_str(r, ev->terms, sizeof(ev->terms), PMU_DIR "/%s/events/%s", p->name,
				dl.names[i]) < 0)
			continue;
		p->nevents++;
	}
	sb_dirlist_free(&dl);
	return 0;
}

static int read_formats(const struct sb_root *r, struct sb_pmu *p)
{
	struct sb_dirlist dl;

	if (sb_dir_list(r, &dl, PMU_DIR "/%s/format", p->name) < 0)
		return 0;
	p->formats = calloc(dl.n ? dl.n : 1, sizeof(*p->formats));
	if (!p->formats) {
		sb_dirlist_free(&dl);
		return -ENOMEM;
	}
	for (size_t i = 0; i < dl.n; i++) {
		char text[96];

		if (sb_attr_str(r, text, sizeof(text), PMU_DIR "/%s/format/%s", p->name,
				dl.names[i]) < 0)
			continue;
		if (sb_perf_parse_format(dl.names[i], text, &p->formats[p->nformats]) == 0)
			p->nformats++;
	}
	sb_dirlist_free(&dl);
	return 0;
}

int sb_pmu_read(const struct sb_root *r, const char *name, struct sb_pmu *p, struct sb_err *e)
{
	char obj[160], text[256];
	uint64_t type;
	int rc;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	snprintf(obj, sizeof(obj), PMU_DIR "/%s", name);
	rc = sb_attr_u64(r, &type, PMU_DIR "/%s/type", name);
	if (rc < 0) {
		sb_err_set(e, -rc, obj, "read PMU type",
			   rc == -ENOENT
				   ? "no such PMU; for SMMUv3 PMCGs load arm_smmuv3_pmu (CONFIG_ARM_SMMU_V3_PMU)"
				   : NULL);
		if (rc == -ENOENT)
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return rc;
	}
	p->type = (unsigned)type;
	p->cpu = -1;
	if (sb_attr_str(r, text, sizeof(text), PMU_DIR "/%s/cpumask", name) >= 0)
		p->cpu = sb_perf_first_cpu(text);
	if (sb_attr_str(r, p->identifier, sizeof(p->identifier), PMU_DIR "/%s/identifier", name) <
	    0)
		p->identifier[0] = '\0';
	if (read_events(r, p) || read_formats(r, p)) {
		sb_pmu_free(p);
		return sb_err_set(e, ENOMEM, obj, "read", NULL);
	}
	return 0;
}

void sb_pmu_free(struct sb_pmu *p)
{
	free(p->events);
	free(p->formats);
	p->events = NULL;
	p->formats = NULL;
	p->nevents = p->nformats = 0;
}

const struct sb_perf_evdef *sb_pmu_event(const struct sb_pmu *p, const char *name)
{
	for (size_t i = 0; i < p->nevents; i++)
		if (!strcmp(p->events[i].name, name))
			return &p->events[i];
	return NULL;
}

static int put_field(const struct sb_perf_format *f, uint64_t v, uint64_t cfg[3])
{
	unsigned shift = 0;

	for (unsigned i = 0; i < f->nranges; i++) {
		unsigned width = f->hi[i] - f->lo[i] + 1;
		uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;

		cfg[f->word] &= ~(mask << f->lo[i]);
		cfg[f->word] |= ((v >> shift) & mask) << f->lo[i];
		shift += width;
	}
	if (shift < 64 && (v >> shift))
		return -ERANGE;
	return 0;
}

static int encode_terms(const struct sb_pmu *p, const char *terms, uint64_t cfg[3],
			struct sb_err *e, int depth)
{
	char buf[256], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", terms);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		const struct sb_perf_evdef *ev;
		uint64_t v = 1;
		size_t i;

		if (eq) {
			*eq = '\0';
			if (sb_parse_u64(eq + 1, 0, &v) && sb_parse_u64(eq + 1, 16, &v))
				goto bad_value;
		}
		if (!strcmp(tok, "config") || !strcmp(tok, "config1") || !strcmp(tok, "config2")) {
			cfg[tok[6] ? tok[6] - '0' : 0] = v;
			continue;
		}
		for (i = 0; i < p->nformats; i++)
			if (!strcmp(p->formats[i].name, tok))
				break;
		if (i < p->nformats) {
			if (put_field(&p->formats[i], v, cfg)) {
				eq = eq ? eq : tok;
				goto bad_value;
			}
			continue;
		}
		ev = eq || depth ? NULL : sb_pmu_event(p, tok);
		if (ev) {
			int rc = encode_terms(p, ev->terms, cfg, e, depth + 1);

			if (rc)
				return rc;
			continue;
		}
		sb_err_set(e, EINVAL, p->name, "encode event",
			   "see the PMU's events/ and format/ directories");
		sb_err_reason(e, "unknown event or term '%s'", tok);
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
bad_value:
		sb_err_set(e, EINVAL, p->name, "encode event", NULL);
		sb_err_reason(e, "bad value for '%s'", tok);
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	return 0;
}

int sb_perf_encode(const struct sb_pmu *p, const char *terms, uint64_t cfg[3], struct sb_err *e)
{
	cfg[0] = cfg[1] = cfg[2] = 0;
	return encode_terms(p, terms, cfg, e, 0);
}

static int perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group, unsigned long flags)
{
	return (int)syscall(SYS_perf_event_open, a, pid, cpu, group, flags);
}

int sb_perf_group_open(struct sb_perf_group *g, unsigned type, const uint64_t (*cfg)[3], size_t n,
		       int cpu, pid_t pid, struct sb_err *e)
{
	memset(g, 0, sizeof(*g));
	g->fds = calloc(n ? n : 1, sizeof(*g->fds));
	g->ids = calloc(n ? n : 1, sizeof(*g->ids));
	if (!g->fds || !g->ids) {
		sb_perf_group_close(g);
		return sb_err_set(e, ENOMEM, "perf", "open group", NULL);
	}
	for (size_t i = 0; i < n; i++) {
		struct perf_event_attr a;
		int err;

		memset(&a, 0, sizeof(a));
		a.size = sizeof(a);
		a.type = type;
		a.config = cfg[i][0];
		a.config1 = cfg[i][1];
		a.config2 = cfg[i][2];
		a.disabled = i == 0;
		a.read_format = PERF_FORMAT_GROUP | PERF_FORMAT_ID |
				PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
		g->fds[i] = perf_open(&a, pid, cpu, i ? g->fds[0] : -1, PERF_FLAG_FD_CLOEXEC);
		if (g->fds[i] < 0) {
			char obj[64];

			err = errno;
			g->n = i;
			sb_perf_group_close(g);
			snprintf(obj, sizeof(obj), "perf type %u counter %zu", type, i);
			sb_err_set(e, err, obj, "perf_event_open",
				   err == EACCES || err == EPERM
					   ? "run as root or lower kernel.perf_event_paranoid"
				   : err == ENOSPC
					   ? "the PMU has fewer counters than events asked for: use fewer -e"
				   : err == ENOENT || err == ENODEV
					   ? "the PMU is gone or the CPU is offline"
				   : err == EINVAL
					   ? "event or filter not accepted by this PMU (a global-filter PMCG needs one filter for all events)"
					   : NULL);
			return -err;
		}
		if (ioctl(g->fds[i], PERF_EVENT_IOC_ID, &g->ids[i]) < 0)
			g->ids[i] = 0;
		g->n = i + 1;
	}
	return 0;
}

int sb_perf_group_enable(struct sb_perf_group *g, struct sb_err *e)
{
	if (!g->n)
		return 0;
	ioctl(g->fds[0], PERF_EVENT_IOC_RESET, PERF_IOC_FLAG_GROUP);
	if (ioctl(g->fds[0], PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP) < 0)
		return sb_err_set(e, errno, "perf group", "enable", NULL);
	return 0;
}

int sb_perf_group_read(struct sb_perf_group *g, uint64_t *values, uint64_t *enabled,
		       uint64_t *running, struct sb_err *e)
{
	size_t words = 3 + 2 * g->n;
	uint64_t *buf = calloc(words, sizeof(*buf));
	ssize_t got;

	if (!buf)
		return sb_err_set(e, ENOMEM, "perf group", "read", NULL);
	got = read(g->fds[0], buf, words * sizeof(*buf));
	if (got < 0 || (size_t)got < 3 * sizeof(*buf) || buf[0] != g->n) {
		int err = got < 0 ? errno : EIO;

		free(buf);
		return sb_err_set(e, err, "perf group", "read", NULL);
	}
	*enabled = buf[1];
	*running = buf[2];
	for (size_t i = 0; i < g->n; i++) {
		values[i] = 0;
		for (size_t k = 0; k < buf[0]; k++) /* match by id: the order is the kernel's */
			if (buf[4 + 2 * k] == g->ids[i] || !g->ids[i]) {
				values[i] = buf[3 + 2 * (g->ids[i] ? k : i)];
				break;
			}
	}
	free(buf);
	return 0;
}

void sb_perf_group_close(struct sb_perf_group *g)
{
	for (size_t i = g->n; i-- > 0;)
		close(g->fds[i]);
	free(g->fds);
	free(g->ids);
	memset(g, 0, sizeof(*g));
}
