// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-edu-dma BDF IOVA: start one DMA read of QEMU's edu device (1234:11e8) from IOVA
 * into its internal buffer, through BAR0 mmapped from sysfs (resource0), so no /dev/mem is
 * needed (the test kernel has none). With IOVA unmapped, the IOMMU blocks the read and logs
 * a fault. Registers (QEMU docs/specs/edu.rst): 0x80 source, 0x88 destination, 0x90 count,
 * 0x98 command (bit 0 start, bit 1 direction: 0 = RAM to device). Bus mastering must be on. */
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define EDU_DMA_SRC 0x80
#define EDU_DMA_DST 0x88
#define EDU_DMA_CNT 0x90
#define EDU_DMA_CMD 0x98
#define EDU_BUFFER 0x40000
#define EDU_BAR_SIZE 4096

int main(int argc, char **argv)
{
	char path[256];
	volatile uint64_t *bar;
	void *map;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: socbox-edu-dma BDF IOVA\n");
		return 2;
	}
	snprintf(path, sizeof(path), "/sys/bus/pci/devices/%s/resource0", argv[1]);
	fd = open(path, O_RDWR | O_SYNC);
	if (fd < 0) {
		perror(path);
		return 1;
	}
	map = mmap(NULL, EDU_BAR_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		perror("mmap resource0");
		return 1;
	}
	bar = map;
	bar[EDU_DMA_SRC / 8] = strtoull(argv[2], NULL, 0);
	bar[EDU_DMA_DST / 8] = EDU_BUFFER;
	bar[EDU_DMA_CNT / 8] = 8;
	bar[EDU_DMA_CMD / 8] = 1;
	munmap(map, EDU_BAR_SIZE);
	close(fd);
	return 0;
}
