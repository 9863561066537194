// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp bench FILE: the seed's matrix. For each buffer kind and method: allocate the
 * buffers FILE needs, read FILE into them, free them; median of --runs, with FILE's page
 * cache dropped (posix_fadvise DONTNEED) before each run unless --cached. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmabufcp.h"
#include "socbox/macro.h"
#include "socbox/progress.h"
#include "socbox/stats.h"

enum {
	COL_BUFFER,
	COL_METHOD,
	COL_STATUS,
	COL_RAN,
	COL_ALLOC_MS,
	COL_IO_MS,
	COL_TOTAL_MS,
	COL_MBPS,
	COL_BYTES_PER_S,
	COL_PCT_OF_FASTEST,
	COL_IO_PCT_OF_REF,
	COL_RUNS,
	COL_NOTE,
	NCOLS
};

static const struct sb_col cols[NCOLS] = {
	[COL_BUFFER] = { "BUFFER", SB_T_STR, 10, 0, "buffer kind: heap:NAME or udmabuf", 0 },
	[COL_METHOD] = { "METHOD", SB_T_STR, 8, 0, "copy method measured", 0 },
	[COL_STATUS] = { "STATUS", SB_T_STR, 8, 0,
			 "ok, fallback (another method ran), unsupported or failed", 0 },
	[COL_RAN] = { "RAN", SB_T_STR, 8, SB_COL_HIDDEN, "the method that actually moved the bytes",
		      0 },
	/* ALLOC_MS, TOTAL_MS and PCT_OF_FASTEST hidden (JSON keeps them) so that the table
	 * fits 80 columns; the I/O time and its share of the reference's stay */
	[COL_ALLOC_MS] = { "ALLOC_MS", SB_T_DBL, 8, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
			   "median time to allocate and map the buffers", 1 },
	[COL_IO_MS] = { "IO_MS", SB_T_DBL, 8, SB_COL_RIGHT,
			"median time to read the file into them", 1 },
	[COL_TOTAL_MS] = { "TOTAL_MS", SB_T_DBL, 8, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
			   "median of allocation plus I/O per run", 1 },
	/* the table shows the rate with its unit (BYTES_PER_S: "1.2G/s"); JSON keeps mbps */
	[COL_MBPS] = { "MBPS", SB_T_DBL, 8, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		       "file bytes / median I/O time, 10^6 bytes per second (as dd prints)", 1 },
	[COL_PCT_OF_FASTEST] = { "PCT_OF_FASTEST", SB_T_DBL, 6,
				 SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
				 "total time as a percentage of the fastest total (100 = fastest)",
				 0 },
	[COL_IO_PCT_OF_REF] = { "IO_PCT_OF_REF", SB_T_DBL, 6, SB_COL_RIGHT,
				"I/O time as a percentage of the reference's (--reference; the seed's \"vs. (%)\")",
				0 },
	[COL_RUNS] = { "RUNS", SB_T_U64, 4, SB_COL_RIGHT | SB_COL_HIDDEN, "runs measured", 0 },
	[COL_NOTE] = { "NOTE", SB_T_STR, 0.3, SB_COL_WRAP,
		       "why a method is unsupported, failed or fell back", 0 },
	[COL_BYTES_PER_S] = { "BYTES_PER_S", SB_T_DBL, 8, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_PER_S,
			      "file bytes / median I/O time (1.2G/s; -J: bytes per second)", 0 },
};

/* The seed thread's 100 % row: udmabuf with sendfile. */
#define DEFAULT_REFERENCE "udmabuf/sendfile"

static char *opt_methods, *opt_buffers, *opt_reference;
static int opt_cached;
static struct sb_cli_value opt_runs = SB_CLI_NUMBER_VALUE("5", 1, 1000);
static struct sb_cli_value opt_chunk = SB_CLI_SIZE_VALUE("32M", 1, SB_CLI_NO_MAX);

