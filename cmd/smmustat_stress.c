// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat stress: per-CPU map/unmap stress and the comparison table of the ECMDQ thread
 * (total requests, average per CPU, difference against the fastest run). Earlier runs are
 * given as --baseline FILE (their --json output). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/iommufd.h"
#include "socbox/iommu_stress_baseline.h"
#include "socbox/macro.h"
#include "socbox/progress.h"
#include "socbox/uapi/map_benchmark.h"
#include "smmustat.h"

#define MAX_BASELINES 16

enum { S_RUN, S_TOTAL, S_AVG, S_DIFF, S_RATE, S_DURATION, S_CPUS, S_PATH };
static const struct sb_col run_cols[] = {
	[S_RUN] = { "RUN", SB_T_STR, 0, SB_COL_LABEL, "run label (--label; baselines keep theirs)",
		    0 },
	[S_TOTAL] = { "TOTAL_REQUESTS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER,
		      "map+unmap pairs over all CPUs", 0 },
	[S_AVG] = { "AVG_PER_CPU", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		    "average requests per CPU", 0 },
	[S_DIFF] = { "DIFF_PCT", SB_T_DBL, 0, SB_COL_RIGHT,
		     "per-CPU rate against the fastest run in the table, in %", 2 },
	[S_RATE] = { "REQUESTS_PER_S", SB_T_DBL, 0, SB_COL_HIDDEN | SB_COL_RIGHT,
		     "requests per second over all CPUs", 0 },
	[S_DURATION] = { "RUN_DURATION_S", SB_T_DBL, 0, SB_COL_HIDDEN | SB_COL_RIGHT,
			 "measured duration", 2 },
	[S_CPUS] = { "RUN_CPUS", SB_T_U64, 0, SB_COL_HIDDEN | SB_COL_RIGHT, "CPUs (threads) used",
		     0 },
	[S_PATH] = { "RUN_PATH", SB_T_STR, 0, SB_COL_HIDDEN,
		     "iommufd+vfio, iommufd-ioas or dma_map_benchmark", 0 },
};

enum { PC_CPU, PC_REQUESTS, PC_RATE };
static const struct sb_col cpu_cols[] = {
	[PC_CPU] = { "CPU", SB_T_U64, 0, SB_COL_RIGHT, "CPU the thread was pinned to", 0 },
	[PC_REQUESTS] = { "REQUESTS", SB_T_U64, 0, SB_COL_RIGHT, "map+unmap pairs", 0 },
	[PC_RATE] = { "REQUESTS_PER_S", SB_T_DBL, 0, SB_COL_RIGHT, "per second", 0 },
};

static char *opt_cpus, *opt_device, *opt_label;
/* in the order of enum sb_stress_method and enum sb_stress_pattern */
static const char *const methods[] = { "iommufd", "map-benchmark", NULL };
static const char *const patterns[] = { "fixed", "sequential", "random", NULL };
static struct sb_cli_value opt_method = SB_CLI_ENUM_VALUE("iommufd", methods);
static struct sb_cli_value opt_pattern = SB_CLI_ENUM_VALUE("fixed", patterns);
static struct sb_cli_value opt_size = SB_CLI_SIZE_VALUE("4K", 4096, SB_CLI_NO_MAX);
static struct sb_cli_value opt_window = SB_CLI_SIZE_VALUE(NULL, 4096, SB_CLI_NO_MAX);
static const char **opt_baselines;
static double opt_duration;
static int opt_no_huge;

