// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * socbox-vmprobe: a tiny in-guest checker for the vm tier. Each subcommand exercises one
 * kernel interface the applets rely on and exits 0 only if every expectation held; every
 * failed expectation prints a "probe: FAIL" line saying what and why.
 *
 *   socbox-vmprobe dmaheap [HEAP]   allocate, mmap and sync a dma-heap buffer (default: system)
 *   socbox-vmprobe udmabuf          turn a sealed memfd into a dma-buf and read it through it
 *   socbox-vmprobe rpmsg [CTRL]     endpoint create / echo / destroy on /dev/rpmsg_ctrl0
 *   socbox-vmprobe rpmsg-echo NODE  echo 100 bytes through an existing /dev/rpmsgN
 *   socbox-vmprobe rpmsg-fd [CTRL]  RPMSG_CREATE_EPT_FD_IOCTL semantics (test-kernel patch)
 *   socbox-vmprobe rpmsg-fd-gone CTRL MODULE  an fd endpoint while MODULE is removed
 *   socbox-vmprobe dmabuf-rw DIR    DMA_BUF_IOCTL_RW_FILE semantics (test-kernel patch)
 *   socbox-vmprobe iommufd          /dev/iommu: IOAS alloc, map, unmap, destroy
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "probe/check.h"

bool vp_fail(const char *what, int err)
{
	if (err)
		printf("probe: FAIL %s: %s\n", what, strerror(err));
	else
		printf("probe: FAIL %s\n", what);
	fflush(stdout);
	return false;
}

void vp_note(const char *fmt, ...)
{
	va_list ap;

	fputs("probe: ", stdout);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

static unsigned char vp_byte(unsigned long i, unsigned seed)
{
	return (unsigned char)((i * 2654435761u + seed) >> 7);
}

void vp_pattern(unsigned char *buf, unsigned long len, unsigned seed)
{
	for (unsigned long i = 0; i < len; i++)
		buf[i] = vp_byte(i, seed);
}

bool vp_pattern_ok(const unsigned char *buf, unsigned long len, unsigned seed)
{
	for (unsigned long i = 0; i < len; i++) {
		if (buf[i] != vp_byte(i, seed)) {
			printf("probe: pattern mismatch at byte %lu: 0x%02x != 0x%02x\n", i, buf[i],
			       vp_byte(i, seed));
			return false;
		}
	}
	return true;
}

static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} vp_cmds[] = {
	{ "dmabuf-rw", vp_dmabuf_rw },
	{ "dmaheap", vp_dmaheap },
	{ "iommufd", vp_iommufd },
	{ "rpmsg", vp_rpmsg },
	{ "rpmsg-echo", vp_rpmsg_echo },
	{ "rpmsg-fd", vp_rpmsg_fd },
	{ "rpmsg-fd-gone", vp_rpmsg_fd_gone },
	{ "udmabuf", vp_udmabuf },
};

int main(int argc, char **argv)
{
	if (argc >= 2) {
		for (size_t i = 0; i < sizeof(vp_cmds) / sizeof(vp_cmds[0]); i++)
			if (strcmp(argv[1], vp_cmds[i].name) == 0)
				return vp_cmds[i].run(argc - 1, argv + 1);
	}
	fputs("usage: socbox-vmprobe dmaheap [HEAP] | udmabuf | rpmsg [CTRL] | rpmsg-echo NODE | rpmsg-fd [CTRL] | rpmsg-fd-gone CTRL MODULE | dmabuf-rw DIR | iommufd\n",
	      stderr);
	return 2;
}
