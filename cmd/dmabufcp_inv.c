// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp heaps and dmabufcp ls: what can allocate dma-bufs here, and every dma-buf in the
 * system with the processes holding it (what Android's dmabuf_dump shows). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dmabufcp.h"
#include "socbox/cma.h"
#include "socbox/dmabufinfo.h"
#include "socbox/kmod.h"

enum {
	H_NAME,
	H_KIND,
	H_DEVICE,
	H_MODE,
	H_OWNER,
	H_CAN_ALLOC,
	H_SIZE_LIMIT_BYTES,
	H_LIST_LIMIT,
	H_NCOLS
};

static const struct sb_col heap_cols[H_NCOLS] = {
	[H_NAME] = { "NAME", SB_T_STR, 12, SB_COL_LABEL, "heap name, or udmabuf", 0 },
	/* KIND and LIST_LIMIT hidden (JSON keeps them): the view fits 80 columns */
	[H_KIND] = { "KIND", SB_T_STR, 7, SB_COL_LABEL | SB_COL_HIDDEN | SB_COL_JSON,
		     "heap or udmabuf", 0 },
	[H_DEVICE] = { "DEVICE", SB_T_STR, 20, SB_COL_METRIC, "device node", 0 },
	[H_MODE] = { "MODE", SB_T_STR, 10, 0, "permissions of the device node (live system only)",
		     0 },
	[H_OWNER] = { "OWNER", SB_T_STR, 10, 0, "user:group of the device node (live system only)",
		      0 },
	[H_CAN_ALLOC] = { "CAN_ALLOC", SB_T_BOOL, 5, SB_COL_METRIC,
			  "this user can open the device to allocate (live system only)", 0 },
	[H_SIZE_LIMIT_BYTES] = { "SIZE_LIMIT_BYTES", SB_T_U64, 10,
				 SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
				 "largest buffer (udmabuf size_limit_mb)", 0 },
	[H_LIST_LIMIT] = { "LIST_LIMIT", SB_T_U64, 6,
			   SB_COL_RIGHT | SB_COL_METRIC | SB_COL_HIDDEN | SB_COL_JSON,
			   "most memfd ranges per buffer (udmabuf list_limit)", 0 },
};

enum { C_AREA, C_HEAP, C_TOTAL_BYTES, C_USED_BYTES, C_LARGEST_FREE_BYTES, C_NCOLS };

static const struct sb_col cma_cols[C_NCOLS] = {
	[C_AREA] = { "AREA", SB_T_STR, 12, SB_COL_LABEL, "CMA area", 0 },
	[C_HEAP] = { "HEAP", SB_T_STR, 12, 0, "the dma-heap allocating from it, if any", 0 },
	[C_TOTAL_BYTES] = { "TOTAL_BYTES", SB_T_U64, 6, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			    "size of the area", 0 },
	[C_USED_BYTES] = { "USED_BYTES", SB_T_U64, 6, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			   "allocated from it", 0 },
	[C_LARGEST_FREE_BYTES] = { "LARGEST_FREE_BYTES", SB_T_U64, 12,
				   SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
				   "largest free contiguous run: the biggest buffer it can give "
				   "(debugfs)",
				   0 },
};

static void cma_cell(struct sb_row *r, int col, const struct sb_cma_areas *ca, bool have,
		     uint64_t pages)
{
	uint64_t b;

	if (have && sb_cma_bytes(ca, pages, &b))
		sb_row_u64(r, col, b);
}

/* The CMA areas under the heaps: what a contiguous buffer can still get. */
static void cma_table(struct sb_out *o, const struct sb_root *root,
		      const struct sb_dmabuf_allocators *a)
{
	const char **heaps = calloc(a->nheaps + 1, sizeof(*heaps));
	struct sb_cma_areas ca;
	struct sb_table *t = NULL;
	bool largest = true;

	if (!heaps || sb_cma_areas_read(root, &ca, NULL)) {
		free(heaps);
		sb_out_problem(o, "CMA areas: out of memory");
		return;
	}
	for (size_t i = 0; i < a->nheaps; i++)
		heaps[i] = a->v[i].name;
	if (ca.n)
		t = sb_out_table(o, "cma_areas", "CMA areas", cma_cols, C_NCOLS, false);
	for (size_t i = 0; i < ca.n; i++) {
		const struct sb_cma_area *ar = &ca.v[i];
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, C_AREA, ar->name);
		sb_row_str(r, C_HEAP, sb_cma_area_heap(&ca, i, heaps, a->nheaps));
		cma_cell(r, C_TOTAL_BYTES, &ca, ar->have_total, ar->total_pages);
		cma_cell(r, C_USED_BYTES, &ca, ar->have_used, ar->used_pages);
		cma_cell(r, C_LARGEST_FREE_BYTES, &ca, ar->have_largest, ar->largest_free_pages);
		largest = largest && ar->have_largest;
	}
	if (!ca.n && ca.have_meminfo && ca.meminfo_total_bytes)
		sb_out_note(o,
			    "CMA: %llu MiB, %llu MiB free (/proc/meminfo); per area with debugfs "
			    "(cma/) or CONFIG_CMA_SYSFS",
			    (unsigned long long)(ca.meminfo_total_bytes >> 20),
			    (unsigned long long)(ca.meminfo_free_bytes >> 20));
	if (!largest)
		sb_out_note(o,
			    "LARGEST_FREE needs debugfs: mount -t debugfs none /sys/kernel/debug");
	if (ca.n && !ca.page_size)
		sb_out_note(o, "CMA sizes need the page size: /proc/meminfo's CmaTotal or the live "
			       "system");
	sb_cma_areas_free(&ca);
	free(heaps);
}

