// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat bindings: binding id -> device -> RX queues -> page pools -> inflight memory,
 * and the pools that were detached from their device but still hold memory. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include "socbox/escape.h"
#include "socbox/macro.h"
#include "devmemstat_views.h"

enum { B_ID, B_IFINDEX, B_IFNAME, B_RXQ, B_POOLS, B_INFLIGHT, B_MEM, B_LEAKED, B_LEAKED_N };
static const struct sb_col binding_cols[] = {
	[B_ID] = { "BINDING_ID", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL,
		   "devmem dma-buf binding id", 0 },
	[B_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL,
			"interface index (0: device gone)", 0 },
	[B_IFNAME] = { "IFNAME", SB_T_STR, 0, SB_COL_LABEL, "interface name", 0 },
	[B_RXQ] = { "RX_QUEUES", SB_T_U64V, 0, 0, "RX queues bound", 0 },
	[B_POOLS] = { "POOLS", SB_T_U64V, 0, 0, "page pools fed by the binding", 0 },
	/* pages hidden from the table (JSON keeps them): the memory says it at 80 columns */
	[B_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0,
			 SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			 "pages in flight, all its pools", 0 },
	[B_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_BYTES,
		    "memory in flight, all its pools", 0 },
	[B_LEAKED] = { "LEAKED_POOLS", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		       "its pools detached but still holding memory", 0 },
	/* JSON: "leaked_pools" is the array of leaked pools at the top level, so a binding's
	 * count of them is leaked_pools_count there too (its leaked_pools stays, deprecated) */
	[B_LEAKED_N] = { "LEAKED_POOLS_COUNT", SB_T_U64, 0,
			 SB_COL_RIGHT | SB_COL_HIDDEN | SB_COL_JSON,
			 "its pools detached but still holding memory (JSON's name)", 0 },
};
_Static_assert(ARRAY_SIZE(binding_cols) == B_LEAKED_N + 1, "a column for each constant");

enum { L_ID, L_IFINDEX, L_DMABUF, L_INFLIGHT, L_MEM, L_AGE };
static const struct sb_col leak_cols[] = {
	[L_ID] = { "POOL_ID", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL, "page pool id", 0 },
	[L_IFINDEX] = { "IFINDEX", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_LABEL,
			"interface index it had (0: device gone)", 0 },
	[L_DMABUF] = { "DMABUF", SB_T_U64, 0, SB_COL_RIGHT, "devmem binding id, if any", 0 },
	[L_INFLIGHT] = { "INFLIGHT", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
			 "pages not returned", 0 },
	[L_MEM] = { "INFLIGHT_MEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC | SB_COL_BYTES,
		    "memory not returned", 0 },
	[L_AGE] = { "DETACHED_S", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_METRIC,
		    "seconds since the detach", 0 },
};
_Static_assert(ARRAY_SIZE(leak_cols) == L_AGE + 1, "a column for each constant");

/* Binding ids seen on queues or pools, each once. */
static size_t binding_ids(const struct sb_nd_state *st, uint32_t *ids, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < st->nqueues + st->npools; i++) {
		uint32_t id = i < st->nqueues ? st->queues[i].dmabuf
					      : (st->pools[i - st->nqueues].has & SB_ND_POOL_DMABUF
							 ? st->pools[i - st->nqueues].dmabuf
							 : 0);
		bool seen = false;
		if (!id)
			continue;
		for (size_t k = 0; k < n; k++)
			seen |= ids[k] == id;
		if (!seen && n < max)
			ids[n++] = id;
	}
	return n;
}