static struct poptOption table[] = {
	{ "runs", '\0', SB_POPT_ARG_VALUE, &opt_runs, 0, "runs per cell; the median is shown", "N" },
	{ "cached", '\0', POPT_ARG_NONE, &opt_cached, 0,
	  "keep FILE in the page cache (measure warm)", NULL },
	{ "chunk-size", 's', SB_POPT_ARG_VALUE, &opt_chunk, 0, "bytes per buffer, as in the seed",
	  "SIZE" },
	{ "method", 'm', POPT_ARG_STRING, &opt_methods, 0,
	  "methods to measure, comma-separated (default all)", "LIST" },
	{ "buffer", 'b', POPT_ARG_STRING, &opt_buffers, 0,
	  "buffer kinds, comma-separated (default heap:system,udmabuf)", "LIST" },
	{ "reference", '\0', POPT_ARG_STRING, &opt_reference, 0,
	  "the row IO_PCT_OF_REF is relative to (default " DEFAULT_REFERENCE ")", "BUFFER/METHOD" },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

struct cell {
	char buffer[72];
	enum sb_copy_method method;
	const char *status;
	enum sb_copy_method ran;
	double alloc_ms, io_ms, total_ms;
	char note[256];
};

static void error_note(struct cell *cl, const struct sb_err *e)
{
	sb_err_format(e, cl->note, sizeof(cl->note));
}

static void measure(const struct sb_ctx *c, const char *path, int fd, uint64_t size, uint64_t chunk,
		    int runs, struct cell *cl, struct sb_progress *pg, uint64_t base)
{
	double *alloc = calloc((size_t)runs, sizeof(double)),
	       *io = calloc((size_t)runs, sizeof(double));
	double *total = calloc((size_t)runs, sizeof(double));
	struct sb_dmabuf_spec spec;
	struct sb_stats st;
	int done = 0;

	cl->status = "ok";
	cl->ran = cl->method;
	sb_dmabuf_spec_parse(cl->buffer, &spec);
	for (int r = 0; r < runs && !sb_stop_signal && alloc && io && total; r++) {
		struct dmabufcp_set set;
		struct sb_err e;
		double t0;
		int rc = 0;

		sb_err_clear(&e);
		if (!opt_cached)
			sb_copy_cache_drop(fd);
		if (dmabufcp_set_alloc(c->root, &spec, size, chunk, NULL, &set, NULL, 0, &e)) {
			cl->status = sb_err_exit_code(&e) == SB_EXIT_UNSUPPORTED
					     ? "unsupported"
					     : "failed";
			error_note(cl, &e);
			break;
		}
		t0 = dmabufcp_now_ms();
		for (long i = 0; i < set.n && !rc; i++) {
			const struct sb_copy_req rq = {
				.dir = SB_COPY_TO_BUF,
				.fd = fd,
				.path = path,
				.file_off = set.chunks[i].file_offset,
				.b = &set.bufs[i],
				.len = set.chunks[i].len,
				.stop = &sb_stop_signal,
				.allow_fallback = true
			};
			struct sb_copy_result res = { 0 };

			rc = sb_copy_run(cl->method, &rq, &res, &e);
			sb_progress_update(pg,
					   base + (uint64_t)r * size + set.chunks[i].file_offset +
						   set.chunks[i].len);
			if (!rc && res.path.instead_of != SB_COPY_AUTO) {
				cl->status = "fallback";
				cl->ran = res.path.ran;
				snprintf(cl->note, sizeof(cl->note), "ran %s: %s",
					 sb_copy_method_name(res.path.ran), res.path.why);
			}
		}
		io[done] = dmabufcp_now_ms() - t0;
		alloc[done] = set.alloc_ms;
		total[done] = alloc[done] + io[done];
		dmabufcp_set_free(&set);
		if (rc) {
			cl->status = rc == -EOPNOTSUPP ? "unsupported" : "failed";
			error_note(cl, &e);
			break;
		}
		done++;
	}
	if (done && (!strcmp(cl->status, "ok") || !strcmp(cl->status, "fallback"))) {
		sb_stats_compute(alloc, (size_t)done, &st);
		cl->alloc_ms = st.median;
		sb_stats_compute(io, (size_t)done, &st);
		cl->io_ms = st.median;
		sb_stats_compute(total, (size_t)done, &st);
		cl->total_ms = st.median;
	}
	free(alloc);
	free(io);
	free(total);
}

static int parse_methods(struct sb_ctx *c, bool *want)
{
	char *list, *save = NULL;

	for (int m = 0; m < SB_COPY_NMETHODS; m++)
		want[m] = m != SB_COPY_AUTO;
	if (!opt_methods)
		return 0;
	memset(want, 0, SB_COPY_NMETHODS * sizeof(*want));
	list = strdup(opt_methods);
	for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		enum sb_copy_method m;

		if (sb_copy_method_parse(t, &m) || m == SB_COPY_AUTO) {
			int rc =
				sb_usage_error(c,
					       "unknown method '%s' (auto is not a method to measure)",
					       t);

			free(list);
			return rc;
		}
		want[m] = true;
	}
	free(list);
	return 0;
}

