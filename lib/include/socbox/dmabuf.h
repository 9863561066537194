/* SPDX-License-Identifier: GPL-2.0-or-later */
/* dma-buf objects: allocate from a dma-heap or through udmabuf (memfd pages), take another
 * process's buffer with pidfd_getfd, map it, bracket CPU access with DMA_BUF_IOCTL_SYNC.
 * All of it needs the live kernel. */
#ifndef SOCBOX_DMABUF_H
#define SOCBOX_DMABUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "socbox/error.h"
#include "socbox/sys.h"

enum sb_dmabuf_kind {
	SB_DMABUF_HEAP,	   /* heap:NAME, /dev/dma_heap/NAME */
	SB_DMABUF_UDMABUF, /* udmabuf: memfd + UDMABUF_CREATE */
	SB_DMABUF_PIDFD,   /* PID:FD, another process's buffer */
};

/* A parsed buffer spec: "heap:NAME", "udmabuf" or "PID:FD". */
struct sb_dmabuf_spec {
	enum sb_dmabuf_kind kind;
	char heap[64];
	pid_t pid;
	int fd;
};

/* 0, or -EINVAL when s is none of the three forms (then it names a file). */
int sb_dmabuf_spec_parse(const char *s, struct sb_dmabuf_spec *spec);
const char *sb_dmabuf_kind_name(enum sb_dmabuf_kind k);

struct sb_dmabuf {
	enum sb_dmabuf_kind kind;
	int fd;		 /* the dma-buf */
	int memfd;	 /* udmabuf: the backing memfd; -1 otherwise */
	uint64_t size;	 /* bytes (page multiple for what we allocate) */
	void *map;	 /* MAP_SHARED mapping of the whole buffer, NULL until mapped */
	void *memfd_map; /* udmabuf: mapping of the memfd (pinnable for O_DIRECT) */
	bool writable;
	char exporter[64];
};

/* size is rounded up to the page size. */
int sb_dmabuf_alloc_heap(const char *heap, uint64_t size, struct sb_dmabuf *b, struct sb_err *e);
int sb_dmabuf_alloc_udmabuf(uint64_t size, struct sb_dmabuf *b, struct sb_err *e);
/* Duplicate fd of process pid (pidfd_open + pidfd_getfd; needs ptrace rights). */
int sb_dmabuf_import(pid_t pid, int fd, struct sb_dmabuf *b, struct sb_err *e);
int sb_dmabuf_alloc(const struct sb_dmabuf_spec *spec, uint64_t size, struct sb_dmabuf *b,
		    struct sb_err *e);
/* Map the buffer (and the memfd of a udmabuf). */
int sb_dmabuf_map(struct sb_dmabuf *b, struct sb_err *e);
/* DMA_BUF_IOCTL_SYNC: start (end=false) or end of CPU access; write: the CPU writes. */
int sb_dmabuf_sync(const struct sb_dmabuf *b, bool end, bool write, struct sb_err *e);
/* DMA_BUF_SET_NAME (at most 31 characters). */
int sb_dmabuf_set_name(const struct sb_dmabuf *b, const char *name, struct sb_err *e);
void sb_dmabuf_free(struct sb_dmabuf *b);
void sb_dmabuf_init(struct sb_dmabuf *b);

/* udmabuf module parameters (/sys/module/udmabuf/parameters): 0 when unreadable. */
struct sb_udmabuf_limits {
	uint64_t size_limit_bytes; /* per buffer */
	uint64_t list_limit;
	bool known;
};
int sb_udmabuf_limits(const struct sb_root *r, struct sb_udmabuf_limits *l);
/* The largest buffer spec's kind allocates: udmabuf's size_limit_mb (64 MiB when unreadable),
 * 0 (no limit) for the other kinds. */
uint64_t sb_dmabuf_kind_limit(const struct sb_root *r, const struct sb_dmabuf_spec *spec);
/* Each buffer is an fd (two for a udmabuf): raise the soft RLIMIT_NOFILE towards need (up to
 * the hard limit). Best effort: a refusal leaves the limit as it was. */
void sb_dmabuf_raise_fd_limit(uint64_t need);

#endif
