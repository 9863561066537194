// SPDX-License-Identifier: GPL-2.0-or-later
/* smmustat events: IOMMU faults and events from the kernel log, grouped by device and kind
 * (or listed one by one with --list); --follow prints new ones as they are logged. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <xxhash.h>

#include "socbox/iommu_sid.h"
#include "socbox/macro.h"
#include "smmustat.h"

enum {
	E_DEVICE,
	E_INSTANCE,
	E_SOURCE,
	E_CLASS,
	E_KIND,
	E_COUNT,
	E_FIRST,
	E_LAST,
	E_ADDR,
	E_REASON,
	E_SID
};
static const struct sb_col summary_cols[] = {
	[E_DEVICE] = { "DEVICE", SB_T_STR, 0, SB_COL_LABEL,
		       "faulting client: as logged, else the device the firmware gives the stream id, else 'sid 0x..'",
		       0 },
	[E_INSTANCE] = { "INSTANCE", SB_T_STR, 0, SB_COL_LABEL,
			 "IOMMU instance that reported it, as smmustat names it (NAME)", 0 },
	[E_SOURCE] = { "SOURCE", SB_T_STR, 0, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
		       "IOMMU that reported it as the log names it (its device, DMAR, AMD-Vi)", 0 },
	[E_CLASS] = { "CLASS", SB_T_STR, 0, 0,
		      "whose problem: dma-fault (the master's mapping), stream-config (the "
		      "firmware's stream IDs), smmu-error (the SMMU itself), intr-remap-fault",
		      0 },
	[E_KIND] = { "KIND", SB_T_STR, 0, SB_COL_LABEL,
		     "event or fault kind (F_TRANSLATION, DMA Read, IO_PAGE_FAULT, ...)", 0 },
	[E_COUNT] = { "COUNT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_COUNTER, "records in the log", 0 },
	/* FIRST_S hidden from the table (JSON keeps it): REASON gets the room at 80 columns */
	[E_FIRST] = { "FIRST_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
		      "first record, seconds since boot", 3 },
	[E_LAST] = { "LAST_S", SB_T_DBL, 0, SB_COL_RIGHT | SB_COL_METRIC,
		     "last record, seconds since boot", 3 },
	[E_ADDR] = { "LAST_ADDR", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
		     "address of the last record", 0 },
	[E_REASON] = { "REASON", SB_T_STR, 0.25, SB_COL_WRAP,
		       "reason or qualifier of the last record", 0 },
	[E_SID] = { "SID", SB_T_STR, 0, SB_COL_HIDDEN, "stream id of the last record (SMMU)", 0 },
};

enum {
	L_TIME,
	L_INSTANCE,
	L_SOURCE,
	L_DEVICE,
	L_SID,
	L_CLASS,
	L_KIND,
	L_ADDR,
	L_REASON,
	L_NAMED_BY
};
static const struct sb_col list_cols[] = {
	[L_TIME] = { "TIME_S", SB_T_DBL, 0, SB_COL_RIGHT, "seconds since boot", 3 },
	[L_INSTANCE] = { "INSTANCE", SB_T_STR, 0, 0,
			 "IOMMU instance that reported it, as smmustat names it (NAME)", 0 },
	[L_SOURCE] = { "SOURCE", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
		       "IOMMU that reported it as the log names it", 0 },
	[L_DEVICE] = { "DEVICE", SB_T_STR, 0, 0, "faulting client (see NAMED_BY)", 0 },
	[L_SID] = { "SID", SB_T_STR, 0, 0, "stream id (SMMU)", 0 },
	/* CLASS hidden from the list (JSON keeps it): the identifiers fill 80 columns */
	[L_CLASS] = { "CLASS", SB_T_STR, 0, SB_COL_HIDDEN | SB_COL_JSON,
		      "dma-fault, stream-config, smmu-error or intr-remap-fault", 0 },
	[L_KIND] = { "KIND", SB_T_STR, 0, 0, "event or fault kind", 0 },
	[L_ADDR] = { "ADDR", SB_T_STR, 0, 0, "faulting address", 0 },
	[L_REASON] = { "REASON", SB_T_STR, 0.3, SB_COL_WRAP,
		       "reason or qualifier ('unpriv data read s1 \"CD fetch\" stag: 0x0')", 0 },
	[L_NAMED_BY] = { "NAMED_BY", SB_T_STR, 0, SB_COL_HIDDEN,
			 "where DEVICE comes from: log, firmware (the stream id in the device tree or IORT), - none",
			 0 },
};

