// SPDX-License-Identifier: GPL-2.0-or-later
/* Command-line conventions: dispatch, option parsing, exit codes, value parsers. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cli.h"
#include "testutil.h"

static int ran_list, ran_show, last_nargs;
static enum sb_out_mode last_mode;

static int run_list(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption t[] = { SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	int rc = sb_cli_parse(c, t, NULL, argc, argv, NULL, 0);
	if (rc)
		return rc;
	ran_list++;
	last_mode = c->out.mode;
	return 0;
}

static int run_show(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption t[] = { SB_POPT_LIVE, SB_POPT_COMMON, POPT_TABLEEND };
	int rc = sb_cli_parse(c, t, "NAME", argc, argv, NULL, 0);
	if (rc)
		return rc;
	ran_show++;
	last_nargs = c->nargs;
	return 0;
}

/* a command that fails with an -errno it did not report: the errno comes from its NAME */
static int run_fail(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption t[] = { SB_POPT_COMMON, POPT_TABLEEND };
	int rc = sb_cli_parse(c, t, "ERRNO", argc, argv, NULL, 0);
	if (rc)
		return rc;
	return c->nargs == 1 ? -atoi(c->args[0]) : SB_EXIT_USAGE;
}

/* a command with a duration kept in milliseconds, as rpmsgctl's -t, and one kept in seconds */
static int wait_ms;
static double hold_s;
static int run_wait(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption t[] = {
		{ "timeout", 't', POPT_ARG_INT, &wait_ms, 0, "give up after this long",
		  SB_CLI_DURATION },
		{ "hold", '\0', POPT_ARG_DOUBLE, &hold_s, 0, "hold this long", SB_CLI_DURATION },
		SB_POPT_LIVE,
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	wait_ms = -1;
	return sb_cli_parse(c, t, NULL, argc, argv, NULL, 0);
}

/* a command with typed options: a count within bounds, a size, a word of a list */
static const char *const colours[] = { "red", "green", "blue", NULL };
static struct sb_cli_value runs = SB_CLI_NUMBER_VALUE("5", 1, 1000);
static struct sb_cli_value chunk = SB_CLI_SIZE_VALUE("32M", 4096, 1ull << 30);
static struct sb_cli_value colour = SB_CLI_ENUM_VALUE("green", colours);
static struct sb_cli_value port = SB_CLI_NUMBER_VALUE(NULL, 1, 65535);
static int run_typed(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption t[] = {
		{ "runs", '\0', SB_POPT_ARG_VALUE, &runs, 0, "runs per cell", "N" },
		{ "chunk-size", 's', SB_POPT_ARG_VALUE, &chunk, 0, "bytes per buffer", "SIZE" },
		{ "colour", 'm', SB_POPT_ARG_VALUE, &colour, 0, NULL, "COLOUR" },
		{ NULL, 'p', SB_POPT_ARG_VALUE, &port, 0, "a port", "PORT" },
		SB_POPT_COMMON,
		POPT_TABLEEND,
	};
	return sb_cli_parse(c, t, NULL, argc, argv, NULL, 0);
}

static const struct sb_cmd cmds[] = {
	{ "list", run_list, NULL, "list things", 0 },
	{ "wait", run_wait, NULL, "wait for something", 0 },
	{ "typed", run_typed, NULL, "options with types", 0 },
	{ "fail", run_fail, "ERRNO", "return -ERRNO unreported", 0 },
	{ "listen", run_show, "NAME", "a verb that shares a prefix", 0 },
	{ NULL, NULL, NULL, NULL, 0 },
};

static int dispatch(int argc, const char **argv)
{
	ran_list = ran_show = last_nargs = 0;
	return sb_cli_dispatch("tool", "a test tool", cmds, "list", argc, argv);
}

START_TEST(verbs_match_exactly)
{
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "list", NULL }), 0);
	ck_assert_int_eq(ran_list, 1);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "listen", "x", NULL }), 0);
	ck_assert_int_eq(ran_show, 1);
	ck_assert_int_eq(last_nargs, 1);
	/* a prefix is not a verb, and the default command takes no arguments */
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "lis", NULL }), SB_EXIT_USAGE);
	ck_assert_int_eq(ran_list + ran_show, 0);
}
END_TEST