static struct poptOption stress_opts[] = {
	{ "cpus", '\0', POPT_ARG_STRING, &opt_cpus, 0,
	  "CPUs to run one pinned thread on (default: all online)", "LIST" },
	{ "duration", '\0', POPT_ARG_DOUBLE, &opt_duration, 0, "how long to run (default 5s)",
	  SB_CLI_DURATION },
	{ "size", 's', SB_POPT_ARG_VALUE, &opt_size, 0, "bytes per map, a multiple of 4K", "SIZE" },
	{ "pattern", '\0', SB_POPT_ARG_VALUE, &opt_pattern, 0,
	  "the same buffer each time, or a walk through --window", "PATTERN" },
	{ "window", '\0', SB_POPT_ARG_VALUE, &opt_window, 0,
	  "bytes each thread walks through (default 64 maps)", "SIZE" },
	{ "device", 'd', POPT_ARG_STRING, &opt_device, 0,
	  "PCI device bound to vfio-pci (BDF) or its /dev/vfio/devices/vfioN", "DEV" },
	{ "method", 'm', SB_POPT_ARG_VALUE, &opt_method, 0,
	  "how to map (map-benchmark: the kernel's dma_map_benchmark)", "METHOD" },
	{ "no-huge", '\0', POPT_ARG_NONE, &opt_no_huge, 0,
	  "iommufd: PAGE_SIZE mappings only (IOMMU_OPTION_HUGE_PAGES=0)", NULL },
	{ "label", 'L', POPT_ARG_STRING, &opt_label, 0,
	  "name of this run in the table (default: the path)", "NAME" },
	{ "baseline", 'b', POPT_ARG_ARGV, &opt_baselines, 0,
	  "earlier --json run to compare with (repeatable; DIFF_PCT is against the fastest)",
	  "FILE" },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

struct run_summary {
	char label[64];
	uint64_t total, avg;
	double duration_s;
	unsigned cpus;
	char path[32];
};

static int load_baseline(struct sb_ctx *c, const char *file, struct run_summary *r)
{
	struct sb_stress_baseline b;
	struct sb_err e;

	sb_err_clear(&e);
	if (sb_stress_baseline_load(file, &b, &e))
		return sb_report(c->applet, &e);
	memset(r, 0, sizeof(*r));
	if (b.label[0])
		snprintf(r->label, sizeof(r->label), "%s", b.label);
	else
		snprintf(r->label, sizeof(r->label), "%.60s", file);
	snprintf(r->path, sizeof(r->path), "%s", b.path);
	r->total = b.total;
	r->avg = b.avg;
	r->duration_s = b.duration_s;
	r->cpus = b.cpus;
	return 0;
}

static double per_cpu_rate(const struct run_summary *r)
{
	return r->duration_s > 0 ? (double)r->avg / r->duration_s : 0;
}

/* The seed's table gives each mode's difference against the fastest one. */
static const struct run_summary *fastest_run(
	const struct run_summary *base, size_t nbase, const struct run_summary *cur)
{
	const struct run_summary *f = cur;

	for (size_t i = 0; i < nbase; i++)
		if (per_cpu_rate(&base[i]) > per_cpu_rate(f))
			f = &base[i];
	return f;
}

static void run_row(struct sb_table *t, const struct run_summary *r, const struct run_summary *ref)
{
	struct sb_row *row = sb_table_row(t);
	double ref_rate = ref ? per_cpu_rate(ref) : 0;

	sb_row_str(row, S_RUN, r->label);
	sb_row_u64(row, S_TOTAL, r->total);
	sb_row_u64(row, S_AVG, r->avg);
	if (ref != r && ref_rate > 0 && r->duration_s > 0)
		sb_row_dbl(row, S_DIFF, 100.0 * (per_cpu_rate(r) - ref_rate) / ref_rate);
	sb_row_dbl(row, S_RATE, r->duration_s > 0 ? (double)r->total / r->duration_s : 0);
	sb_row_dbl(row, S_DURATION, r->duration_s);
	sb_row_u64(row, S_CPUS, r->cpus);
	if (r->path[0])
		sb_row_str(row, S_PATH, r->path);
}

static int parse_cpus(struct sb_ctx *c, unsigned **cpus, unsigned *n)
{
	char online[256] = "0";

	if (opt_cpus) {
		if (sb_parse_list(opt_cpus, 4096, cpus, n) || !*n)
			return sb_usage_error(c, "--cpus: not a CPU list: '%s'", opt_cpus);
		return 0;
	}
	if (sb_attr_str(c->root, online, sizeof(online), "/sys/devices/system/cpu/online") < 0)
		snprintf(online, sizeof(online), "0");
	if (sb_parse_list(online, 4096, cpus, n) || !*n)
		return sb_usage_error(c, "cannot read the online CPUs; give --cpus");
	return 0;
}

/* dma_map_benchmark's ioctl rejects threads outside 1..1024, seconds outside 1..300 and a
 * granule outside 1..1024 pages (kernel/dma/map_benchmark.c); refuse them here, by name,
 * instead of passing on a bare EINVAL. The node is always NUMA_NO_NODE (no option). */
static int check_map_benchmark(struct sb_ctx *c, const struct sb_stress_opts *o, unsigned ncpus)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t pages = o->size / (uint64_t)(page > 0 ? page : 4096);