static struct poptOption heaps_table[] = { SB_POPT_OUTPUT, SB_POPT_COMMON, POPT_TABLEEND };

static void device_cells(struct sb_row *r, const struct sb_dmabuf_allocator *al)
{
	struct passwd *pw;
	struct group *gr;

	sb_row_str(r, H_DEVICE, al->node);
	if (!al->node_checked || !al->node_exists)
		return;
	sb_row_fmt(r, H_MODE, "%04o", al->mode);
	pw = getpwuid((uid_t)al->uid);
	gr = getgrgid((gid_t)al->gid);
	if (pw && gr)
		sb_row_fmt(r, H_OWNER, "%s:%s", pw->pw_name, gr->gr_name);
	else
		sb_row_fmt(r, H_OWNER, "%u:%u", al->uid, al->gid);
	sb_row_bool(r, H_CAN_ALLOC, al->can_open);
}

int dmabufcp_heaps(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_dmabuf_allocators a;
	struct sb_udmabuf_limits lim;
	enum sb_mod_state ms = SB_MOD_UNKNOWN;
	struct sb_out *o;
	struct sb_table *t;
	struct sb_err e;
	int rc;

	rc = sb_cli_parse(c, heaps_table, NULL, argc, argv, heap_cols, H_NCOLS);
	if (rc)
		return rc;
	sb_err_clear(&e);
	/* sysfs names the heaps on live systems and snapshots alike; /dev only as a fallback */
	if ((rc = sb_dmabuf_allocators(c->root, true, &a))) {
		sb_err_set(&e, -rc, "dma-buf allocators", "find", NULL);
		return sb_report(DMABUFCP, &e);
	}
	sb_kmod_state(c->root, "udmabuf", &ms);
	if (!a.n) {
		sb_dmabuf_allocators_free(&a);
		sb_err_set(&e, ENODEV, "dma-buf allocators", "find", "%s",
			   ms == SB_MOD_AVAILABLE
				   ? "modprobe udmabuf; dma-heaps need CONFIG_DMABUF_HEAPS_SYSTEM"
				   : "no dma-heap and no udmabuf: CONFIG_DMABUF_HEAPS_SYSTEM=y, CONFIG_UDMABUF");
		sb_err_reason(&e, "none in this kernel");
		return sb_report(DMABUFCP, &e);
	}
	o = sb_out_new(&c->out, stdout);
	t = sb_out_table(o, "heaps", NULL, heap_cols, H_NCOLS, true);
	for (size_t i = 0; i < a.n; i++) {
		struct sb_row *r = sb_table_row(t);

		sb_row_str(r, H_NAME, a.v[i].name);
		sb_row_str(r, H_KIND, a.v[i].is_udmabuf ? "udmabuf" : "heap");
		device_cells(r, &a.v[i]);
		if (a.v[i].is_udmabuf && sb_udmabuf_limits(c->root, &lim) == 0) {
			sb_row_u64(r, H_SIZE_LIMIT_BYTES, lim.size_limit_bytes);
			if (lim.list_limit)
				sb_row_u64(r, H_LIST_LIMIT, lim.list_limit);
		}
	}
	if (!a.udmabuf && ms == SB_MOD_AVAILABLE)
		sb_out_problem(o, "udmabuf is built as a module but not loaded: modprobe udmabuf");
	if (!sb_root_is_live(c->root))
		sb_out_note(o, "MODE, OWNER and CAN_ALLOC need the live system's device nodes");
	cma_table(o, c->root, &a);
	sb_out_print(o);
	sb_out_free(o);
	sb_dmabuf_allocators_free(&a);
	return 0;
}

