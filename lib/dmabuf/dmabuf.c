// SPDX-License-Identifier: GPL-2.0-or-later
/* dma-buf objects: allocation from heaps and udmabuf, import from another process, mapping
 * and CPU-access bracketing. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "socbox/dmabuf.h"
#include "socbox/dmabufinfo.h"
#include "socbox/kmsg_said.h"
#include "socbox/macro.h"
#include "socbox/uapi/dma-buf.h"
#include "socbox/uapi/dma-heap.h"
#include "socbox/uapi/udmabuf.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static uint64_t page_round(uint64_t size)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	if (size == 0)
		return page;
	return (size + page - 1) / page * page;
}

void sb_dmabuf_init(struct sb_dmabuf *b)
{
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	b->memfd = -1;
}

const char *sb_dmabuf_kind_name(enum sb_dmabuf_kind k)
{
	switch (k) {
	case SB_DMABUF_HEAP:
		return "heap";
	case SB_DMABUF_UDMABUF:
		return "udmabuf";
	case SB_DMABUF_PIDFD:
		return "pidfd";
	}
	return "?";
}

int sb_dmabuf_spec_parse(const char *s, struct sb_dmabuf_spec *spec)
{
	char *end;
	long pid, fd;

	memset(spec, 0, sizeof(*spec));
	if (!strncmp(s, "heap:", 5)) {
		if (!s[5] || strlen(s + 5) >= sizeof(spec->heap) || strchr(s + 5, '/'))
			return -EINVAL;
		spec->kind = SB_DMABUF_HEAP;
		snprintf(spec->heap, sizeof(spec->heap), "%s", s + 5);
		return 0;
	}
	if (!strcmp(s, "udmabuf")) {
		spec->kind = SB_DMABUF_UDMABUF;
		return 0;
	}
	if (*s < '1' || *s > '9')
		return -EINVAL;
	errno = 0;
	pid = strtol(s, &end, 10);
	if (errno || *end != ':' || pid <= 0 || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	fd = strtol(end + 1, &end, 10);
	if (errno || *end || fd < 0 || fd > 0x7fffffff || pid > 0x7fffffff)
		return -EINVAL;
	spec->kind = SB_DMABUF_PIDFD;
	spec->pid = (pid_t)pid;
	spec->fd = (int)fd;
	return 0;
}

/* A heap allocation the kernel refused: what it logged meanwhile is why (CMA: "cma:
 * cma_alloc: linux,cma: alloc failed, req-size: 8192 pages, ret: -12" and the areas'
 * free runs; the page allocator: "socbox: page allocation failure: order:10, ..."). */
static void alloc_refused(struct sb_kmsg_said *said, const char *heap, int err, struct sb_err *e)
{
	const char *names[] = { "cma", heap, program_invocation_short_name };

	sb_kmsg_said_reason(said, names, ARRAY_SIZE(names), err, NULL, e);
}

int sb_dmabuf_alloc_heap(const char *heap, uint64_t size, struct sb_dmabuf *b, struct sb_err *e)
{
	struct sb_dma_heap_allocation_data data = { 0 };
	char path[128], object[160];
	struct sb_kmsg_said said;
	int hfd, err;

	sb_dmabuf_init(b);
	snprintf(path, sizeof(path), "/dev/dma_heap/%s", heap);
	snprintf(object, sizeof(object), "heap %s", heap);
	hfd = open(path, O_RDONLY | O_CLOEXEC);
	if (hfd < 0) {
		err = errno;
		if (err == ENOENT) {
			sb_err_set(e, err, path, "open heap",
				   "no such heap: 'dmabufcp heaps' lists them; the system heap needs CONFIG_DMABUF_HEAPS_SYSTEM");
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
			return -err;
		}
		return sb_err_set(
			e, err, path, "open heap",
			err == EACCES
				? "needs read access to the device node (root, or a udev rule granting a group)"
				: NULL);
	}
	data.len = page_round(size);
	data.fd_flags = O_RDWR | O_CLOEXEC;
	sb_kmsg_said_mark(&said);
	if (ioctl(hfd, SB_DMA_HEAP_IOCTL_ALLOC, &data) < 0) {
		err = errno;
		close(hfd);
		sb_err_set(e, err, object, "allocate",
			   err == ENOMEM ? "the heap had no %llu bytes for it" : NULL,
			   (unsigned long long)data.len);
		alloc_refused(&said, heap, err, e);
		if (err == ENOMEM)
			sb_err_exit(e, SB_EXIT_FAIL);
		return -err;
	}
	sb_kmsg_said_drop(&said);
	close(hfd);
	b->kind = SB_DMABUF_HEAP;
	b->fd = (int)data.fd;
	b->size = data.len;
	b->writable = true;
	snprintf(b->exporter, sizeof(b->exporter), "%s", heap);
	return 0;
}