START_TEST(default_command_runs_without_verb)
{
	ck_assert_int_eq(dispatch(1, (const char *[]){ "tool", NULL }), 0);
	ck_assert_int_eq(ran_list, 1);
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "-J", NULL }), 0);
	ck_assert_int_eq(last_mode, SB_OUT_JSON);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "--format", "openmetrics", NULL }),
			 0);
	ck_assert_int_eq(last_mode, SB_OUT_OPENMETRICS);
}
END_TEST

START_TEST(bad_options_are_usage_errors)
{
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "list", "--bogus", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "list", "-J", "-r", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "list", "--format", "xml", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "list", "extra", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(5, (const char *[]){ "tool", "listen", "x", "-i", "-1", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "list", "--sysroot",
						       "/nonexistent/x", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(ran_list + ran_show, 0);
}
END_TEST

START_TEST(help_and_version_exit_zero)
{
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "--help", NULL }), 0);
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "--version", NULL }), 0);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "list", "--help", NULL }), 0);
	ck_assert_int_eq(ran_list, 0);
}
END_TEST

/* The dispatcher used to turn any negative return into exit 0: an unreported -errno was
 * a success. Now it is the code of the exit table, and help still exits 0. */
START_TEST(negative_returns_never_exit_zero)
{
	char eio[16], enoent[16], enodev[16], eacces[16], eperm[16];

	snprintf(eio, sizeof(eio), "%d", EIO);
	snprintf(enoent, sizeof(enoent), "%d", ENOENT);
	snprintf(enodev, sizeof(enodev), "%d", ENODEV);
	snprintf(eacces, sizeof(eacces), "%d", EACCES);
	snprintf(eperm, sizeof(eperm), "%d", EPERM);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", eio, NULL }), SB_EXIT_FAIL);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", enoent, NULL }),
			 SB_EXIT_FAIL);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", enodev, NULL }),
			 SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", eacces, NULL }),
			 SB_EXIT_PERM);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", eperm, NULL }), SB_EXIT_PERM);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "fail", "--help", NULL }), 0);
	ck_assert_int_eq(sb_cli_exit(&(struct sb_ctx){ .applet = "tool" }, SB_CLI_DONE), 0);
	ck_assert_int_eq(sb_cli_exit(&(struct sb_ctx){ .applet = "tool" }, 3), 3);
}
END_TEST

/* Durations are parsed in popt's own loop: a clustered "-vi 2s" was left to popt as a
 * number and refused, since the old argv rewriting looked at "-i" alone. */
START_TEST(durations_in_popt_loop)
{
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-vi", "2s", NULL }), 0);
	ck_assert(sb_opt.interval == 2);
	ck_assert_int_eq(sb_opt.verbose, 1);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-qt", "1.5s", NULL }), 0);
	ck_assert_int_eq(wait_ms, 1500);
	ck_assert_int_eq(sb_opt.quiet, 1);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "wait", "--timeout=250ms", NULL }),
			 0);
	ck_assert_int_eq(wait_ms, 250);
	/* a bare number is seconds whatever the option keeps: "-t 5" was 5 ms in rpmsgctl and
	 * 5 s in events */
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-t", "5", NULL }), 0);
	ck_assert_int_eq(wait_ms, 5000);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-t", "0.0001", NULL }), 0);
	ck_assert_int_eq(wait_ms, 1); /* never less than asked */
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "--hold", "5", NULL }), 0);
	ck_assert(hold_s == 5);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "--hold", "250ms", NULL }),
			 0);
	ck_assert(hold_s == 0.25);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-t", "3000000", NULL }),
			 SB_EXIT_USAGE); /* 3e9 ms: above an int */
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "wait", "-i250ms", NULL }), 0);
	ck_assert(sb_opt.interval == 0.25);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-vi", "2x", NULL }),
			 SB_EXIT_USAGE);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "wait", "-t", "99999h", NULL }),
			 SB_EXIT_USAGE);
	/* the shared tables are given back as they were */
	ck_assert_int_eq(sb_popt_live[0].argInfo & POPT_ARG_MASK, POPT_ARG_DOUBLE);
	ck_assert_ptr_eq(sb_popt_live[0].arg, &sb_opt.interval);
}
END_TEST

/* what a parse printed on stderr */
static int stderr_of(int argc, const char **argv, char **buf, size_t *len)
{
	FILE *mem = open_memstream(buf, len), *saved = stderr;
	int rc;

	ck_assert_ptr_nonnull(mem);
	stderr = mem;
	rc = dispatch(argc, argv);
	stderr = saved;
	fclose(mem);
	return rc;
}