/* ls */
enum { B_INODE, B_SIZE_BYTES, B_EXPORTER, B_NAME, B_HOLDERS, B_COUNT, B_ATTACHED, B_NCOLS };

static const struct sb_col buf_cols[B_NCOLS] = {
	[B_INODE] = { "INODE", SB_T_U64, 8, SB_COL_RIGHT,
		      "inode number of the dma-buf (its identity)", 0 },
	[B_SIZE_BYTES] = { "SIZE_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES, "buffer size",
			   0 },
	[B_EXPORTER] = { "EXPORTER", SB_T_STR, 10, 0, "exporter (heap name, udmabuf, driver)", 0 },
	[B_NAME] = { "NAME", SB_T_STR, 10, 0, "name set with DMA_BUF_SET_NAME", 0 },
	[B_HOLDERS] = { "HOLDERS", SB_T_STRV, 0.4, SB_COL_WRAP,
			"PID/COMM:fdN (by fd) or PID/COMM:map (by mapping)", 0 },
	[B_COUNT] = { "COUNT", SB_T_U64, 4, SB_COL_RIGHT | SB_COL_HIDDEN, "file reference count",
		      0 },
	[B_ATTACHED] = { "ATTACHED", SB_T_STRV, 0.2, SB_COL_HIDDEN,
			 "attached devices (debugfs bufinfo)", 0 },
};

