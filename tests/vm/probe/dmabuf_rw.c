// SPDX-License-Identifier: GPL-2.0-or-later
/* vm probe: DMA_BUF_IOCTL_RW_FILE as the test-kernel patch implements it for the system
 * heap: both directions, buffered and DIRECT, the checks on flags, ranges, alignment and
 * file modes, ENODATA at the end of the file, EOPNOTSUPP from an exporter without it
 * (udmabuf), and EBUSY while a driver has the buffer attached or vmapped (the test bed's
 * socbox_dmabuf_holder module, through debugfs). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "uapi.h"

#define VP_LEN (1u << 20)
#define VP_HOLDER "/sys/kernel/debug/socbox_dmabuf_holder/"

static int vp_rw(int buf, uint32_t flags, int fd, uint64_t foff, uint64_t boff, uint64_t len)
{
	struct vp_dmabuf_rw_file rw = {
		.flags = flags, .fd = fd, .file_offset = foff, .buf_offset = boff, .buf_len = len
	};

	return ioctl(buf, VP_DMA_BUF_IOCTL_RW_FILE, &rw) == 0 ? 0 : -errno;
}

static bool vp_expect(int got, int want, const char *what)
{
	if (got == -want)
		return true;
	vp_note("%s: got %s, want %s", what, got ? strerror(-got) : "success",
		want ? strerror(want) : "success");
	return vp_fail(what, 0);
}

static int vp_heap_buf(size_t len)
{
	struct vp_heap_alloc a = { .len = len, .fd_flags = O_RDWR | O_CLOEXEC };
	int heap = open("/dev/dma_heap/system", O_RDONLY | O_CLOEXEC), rc;

	if (heap < 0)
		return -errno;
	rc = ioctl(heap, VP_DMA_HEAP_IOCTL_ALLOC, &a) == 0 ? (int)a.fd : -errno;
	close(heap);
	return rc;
}

/* Write "fd" (or -1) to a holder file: attach/vmap our buffer, or let go. */
static bool vp_hold(const char *file, int fd)
{
	char path[128], num[16];
	int h, n;
	bool ok;

	snprintf(path, sizeof(path), VP_HOLDER "%s", file);
	h = open(path, O_WRONLY | O_CLOEXEC);
	if (h < 0)
		return vp_fail(path, errno);
	n = snprintf(num, sizeof(num), "%d", fd);
	ok = write(h, num, (size_t)n) == n || vp_fail(path, errno);
	close(h);
	return ok;
}