/* Typed options are converted in popt's loop, their defaults set before each parse. */
START_TEST(typed_defaults_and_values)
{
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "typed", NULL }), 0);
	ck_assert_uint_eq(runs.value, 5);
	ck_assert(!runs.given);
	ck_assert_uint_eq(chunk.value, 32ull << 20);
	ck_assert_uint_eq(colour.value, 1);
	ck_assert_uint_eq(port.value, 0);
	ck_assert_int_eq(dispatch(7, (const char *[]){ "tool", "typed", "--runs", "1000", "-s",
						       "4K", "--colour=blue", NULL }),
			 0);
	ck_assert_uint_eq(runs.value, 1000);
	ck_assert(runs.given);
	ck_assert_uint_eq(chunk.value, 4096);
	ck_assert_uint_eq(colour.value, 2);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "typed", "-p", "0x50", NULL }), 0);
	ck_assert_uint_eq(port.value, 80);
	/* the defaults come back on the next parse */
	ck_assert_int_eq(dispatch(2, (const char *[]){ "tool", "typed", NULL }), 0);
	ck_assert_uint_eq(runs.value, 5);
	ck_assert_uint_eq(chunk.value, 32ull << 20);
	ck_assert_uint_eq(colour.value, 1);
	ck_assert_uint_eq(port.value, 0);
	ck_assert(!port.given);
}
END_TEST

/* clustered with a flag, as -vi 2s: popt's own clusters */
START_TEST(typed_options_cluster)
{
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "typed", "-vs", "1G", NULL }), 0);
	ck_assert_uint_eq(chunk.value, 1ull << 30);
	ck_assert_int_eq(sb_opt.verbose, 1);
	ck_assert_int_eq(dispatch(4, (const char *[]){ "tool", "typed", "-qm", "red", NULL }), 0);
	ck_assert_uint_eq(colour.value, 0);
	ck_assert_int_eq(sb_opt.quiet, 1);
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "typed", "-s8M", NULL }), 0);
	ck_assert_uint_eq(chunk.value, 8ull << 20);
	/* the table is given back as it was */
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "typed", "-vsx", NULL }),
			 SB_EXIT_USAGE);
}
END_TEST

/* A bad value: one usage error naming the option, the value and the bounds or words. */
START_TEST(typed_bad_values)
{
	static const struct {
		const char *argv[4];
		const char *says;
	} cases[] = {
		{ { "typed", "--runs", "0" },
		  "tool typed: --runs: '0' is out of range (1 to 1000)" },
		{ { "typed", "--runs", "1001" }, "--runs: '1001' is out of range (1 to 1000)" },
		{ { "typed", "--runs", "-1" }, "--runs: '-1' is not a whole number (1 to 1000)" },
		{ { "typed", "--runs", "5x" }, "--runs: '5x' is not a whole number" },
		{ { "typed", "--runs", "" }, "--runs: '' is not a whole number" },
		{ { "typed", "--runs", "010" }, NULL }, /* decimal, never octal: 10 */
		{ { "typed", "-s", "2G" }, "--chunk-size: '2G' is out of range (4K to 1G)" },
		{ { "typed", "-s", "100" }, "--chunk-size: '100' is out of range (4K to 1G)" },
		{ { "typed", "-s", "4Q" }, "--chunk-size: '4Q' is not a size (4096, 64K, 8M, 1G)" },
		{ { "typed", "-s", "99999999999T" }, "'99999999999T' is out of range (4K to 1G)" },
		{ { "typed", "-m", "gren" },
		  "--colour: 'gren' is not one of red, green or blue; did you mean 'green'?" },
		{ { "typed", "-m", "mauve" }, "--colour: 'mauve' is not one of red, green or blue" },
		{ { "typed", "-p", "65536" }, "-p: '65536' is out of range (1 to 65535)" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *argv[] = { "tool", cases[i].argv[0], cases[i].argv[1], cases[i].argv[2],
				       NULL };
		char *err = NULL;
		size_t len = 0, lines = 0;
		int rc = stderr_of(4, argv, &err, &len);

		for (size_t k = 0; k < len; k++)
			lines += err[k] == '\n';

		if (!cases[i].says) {
			ck_assert_int_eq(rc, 0);
			ck_assert_uint_eq(runs.value, 10);
		} else {
			ck_assert_msg(rc == SB_EXIT_USAGE, "%s %s: exit %d", argv[2], argv[3], rc);
			ck_assert_msg(strstr(err, cases[i].says), "%s %s: said '%s'", argv[2],
				      argv[3], err);
			ck_assert_msg(lines == 1, "one line: '%s'", err);
		}
		free(err);
	}
}
END_TEST

/* --help shows the default from the value, and an enum's words */
START_TEST(typed_help_shows_defaults)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len), *saved = stdout;

	ck_assert_ptr_nonnull(mem);
	stdout = mem;
	ck_assert_int_eq(dispatch(3, (const char *[]){ "tool", "typed", "--help", NULL }), 0);
	stdout = saved;
	fclose(mem);
	ck_assert_msg(strstr(buf, "--runs=N") && strstr(buf, "runs per cell (default 5)"), "%s",
		      buf);
	ck_assert_msg(strstr(buf, "--chunk-size=SIZE") &&
			      strstr(buf, "bytes per buffer (default 32M)"),
		      "%s", buf);
	ck_assert_msg(strstr(buf, "red, green or blue (default green)"), "%s", buf);
	ck_assert_msg(strstr(buf, "-p PORT") && strstr(buf, "a port\n"), "%s", buf);
	free(buf);
}
END_TEST