/* The measured I/O time of the reference row, 0 when it was not measured. */
static double reference_io_ms(const struct cell *cells, size_t n)
{
	const char *ref = opt_reference ? opt_reference : DEFAULT_REFERENCE;
	const char *slash = strrchr(ref, '/');

	for (size_t i = 0; slash && i < n; i++)
		if (cells[i].total_ms > 0 && strlen(cells[i].buffer) == (size_t)(slash - ref) &&
		    !strncmp(cells[i].buffer, ref, (size_t)(slash - ref)) &&
		    !strcmp(sb_copy_method_name(cells[i].method), slash + 1))
			return cells[i].io_ms;
	return 0;
}

enum { T_CELL, T_MBPS, T_BAR };
static const struct sb_col bar_cols[] = {
	[T_CELL] = { "BUFFER/METHOD", SB_T_STR, 0, 0, "buffer kind and method", 0 },
	[T_MBPS] = { "MBPS", SB_T_DBL, 0, SB_COL_RIGHT, "as in the results", 1 },
	[T_BAR] = { "BAR", SB_T_STR, 0, 0, "MBPS to scale, the fastest full", 0 },
};
#define BAR_WIDTH 40

/* The throughput of the measured cells as bars: a picture for people, so in tables only
 * (the numbers are in the results, and in JSON). */
static void bars(struct sb_out *o, uint64_t size, const struct cell *cells, size_t n)
{
	struct sb_table *t;
	double max = 0;
	size_t shown = 0;

	for (size_t i = 0; i < n; i++)
		if (cells[i].total_ms > 0 && cells[i].io_ms > 0) {
			shown++;
			if ((double)size / cells[i].io_ms > max)
				max = (double)size / cells[i].io_ms;
		}
	if (shown < 2)
		return;
	t = sb_out_table(o, "throughput", "Throughput", bar_cols, ARRAY_SIZE(bar_cols), false);
	for (size_t i = 0; i < n; i++) {
		struct sb_row *r;
		char bar[BAR_WIDTH + 1];
		double v;

		if (!(cells[i].total_ms > 0 && cells[i].io_ms > 0))
			continue;
		v = (double)size / cells[i].io_ms;
		r = sb_table_row(t);
		sb_row_fmt(r, T_CELL, "%s/%s", cells[i].buffer,
			   sb_copy_method_name(cells[i].method));
		sb_row_dbl(r, T_MBPS, v / 1e3);
		sb_bar(bar, sizeof(bar), v, max, BAR_WIDTH);
		sb_row_str(r, T_BAR, bar);
	}
}

static int render(struct sb_ctx *c, const char *path, uint64_t size, uint64_t chunk, int runs,
		  struct cell *cells, size_t n, char (*bad)[600], size_t nbad)
{
	struct sb_out *o = sb_out_new(&c->out, stdout);
	const char *ref = opt_reference ? opt_reference : DEFAULT_REFERENCE;
	double fastest = 0, ref_io = reference_io_ms(cells, n);
	struct sb_table *t;
	size_t measured = 0;