/* UDMABUF_CREATE's EINVAL has several causes (a size over size_limit_mb, a memfd without
 * F_SEAL_SHRINK, an unaligned range) and the driver logs none: name the limit only when
 * the size is over it, else say the kernel gave no reason. */
static void udmabuf_refused(struct sb_err *e, uint64_t size)
{
	struct sb_udmabuf_limits l = { .known = false };
	struct sb_root *live;

	if (sb_root_open(&live, "/", NULL) == 0) {
		sb_udmabuf_limits(live, &l);
		sb_root_close(live);
	}
	if (l.known && size > l.size_limit_bytes)
		sb_err_hint(e,
			    "the buffer (%llu MiB) is over /sys/module/udmabuf/parameters/size_limit_mb (%llu): use a smaller --chunk-size or raise the limit",
			    (unsigned long long)(size >> 20),
			    (unsigned long long)(l.size_limit_bytes >> 20));
	else if (l.known)
		sb_err_reason(e,
			      "kernel: %s, with no reason (the buffer is within size_limit_mb, %llu)",
			      sb_strerror(EINVAL), (unsigned long long)(l.size_limit_bytes >> 20));
}

int sb_dmabuf_alloc_udmabuf(uint64_t size, struct sb_dmabuf *b, struct sb_err *e)
{
	struct sb_udmabuf_create create = { 0 };
	int dev, err;

	sb_dmabuf_init(b);
	size = page_round(size);
	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0) {
		err = errno;
		if (err == ENOENT) {
			sb_err_set(e, err, "/dev/udmabuf", "open",
				   "modprobe udmabuf; needs CONFIG_UDMABUF");
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
			return -err;
		}
		return sb_err_set(
			e, err, "/dev/udmabuf", "open",
			err == EACCES
				? "needs read-write access to /dev/udmabuf (root, or a udev rule granting a group)"
				: NULL);
	}
	b->memfd = memfd_create("dmabufcp", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (b->memfd < 0) {
		err = errno;
		close(dev);
		return sb_err_set(e, err, "memfd", "create",
				  err == ENOSYS ? "needs CONFIG_MEMFD_CREATE and shmem" : NULL);
	}
	if (ftruncate(b->memfd, (off_t)size) < 0 ||
	    fcntl(b->memfd, F_ADD_SEALS, F_SEAL_SHRINK) < 0) {
		err = errno;
		close(dev);
		sb_dmabuf_free(b);
		return sb_err_set(e, err, "memfd", "size and seal", NULL);
	}
	create.memfd = (__u32)b->memfd;
	create.flags = SB_UDMABUF_FLAGS_CLOEXEC;
	create.size = size;
	b->fd = ioctl(dev, SB_UDMABUF_CREATE, &create);
	err = errno;
	close(dev);
	if (b->fd < 0) {
		sb_dmabuf_free(b);
		sb_err_set(e, err, "/dev/udmabuf", "create buffer", NULL);
		if (err == EINVAL) {
			udmabuf_refused(e, size);
			sb_err_exit(e, SB_EXIT_FAIL);
		}
		return -err;
	}
	b->kind = SB_DMABUF_UDMABUF;
	b->size = size;
	b->writable = true;
	snprintf(b->exporter, sizeof(b->exporter), "udmabuf");
	return 0;
}

