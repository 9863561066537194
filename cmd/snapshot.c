// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox snapshot OUT: the files socbox reads, for offline analysis with --sysroot. */
#include <stdio.h>

#include "socbox/escape.h"
#include "builtins.h"
#include "socbox/cli.h"
#include "socbox/limits.h"
#include "socbox/snapshot.h"

int snapshot_run(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = { SB_POPT_LIVE_ROOT, POPT_TABLEEND };
	struct sb_snap_stats st;
	struct sb_err e;
	int rc = sb_cli_parse(c, opts, "OUT[.tar]", argc, argv, NULL, 0);

	if (rc)
		return rc;
	if (c->nargs != 1 || !*c->args[0])
		return sb_usage_error(c, "needs exactly one output directory or .tar file");
	if ((rc = sb_cli_live(c)))
		return rc;
	sb_err_clear(&e);
	if (sb_snapshot_write(c->args[0], &st, &e))
		return sb_report(c->applet, &e);
	if (!sb_opt.quiet)
		sb_eprintf("socbox: snapshot %s: %zu files, %zu links, %zu directories, %llu bytes; %zu unreadable skipped",
			   c->args[0], st.files, st.links, st.dirs, st.bytes, st.skipped);
	if (!sb_opt.quiet && st.cores)
		sb_eprintf("socbox: snapshot %s: %zu devcoredump core%s kept whole (%llu bytes)",
			   c->args[0], st.cores, st.cores == 1 ? "" : "s", st.core_bytes);
	/* said even with -q: a core that is not whole is never left out silently */
	if (st.cores_cut || st.cores_left_out)
		sb_eprintf("socbox: snapshot %s: devcoredump cores: %zu cut at %u MiB, %zu left "
			   "out; socbox-snapshot.txt says which",
			   c->args[0], st.cores_cut, SB_SNAPSHOT_CORE_MAX >> 20, st.cores_left_out);
	return 0;
}