int vp_dmabuf_rw(int argc, char **argv)
{
	const uint32_t R = VP_DMA_BUF_RW_READ, W = VP_DMA_BUF_RW_WRITE, D = VP_DMA_BUF_RW_DIRECT;
	char src[256], dst[256];
	unsigned char *data, *map;
	int buf, in, out, rdonly, udev;
	bool ok = true;

	if (argc < 2)
		return !vp_fail("usage: dmabuf-rw DIR (on a file system with O_DIRECT)", 0);
	snprintf(src, sizeof(src), "%s/rw-src", argv[1]);
	snprintf(dst, sizeof(dst), "%s/rw-dst", argv[1]);
	data = malloc(VP_LEN);
	if (!data)
		return !vp_fail("malloc", errno);
	vp_pattern(data, VP_LEN, 21);
	in = open(src, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (in < 0 || write(in, data, VP_LEN) != VP_LEN || fsync(in))
		return !vp_fail(src, errno);
	out = open(dst, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out < 0)
		return !vp_fail(dst, errno);
	buf = vp_heap_buf(VP_LEN);
	if (buf < 0)
		return !vp_fail("system heap allocation", -buf);
	map = mmap(NULL, VP_LEN, PROT_READ, MAP_SHARED, buf, 0);
	if (map == MAP_FAILED)
		return !vp_fail("mmap the heap buffer", errno);

	/* file -> buffer, buffered then DIRECT, checked through the CPU mapping */
	ok = vp_expect(vp_rw(buf, R, in, 0, 0, VP_LEN), 0, "READ 1 MiB") && ok;
	if (!vp_pattern_ok(map, VP_LEN, 21))
		ok = vp_fail("the buffer differs from the file after READ", 0);
	memset(data, 0, 4096);
	ok = vp_expect(vp_rw(buf, R | D, in, 4096, 0, VP_LEN - 4096), 0,
		       "READ|DIRECT 1 MiB - 4 KiB") &&
	     ok;
	vp_pattern(data, VP_LEN, 21);
	if (memcmp(map, data + 4096, VP_LEN - 4096))
		ok = vp_fail("the buffer differs from the file after READ|DIRECT at offset 4096",
			     0);
	/* buffer -> file, DIRECT then buffered, read back with read(2) */
	ok = vp_expect(vp_rw(buf, R, in, 0, 0, VP_LEN), 0, "READ again") && ok;
	ok = vp_expect(vp_rw(buf, W | D, out, 0, 0, VP_LEN - 4096), 0, "WRITE|DIRECT") && ok;
	ok = vp_expect(vp_rw(buf, W, out, VP_LEN - 4096, VP_LEN - 4096, 4096), 0,
		       "WRITE the last page buffered") &&
	     ok;
	{
		unsigned char *back = malloc(VP_LEN);

		if (!back || pread(out, back, VP_LEN, 0) != VP_LEN ||
		    !vp_pattern_ok(back, VP_LEN, 21))
			ok = vp_fail("the file written by WRITE differs from the buffer", errno);
		free(back);
	}
	/* an odd range, buffered */
	ok = vp_expect(vp_rw(buf, W, out, 7, 3, 1001), 0, "WRITE 1001 bytes at odd offsets") && ok;

	/* what the patch refuses */
	ok = vp_expect(vp_rw(buf, 0, in, 0, 0, 4096), EINVAL, "no operation") && ok;
	ok = vp_expect(vp_rw(buf, 3, in, 0, 0, 4096), EINVAL, "READ|WRITE at once") && ok;
	ok = vp_expect(vp_rw(buf, R | 0x100, in, 0, 0, 4096), EINVAL, "an unknown flag") && ok;
	ok = vp_expect(vp_rw(buf, R, in, 0, 4096, VP_LEN), EINVAL,
		       "a range past the buffer's end") &&
	     ok;
	ok = vp_expect(vp_rw(buf, R, in, 0, UINT64_MAX - 1, 4096), EINVAL,
		       "a buffer offset that wraps") &&
	     ok;
	ok = vp_expect(vp_rw(buf, R | D, in, 512, 0, 4096), EINVAL,
		       "DIRECT at an unaligned file offset") &&
	     ok;
	ok = vp_expect(vp_rw(buf, R | D, in, 0, 0, 100), EINVAL,
		       "DIRECT with an unaligned length") &&
	     ok;
	ok = vp_expect(vp_rw(buf, R, -1, 0, 0, 4096), EBADF, "fd -1") && ok;
	rdonly = open(src, O_RDONLY | O_CLOEXEC);
	ok = vp_expect(vp_rw(buf, W, rdonly, 0, 0, 4096), EBADF, "WRITE into a read-only file") &&
	     ok;
	close(rdonly);
	ok = vp_expect(vp_rw(buf, R, in, VP_LEN - 100, 0, 4096), ENODATA,
		       "READ past the end of the file") &&
	     ok;
	ok = vp_expect(vp_rw(buf, R, in, 0, 0, 0), 0, "zero bytes") && ok;
	{
		int devnull = open("/dev/null", O_RDWR | O_CLOEXEC);

		ok = vp_expect(vp_rw(buf, W | D, devnull, 0, 0, 4096), EINVAL,
			       "DIRECT to a file without O_DIRECT") &&
		     ok;
		close(devnull);
	}

	/* EBUSY while a driver holds the buffer, fine again after */
	if (vp_hold("attach", buf)) {
		ok = vp_expect(vp_rw(buf, R, in, 0, 0, 4096), EBUSY,
			       "READ while attached to a device") &&
		     ok;
		ok = vp_hold("attach", -1) && ok;
		ok = vp_expect(vp_rw(buf, R, in, 0, 0, 4096), 0, "READ after the detach") && ok;
	} else {
		ok = false;
	}
	if (vp_hold("vmap", buf)) {
		ok = vp_expect(vp_rw(buf, W, out, 0, 0, 4096), EBUSY,
			       "WRITE while vmapped by the kernel") &&
		     ok;
		ok = vp_hold("vmap", -1) && ok;
		ok = vp_expect(vp_rw(buf, W, out, 0, 0, 4096), 0, "WRITE after the vunmap") && ok;
	} else {
		ok = false;
	}

	/* an exporter without rw_file: udmabuf */
	udev = open("/dev/udmabuf", O_RDWR | O_CLOEXEC);
	if (udev >= 0) {
		int memfd = memfd_create("vp", MFD_ALLOW_SEALING | MFD_CLOEXEC), ubuf;
		struct vp_udmabuf_create c = { .flags = VP_UDMABUF_FLAGS_CLOEXEC, .size = 4096 };

		if (memfd >= 0 && ftruncate(memfd, 4096) == 0 &&
		    fcntl(memfd, F_ADD_SEALS, F_SEAL_SHRINK) == 0) {
			c.memfd = (uint32_t)memfd;
			ubuf = ioctl(udev, VP_UDMABUF_CREATE, &c);
			if (ubuf >= 0) {
				ok = vp_expect(vp_rw(ubuf, R, in, 0, 0, 4096), EOPNOTSUPP,
					       "udmabuf (no rw_file)") &&
				     ok;
				close(ubuf);
			} else {
				ok = vp_fail("UDMABUF_CREATE", errno);
			}
		}
		if (memfd >= 0)
			close(memfd);
		close(udev);
	} else {
		ok = vp_fail("/dev/udmabuf", errno);
	}

	munmap(map, VP_LEN);
	close(buf);
	close(in);
	close(out);
	unlink(src);
	unlink(dst);
	free(data);
	vp_note("DMA_BUF_IOCTL_RW_FILE: both directions, buffered and DIRECT, refusals and EBUSY as specified");
	return ok ? 0 : 1;
}
