// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp copy: SRC BUF, BUF DST, or SRC BUF DST (round trip). The destination file is
 * written under a temporary name and renamed only after the copy (and --verify) succeeded. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "socbox/progress.h"
#include "socbox/uapi/dma-buf.h"
#include "dmabufcp.h"

enum {
	COL_CHUNK,
	COL_DIRECTION,
	COL_FILE_OFFSET,
	COL_SIZE_BYTES,
	COL_METHOD,
	COL_REQUESTED,
	COL_DIRECT_BYTES,
	COL_IO_MS,
	COL_BUFFER,
	COL_FALLBACK,
	NCOLS
};

static const struct sb_col cols[NCOLS] = {
	[COL_CHUNK] = { "CHUNK", SB_T_U64, 5, SB_COL_RIGHT, "index of the buffer the chunk is in",
			0 },
	[COL_DIRECTION] = { "DIRECTION", SB_T_STR, 4, 0, "in: file to buffer; out: buffer to file",
			    0 },
	[COL_FILE_OFFSET] = { "FILE_OFFSET", SB_T_U64, 10, SB_COL_RIGHT,
			      "offset of the chunk in the file", 0 },
	[COL_SIZE_BYTES] = { "SIZE_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES, "bytes moved",
			     0 },
	[COL_METHOD] = { "METHOD", SB_T_STR, 8, 0, "the method that moved the bytes", 0 },
	[COL_REQUESTED] = { "REQUESTED", SB_T_STR, 8, 0, "the method asked for (--method)", 0 },
	[COL_DIRECT_BYTES] = { "DIRECT_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES,
			       "bytes moved with O_DIRECT (the rest is the unaligned tail)", 0 },
	[COL_IO_MS] = { "IO_MS", SB_T_DBL, 8, SB_COL_RIGHT, "time of the transfer in milliseconds",
			3 },
	[COL_BUFFER] = { "BUFFER", SB_T_STR, 10, 0, "PID:FD of the buffer in this process", 0 },
	[COL_FALLBACK] = { "FALLBACK", SB_T_STR, 0.3, SB_COL_WRAP,
			   "why another method ran than the one asked for", 0 },
};

/* sb_copy_method_name()'s, filled before the first parse */
static const char *method_names[SB_COPY_NMETHODS + 1];
static struct sb_cli_value opt_method = SB_CLI_ENUM_VALUE("auto", method_names);
static struct sb_cli_value opt_chunk = SB_CLI_SIZE_VALUE(NULL, 1, SB_CLI_NO_MAX);
static char *opt_name;
static int opt_verify;
static double opt_hold;