static char *wrapped(const char *line, unsigned width)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(fp);
	sb_err_put_wrapped(fp, line, width);
	fclose(fp);
	return buf;
}

START_TEST(messages_wrap)
{
	const char *msg = "smmustat: /sys/class/iommu: find an IOMMU: no IOMMU instance registered";
	char *s;

	s = wrapped(msg, 30);
	ck_assert_str_eq(s, "smmustat: /sys/class/iommu:\n  find an IOMMU: no IOMMU\n"
			    "  instance registered\n");
	free(s);
	/* not a terminal (0), or one too narrow to help: one line */
	s = wrapped(msg, 0);
	ck_assert_str_eq(s, "smmustat: /sys/class/iommu: find an IOMMU: no IOMMU instance "
			    "registered\n");
	free(s);
	/* a word wider than the line is never cut */
	s = wrapped("rpmsgctl: /sys/devices/platform/bus@f0000/5000000.m4fss/remoteproc: gone", 24);
	ck_assert_str_eq(s,
			 "rpmsgctl:\n  /sys/devices/platform/bus@f0000/5000000.m4fss/remoteproc:\n"
			 "  gone\n");
	free(s);
	/* width in characters, not bytes */
	s = wrapped("dmabufcp: caf\xc3\xa9 caf\xc3\xa9 caf\xc3\xa9 caf\xc3\xa9", 24);
	ck_assert_str_eq(s, "dmabufcp: caf\xc3\xa9 caf\xc3\xa9 caf\xc3\xa9\n  caf\xc3\xa9\n");
	free(s);
}
END_TEST