	for (size_t i = 0; i < n; i++)
		if (cells[i].total_ms > 0 && (fastest == 0 || cells[i].total_ms < fastest))
			fastest = cells[i].total_ms;
	sb_out_field_str(o, "file", path);
	sb_out_field_bytes(o, "size_bytes", size);
	sb_out_field_bytes(o, "chunk_bytes", chunk);
	sb_out_field_u64(o, "runs", (uint64_t)runs);
	sb_out_field_str(o, "page_cache", opt_cached ? "warm" : "dropped");
	sb_out_field_str(o, "reference", ref);
	for (size_t i = 0; i < nbad; i++) /* a kind that cannot allocate: once, not per method */
		sb_out_problem(o, "%s", bad[i]);
	if (ref_io <= 0)
		sb_out_note(o, "reference %s was not measured: no IO_PCT_OF_REF", ref);
	t = sb_out_table(o, "results", NULL, cols, NCOLS, true);
	for (size_t i = 0; i < n; i++) {
		struct sb_row *r = sb_table_row(t);
		bool ok = cells[i].total_ms > 0;

		sb_row_str(r, COL_BUFFER, cells[i].buffer);
		sb_row_str(r, COL_METHOD, sb_copy_method_name(cells[i].method));
		sb_row_str(r, COL_STATUS, cells[i].status);
		if (ok) {
			measured++;
			sb_row_str(r, COL_RAN, sb_copy_method_name(cells[i].ran));
			sb_row_dbl(r, COL_ALLOC_MS, cells[i].alloc_ms);
			sb_row_dbl(r, COL_IO_MS, cells[i].io_ms);
			sb_row_dbl(r, COL_TOTAL_MS, cells[i].total_ms);
			if (cells[i].io_ms > 0) {
				sb_row_dbl(r, COL_MBPS, (double)size / 1e3 / cells[i].io_ms);
				sb_row_dbl(r, COL_BYTES_PER_S, (double)size * 1e3 / cells[i].io_ms);
			}
			sb_row_dbl(r, COL_PCT_OF_FASTEST, 100.0 * cells[i].total_ms / fastest);
			if (ref_io > 0)
				sb_row_dbl(r, COL_IO_PCT_OF_REF, 100.0 * cells[i].io_ms / ref_io);
			sb_row_u64(r, COL_RUNS, (uint64_t)runs);
		}
		if (cells[i].note[0])
			sb_row_str(r, COL_NOTE, cells[i].note);
	}
	if (c->out.mode == SB_OUT_TABLE && !c->out.columns)
		bars(o, size, cells, n);
	sb_out_print(o);
	sb_out_free(o);
	if (!measured) {
		struct sb_err e;

		sb_err_set(&e, EOPNOTSUPP, "bench", "measure",
			   "see NOTE; 'dmabufcp heaps' shows what can allocate here");
		sb_err_reason(&e, "no method could be measured with these buffers");
		return sb_report(DMABUFCP, &e);
	}
	return 0;
}

/* Can this buffer kind allocate here at all? One page, freed at once: a kind that cannot is
 * said once (not in a row per method), and a bench with no kind that can fails before its
 * first row. */
static int probe_kind(const struct sb_ctx *c, const struct sb_dmabuf_spec *spec, uint64_t chunk,
		      struct sb_err *e)
{
	struct dmabufcp_set set;
	int rc;

	sb_err_clear(e);
	rc = dmabufcp_set_alloc(c->root, spec, 4096, chunk, NULL, &set, NULL, 0, e);
	if (!rc)
		dmabufcp_set_free(&set);
	return rc;
}

/* Every run of every cell reads the whole file once. */
static void progress_start(const struct sb_ctx *c, struct sb_progress *pg, const char *kinds,
			   const bool *want, uint64_t size)
{
	uint64_t nkinds = 1, nmethods = 0;

	for (const char *k = kinds; *k; k++)
		nkinds += *k == ',';
	for (int m = 0; m < SB_COPY_NMETHODS; m++)
		nmethods += want[m];
	sb_progress_start(pg, sb_progress_wanted(c), stderr, DMABUFCP " bench", SB_PROGRESS_BYTES,
			  NULL, nkinds * nmethods * opt_runs.value * size);
	sb_progress_update(pg, 0);
}

