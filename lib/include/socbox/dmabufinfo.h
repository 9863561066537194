/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Who holds which dma-buf: parsers for /proc/PID/fdinfo/FD, /proc/PID/maps and debugfs
 * dma_buf/bufinfo, and an inventory built from them under a root (works on snapshots). */
#ifndef SOCBOX_DMABUFINFO_H
#define SOCBOX_DMABUFINFO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/sys.h"

/* One dma-buf fd's fdinfo. is_dmabuf is false for other files (no exp_name line). */
struct sb_dmabuf_fdinfo {
	bool is_dmabuf;
	uint64_t ino;
	uint64_t size;
	uint64_t count;
	uint64_t flags; /* octal in the file */
	char exp_name[64];
	char name[64];
};
int sb_dmabuf_parse_fdinfo(const char *text, struct sb_dmabuf_fdinfo *fi);

/* One line of /proc/PID/maps that maps a dma-buf ("/dmabuf:NAME" or "anon_inode:dmabuf").
 * Returns 1 for a dma-buf mapping, 0 for another line, -EINVAL for a malformed line. */
struct sb_dmabuf_map {
	uint64_t start, end;
	uint64_t ino;
	char name[64];
};
int sb_dmabuf_parse_maps_line(const char *line, struct sb_dmabuf_map *m);

/* debugfs dma_buf/bufinfo. */
struct sb_bufinfo_entry {
	uint64_t size;
	uint64_t ino;
	uint64_t count;
	char exp_name[64];
	char name[64];
	char **attached; /* device names */
	size_t nattached;
};
struct sb_bufinfo {
	struct sb_bufinfo_entry *v;
	size_t n;
	uint64_t total_objects, total_bytes; /* footer, 0 when missing */
};
/* -EINVAL when the text is not a bufinfo dump (no "Dma-buf Objects:" line); rows that do not
 * parse are skipped and counted in *skipped. */
int sb_bufinfo_parse(const char *text, struct sb_bufinfo *bi, size_t *skipped);
void sb_bufinfo_free(struct sb_bufinfo *bi);

/* The inventory. */
enum sb_holder_how { SB_HOLD_FD, SB_HOLD_MAP };
struct sb_dmabuf_holder {
	pid_t pid;
	char comm[32];
	enum sb_holder_how how;
	int fd;		    /* SB_HOLD_FD */
	uint64_t map_bytes; /* SB_HOLD_MAP */
};
struct sb_dmabuf_obj {
	uint64_t ino;
	uint64_t size;	/* 0 when no source told */
	uint64_t count; /* file refcount (fdinfo/bufinfo), 0 unknown */
	char exp_name[64];
	char name[64];
	struct sb_dmabuf_holder *holders;
	size_t nholders;
	char **attached;
	size_t nattached;
	bool in_bufinfo;
};
struct sb_dmabuf_inventory {
	struct sb_dmabuf_obj *v;
	size_t n;
	bool have_bufinfo; /* debugfs bufinfo was readable */
	size_t procs_seen;
	size_t procs_denied; /* fdinfo/maps unreadable (other users' processes without root) */
};
/* pid 0: every process. */
int sb_dmabuf_inventory(const struct sb_root *r, pid_t pid, struct sb_dmabuf_inventory *inv,
			struct sb_err *e);
void sb_dmabuf_inventory_free(struct sb_dmabuf_inventory *inv);

/* What can allocate dma-bufs here: the dma-heaps (/sys/class/dma_heap) and udmabuf
 * (/sys/class/misc/udmabuf), and on a live root their device nodes and whether this process
 * can open them the way an allocation does (a heap read-only, udmabuf read-write). */
struct sb_dmabuf_allocator {
	char name[64]; /* heap name, or "udmabuf" */
	bool is_udmabuf;
	char node[96];	   /* /dev/dma_heap/NAME or /dev/udmabuf */
	bool node_checked; /* live root: the node was looked at (the fields below are set) */
	bool node_exists;
	unsigned mode; /* permission bits */
	unsigned uid, gid;
	bool can_open;
};
struct sb_dmabuf_allocators {
	struct sb_dmabuf_allocator *v; /* the heaps in sysfs order, then udmabuf when present */
	size_t n;
	size_t nheaps;
	bool udmabuf;
};
/* dev_fallback: on a live root also look in /dev when sysfs names nothing (a system without
 * the sysfs classes). -ENOMEM only; no allocator at all is n == 0. */
int sb_dmabuf_allocators(const struct sb_root *r, bool dev_fallback, struct sb_dmabuf_allocators *a);
void sb_dmabuf_allocators_free(struct sb_dmabuf_allocators *a);

#endif