static struct poptOption table[] = {
	{ "method", 'm', SB_POPT_ARG_VALUE, &opt_method, 0, NULL, "METHOD" },
	{ "chunk-size", 's', SB_POPT_ARG_VALUE, &opt_chunk, 0,
	  "split the file over buffers of at most SIZE bytes (K, M, G suffixes)", "SIZE" },
	{ "verify", '\0', POPT_ARG_NONE, &opt_verify, 0,
	  "compare source, buffers and destination (XXH3); exit 1 naming the first differing offset",
	  NULL },
	{ "name", 'N', POPT_ARG_STRING, &opt_name, 0,
	  "name the buffers (DMA_BUF_SET_NAME, at most 31 characters)", "NAME" },
	{ "hold", '\0', POPT_ARG_DOUBLE, &opt_hold, 0,
	  "debugging aid: keep the buffers this long after the copy and print PID:FD of each",
	  SB_CLI_DURATION },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

/* The steps of a copy, as --format ktap names its tests. */
enum copy_step { STEP_ALLOCATE, STEP_TO_BUFFER, STEP_FROM_BUFFER, STEP_VERIFY, STEP_DONE };

struct job {
	struct sb_ctx *c;
	const char *src, *bufarg, *dst;
	struct sb_dmabuf_spec spec;
	enum sb_copy_method method;
	uint64_t chunk;
	int src_fd;
	char src_path[64];	/* for stdin: /proc/self/fd/0 to reopen with O_DIRECT */
	const char *src_reopen; /* NULL when the source cannot be reopened (a pipe) */
	uint64_t total;
	bool dst_stdout;
	char dst_path[4096];
	struct sb_tmpfile tmp;
	struct dmabufcp_set set;
	struct sb_out *out;
	struct sb_table *tbl;
	uint64_t *out_hash; /* DST '-': XXH3 of the bytes written per chunk, for --verify */
	bool verified_output;
	double in_ms, out_ms, verify_ms;
	struct sb_progress pg;
	uint64_t moved; /* bytes of all transfers so far, for pg */
	char note[256];
	struct sb_err e;
	enum copy_step step; /* the step running, or the one that failed */
	unsigned passed;     /* 1 << step of each step that succeeded */
};

static const char *const step_names[] = { "allocate", "to_buffer", "from_buffer", "verify" };

/* --format ktap: a test per step the command line asks for (allocate; to_buffer with a
 * source file, from_buffer with a destination; verify, skipped without --verify); the step
 * that failed says why, the ones after it are skipped. */
static void copy_tests(struct job *j, int rc)
{
	const bool asked[] = { true, j->src != NULL, j->dst != NULL, true };
	char why[SB_ERR_LINE_MAX] = "";

	if (rc)
		sb_err_format(&j->e, why, sizeof(why));
	for (int s = STEP_ALLOCATE; s < STEP_DONE; s++) {
		if (!asked[s])
			continue;
		if (s == STEP_VERIFY && !opt_verify)
			sb_out_test(j->out, NULL, step_names[s], SB_TEST_SKIP, "no --verify");
		else if (j->passed & (1u << s))
			sb_out_test(j->out, NULL, step_names[s], SB_TEST_PASS, NULL);
		else if (rc && s == (int)j->step)
			sb_out_test(j->out, NULL, step_names[s], SB_TEST_FAIL, "%s", why);
		else
			sb_out_test(j->out, NULL, step_names[s], SB_TEST_SKIP, "not run: %s failed",
				    step_names[j->step]);
	}
}

static int fail(struct job *j)
{
	return sb_report(DMABUFCP, &j->e);
}

/* A pipe is spooled into a memfd so its length is known before buffers are allocated. */
static int spool_pipe(struct job *j)
{
	int mfd = memfd_create("dmabufcp-stdin", MFD_CLOEXEC);
	char buf[1 << 16];
	uint64_t total = 0;

	if (mfd < 0)
		return sb_err_set(&j->e, errno, "stdin", "spool into memory", NULL);
	for (;;) {
		ssize_t n = read(j->src_fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR && !sb_stop_signal)
			continue;
		if (n < 0 || sb_stop_signal) {
			close(mfd);
			return sb_err_set(&j->e, n < 0 ? errno : EINTR, "stdin", "read", NULL);
		}
		if (n == 0)
			break;
		if (write(mfd, buf, (size_t)n) != n) {
			close(mfd);
			return sb_err_set(&j->e, errno, "stdin", "spool into memory", NULL);
		}
		total += (uint64_t)n;
	}
	j->src_fd = mfd;
	j->total = total;
	j->src_reopen = NULL;
	snprintf(j->note, sizeof(j->note), "stdin is a pipe: spooled into memory first");
	return 0;
}

static int open_source(struct job *j)
{
	struct stat st;

	if (!strcmp(j->src, "-")) {
		j->src_fd = 0;
		snprintf(j->src_path, sizeof(j->src_path), "/proc/self/fd/0");
		j->src_reopen = j->src_path;
	} else {
		j->src_fd = open(j->src, O_RDONLY | O_CLOEXEC);
		if (j->src_fd < 0)
			return sb_err_set(&j->e, errno, j->src, "open the source", NULL);
		j->src_reopen = j->src;
	}
	if (fstat(j->src_fd, &st))
		return sb_err_set(&j->e, errno, j->src, "stat the source", NULL);
	if (S_ISDIR(st.st_mode))
		return sb_err_set(&j->e, EISDIR, j->src, "read the source", NULL);
	if (!S_ISREG(st.st_mode) && !S_ISBLK(st.st_mode))
		return spool_pipe(j);
	if (S_ISBLK(st.st_mode)) {
		off_t end = lseek(j->src_fd, 0, SEEK_END);
		j->total = end > 0 ? (uint64_t)end : 0;
	} else {
		j->total = (uint64_t)st.st_size;
	}
	return 0;
}

static void destination_path(struct job *j)
{
	char base[256];
	struct stat st;

	if (stat(j->dst, &st) || !S_ISDIR(st.st_mode)) {
		snprintf(j->dst_path, sizeof(j->dst_path), "%s", j->dst);
		return;
	}
	if (j->src && strcmp(j->src, "-")) {
		char copy[4096];
		snprintf(copy, sizeof(copy), "%s", j->src);
		snprintf(base, sizeof(base), "%s", basename(copy));
	} else {
		snprintf(base, sizeof(base), "dmabuf-%d-%d", (int)j->spec.pid, j->spec.fd);
	}
	snprintf(j->dst_path, sizeof(j->dst_path), "%s/%s", j->dst, base);
}

static void add_row(struct job *j, long i, const char *dir, const struct sb_copy_result *res,
		    double ms)
{
	struct sb_row *r = sb_table_row(j->tbl);

	sb_row_u64(r, COL_CHUNK, (uint64_t)i);
	sb_row_str(r, COL_DIRECTION, dir);
	sb_row_u64(r, COL_FILE_OFFSET, j->set.chunks[i].file_offset);
	sb_row_u64(r, COL_SIZE_BYTES, res->bytes);
	sb_row_str(r, COL_METHOD, sb_copy_method_name(res->path.ran));
	sb_row_str(r, COL_REQUESTED, sb_copy_method_name(j->method));
	sb_row_u64(r, COL_DIRECT_BYTES, res->direct_bytes);
	sb_row_dbl(r, COL_IO_MS, ms);
	sb_row_fmt(r, COL_BUFFER, "%d:%d", (int)getpid(), j->set.bufs[i].fd);
	if (res->path.instead_of != SB_COPY_AUTO)
		sb_row_fmt(r, COL_FALLBACK, "%s fell back to %s: %s",
			   sb_copy_method_name(res->path.instead_of),
			   sb_copy_method_name(res->path.ran), res->path.why);
}

static int transfer(struct job *j, enum sb_copy_dir dir, int fd, const char *path)
{
	const char *dname = dir == SB_COPY_TO_BUF ? "in" : "out";
	enum sb_copy_method learned = SB_COPY_AUTO;

	for (long i = 0; i < j->set.n; i++) {
		const struct sb_chunk *ch = &j->set.chunks[i];
		struct sb_copy_result res = { 0 };
		struct sb_copy_req rq;
		char tried[512] = "";
		double t0 = dmabufcp_now_ms();
		int rc;

		/* stdout cannot be read back: have the bytes hashed as they are written */
		res.hash_written = j->out_hash && dir == SB_COPY_FROM_BUF;
		if (j->method != SB_COPY_AUTO &&
		    !sb_copy_method_applies(j->method, &j->set.bufs[i], path == NULL)) {
			sb_err_set(&j->e, EOPNOTSUPP, sb_copy_method_name(j->method),
				   "use this method",
				   "sendfile and splice need a udmabuf; direct, rw-file and copy-range need a regular file");
			sb_err_reason(&j->e, "does not apply to a %s buffer%s",
				      sb_dmabuf_kind_name(j->set.bufs[i].kind),
				      path ? "" : " and a pipe");
			return -EOPNOTSUPP;
		}
		rq = (struct sb_copy_req){
			.dir = dir,
			.fd = fd,
			.path = path,
			.file_off = ch->file_offset,
			.b = &j->set.bufs[i],
			.len = ch->len,
			.stop = &sb_stop_signal,
			.allow_fallback = true
		};
		if (j->method != SB_COPY_AUTO)
			rc = sb_copy_run(j->method, &rq, &res, &j->e);
		else if (learned != SB_COPY_AUTO)
			rc = sb_copy_run(learned, &rq, &res, &j->e);
		else
			rc = sb_copy_run_auto(&rq, false, &res, tried, sizeof(tried), &j->e);
		if (rc)
			return rc;
		if (res.hash_written) {
			if (!res.written_hashed) {
				sb_err_set(&j->e, EOPNOTSUPP, "-", "verify",
					   "--verify on stdout needs --method read");
				sb_err_reason(&j->e, "%s does not hash what it writes",
					      sb_copy_method_name(res.path.ran));
				return -EOPNOTSUPP;
			}
			j->out_hash[i] = res.written_hash;
		}
		if (j->method == SB_COPY_AUTO && learned == SB_COPY_AUTO) {
			learned = res.path.ran; /* later chunks go straight to what worked */
			if (tried[0])
				sb_out_note(j->out, "auto (%s): %s", dname, tried);
			sb_verbose(DMABUFCP, "auto chose %s for %s%s%s",
				   sb_copy_method_name(res.path.ran), dname,
				   tried[0] ? " after " : "", tried);
		}
		if (res.path.instead_of != SB_COPY_AUTO)
			sb_verbose(DMABUFCP, "chunk %ld: %s fell back to %s: %s", i,
				   sb_copy_method_name(res.path.instead_of),
				   sb_copy_method_name(res.path.ran), res.path.why);
		add_row(j, i, dname, &res, dmabufcp_now_ms() - t0);
		j->moved += ch->len;
		sb_progress_update(&j->pg, j->moved);
	}
	return 0;
}

static int verify(struct job *j, bool check_src, bool check_dst)
{
	const struct dmabufcp_verify v = {
		.set = &j->set,
		.src_fd = j->src_fd,
		.src = j->src,
		.dst_fd = j->dst_stdout ? -1 : j->tmp.fd,
		.dst = j->dst_stdout ? "-" : j->dst_path,
		.out_hash = j->dst_stdout ? j->out_hash : NULL,
	};
	double t0 = dmabufcp_now_ms();
	int rc = dmabufcp_verify(&v, check_src, check_dst, &j->e);

	j->verify_ms = dmabufcp_now_ms() - t0;
	j->verified_output = !rc && check_dst;
	return rc;
}

static void hold(struct job *j)
{
	/* with DST '-' stdout carries the data: the PID:FD lines must not end up in it */
	FILE *f = j->dst_stdout ? stderr : stdout;

	if (!sb_out_is_json(j->out)) {
		for (long i = 0; i < j->set.n; i++)
			fprintf(f, "%d:%d\n", (int)getpid(), j->set.bufs[i].fd);
		fflush(f);
	}
	sb_sleep(opt_hold);
}

static void fill_view(struct job *j)
{
	sb_out_field_str(j->out, "source", j->src ? j->src : j->bufarg);
	sb_out_field_str(j->out, "buffer", j->bufarg);
	if (j->dst)
		sb_out_field_str(j->out, "destination", j->dst_stdout ? "-" : j->dst_path);
	sb_out_field_u64(j->out, "size_bytes", j->total);
	sb_out_field_u64(j->out, "buffers", (uint64_t)j->set.n);
	sb_out_field_u64(j->out, "buffer_size_bytes", j->set.n ? j->set.bufs[0].size : 0);
	sb_out_field_str(j->out, "exporter", j->set.n ? j->set.bufs[0].exporter : "");
	sb_out_field_dbl(j->out, "alloc_ms", j->set.alloc_ms);
	sb_out_field_dbl(j->out, "in_ms", j->in_ms);
	sb_out_field_dbl(j->out, "out_ms", j->out_ms);
	sb_out_field_bool(j->out, "verified", opt_verify);
	if (opt_verify)
		sb_out_field_dbl(j->out, "verify_ms", j->verify_ms);
	if (opt_verify && j->dst)
		sb_out_field_bool(j->out, "verified_output", j->verified_output);
	if (j->note[0])
		sb_out_note(j->out, "%s", j->note);
}

static int classify(struct job *j)
{
	const char **a = j->c->args;
	struct sb_dmabuf_spec s[3];
	bool is[3] = { false, false, false };

	for (int i = 0; i < j->c->nargs; i++)
		is[i] = sb_dmabuf_spec_parse(a[i], &s[i]) == 0;
	if (j->c->nargs == 3 && !is[0] && is[1] && !is[2]) {
		j->src = a[0], j->bufarg = a[1], j->dst = a[2], j->spec = s[1];
		return 0;
	}
	if (j->c->nargs == 2 && !is[0] && is[1]) {
		j->src = a[0], j->bufarg = a[1], j->spec = s[1];
		return 0;
	}
	if (j->c->nargs == 2 && is[0] && !is[1]) {
		if (s[0].kind != SB_DMABUF_PIDFD)
			return sb_usage_error(
				j->c,
				"a new %s buffer holds no data to copy out: use SRC %s DST, or PID:FD DST",
				a[0], a[0]);
		j->bufarg = a[0], j->dst = a[1], j->spec = s[0];
		return 0;
	}
	return sb_usage_error(
		j->c,
		"give SRC BUF, BUF DST or SRC BUF DST, where BUF is heap:NAME, udmabuf or PID:FD");
}

static int parse_options(struct job *j)
{
	j->method = (enum sb_copy_method)opt_method.value;
	j->chunk = opt_chunk.value;
	if (opt_hold < 0)
		return sb_usage_error(j->c, "--hold must not be negative");
	/* before anything is opened: a long name used to fail only after the allocation */
	if (opt_name && (!*opt_name || strlen(opt_name) >= SB_DMA_BUF_NAME_LEN))
		return sb_usage_error(j->c,
				      "--name needs 1 to %d characters (DMA_BUF_SET_NAME), not %zu",
				      SB_DMA_BUF_NAME_LEN - 1, strlen(opt_name));
	if (j->c->nargs < 2 || j->c->nargs > 3)
		return sb_usage_error(j->c, "needs two or three arguments");
	return classify(j);
}

static int run(struct job *j)
{
	bool into = j->src != NULL, out = j->dst != NULL;
	double t0;
	int rc;

	/* a source that cannot be read fails to_buffer, before anything is allocated */
	j->step = STEP_TO_BUFFER;
	if (into && (rc = open_source(j)))
		return rc;
	if (out) {
		j->dst_stdout = !strcmp(j->dst, "-");
		if (j->dst_stdout &&
		    (sb_out_is_json(j->out) || sb_out_mode(j->out) == SB_OUT_KTAP)) {
			sb_err_set(&j->e, EINVAL, "-", "write",
				   "-J and --format ktap print on stdout: write the data to a file");
			sb_err_exit(&j->e, SB_EXIT_USAGE);
			return -EINVAL;
		}
		if (j->dst_stdout && j->method != SB_COPY_AUTO && j->method != SB_COPY_READ) {
			sb_err_set(&j->e, EOPNOTSUPP, sb_copy_method_name(j->method),
				   "write to stdout", "only 'read' (write(2)) writes to stdout");
			return -EOPNOTSUPP;
		}
	}
	j->step = STEP_ALLOCATE;
	rc = dmabufcp_set_alloc(j->c->root, &j->spec, j->total, j->chunk, opt_name, &j->set,
				j->note[0] ? j->note + strlen(j->note) : j->note,
				sizeof(j->note) - strlen(j->note), &j->e);
	if (rc)
		return rc;
	j->passed |= 1u << STEP_ALLOCATE;
	if (!into)
		j->total = j->set.bufs[0].size;
	sb_verbose(DMABUFCP, "%llu bytes over %ld %s buffer(s) of %llu bytes, allocated in %.3f ms",
		   (unsigned long long)j->total, j->set.n, j->set.bufs[0].exporter,
		   (unsigned long long)j->set.bufs[0].size, j->set.alloc_ms);
	if (!into) {
		/* The whole buffer goes out: plan it as one chunk of its size. */
		j->set.chunks[0].len = j->set.bufs[0].size;
	}
	/* a round trip moves every byte twice; progress is as fine as the chunks (-s) */
	sb_progress_start(&j->pg, sb_progress_wanted(j->c), stderr, DMABUFCP " copy",
			  SB_PROGRESS_BYTES, NULL, j->total * ((into ? 1 : 0) + (out ? 1 : 0)));
	sb_progress_update(&j->pg, 0);
	if (into) {
		j->step = STEP_TO_BUFFER;
		t0 = dmabufcp_now_ms();
		if ((rc = transfer(j, SB_COPY_TO_BUF, j->src_fd, j->src_reopen)))
			return rc;
		j->in_ms = dmabufcp_now_ms() - t0;
		j->passed |= 1u << STEP_TO_BUFFER;
	}
	if (out) {
		enum sb_copy_method asked = j->method;

		j->step = STEP_FROM_BUFFER;
		if (j->dst_stdout) {
			j->tmp.fd = 1;
			j->method = SB_COPY_READ;
			if (opt_verify &&
			    !(j->out_hash = calloc((size_t)j->set.n, sizeof(*j->out_hash))))
				return sb_err_set(&j->e, ENOMEM, "-", "verify", NULL);
		} else {
			destination_path(j);
			if ((rc = sb_tmpfile_open(&j->tmp, j->dst_path, &j->e)))
				return rc;
		}
		t0 = dmabufcp_now_ms();
		rc = transfer(j, SB_COPY_FROM_BUF, j->tmp.fd, j->dst_stdout ? NULL : j->tmp.path);
		j->method = asked;
		if (rc)
			return rc;
		j->out_ms = dmabufcp_now_ms() - t0;
	}
	j->step = STEP_VERIFY;
	if (opt_verify && (rc = verify(j, into, out)))
		return rc;
	if (opt_verify)
		j->passed |= 1u << STEP_VERIFY;
	/* from_buffer ends when the output is renamed into place */
	j->step = STEP_FROM_BUFFER;
	if (opt_verify && j->dst_stdout)
		sb_verbose(DMABUFCP,
			   "verified stdout: the bytes were hashed as write(2) took them and match the buffers");
	if (out && !j->dst_stdout && (rc = sb_tmpfile_commit(&j->tmp, &j->e)))
		return rc;
	if (out)
		j->passed |= 1u << STEP_FROM_BUFFER;
	return 0;
}

int dmabufcp_copy(struct sb_ctx *c, int argc, const char **argv)
{
	struct job j;
	int rc;

	for (int m = 0; m < SB_COPY_NMETHODS; m++)
		method_names[m] = sb_copy_method_name((enum sb_copy_method)m);
	opt_name = NULL;
	opt_verify = 0;
	opt_hold = 0;
	rc = sb_cli_parse(c, table, "SRC [BUF] DST", argc, argv, cols, NCOLS);
	if (rc)
		return rc;
	memset(&j, 0, sizeof(j));
	j.c = c;
	j.src_fd = -1;
	j.tmp.fd = -1;
	rc = parse_options(&j);
	if (rc)
		return rc;
	if ((rc = sb_cli_live(c)))
		return rc;
	sb_catch_stop_signals();
	j.out = sb_out_new(&c->out, stdout);
	if (!j.out)
		return SB_EXIT_FAIL;
	j.tbl = sb_out_table(j.out, "transfers", NULL, cols, NCOLS, true);
	rc = run(&j);
	sb_progress_end(&j.pg);
	if (rc && sb_stop_signal) {
		/* a file is renamed into place only on success; stdout may already have part of it */
		sb_err_set(&j.e, EINTR, j.dst ? j.dst : j.bufarg, "copy", NULL);
		if (j.dst_stdout)
			sb_err_hint(&j.e,
				    "part of the data may already be on standard output: discard it");
		else if (j.dst)
			sb_err_hint(&j.e, "nothing was written to the destination");
		sb_err_reason(&j.e, "interrupted by signal %d", sb_stop_signal);
		sb_err_exit(&j.e, SB_EXIT_FAIL);
	}
	if (j.tmp.fd != 1)
		sb_tmpfile_abort(&j.tmp);
	/* a usage error (DST '-' with ktap) ran no test */
	if (sb_out_mode(j.out) == SB_OUT_KTAP && !(rc && sb_err_exit_code(&j.e) == SB_EXIT_USAGE)) {
		copy_tests(&j, rc);
		sb_out_print(j.out);
	}
	if (rc) {
		rc = fail(&j);
	} else {
		fill_view(&j);
		if (sb_out_is_json(j.out) || (sb_opt.verbose && !j.dst_stdout))
			sb_out_print(j.out);
		if (opt_hold > 0)
			hold(&j);
	}
	sb_out_free(j.out);
	dmabufcp_set_free(&j.set);
	free(j.out_hash);
	if (j.src_fd > 0)
		close(j.src_fd);
	return rc;
}