int dmabufcp_bench(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_progress pg = { 0 };
	bool want[SB_COPY_NMETHODS];
	struct cell *cells = NULL;
	char *kinds, *usable = NULL, *save = NULL;
	char bad[8][600]; /* the buffer kinds that cannot allocate, and why */
	struct sb_err bad_err[8];
	size_t nbad = 0;
	uint64_t chunk;
	int runs;
	size_t n = 0;
	struct stat st;
	struct sb_err e;
	int rc, fd;

	opt_methods = opt_buffers = opt_reference = NULL;
	opt_cached = 0;
	rc = sb_cli_parse(c, table, "FILE", argc, argv, cols, NCOLS);
	if (rc)
		return rc;
	if (c->nargs != 1)
		return sb_usage_error(c, "needs exactly one FILE");
	chunk = opt_chunk.value;
	runs = (int)opt_runs.value;
	if ((rc = parse_methods(c, want)))
		return rc;
	if (opt_reference) {
		const char *slash = strrchr(opt_reference, '/');
		enum sb_copy_method m;

		if (!slash || slash == opt_reference || sb_copy_method_parse(slash + 1, &m) ||
		    m == SB_COPY_AUTO)
			return sb_usage_error(c, "bad --reference '%s' (BUFFER/METHOD, e.g. %s)",
					      opt_reference, DEFAULT_REFERENCE);
	}
	if ((rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	fd = open(c->args[0], O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		sb_err_set(&e, fd < 0 ? errno : EINVAL, c->args[0], "open",
			   fd < 0 ? NULL : "needs a regular file");
		if (fd >= 0)
			close(fd);
		return sb_report(DMABUFCP, &e);
	}
	sb_catch_stop_signals();
	if (opt_cached)
		sb_copy_cache_warm(fd, (uint64_t)st.st_size);
	kinds = strdup(opt_buffers ? opt_buffers : "heap:system,udmabuf");
	usable = kinds ? strdup(kinds) : NULL;
	if (!kinds || !usable) {
		rc = SB_EXIT_FAIL;
		goto out;
	}
	/* every kind named well, and which of them can allocate here, before any row */
	usable[0] = '\0';
	for (char *k = strtok_r(kinds, ",", &save); k; k = strtok_r(NULL, ",", &save)) {
		struct sb_dmabuf_spec spec;

		if (sb_dmabuf_spec_parse(k, &spec) || spec.kind == SB_DMABUF_PIDFD) {
			rc = sb_usage_error(c, "bad buffer kind '%s' (heap:NAME or udmabuf)", k);
			goto out;
		}
		if (probe_kind(c, &spec, chunk, &e)) {
			if (nbad < ARRAY_SIZE(bad)) {
				char why[512];

				sb_err_format(&e, why, sizeof(why));
				snprintf(bad[nbad], sizeof(bad[0]), "%s cannot allocate: %s", k,
					 why);
				bad_err[nbad++] = e;
			}
			continue;
		}
		if (*usable)
			strcat(usable, ",");
		strcat(usable, k);
	}
	if (!*usable) {
		/* no table: one line per buffer kind that cannot (its error, with its hint), the
		 * exit code the first one's (3: the allocator is not here, 4: no access) */
		for (size_t i = 0; i < nbad; i++) {
			int r = sb_report(DMABUFCP, &bad_err[i]);

			rc = rc ? rc : r;
		}
		goto out;
	}
	progress_start(c, &pg, usable, want, (uint64_t)st.st_size);
	save = NULL;
	for (char *k = strtok_r(usable, ",", &save); k && !sb_stop_signal;
	     k = strtok_r(NULL, ",", &save)) {
		for (int m = 0; m < SB_COPY_NMETHODS && !sb_stop_signal; m++) {
			struct cell *nc;

			if (!want[m])
				continue;
			nc = realloc(cells, (n + 1) * sizeof(*cells));
			if (!nc)
				break;
			cells = nc;
			memset(&cells[n], 0, sizeof(cells[n]));
			snprintf(cells[n].buffer, sizeof(cells[n].buffer), "%s", k);
			cells[n].method = (enum sb_copy_method)m;
			sb_verbose(DMABUFCP, "measuring %s %s", k,
				   sb_copy_method_name(cells[n].method));
			measure(c, c->args[0], fd, (uint64_t)st.st_size, chunk, runs, &cells[n],
				&pg, n * opt_runs.value * (uint64_t)st.st_size);
			n++;
		}
	}
	sb_progress_end(&pg);
	if (!rc && sb_stop_signal) {
		sb_err_set(&e, EINTR, "bench", "interrupted", NULL);
		rc = sb_report(DMABUFCP, &e);
	}
	if (!rc)
		rc = render(c, c->args[0], (uint64_t)st.st_size, chunk, runs, cells, n, bad, nbad);
out:
	free(kinds);
	free(usable);
	free(cells);
	close(fd);
	return rc;
}
