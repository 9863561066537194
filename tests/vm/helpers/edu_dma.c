// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-edu-dma: make QEMU's edu device (1234:11e8) DMA from an IOVA into its own buffer,
 * so the IOMMU in front of it sees the access (a fault when nothing is mapped there).
 *
 *   socbox-edu-dma BDF IOVA [COUNT]
 *
 * Maps BAR0 through /sys/bus/pci/devices/BDF/resource0, sets memory space and bus master in
 * the command register, programs the DMA engine (QEMU docs/specs/edu.rst: source 0x80,
 * destination 0x88, count 0x90, command 0x98; bit 0 starts, bit 1 clear = RAM to device; the
 * device buffer is at 0x40000; edu drops addresses above its 28-bit DMA mask) and waits
 * until the device says the transfer is done. The command register is left as found.
 * Exit 0 when the engine finished, 1 otherwise. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define EDU_ID 0x00
#define EDU_DMA_SRC 0x80
#define EDU_DMA_DST 0x88
#define EDU_DMA_COUNT 0x90
#define EDU_DMA_CMD 0x98
#define EDU_DMA_START 1u
#define EDU_BUFFER 0x40000
#define PCI_COMMAND 4
#define PCI_COMMAND_MEMORY 0x2
#define PCI_COMMAND_MASTER 0x4
#define WAIT_MS 5000 /* edu runs the transfer from a 100 ms timer; TCG may be slow */

static int die(const char *what)
{
	fprintf(stderr, "socbox-edu-dma: %s: %s\n", what, strerror(errno));
	return 1;
}

/* One 8-byte access: edu decodes only the register's own offset (a 4-byte write to its
 * upper half is ignored). */
static void put64(volatile uint8_t *bar, unsigned off, uint64_t v)
{
	*(volatile uint64_t *)(bar + off) = v;
}

int main(int argc, char **argv)
{
	char path[256];
	uint16_t cmd, newcmd;
	uint64_t iova, count = 8;
	volatile uint8_t *bar;
	struct timespec t0, t;
	int cfg, res, rc = 1;

	if (argc < 3 || argc > 4) {
		fprintf(stderr, "usage: socbox-edu-dma BDF IOVA [COUNT]\n");
		return 2;
	}
	iova = strtoull(argv[2], NULL, 0);
	if (argc == 4)
		count = strtoull(argv[3], NULL, 0);
	if (!count || count > 4096)
		return fprintf(stderr, "socbox-edu-dma: COUNT must be 1..4096\n"), 2;
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/config", argv[1]);
	cfg = open(path, O_RDWR | O_CLOEXEC);
	if (cfg < 0)
		return die(path);
	if (pread(cfg, &cmd, 2, PCI_COMMAND) != 2)
		return die("read the command register");
	newcmd = cmd | PCI_COMMAND_MEMORY | PCI_COMMAND_MASTER;
	if (pwrite(cfg, &newcmd, 2, PCI_COMMAND) != 2)
		return die("enable memory space and bus mastering");
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", argv[1]);
	res = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
	if (res < 0)
		return die(path);
	bar = mmap(NULL, 1 << 20, PROT_READ | PROT_WRITE, MAP_SHARED, res, 0);
	if (bar == MAP_FAILED)
		return die("map BAR0");
	if ((*(volatile uint32_t *)(bar + EDU_ID) & 0xff) != 0xed) {
		fprintf(stderr, "socbox-edu-dma: %s is not an edu device (id 0x%08x)\n", argv[1],
			*(volatile uint32_t *)(bar + EDU_ID));
		goto out;
	}
	put64(bar, EDU_DMA_SRC, iova);
	put64(bar, EDU_DMA_DST, EDU_BUFFER);
	put64(bar, EDU_DMA_COUNT, count);
	*(volatile uint32_t *)(bar + EDU_DMA_CMD) = EDU_DMA_START;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		if (!(*(volatile uint32_t *)(bar + EDU_DMA_CMD) & EDU_DMA_START)) {
			rc = 0;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > WAIT_MS) {
			fprintf(stderr, "socbox-edu-dma: the transfer did not finish in %d ms\n",
				WAIT_MS);
			break;
		}
		usleep(1000);
	}
	printf("edu %s: DMA of %llu bytes from IOVA 0x%llx %s\n", argv[1],
	       (unsigned long long)count, (unsigned long long)iova, rc ? "did not finish" : "done");
out:
	munmap((void *)bar, 1 << 20);
	close(res);
	if (pwrite(cfg, &cmd, 2, PCI_COMMAND) != 2)
		rc = die("restore the command register");
	close(cfg);
	return rc;
}
