// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat bind: a udmabuf bound to RX queues with bind-rx, held until Ctrl-C or
 * --duration (the binding lives as long as the netlink socket). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "devmemstat.h"
#include "socbox/macro.h"
#include "socbox/stats.h"

static char *bind_queues;
struct sb_cli_value dm_size = SB_CLI_SIZE_VALUE("64M", 1, SB_CLI_NO_MAX);
static double bind_duration;
enum { BD_ID, BD_IFINDEX, BD_IFNAME, BD_QUEUES, BD_SIZE };
static const struct sb_col bind_cols[] = {
	[BD_ID] = { "BINDING_ID", SB_T_U64, 0, SB_COL_RIGHT, "devmem binding id", 0 },
	[BD_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT, "interface index", 0 },
	[BD_IFNAME] = { "IFNAME", SB_T_STR, 0, 0, "interface name", 0 },
	[BD_QUEUES] = { "QUEUES", SB_T_U64V, 0, 0, "RX queues bound", 0 },
	[BD_SIZE] = { "SIZE_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES, "udmabuf size", 0 },
};
_Static_assert(ARRAY_SIZE(bind_cols) == BD_SIZE + 1, "a column for each constant");

int dm_binding_args(struct sb_ctx *c, const char *queues_arg, unsigned **queues, unsigned *nqueues,
		    uint64_t *size)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!dm_dev)
		return sb_usage_error(c, "--dev IF is required");
	if (!queues_arg)
		return sb_usage_error(c, "--queues LIST is required");
	*size = dm_size.value;
	if (*size % (uint64_t)page)
		return sb_usage_error(c, "--size must be a multiple of the page size (%ld)", page);
	if (sb_parse_list(queues_arg, 65535, queues, nqueues))
		return sb_usage_error(c, "bad queue list '%s'", queues_arg);
	return 0;
}

int dm_bind(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = {
		{ "queues", '\0', POPT_ARG_STRING, &bind_queues, 0, "RX queues to bind (e.g. 2-3)",
		  "LIST" },
		DM_POPT_SIZE,
		{ "duration", '\0', POPT_ARG_DOUBLE, &bind_duration, 0,
		  "hold this long (default: until Ctrl-C)", SB_CLI_DURATION },
		DM_POPT_NS,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct sb_genl g = { 0 };
	unsigned *queues = NULL, nqueues = 0;
	uint64_t size;
	uint32_t ifindex, id = 0;
	struct sb_out *o;
	struct sb_row *r;
	struct sb_err e;
	char name[IF_NAMESIZE];
	int rc, buf = -1;

	bind_queues = NULL;
	bind_duration = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, bind_cols, ARRAY_SIZE(bind_cols));
	if (rc)
		return rc;
	rc = dm_binding_args(c, bind_queues, &queues, &nqueues, &size);
	if (rc)
		return rc;
	if (bind_duration < 0) {
		free(queues);
		return sb_usage_error(c, "--duration must not be negative");
	}
	rc = dm_open(c, &g, &ifindex);
	if (rc) {
		free(queues);
		return rc;
	}
	sb_err_clear(&e);
	buf = sb_nd_udmabuf_alloc(size, &e);
	if (buf < 0 && e.errnum != ENOENT) {
		rc = sb_report(c->applet, &e);
		goto out;
	}
	if (buf < 0) {
		/* Without /dev/udmabuf, still ask the kernel whether this device and these queues
		 * would take one: a refusal there is the bigger problem to report. fd -1 makes
		 * the kernel fail on the fd only after its device and queue checks. */
		struct sb_err probe;
		uint32_t unused;
		int prc;

		sb_err_clear(&probe);
		prc = sb_nd_bind_rx(&g, ifindex, -1, queues, nqueues, &unused, &probe);
		sb_verbose(c->applet, "no udmabuf; bind-rx probe with fd -1 gave %d", prc);
		rc = sb_report(c->applet, prc && prc != -EBADF ? &probe : &e);
		goto out;
	}
	/* from here a signal ends the hold and the binding goes with the socket */
	sb_catch_stop_signals();
	sb_err_clear(&e);
	if (sb_nd_bind_rx(&g, ifindex, buf, queues, nqueues, &id, &e)) {
		rc = sb_report(c->applet, &e);
		goto out;
	}
	o = sb_out_new(&c->out, stdout);
	r = sb_table_row(sb_out_table(o, "bindings", NULL, bind_cols, ARRAY_SIZE(bind_cols), true));
	sb_row_u64(r, BD_ID, id);
	sb_row_u64(r, BD_IFINDEX, ifindex);
	sb_row_str(r, BD_IFNAME, dm_known(dm_ifname(ifindex, name)));
	for (unsigned i = 0; i < nqueues; i++)
		sb_row_u64v_add(r, BD_QUEUES, queues[i]);
	sb_row_u64(r, BD_SIZE, size);
	sb_out_note(o, "holding the binding %s; it ends with this process",
		    bind_duration > 0 ? "for --duration" : "until Ctrl-C");
	sb_out_print(o);
	sb_out_free(o);
	sb_sleep(bind_duration > 0 ? bind_duration : -1);
	rc = 0;
out:
	if (buf >= 0)
		close(buf);
	sb_genl_close(&g);
	free(queues);
	return rc;
}
