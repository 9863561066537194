// SPDX-License-Identifier: GPL-2.0-or-later
/* vm probe: dma-heap allocation and udmabuf creation, both checked through CPU mmaps. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "uapi.h"

static bool vp_sync(int fd, uint64_t flags, const char *what)
{
	struct vp_dmabuf_sync s = { .flags = flags };

	return ioctl(fd, VP_DMA_BUF_IOCTL_SYNC, &s) == 0 || vp_fail(what, errno);
}

/* Write a pattern through one CPU access window, check it in a second one. */
static bool vp_cpu_roundtrip(int buf, size_t len, unsigned seed)
{
	unsigned char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, buf, 0);
	bool ok;

	if (p == MAP_FAILED)
		return vp_fail("mmap dma-buf", errno);
	ok = vp_sync(buf, VP_DMA_BUF_SYNC_START | VP_DMA_BUF_SYNC_WRITE, "SYNC START|WRITE");
	vp_pattern(p, len, seed);
	ok = vp_sync(buf, VP_DMA_BUF_SYNC_END | VP_DMA_BUF_SYNC_WRITE, "SYNC END|WRITE") && ok;
	ok = vp_sync(buf, VP_DMA_BUF_SYNC_START | VP_DMA_BUF_SYNC_READ, "SYNC START|READ") && ok;
	if (!vp_pattern_ok(p, len, seed))
		ok = vp_fail("pattern read back through the dma-buf mmap", 0);
	ok = vp_sync(buf, VP_DMA_BUF_SYNC_END | VP_DMA_BUF_SYNC_READ, "SYNC END|READ") && ok;
	munmap(p, len);
	return ok;
}

int vp_dmaheap(int argc, char **argv)
{
	const char *heap = argc > 1 ? argv[1] : "system";
	char path[256];
	struct vp_heap_alloc a = { .len = 1 << 20, .fd_flags = O_RDWR | O_CLOEXEC };
	struct vp_dmabuf_sync bad = { .flags = 0x8 };
	bool ok = true;
	int heapfd;

	snprintf(path, sizeof(path), "/dev/dma_heap/%s", heap);
	heapfd = open(path, O_RDONLY | O_CLOEXEC);
	if (heapfd < 0)
		return !vp_fail(path, errno);
	if (ioctl(heapfd, VP_DMA_HEAP_IOCTL_ALLOC, &a) != 0)
		return !vp_fail("DMA_HEAP_IOCTL_ALLOC 1 MiB", errno);
	vp_note("%s: allocated 1 MiB, dma-buf fd %u", path, a.fd);
	ok = vp_cpu_roundtrip((int)a.fd, a.len, 1);
	/* The kernel must reject a SYNC with unknown flag bits. */
	if (ioctl((int)a.fd, VP_DMA_BUF_IOCTL_SYNC, &bad) == 0 || errno != EINVAL)
		ok = vp_fail("SYNC with flag 0x8 was not rejected with EINVAL", 0);
	close((int)a.fd);
	/* A zero-length allocation must be refused. */
	a.len = 0;
	if (ioctl(heapfd, VP_DMA_HEAP_IOCTL_ALLOC, &a) == 0)
		ok = vp_fail("DMA_HEAP_IOCTL_ALLOC of 0 bytes succeeded", 0);
	close(heapfd);
	return ok ? 0 : 1;
}

static int vp_udmabuf_create(int dev, int memfd, uint64_t size)
{
	struct vp_udmabuf_create c = {
		.memfd = (uint32_t)memfd, .flags = VP_UDMABUF_FLAGS_CLOEXEC, .size = size
	};

	return ioctl(dev, VP_UDMABUF_CREATE, &c);
}

int vp_udmabuf(int argc, char **argv)
{
	long page = sysconf(_SC_PAGESIZE);
	size_t len = 16 * (size_t)page;
	unsigned char *m;
	bool ok = true;
	int dev, memfd, buf;

	dev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (dev < 0)
		return !vp_fail("/dev/udmabuf", errno);
	memfd = memfd_create("socbox-vmprobe", MFD_ALLOW_SEALING | MFD_CLOEXEC);
	if (memfd < 0 || ftruncate(memfd, (off_t)len) != 0)
		return !vp_fail("memfd_create + ftruncate", errno);
	/* Without F_SEAL_SHRINK the kernel must refuse. */
	buf = vp_udmabuf_create(dev, memfd, len);
	if (buf >= 0 || errno != EINVAL)
		ok = vp_fail("UDMABUF_CREATE on an unsealed memfd was not rejected with EINVAL", 0);
	if (buf >= 0)
		close(buf);
	if (fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK) != 0)
		return !vp_fail("F_ADD_SEALS F_SEAL_SHRINK", errno);
	/* Sizes must be page multiples. */
	buf = vp_udmabuf_create(dev, memfd, len - 1);
	if (buf >= 0 || errno != EINVAL)
		ok = vp_fail("UDMABUF_CREATE with an unaligned size was not rejected with EINVAL",
			     0);
	if (buf >= 0)
		close(buf);
	m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, memfd, 0);
	if (m == MAP_FAILED)
		return !vp_fail("mmap memfd", errno);
	vp_pattern(m, len, 7);
	buf = vp_udmabuf_create(dev, memfd, len);
	if (buf < 0)
		return !vp_fail("UDMABUF_CREATE on a sealed memfd", errno);
	vp_note("udmabuf: %zu bytes from a sealed memfd, dma-buf fd %d", len, buf);
	/* The memfd's bytes are visible through the dma-buf, and writes go back. */
	unsigned char *p = mmap(NULL, len, PROT_READ, MAP_SHARED, buf, 0);
	if (p == MAP_FAILED)
		return !vp_fail("mmap udmabuf", errno);
	if (!vp_pattern_ok(p, len, 7))
		ok = vp_fail("memfd pattern seen through the udmabuf mmap", 0);
	munmap(p, len);
	ok = vp_cpu_roundtrip(buf, len, 9) && ok;
	if (!vp_pattern_ok(m, len, 9))
		ok = vp_fail("pattern written through the udmabuf seen in the memfd", 0);
	munmap(m, len);
	close(buf);
	close(memfd);
	close(dev);
	return ok ? 0 : 1;
}