static void binding_row(struct sb_table *t, const struct sb_nd_state *st, uint32_t id, uint64_t now)
{
	struct sb_row *r = sb_table_row(t);
	char name[IF_NAMESIZE];
	uint32_t ifindex = 0;
	uint64_t inflight = 0, mem = 0, leaked = 0;

	sb_row_u64(r, B_ID, id);
	for (size_t i = 0; i < st->nqueues; i++) {
		const struct sb_nd_queue *q = &st->queues[i];
		if (q->dmabuf != id)
			continue;
		ifindex = q->ifindex;
		sb_row_u64v_add(r, B_RXQ, q->id);
	}
	for (size_t i = 0; i < st->npools; i++) {
		const struct sb_nd_pool *p = &st->pools[i];
		if (!(p->has & SB_ND_POOL_DMABUF) || p->dmabuf != id)
			continue;
		if (!ifindex)
			ifindex = p->ifindex;
		sb_row_u64v_add(r, B_POOLS, p->id);
		inflight += p->inflight;
		mem += p->inflight_mem;
		leaked += sb_nd_pool_leaked(p, now, NULL);
	}
	sb_row_u64(r, B_IFINDEX, ifindex);
	sb_row_str(r, B_IFNAME, dm_known(dm_ifname(ifindex, name)));
	sb_row_u64(r, B_INFLIGHT, inflight);
	sb_row_u64(r, B_MEM, mem);
	sb_row_u64(r, B_LEAKED, leaked);
	sb_row_u64(r, B_LEAKED_N, leaked);
}

int dm_bindings(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = { DM_POPT_NET, SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };
	const size_t ncols = ARRAY_SIZE(binding_cols);
	struct sb_genl g = { 0 };
	struct sb_nd_state st;
	struct sb_out *o;
	struct sb_table *t, *lt;
	uint32_t ifindex, ids[256];
	uint64_t now, age;
	size_t nids, nleaked = 0;
	int rc = sb_cli_parse(c, opts, NULL, argc, argv, binding_cols, ncols);

	if (rc)
		return rc;
	rc = dm_open_view(c, &g, &ifindex);
	if (rc)
		return rc;
	rc = dm_collect(c, &g, SB_ND_QUEUES | SB_ND_POOLS, ifindex, &st);
	sb_genl_close(&g);
	if (rc)
		return rc;
	if (ifindex) {
		size_t k = 0;
		for (size_t i = 0; i < st.nqueues; i++)
			if (st.queues[i].ifindex == ifindex)
				st.queues[k++] = st.queues[i];
		st.nqueues = k;
	}
	now = dm_boottime_s(&st);
	o = sb_out_new(&c->out, stdout);
	t = sb_out_table(o, "bindings", "Bindings", binding_cols, ncols, true);
	nids = binding_ids(&st, ids, 256);
	for (size_t i = 0; i < nids; i++)
		binding_row(t, &st, ids[i], now);
	lt = sb_out_table(o, "leaked_pools", "Leaked pools", leak_cols, ARRAY_SIZE(leak_cols),
			  false);
	for (size_t i = 0; i < st.npools; i++) {
		const struct sb_nd_pool *p = &st.pools[i];
		struct sb_row *r;
		if (!sb_nd_pool_leaked(p, now, &age))
			continue;
		r = sb_table_row(lt);
		sb_row_u64(r, L_ID, p->id);
		sb_row_u64(r, L_IFINDEX, p->ifindex);
		if (p->has & SB_ND_POOL_DMABUF)
			sb_row_u64(r, L_DMABUF, p->dmabuf);
		sb_row_u64(r, L_INFLIGHT, p->inflight);
		sb_row_u64(r, L_MEM, p->inflight_mem);
		if (now)
			sb_row_u64(r, L_AGE, age);
		nleaked++;
	}
	sb_out_field_u64(o, "leaked_pools_count", nleaked);
	if (!nids)
		sb_out_note(o,
			    "no devmem bindings (create one with 'devmemstat bind' or ncdevmem)");
	if (nleaked)
		sb_out_problem(o,
			       "%zu page pool(s) detached from their device still hold memory: "
			       "something (a socket, an skb, a devmem token) did not return it",
			       nleaked);
	dm_note_unsupported(o, &st);
	rc = sb_out_print(o) ? SB_EXIT_FAIL : 0;
	if (!rc && nleaked) {
		/* exit 1 is a finding: say it where scripts look, not only in the notes (a person
		 * at the terminal has just read the problem line: once is enough) */
		if (!sb_out_seen_with_stderr(o))
			sb_eprintf("%s bindings: %zu detached page pool(s) still hold memory (see the leaked pools)",
				   c->applet, nleaked);
		rc = SB_EXIT_FAIL;
	}
	sb_out_free(o);
	sb_nd_state_free(&st);
	return rc;
}
