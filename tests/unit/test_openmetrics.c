// SPDX-License-Identifier: GPL-2.0-or-later
/* The metrics renderers (lib/framework/out_openmetrics.c): names, counters, units, state
 * sets, escaping, and the differences between OpenMetrics and Prometheus text. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/macro.h"
#include "socbox/out.h"
#include "testutil.h"

enum { C_DEV, C_STATE, C_IRQS, C_LAT, C_TOTAL_REQ, C_LEAKS, C_RATE, C_UP, C_TAGS };
static const struct sb_col cols[] = {
	[C_DEV] = { "DEV", SB_T_STR, 0, SB_COL_LABEL, "device", 0 },
	[C_STATE] = { "STATE", SB_T_STR, 0, SB_COL_METRIC, "state \"now\"", 0 },
	[C_IRQS] = { "TOTAL", SB_T_U64, 0, SB_COL_COUNTER, "interrupts", 0 },
	[C_LAT] = { "LAT_US", SB_T_U64, 0, SB_COL_METRIC, "latency", 0 },
	[C_TOTAL_REQ] = { "TOTAL_REQUESTS", SB_T_U64, 0, SB_COL_COUNTER, "requests", 0 },
	[C_LEAKS] = { "LEAK_COUNT", SB_T_U64, 0, SB_COL_METRIC, "leaks\\now", 0 },
	[C_RATE] = { "RATE_PER_S", SB_T_DBL, 0, SB_COL_METRIC, "rate", 0 },
	[C_UP] = { "UP", SB_T_BOOL, 0, SB_COL_METRIC, "up", 0 },
	[C_TAGS] = { "TAGS", SB_T_STRV, 0, SB_COL_METRIC, "lists are not metrics", 0 },
};
static const char *const states[] = { "on", "off", NULL };

static char *render(enum sb_out_mode mode, const char *dev, double rate)
{
	struct sb_out_opts o = { .mode = mode, .metrics_ns = "t" };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);
	struct sb_table *t = sb_out_table(out, "devs", NULL, cols, ARRAY_SIZE(cols), true);
	struct sb_row *r = sb_table_row(t);

	sb_table_states(t, C_STATE, states);
	sb_row_str(r, C_DEV, dev);
	sb_row_str(r, C_STATE, "on");
	sb_row_u64(r, C_IRQS, 7);
	sb_row_u64(r, C_LAT, 1500);
	sb_row_u64(r, C_TOTAL_REQ, 9);
	sb_row_u64(r, C_LEAKS, 2);
	sb_row_dbl(r, C_RATE, rate);
	sb_row_bool(r, C_UP, true);
	sb_row_strv_add(r, C_TAGS, "x");
	r = sb_table_row(t);
	sb_row_str(r, C_DEV, "b");
	sb_row_str(r, C_STATE, "exploded"); /* a state the list does not have */
	sb_out_field_u64(out, "interval_ms", 250);
	sb_out_field_str(out, "kernel", "6.6");
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	return buf;
}

#define HAS(s, x) ck_assert_msg(strstr(s, x), "missing %s in\n%s", x, s)
#define HASNT(s, x) ck_assert_msg(!strstr(s, x), "unexpected %s in\n%s", x, s)

START_TEST(openmetrics_names_and_types)
{
	char *s = render(SB_OUT_OPENMETRICS, "a", 1.5);

	HAS(s, "# HELP socbox_t_devs devs: interrupts\n# TYPE socbox_t_devs counter\n");
	HAS(s, "socbox_t_devs_total{dev=\"a\"} 7\n");
	HAS(s, "# TYPE socbox_t_devs_requests counter\n");
	HAS(s, "socbox_t_devs_requests_total{dev=\"a\"} 9\n");
	HAS(s, "# HELP socbox_t_devs_lat_seconds devs: latency (in seconds)\n");
	HAS(s, "# UNIT socbox_t_devs_lat_seconds seconds\n");
	HAS(s, "socbox_t_devs_lat_seconds{dev=\"a\"} 0.0015\n");
	HAS(s, "socbox_t_devs_leak{dev=\"a\"} 2\n");
	HAS(s, "# HELP socbox_t_devs_leak devs: leaks\\\\now\n");
	HAS(s, "socbox_t_devs_rate_per_second{dev=\"a\"} 1.5\n");
	HAS(s, "socbox_t_devs_up{dev=\"a\"} 1\n");
	HAS(s, "# HELP socbox_t_devs_state devs: state \\\"now\\\"\n");
	HAS(s, "socbox_t_devs_state{dev=\"a\",state=\"on\"} 1\n");
	HAS(s, "socbox_t_devs_state{dev=\"a\",state=\"off\"} 0\n");
	HAS(s, "socbox_t_devs_state{dev=\"b\",state=\"exploded\"} 1\n");
	HAS(s, "socbox_t_interval_seconds 0.25\n");
	HASNT(s, "tags");
	HASNT(s, "kernel");
	ck_assert_str_eq(s + strlen(s) - 6, "# EOF\n");
	free(s);
}
END_TEST

START_TEST(prometheus_names_counters_by_sample)
{
	char *s = render(SB_OUT_PROMETHEUS, "a", 1.5);

	HAS(s, "# HELP socbox_t_devs_total devs: interrupts\n# TYPE socbox_t_devs_total counter\n");
	HAS(s, "# HELP socbox_t_devs_state devs: state \"now\"\n");
	HASNT(s, "# UNIT");
	HASNT(s, "# EOF");
	free(s);
}
END_TEST

START_TEST(label_values_escaped)
{
	char *s = render(SB_OUT_OPENMETRICS, "q\"b\\s\nn\033\xff", NAN);

	/* control characters and bad UTF-8 as \xHH text (the backslash then escaped) */
	HAS(s, "{dev=\"q\\\"b\\\\s\\\\x0an\\\\x1b\\\\xff\"}");
	HAS(s, "_rate_per_second{dev=\"q");
	HAS(s, "} NaN\n");
	free(s);
	s = render(SB_OUT_PROMETHEUS, "a", INFINITY);
	HAS(s, "socbox_t_devs_rate_per_second{dev=\"a\"} +Inf\n");
	free(s);
}
END_TEST

START_TEST(no_namespace_no_rows)
{
	struct sb_out_opts o = { .mode = SB_OUT_PROMETHEUS };
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	struct sb_out *out = sb_out_new(&o, fp);

	sb_out_table(out, "devs", NULL, cols, ARRAY_SIZE(cols), true);
	ck_assert_int_eq(sb_out_print(out), 0);
	sb_out_free(out);
	fclose(fp);
	/* a family without samples still says what it is */
	HAS(buf, "# HELP socbox_devs_up devs: up\n# TYPE socbox_devs_up gauge\n");
	ck_assert(sb_out_mode_is_metrics(SB_OUT_OPENMETRICS));
	ck_assert(!sb_out_mode_is_metrics(SB_OUT_JSON));
	free(buf);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("openmetrics");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, openmetrics_names_and_types);
	tcase_add_test(tc, prometheus_names_counters_by_sample);
	tcase_add_test(tc, label_values_escaped);
	tcase_add_test(tc, no_namespace_no_rows);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