START_TEST(durations)
{
	double s;

	ck_assert_int_eq(sb_parse_duration("500ms", 1, &s), 0);
	ck_assert(s == 0.5);
	ck_assert_int_eq(sb_parse_duration("2s", 1e-3, &s), 0);
	ck_assert(s == 2);
	ck_assert_int_eq(sb_parse_duration("1.5m", 1, &s), 0);
	ck_assert(s == 90);
	ck_assert_int_eq(sb_parse_duration("1h", 1, &s), 0);
	ck_assert(s == 3600);
	ck_assert_int_eq(sb_parse_duration("250us", 1, &s), 0);
	ck_assert(s > 0.000249 && s < 0.000251);
	/* a bare number keeps the option's own unit */
	ck_assert_int_eq(sb_parse_duration("1500", 1e-3, &s), 0);
	ck_assert(s == 1.5);
	ck_assert_int_eq(sb_parse_duration("3", 1, &s), 0);
	ck_assert(s == 3);
	ck_assert_int_eq(sb_parse_duration("-1s", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration("2x", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration("s", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration("", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration("infs", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration("1e999s", 1, &s), -EINVAL);
	ck_assert_int_eq(sb_parse_duration(NULL, 1, &s), -EINVAL);
}
END_TEST

START_TEST(sizes)
{
	uint64_t v;

	ck_assert_int_eq(sb_parse_size("4096", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(sb_parse_size("32M", &v), 0);
	ck_assert_uint_eq(v, 32u << 20);
	ck_assert_int_eq(sb_parse_size("1GiB", &v), 0);
	ck_assert_uint_eq(v, 1u << 30);
	ck_assert_int_eq(sb_parse_size("0x1000", &v), 0);
	ck_assert_uint_eq(v, 4096);
	ck_assert_int_eq(sb_parse_size("6GiB", &v), 0); /* past 32 bits on armhf too */
	ck_assert_uint_eq(v, 6ull << 30);
	ck_assert_int_eq(sb_parse_size("12X", &v), -EINVAL);
	ck_assert_int_eq(sb_parse_size("-1", &v), -EINVAL);
	ck_assert_int_eq(sb_parse_size("", &v), -EINVAL);
	ck_assert_int_eq(sb_parse_size("99999999999T", &v), -ERANGE);
}
END_TEST

/* A size reads numbers as sb_parse_u64 does: decimal unless 0x, never octal. */
START_TEST(sizes_are_never_octal)
{
	uint64_t v = 7;

	ck_assert_int_eq(sb_parse_size("010", &v), 0);
	ck_assert_uint_eq(v, 10);
	ck_assert_int_eq(sb_parse_size("010K", &v), 0);
	ck_assert_uint_eq(v, 10u << 10);
	ck_assert_int_eq(sb_parse_size("08", &v), 0);
	ck_assert_uint_eq(v, 8);
	ck_assert_int_eq(sb_parse_size("0X10", &v), 0);
	ck_assert_uint_eq(v, 16);
	v = 7;
	ck_assert_int_eq(sb_parse_size("0x-5", &v), -EINVAL);
	ck_assert_int_eq(sb_parse_size("0x", &v), -EINVAL);
	ck_assert_uint_eq(v, 7);
}
END_TEST

START_TEST(lists)
{
	unsigned *v, n;

	ck_assert_int_eq(sb_parse_list("0-3,8,2", 63, &v, &n), 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_uint_eq(v[0], 0);
	ck_assert_uint_eq(v[3], 3);
	ck_assert_uint_eq(v[4], 8);
	free(v);
	ck_assert_int_eq(sb_parse_list("3-1", 63, &v, &n), -EINVAL);
	ck_assert_int_eq(sb_parse_list("64", 63, &v, &n), -EINVAL);
	ck_assert_int_eq(sb_parse_list("1,,2", 63, &v, &n), -EINVAL);
	ck_assert_int_eq(sb_parse_list("a", 63, &v, &n), -EINVAL);
	ck_assert_int_eq(sb_parse_list("", 63, &v, &n), -EINVAL);
}
END_TEST

START_TEST(errors_map_to_exit_codes)
{
	struct sb_err e;
	char buf[512];

	ck_assert_int_eq(sb_exit_from_errno(EACCES), SB_EXIT_PERM);
	ck_assert_int_eq(sb_exit_from_errno(ENOTTY), SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(sb_exit_from_errno(EIO), SB_EXIT_FAIL);
	ck_assert_int_eq(sb_err_set(&e, ENOENT, "/dev/rpmsg_ctrl0", "open", "modprobe %s",
				    "rpmsg_ctrl"),
			 -ENOENT);
	sb_err_format(&e, buf, sizeof(buf));
	ck_assert_str_eq(buf,
			 "/dev/rpmsg_ctrl0: open: No such file or directory (modprobe rpmsg_ctrl)");
	sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
	ck_assert_int_eq(sb_err_exit_code(&e), SB_EXIT_UNSUPPORTED);
	sb_err_reason(&e, "kernel says no");
	sb_err_format(&e, buf, sizeof(buf));
	ck_assert_str_eq(buf, "/dev/rpmsg_ctrl0: open: kernel says no (modprobe rpmsg_ctrl)");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, verbs_match_exactly);
	tcase_add_test(tc, default_command_runs_without_verb);
	tcase_add_test(tc, bad_options_are_usage_errors);
	tcase_add_test(tc, help_and_version_exit_zero);
	tcase_add_test(tc, negative_returns_never_exit_zero);
	tcase_add_test(tc, durations);
	tcase_add_test(tc, durations_in_popt_loop);
	tcase_add_test(tc, typed_defaults_and_values);
	tcase_add_test(tc, typed_options_cluster);
	tcase_add_test(tc, typed_bad_values);
	tcase_add_test(tc, typed_help_shows_defaults);
	tcase_add_test(tc, messages_wrap);
	tcase_add_test(tc, sizes);
	tcase_add_test(tc, sizes_are_never_octal);
	tcase_add_test(tc, lists);
	tcase_add_test(tc, errors_map_to_exit_codes);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