static int read_own_fdinfo(int fd, struct sb_dmabuf_fdinfo *fi)
{
	char path[64], text[2048];
	ssize_t n;
	int f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = open(path, O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return -errno;
	n = read(f, text, sizeof(text) - 1);
	close(f);
	if (n < 0)
		return -EIO;
	text[n] = '\0';
	return sb_dmabuf_parse_fdinfo(text, fi);
}

int sb_dmabuf_import(pid_t pid, int fd, struct sb_dmabuf *b, struct sb_err *e)
{
	struct sb_dmabuf_fdinfo fi;
	char object[64];
	off_t end;
	int pidfd, err, fl;

	sb_dmabuf_init(b);
	snprintf(object, sizeof(object), "%d:%d", (int)pid, fd);
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pidfd < 0) {
		err = errno;
		if (err == ENOSYS) {
			sb_err_set(e, err, object, "pidfd_open", "needs Linux 5.6 or later");
			return -err;
		}
		sb_err_set(e, err, object, "pidfd_open", err == ESRCH ? "no such process" : NULL);
		if (err == ESRCH) /* a named process that is not there, as ls --pid says */
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -err;
	}
	b->fd = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	err = errno;
	close(pidfd);
	if (b->fd < 0) {
		if (err == EPERM || err == EACCES)
			return sb_err_set(
				e, err, object, "take the fd (pidfd_getfd)",
				"needs ptrace rights over the process: same user with kernel.yama.ptrace_scope=0, or CAP_SYS_PTRACE (root)");
		if (err == EBADF) {
			sb_err_set(e, err, object, "take the fd (pidfd_getfd)",
				   "the process has no fd %d", fd);
			sb_err_exit(e, SB_EXIT_FAIL);
			return -err;
		}
		return sb_err_set(e, err, object, "take the fd (pidfd_getfd)",
				  err == ENOSYS ? "needs Linux 5.6 or later" : NULL);
	}
	if (fcntl(b->fd, F_SETFD, FD_CLOEXEC) < 0 || read_own_fdinfo(b->fd, &fi) < 0 ||
	    !fi.is_dmabuf) {
		sb_dmabuf_free(b);
		sb_err_set(e, ENOTTY, object, "import",
			   "fd %d of process %d is not a dma-buf ('dmabufcp ls --pid %d' lists its buffers)",
			   fd, (int)pid, (int)pid);
		sb_err_reason(e, "not a dma-buf");
		sb_err_exit(e, SB_EXIT_FAIL);
		return -ENOTTY;
	}
	end = lseek(b->fd, 0, SEEK_END);
	b->size = end > 0 ? (uint64_t)end : fi.size;
	fl = fcntl(b->fd, F_GETFL);
	b->writable = fl >= 0 && (fl & O_ACCMODE) == O_RDWR;
	b->kind = SB_DMABUF_PIDFD;
	snprintf(b->exporter, sizeof(b->exporter), "%s", fi.exp_name);
	return 0;
}

int sb_dmabuf_alloc(const struct sb_dmabuf_spec *spec, uint64_t size, struct sb_dmabuf *b,
		    struct sb_err *e)
{
	switch (spec->kind) {
	case SB_DMABUF_HEAP:
		return sb_dmabuf_alloc_heap(spec->heap, size, b, e);
	case SB_DMABUF_UDMABUF:
		return sb_dmabuf_alloc_udmabuf(size, b, e);
	case SB_DMABUF_PIDFD:
		return sb_dmabuf_import(spec->pid, spec->fd, b, e);
	}
	return -EINVAL;
}