	if (ncpus > SB_DMA_MAP_MAX_THREADS)
		return sb_usage_error(c,
				      "--method map-benchmark: at most %d threads (--cpus), not %u",
				      SB_DMA_MAP_MAX_THREADS, ncpus);
	if (o->duration_s > SB_DMA_MAP_MAX_SECONDS)
		return sb_usage_error(c,
				      "--method map-benchmark: --duration at most %d seconds, not %g",
				      SB_DMA_MAP_MAX_SECONDS, o->duration_s);
	if (pages > SB_DMA_MAP_MAX_GRANULE)
		return sb_usage_error(
			c, "--method map-benchmark: --size at most %d pages (%ldK), not %llu pages",
			SB_DMA_MAP_MAX_GRANULE,
			SB_DMA_MAP_MAX_GRANULE * (page > 0 ? page : 4096) / 1024,
			(unsigned long long)pages);
	return 0;
}

static int parse_opts(struct sb_ctx *c, struct sb_stress_opts *o)
{
	o->method = (enum sb_stress_method)opt_method.value;
	o->duration_s = opt_duration > 0 ? opt_duration : 5;
	if (opt_duration < 0 || o->duration_s > 3600)
		return sb_usage_error(c, "--duration must be between 0 and 3600 seconds");
	o->size = opt_size.value;
	if (o->size % 4096)
		return sb_usage_error(c, "--size: %llu bytes is not a multiple of 4K",
				      (unsigned long long)o->size);
	o->pattern = (enum sb_stress_pattern)opt_pattern.value;
	o->window = opt_window.given ? opt_window.value : 64 * o->size;
	if (o->window < o->size)
		return sb_usage_error(c, "--window: %llu bytes is less than --size (%llu)",
				      (unsigned long long)o->window, (unsigned long long)o->size);
	o->window -= o->window % o->size;
	o->no_huge = opt_no_huge;
	return 0;
}

static void tick(void *ctx, uint64_t requests)
{
	sb_progress_update(ctx, requests);
}

/* The run asked for and what it is compared with. */
struct stress_cmd {
	struct sb_stress_opts o;
	unsigned *cpus, ncpus;
	struct run_summary base[MAX_BASELINES];
	size_t nbase;
	char devnode[96];
};

/* The options, checked, and the baselines, loaded. Returns an exit code. */
static int stress_parse(struct sb_ctx *c, int argc, const char **argv, struct stress_cmd *s)
{
	int rc;

	opt_cpus = opt_device = opt_label = NULL;
	opt_baselines = NULL;
	opt_duration = 0;
	opt_no_huge = 0;
	rc = sb_cli_parse(c, stress_opts, NULL, argc, argv, run_cols, ARRAY_SIZE(run_cols));
	if (rc)
		return rc;
	if ((rc = parse_opts(c, &s->o)) || (rc = parse_cpus(c, &s->cpus, &s->ncpus)))
		return rc;
	if (s->o.method == SB_STRESS_MAP_BENCHMARK &&
	    (rc = check_map_benchmark(c, &s->o, s->ncpus)))
		return rc;
	for (size_t i = 0; opt_baselines && opt_baselines[i]; i++) {
		if (s->nbase == MAX_BASELINES)
			return sb_usage_error(c, "at most %d baselines", MAX_BASELINES);
		if ((rc = load_baseline(c, opt_baselines[i], &s->base[s->nbase++])))
			return rc;
	}
	return 0;
}

/* What the run needs from the system: the live kernel and the device's VFIO node. */
static int stress_setup(struct sb_ctx *c, struct stress_cmd *s, struct sb_err *e)
{
	int rc = sb_cli_live(c);

	if (rc)
		return rc;
	if (opt_device && s->o.method == SB_STRESS_IOMMUFD) {
		if (opt_device[0] == '/')
			snprintf(s->devnode, sizeof(s->devnode), "%.90s", opt_device);
		else if (sb_vfio_cdev_path(c->root, opt_device, s->devnode, sizeof(s->devnode), e))
			return sb_report(c->applet, e);
		s->o.devnode = s->devnode;
		s->o.root = c->root;
	}
	s->o.cpus = s->cpus;
	s->o.ncpus = s->ncpus;
	return 0;
}

/* The run itself, with progress on a terminal; Ctrl-C ends it early and its result (with
 * the real duration) is still printed. */
static int stress_measure(struct sb_ctx *c, struct stress_cmd *s, struct sb_stress_result *res,
			  struct sb_err *e)
{
	struct sb_progress pg = { 0 };
	int rc;

	sb_verbose(c->applet, "%u threads, %.1f s, %llu bytes per map, pattern %s", s->ncpus,
		   s->o.duration_s, (unsigned long long)s->o.size,
		   sb_stress_pattern_name(s->o.pattern));
	if (s->o.method == SB_STRESS_IOMMUFD) {
		sb_progress_start(&pg, sb_progress_wanted(c), stderr, "smmustat stress",
				  SB_PROGRESS_ITEMS, "map+unmap", 0);
		pg.run_s = s->o.duration_s;
		s->o.tick = tick;
		s->o.tick_ctx = &pg;
	}
	sb_catch_stop_signals();
	rc = sb_stress_run(&s->o, res, e);
	sb_progress_end(&pg);
	s->o.tick = NULL;
	s->o.tick_ctx = NULL;
	return rc;
}