enum { P_PID, P_COMM, P_BUFFERS, P_FD_BYTES, P_MAP_BYTES, P_TOTAL_BYTES, P_NCOLS };
static const struct sb_col proc_cols[P_NCOLS] = {
	[P_PID] = { "PID", SB_T_U64, 6, SB_COL_RIGHT | SB_COL_LABEL, "process", 0 },
	[P_COMM] = { "COMM", SB_T_STR, 12, SB_COL_LABEL, "command name", 0 },
	[P_BUFFERS] = { "BUFFERS", SB_T_U64, 4, SB_COL_RIGHT | SB_COL_METRIC,
			"distinct buffers held", 0 },
	[P_FD_BYTES] = { "FD_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			 "size of the buffers held by fd", 0 },
	[P_MAP_BYTES] = { "MAP_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			  "bytes mapped", 0 },
	[P_TOTAL_BYTES] = { "TOTAL_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			    "size of the distinct buffers held either way", 0 },
};

enum { X_EXPORTER, X_BUFFERS, X_SIZE_BYTES, X_NCOLS };
static const struct sb_col exp_cols[X_NCOLS] = {
	[X_EXPORTER] = { "EXPORTER", SB_T_STR, 12, SB_COL_LABEL, "exporter", 0 },
	[X_BUFFERS] = { "BUFFERS", SB_T_U64, 4, SB_COL_RIGHT | SB_COL_METRIC, "buffers", 0 },
	[X_SIZE_BYTES] = { "SIZE_BYTES", SB_T_U64, 10, SB_COL_RIGHT | SB_COL_BYTES | SB_COL_METRIC,
			   "total size", 0 },
};

static int opt_pid;
static struct poptOption ls_table[] = {
	{ "pid", 'p', POPT_ARG_INT, &opt_pid, 0, "only the buffers this process holds", "PID" },
	SB_POPT_OUTPUT,
	SB_POPT_COMMON,
	POPT_TABLEEND
};

static uint64_t obj_size(const struct sb_dmabuf_obj *o)
{
	uint64_t mapped = 0;

	if (o->size)
		return o->size;
	for (size_t i = 0; i < o->nholders; i++)
		if (o->holders[i].how == SB_HOLD_MAP && o->holders[i].map_bytes > mapped)
			mapped = o->holders[i].map_bytes;
	return mapped;
}

static void buffers_table(struct sb_out *o, const struct sb_dmabuf_inventory *inv)
{
	struct sb_table *t = sb_out_table(o, "buffers", "Buffers", buf_cols, B_NCOLS, true);

	for (size_t i = 0; i < inv->n; i++) {
		const struct sb_dmabuf_obj *b = &inv->v[i];
		struct sb_row *r = sb_table_row(t);

		sb_row_u64(r, B_INODE, b->ino);
		if (obj_size(b))
			sb_row_u64(r, B_SIZE_BYTES, obj_size(b));
		if (b->exp_name[0])
			sb_row_str(r, B_EXPORTER, b->exp_name);
		if (b->name[0])
			sb_row_str(r, B_NAME, b->name);
		for (size_t k = 0; k < b->nholders; k++) {
			char h[96];
			const struct sb_dmabuf_holder *x = &b->holders[k];

			if (x->how == SB_HOLD_FD)
				snprintf(h, sizeof(h), "%d/%s:fd%d", (int)x->pid, x->comm, x->fd);
			else
				snprintf(h, sizeof(h), "%d/%s:map", (int)x->pid, x->comm);
			sb_row_strv_add(r, B_HOLDERS, h);
		}
		if (b->count)
			sb_row_u64(r, B_COUNT, b->count);
		for (size_t k = 0; k < b->nattached; k++)
			sb_row_strv_add(r, B_ATTACHED, b->attached[k]);
	}
}

struct proc_total {
	pid_t pid;
	char comm[32];
	uint64_t buffers, fd_bytes, map_bytes, total_bytes;
};

static int by_pid(const void *a, const void *b)
{
	const struct proc_total *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static void processes_table(struct sb_out *o, const struct sb_dmabuf_inventory *inv, pid_t only)
{
	struct sb_table *t = sb_out_table(o, "processes", "Processes", proc_cols, P_NCOLS, false);
	struct proc_total *p = NULL;
	size_t np = 0;

	for (size_t i = 0; i < inv->n; i++) {
		const struct sb_dmabuf_obj *b = &inv->v[i];

		for (size_t k = 0; k < b->nholders; k++) {
			const struct sb_dmabuf_holder *x = &b->holders[k];
			bool by_fd_before = false, seen_before = false;
			size_t j;

			if (only && x->pid != only)
				continue;
			for (j = 0; j < np && p[j].pid != x->pid; j++)
				;
			if (j == np) {
				struct proc_total *nv = realloc(p, (np + 1) * sizeof(*p));
				if (!nv)
					break;
				p = nv;
				memset(&p[np], 0, sizeof(p[np]));
				p[np].pid = x->pid;
				snprintf(p[np].comm, sizeof(p[np].comm), "%s", x->comm);
				np++;
			}
			for (size_t q = 0; q < k; q++) {
				if (b->holders[q].pid != x->pid)
					continue;
				seen_before = true;
				by_fd_before |= b->holders[q].how == SB_HOLD_FD;
			}
			if (!seen_before) {
				p[j].buffers++;
				p[j].total_bytes += obj_size(b);
			}
			if (x->how == SB_HOLD_FD && !by_fd_before)
				p[j].fd_bytes += obj_size(b);
			if (x->how == SB_HOLD_MAP)
				p[j].map_bytes += x->map_bytes;
		}
	}
	if (np)
		qsort(p, np, sizeof(*p), by_pid);
	for (size_t j = 0; j < np; j++) {
		struct sb_row *r = sb_table_row(t);

		sb_row_u64(r, P_PID, (uint64_t)p[j].pid);
		sb_row_str(r, P_COMM, p[j].comm);
		sb_row_u64(r, P_BUFFERS, p[j].buffers);
		sb_row_u64(r, P_FD_BYTES, p[j].fd_bytes);
		sb_row_u64(r, P_MAP_BYTES, p[j].map_bytes);
		sb_row_u64(r, P_TOTAL_BYTES, p[j].total_bytes);
	}
	free(p);
}

static void exporters_table(struct sb_out *o, const struct sb_dmabuf_inventory *inv, uint64_t *all)
{
	struct sb_table *t = sb_out_table(o, "exporters", "Exporters", exp_cols, X_NCOLS, false);
	bool *done = calloc(inv->n ? inv->n : 1, sizeof(*done));

	*all = 0;
	for (size_t i = 0; done && i < inv->n; i++) {
		uint64_t count = 0, bytes = 0;
		struct sb_row *r;

		*all += obj_size(&inv->v[i]);
		if (done[i])
			continue;
		for (size_t k = i; k < inv->n; k++) {
			if (done[k] || strcmp(inv->v[k].exp_name, inv->v[i].exp_name))
				continue;
			done[k] = true;
			count++;
			bytes += obj_size(&inv->v[k]);
		}
		r = sb_table_row(t);
		sb_row_str(r, X_EXPORTER, inv->v[i].exp_name[0] ? inv->v[i].exp_name : "?");
		sb_row_u64(r, X_BUFFERS, count);
		sb_row_u64(r, X_SIZE_BYTES, bytes);
	}
	free(done);
}

int dmabufcp_ls(struct sb_ctx *c, int argc, const char **argv)
{
	struct sb_dmabuf_inventory inv;
	struct sb_out *o;
	struct sb_err e;
	uint64_t all;
	int rc;

	opt_pid = 0;
	rc = sb_cli_parse(c, ls_table, NULL, argc, argv, buf_cols, B_NCOLS);
	if (rc)
		return rc;
	if (opt_pid < 0)
		return sb_usage_error(c, "bad --pid %d", opt_pid);
	sb_err_clear(&e);
	if (opt_pid && !sb_is_dir(c->root, "/proc/%d", opt_pid)) {
		sb_err_set(&e, ESRCH, "--pid", "find the process", NULL);
		sb_err_reason(&e, "no process %d", opt_pid);
		sb_err_exit(&e, SB_EXIT_UNSUPPORTED);
		return sb_report(DMABUFCP, &e);
	}
	if (sb_dmabuf_inventory(c->root, (pid_t)opt_pid, &inv, &e))
		return sb_report(DMABUFCP, &e);
	o = sb_out_new(&c->out, stdout);
	buffers_table(o, &inv);
	processes_table(o, &inv, (pid_t)opt_pid);
	exporters_table(o, &inv, &all);
	sb_out_field_u64(o, "total_buffers", inv.n);
	sb_out_field_bytes(o, "total_bytes", all);
	sb_out_field_bool(o, "bufinfo", inv.have_bufinfo);
	sb_out_field_u64(o, "processes_unreadable", inv.procs_denied);
	if (!inv.have_bufinfo)
		sb_out_note(
			o,
			"debugfs dma_buf/bufinfo was not readable: buffers that no process holds by fd or mapping are missing (as root: mount -t debugfs none /sys/kernel/debug)");
	if (inv.procs_denied)
		sb_out_note(o, "%zu processes could not be read: run as root to see their buffers",
			    inv.procs_denied);
	sb_out_print(o);
	sb_out_free(o);
	sb_dmabuf_inventory_free(&inv);
	return 0;
}