static int opt_list;

static struct poptOption event_opts[] = {
	{ "list", 'l', POPT_ARG_NONE, &opt_list, 0, "one row per record instead of the summary",
	  NULL },
	SB_POPT_FOLLOW("wait for new records and print each (live; -c N stops after N)"),
	SB_POPT_LIVE,
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

static void list_row(struct sb_table *t, const struct sb_iommu_event *ev)
{
	struct sb_row *row = sb_table_row(t);

	if (ev->has_ts)
		sb_row_dbl(row, L_TIME, (double)ev->ts_us / 1e6);
	if (ev->instance[0])
		sb_row_str(row, L_INSTANCE, ev->instance);
	if (ev->source[0])
		sb_row_str(row, L_SOURCE, ev->source);
	if (sb_iommu_event_device(ev))
		sb_row_str(row, L_DEVICE, ev->device);
	if (ev->has_sid)
		sb_row_fmt(row, L_SID, "0x%x", ev->sid);
	if (ev->client_known || ev->named_by_firmware)
		sb_row_str(row, L_NAMED_BY, ev->client_known ? "log" : "firmware");
	sb_row_str(row, L_CLASS, sb_iommu_class_name(sb_iommu_event_class(ev)));
	sb_row_str(row, L_KIND, ev->kind);
	if (ev->has_addr)
		sb_row_fmt(row, L_ADDR, "0x%llx", (unsigned long long)ev->addr);
	if (ev->reason[0])
		sb_row_str(row, L_REASON, ev->reason);
}

static bool same_group(const struct sb_iommu_event *a, const struct sb_iommu_event *b)
{
	return !strcmp(a->device, b->device) && !strcmp(a->source, b->source) &&
	       !strcmp(a->kind, b->kind);
}

/* The records of the log: each of them for --list (in time order), else their groups
 * (same_group()): the first and last record of each and how many, in the order the groups
 * first came. Groups are found through a hash of their key, so a log of many groups stays
 * linear. */
struct group {
	struct sb_iommu_event first, last;
	uint64_t count;
	uint64_t hash;
};
struct collected {
	struct sb_sid_namer *names;
	bool list;
	struct sb_iommu_event *ev; /* --list */
	size_t n, cap;
	struct group *g;
	size_t ng, capg;
	size_t *slot; /* open addressing: index + 1 into g, 0 free */
	size_t nslots;
	uint64_t records;
};

static uint64_t group_hash(const struct sb_iommu_event *ev)
{
	return XXH3_64bits(ev->device, strlen(ev->device)) ^
	       XXH3_64bits(ev->source, strlen(ev->source)) * 31 ^
	       XXH3_64bits(ev->kind, strlen(ev->kind)) * 0x9e3779b97f4a7c15ull;
}

static int reindex(struct collected *c, size_t n)
{
	size_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	free(c->slot);
	c->slot = s;
	c->nslots = n;
	for (size_t i = 0; i < c->ng; i++) {
		size_t k = c->g[i].hash & (n - 1);

		while (s[k])
			k = (k + 1) & (n - 1);
		s[k] = i + 1;
	}
	return 0;
}

static int group_add(struct collected *c, const struct sb_iommu_event *ev)
{
	uint64_t h = group_hash(ev);
	size_t k, i;
	struct group *g;

	if (2 * (c->ng + 1) > c->nslots && reindex(c, c->nslots ? c->nslots * 2 : 64))
		return -ENOMEM;
	for (k = h & (c->nslots - 1); c->slot[k]; k = (k + 1) & (c->nslots - 1)) {
		g = &c->g[c->slot[k] - 1];
		if (g->hash == h && same_group(&g->first, ev)) {
			g->count++;
			if (ev->has_ts && g->first.has_ts && ev->ts_us < g->first.ts_us)
				g->first = *ev;
			if (!(ev->has_ts && g->last.has_ts && ev->ts_us < g->last.ts_us))
				g->last = *ev;
			return 0;
		}
	}
	if (c->ng == c->capg) {
		size_t cap = c->capg ? c->capg * 2 : 16;
		void *n = reallocarray(c->g, cap, sizeof(*c->g));

		if (!n)
			return -ENOMEM;
		c->g = n;
		c->capg = cap;
	}
	/* in time order of their first records, as sb_iommu_event_push() orders records */
	for (i = c->ng;
	     i > 0 && c->g[i - 1].first.has_ts && ev->has_ts && c->g[i - 1].first.ts_us > ev->ts_us;
	     i--)
		c->g[i] = c->g[i - 1];
	c->g[i] = (struct group){ *ev, *ev, 1, h };
	c->ng++;
	if (i + 1 < c->ng) /* the groups after it moved */
		return reindex(c, c->nslots);
	c->slot[k] = c->ng;
	return 0;
}

static int collect_event(void *arg, const struct sb_iommu_event *ev)
{
	struct collected *c = arg;
	struct sb_iommu_event named = *ev;

	c->records++;
	sb_sid_namer_name(c->names, &named);
	if (c->list)
		return sb_iommu_event_push(&c->ev, &c->n, &c->cap, &named);
	return group_add(c, &named);
}

static void collected_free(struct collected *c)
{
	free(c->ev);
	free(c->g);
	free(c->slot);
}

static void summary_rows(struct sb_table *t, const struct collected *c)
{
	for (size_t i = 0; i < c->ng; i++) {
		const struct sb_iommu_event *first = &c->g[i].first, *last = &c->g[i].last;
		struct sb_row *row = sb_table_row(t);

		if (sb_iommu_event_device(first))
			sb_row_str(row, E_DEVICE, first->device);
		if (first->instance[0])
			sb_row_str(row, E_INSTANCE, first->instance);
		if (first->source[0])
			sb_row_str(row, E_SOURCE, first->source);
		sb_row_str(row, E_CLASS, sb_iommu_class_name(sb_iommu_event_class(first)));
		sb_row_str(row, E_KIND, first->kind);
		sb_row_u64(row, E_COUNT, c->g[i].count);
		if (first->has_ts)
			sb_row_dbl(row, E_FIRST, (double)first->ts_us / 1e6);
		if (last->has_ts)
			sb_row_dbl(row, E_LAST, (double)last->ts_us / 1e6);
		if (last->has_addr)
			sb_row_fmt(row, E_ADDR, "0x%llx", (unsigned long long)last->addr);
		if (last->reason[0])
			sb_row_str(row, E_REASON, last->reason);
		if (last->has_sid)
			sb_row_fmt(row, E_SID, "0x%x", last->sid);
	}
}

/* How long a record that more lines may complete (an SMMUv3 raw dump, which newer kernels
 * follow with a decoded line and a qualifier) waits when the log goes quiet. The kernel writes
 * those lines back to back, so this only delays the records of older kernels. */
#define FOLLOW_SETTLE_MS 500

struct follower {
	struct sb_ctx *c;
	struct sb_sid_namer *names;
	int printed;
	bool headings_done;
};

/* One record as one row: the header before the first only (like devmemstat monitor), a
 * JSON object per record with -J. */
static int follow_print(struct follower *f, struct sb_iommu_event *ev)
{
	struct sb_out_opts opts = f->c->out;
	struct sb_out *o;
	int rc;

	sb_sid_namer_name(f->names, ev);
	opts.noheadings = opts.noheadings || f->headings_done;
	o = sb_out_new(&opts, stdout);
	list_row(sb_out_table(o, "events", NULL, list_cols, ARRAY_SIZE(list_cols), true), ev);
	rc = sb_out_print(o);
	sb_out_free(o);
	fflush(stdout);
	f->headings_done = true;
	f->printed++;
	return rc ? SB_EXIT_FAIL : 0;
}

static bool follow_done(const struct follower *f)
{
	return sb_opt.count && f->printed >= sb_opt.count;
}

static int follow(struct sb_ctx *c)
{
	struct follower f = { .c = c };
	struct sb_iommu_evasm a;
	struct sb_iommu_event done[SB_IOMMU_EVASM_OUT];
	struct sb_kmsg_follow kf;
	struct sb_err e;
	int rc = 0;

	sb_err_clear(&e);
	if (sb_kmsg_follow_open(&kf, &e))
		return sb_report(c->applet, &e);
	sb_iommu_evasm_init(&a);
	sb_catch_stop_signals();
	if (sb_sid_namer_open(c->root, &f.names))
		f.names = NULL;
	sb_verbose(c->applet, "events: following /dev/kmsg from its end");
	while (!rc && !follow_done(&f)) {
		struct sb_kmsg_line l;
		int r = sb_kmsg_follow_next(&kf, &l,
					    sb_iommu_evasm_pending(&a) ? FOLLOW_SETTLE_MS : -1);
		size_t n = 0;

		if (r == -ETIMEDOUT) {
			while (!rc && !follow_done(&f) && sb_iommu_evasm_flush(&a, &done[0]))
				rc = follow_print(&f, &done[0]);
			continue;
		}
		if (r == -EINTR && sb_stop_signal)
			break;
		if (r) {
			sb_err_set(&e, -r, "/dev/kmsg", "read", NULL);
			rc = sb_report(c->applet, &e);
			break;
		}
		n = sb_iommu_evasm_feed(&a, &l, done);
		for (size_t i = 0; i < n && !rc && !follow_done(&f); i++)
			rc = follow_print(&f, &done[i]);
	}
	sb_kmsg_follow_close(&kf);
	sb_sid_namer_close(f.names);
	return sb_stop_status(rc);
}

int smmustat_events(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_iommu_event *ev;
	struct collected col = { 0 };
	struct sb_kmsg_info info;
	struct sb_out *o;
	struct sb_err e;
	struct sb_sid_namer *names;
	uint64_t suppressed;
	size_t n;
	int rc;

	opt_list = 0;
	rc = sb_cli_parse(c, event_opts, NULL, argc, argv, NULL, 0);
	if (rc)
		return rc;
	/* The column set depends on --list, known only now. */
	if (c->out.list_columns) {
		if (opt_list || sb_opt.follow)
			sb_out_list_columns(&c->out, stdout, list_cols, ARRAY_SIZE(list_cols));
		else
			sb_out_list_columns(&c->out, stdout, summary_cols, ARRAY_SIZE(summary_cols));
		return SB_CLI_DONE;
	}
	sb_err_clear(&e);
	if (opt_list || sb_opt.follow) {
		if (sb_out_check_columns(c->out.columns, list_cols, ARRAY_SIZE(list_cols), &e))
			return sb_usage_columns(c, &e, list_cols, ARRAY_SIZE(list_cols));
	} else if (sb_out_check_columns(c->out.columns, summary_cols, ARRAY_SIZE(summary_cols),
					&e)) {
		return sb_usage_columns(c, &e, summary_cols, ARRAY_SIZE(summary_cols));
	}
	if (sb_opt.follow) {
		return sb_need_live(c, "--follow") ?: follow(c);
	}
	/* no IOMMU, no IOMMU events: the answer of smmustat and groups, not an empty table */
	{
		struct sb_iommu *inst = NULL;
		size_t ninst = 0;

		if (sb_iommu_list(c->root, &inst, &ninst, NULL))
			ninst = 0;
		free(inst);
		if (!ninst)
			return smmustat_no_iommu(c);
	}
	/* the log a line at a time: every record for --list, else only the groups */
	sb_err_clear(&e);
	if (sb_sid_namer_open(c->root, &names))
		names = NULL;
	col.names = names;
	col.list = opt_list;
	rc = sb_iommu_events_each(c->root, collect_event, &col, &info, &suppressed, &e);
	sb_sid_namer_close(names);
	if (rc == -ENOMEM)
		sb_err_set(&e, ENOMEM, "kernel log", "collect events", NULL);
	if (rc) {
		collected_free(&col);
		return sb_report(c->applet, &e);
	}
	ev = col.ev;
	n = col.records;
	o = sb_out_new(&c->out, stdout);
	sb_out_field_u64(o, "records", n);
	sb_out_field_str(o, "log_source", info.source);
	if (opt_list) {
		struct sb_table *t = sb_out_table(o, "events", NULL, list_cols,
						  ARRAY_SIZE(list_cols), true);

		for (size_t i = 0; i < n; i++)
			list_row(t, &ev[i]);
	} else {
		summary_rows(sb_out_table(o, "event_groups", NULL, summary_cols,
					  ARRAY_SIZE(summary_cols), true),
			     &col);
	}
	sb_out_field_u64(o, "suppressed", suppressed);
	if (!n)
		sb_out_note(o, "no IOMMU fault or event records in the kernel log (%zu lines read)",
			    (size_t)info.lines);
	if (suppressed)
		sb_out_note(o,
			    "the kernel's rate limit suppressed %llu more SMMUv3 event dumps (not counted above)",
			    (unsigned long long)suppressed);
	rc = sb_out_print(o) ? SB_EXIT_FAIL : 0;
	sb_out_free(o);
	collected_free(&col);
	return rc;
}