static void stress_fields(struct sb_out *out, const struct stress_cmd *s,
			  const struct sb_stress_result *res, const struct run_summary *cur)
{
	sb_out_field_str(out, "label", cur->label);
	sb_out_field_str(out, "path", res->path);
	sb_out_field_str(out, "pattern", sb_stress_pattern_name(s->o.pattern));
	sb_out_field_u64(out, "size_bytes", s->o.size);
	sb_out_field_u64(out, "cpus", res->ncpus);
	sb_out_field_dbl(out, "duration_s", res->elapsed_s);
	sb_out_field_u64(out, "requests_total", cur->total);
	sb_out_field_u64(out, "requests_per_cpu_avg", cur->avg);
	if (s->o.method == SB_STRESS_MAP_BENCHMARK) {
		sb_out_field_dbl(out, "map_ns", res->map_ns);
		sb_out_field_dbl(out, "unmap_ns", res->unmap_ns);
		sb_out_field_dbl(out, "map_stddev_ns", res->map_stddev_ns);
		sb_out_field_dbl(out, "unmap_stddev_ns", res->unmap_stddev_ns);
		sb_out_note(out,
			    "dma_map_benchmark returns average latencies only: requests are estimated "
			    "as threads x duration / (map + unmap latency)");
	}
	sb_out_field_bool(out, "estimated", res->estimated);
	if (!s->o.devnode && s->o.method == SB_STRESS_IOMMUFD)
		sb_out_note(
			out,
			"no --device: maps go into a bare IOAS (pinning and IOVA bookkeeping only, no "
			"page tables or invalidations); give a vfio-pci device to reach the IOMMU");
}

/* The comparison table (the baselines, then this run) and the per-CPU counts. */
static int stress_render(struct sb_ctx *c, const struct stress_cmd *s,
			 const struct sb_stress_result *res)
{
	const struct run_summary *ref;
	struct run_summary cur = { 0 };
	struct sb_table *t, *pt;
	struct sb_out *out;
	int rc;

	snprintf(cur.label, sizeof(cur.label), "%.63s", opt_label ? opt_label : res->path);
	snprintf(cur.path, sizeof(cur.path), "%s", res->path);
	cur.total = res->total;
	cur.cpus = res->ncpus;
	cur.avg = res->ncpus ? res->total / res->ncpus : 0;
	cur.duration_s = res->elapsed_s;
	ref = s->nbase ? fastest_run(s->base, s->nbase, &cur) : NULL;

	out = sb_out_new(&c->out, stdout);
	stress_fields(out, s, res, &cur);
	t = sb_out_table(out, "runs", NULL, run_cols, ARRAY_SIZE(run_cols), true);
	for (size_t i = 0; i < s->nbase; i++)
		run_row(t, &s->base[i], ref);
	run_row(t, &cur, ref);
	pt = sb_out_table(out, "per_cpu", "Per CPU", cpu_cols, ARRAY_SIZE(cpu_cols), false);
	for (unsigned i = 0; i < res->ncpus; i++) {
		struct sb_row *row = sb_table_row(pt);

		sb_row_u64(row, PC_CPU, res->cpus[i]);
		sb_row_u64(row, PC_REQUESTS, res->requests[i]);
		sb_row_dbl(row, PC_RATE,
			   res->elapsed_s > 0 ? (double)res->requests[i] / res->elapsed_s : 0);
	}
	rc = sb_out_print(out) ? SB_EXIT_FAIL : 0;
	sb_out_free(out);
	return rc;
}

int smmustat_stress(struct sb_ctx *c, int argc, const char **argv)
{
	struct stress_cmd s = { 0 };
	struct sb_stress_result res;
	struct sb_err e;
	int rc;

	sb_err_clear(&e);
	rc = stress_parse(c, argc, argv, &s);
	if (!rc)
		rc = stress_setup(c, &s, &e);
	if (rc) {
		free(s.cpus);
		return rc;
	}
	rc = stress_measure(c, &s, &res, &e);
	free(s.cpus);
	if (rc)
		rc = sb_report(c->applet, &e);
	else
		rc = stress_render(c, &s, &res);
	sb_stress_result_free(&res);
	return rc;
}