int sb_dmabuf_map(struct sb_dmabuf *b, struct sb_err *e)
{
	int prot = PROT_READ | (b->writable ? PROT_WRITE : 0);
	void *p;

	if (b->map || b->size == 0)
		return 0;
	if (b->size > SIZE_MAX) /* a 32-bit process: the length would wrap */
		return sb_err_set(
			e, EFBIG, b->exporter, "mmap the dma-buf",
			"a 32-bit process cannot map %llu bytes at once: use a smaller --chunk-size",
			(unsigned long long)b->size);
	p = mmap(NULL, b->size, prot, MAP_SHARED | MAP_POPULATE, b->fd, 0);
	if (p == MAP_FAILED)
		return sb_err_set(
			e, errno, b->exporter, "mmap the dma-buf",
			errno == ENODEV || errno == EINVAL
				? "the exporter does not support CPU mapping"
			: errno == ENOMEM && sizeof(void *) == 4
				? "a 32-bit process holds all buffers mapped at once, about 3 GiB at most"
				: NULL);
	b->map = p;
	if (b->memfd >= 0) {
		p = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, b->memfd,
			 0);
		if (p == MAP_FAILED)
			return sb_err_set(e, errno, "memfd", "mmap", NULL);
		b->memfd_map = p;
	}
	return 0;
}

int sb_dmabuf_sync(const struct sb_dmabuf *b, bool end, bool write, struct sb_err *e)
{
	struct sb_dma_buf_sync s = { 0 };

	s.flags = (end ? SB_DMA_BUF_SYNC_END : SB_DMA_BUF_SYNC_START) |
		  (write ? SB_DMA_BUF_SYNC_WRITE : SB_DMA_BUF_SYNC_READ);
	while (ioctl(b->fd, SB_DMA_BUF_IOCTL_SYNC, &s) < 0) {
		if (errno == EINTR || errno == EAGAIN)
			continue;
		return sb_err_set(e, errno, b->exporter,
				  end ? "end CPU access (DMA_BUF_IOCTL_SYNC)"
				      : "begin CPU access (DMA_BUF_IOCTL_SYNC)",
				  NULL);
	}
	return 0;
}

int sb_dmabuf_set_name(const struct sb_dmabuf *b, const char *name, struct sb_err *e)
{
	if (strlen(name) >= SB_DMA_BUF_NAME_LEN) {
		sb_err_set(e, EINVAL, name, "set the buffer name", "at most %d characters",
			   SB_DMA_BUF_NAME_LEN - 1);
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	if (ioctl(b->fd, SB_DMA_BUF_SET_NAME_B, name) < 0)
		return sb_err_set(e, errno, b->exporter, "set the buffer name (DMA_BUF_SET_NAME)",
				  errno == ENOTTY ? "needs Linux 5.3 or later" : NULL);
	return 0;
}

void sb_dmabuf_free(struct sb_dmabuf *b)
{
	if (b->map)
		munmap(b->map, b->size);
	if (b->memfd_map)
		munmap(b->memfd_map, b->size);
	if (b->fd >= 0)
		close(b->fd);
	if (b->memfd >= 0)
		close(b->memfd);
	sb_dmabuf_init(b);
}

int sb_udmabuf_limits(const struct sb_root *r, struct sb_udmabuf_limits *l)
{
	uint64_t v;

	memset(l, 0, sizeof(*l));
	if (sb_attr_u64(r, &v, "/sys/module/udmabuf/parameters/size_limit_mb") == 0) {
		l->size_limit_bytes = v << 20;
		l->known = true;
	}
	if (sb_attr_u64(r, &v, "/sys/module/udmabuf/parameters/list_limit") == 0)
		l->list_limit = v;
	return l->known ? 0 : -ENOENT;
}

uint64_t sb_dmabuf_kind_limit(const struct sb_root *r, const struct sb_dmabuf_spec *spec)
{
	struct sb_udmabuf_limits l;

	if (spec->kind != SB_DMABUF_UDMABUF)
		return 0;
	if (sb_udmabuf_limits(r, &l) == 0 && l.size_limit_bytes)
		return l.size_limit_bytes;
	return 64ull << 20;
}

void sb_dmabuf_raise_fd_limit(uint64_t need)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) || rl.rlim_cur >= need)
		return;
	rl.rlim_cur = rl.rlim_max < need ? rl.rlim_max : need;
	setrlimit(RLIMIT_NOFILE, &rl);
}
