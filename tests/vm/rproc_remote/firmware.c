// SPDX-License-Identifier: GPL-2.0
/*
 * The socbox test remote's firmware image: an ELF whose loadable segments land in the
 * remote's RAM (SRP_MEM_DA, see firmware.ld) and whose .resource_table asks the
 * remoteproc core for a trace buffer and an rpmsg virtio device with two vrings. There is
 * no code to run: the socbox_rproc module plays the remote processor, reading this image
 * from the memory the core loaded it into. Built with the kernel's compiler (tests/vm/rproc_remote/build).
 */
#include <stddef.h>
#include <stdint.h>

#include "fw_layout.h"

#ifndef FW_NAME
#error "build with -DFW_NAME=\"...\""
#endif

/* Resource table entries, as include/linux/remoteproc.h lays them out (all packed). */
enum { RSC_TRACE = 2, RSC_VDEV = 3 };
#define FW_RSC_ADDR_ANY 0xffffffffu
#define VIRTIO_ID_RPMSG 7
#define VIRTIO_RPMSG_F_NS 0

struct fw_rsc_trace {
	uint32_t da, len, reserved;
	char name[32];
} __attribute__((packed));

struct fw_rsc_vdev_vring {
	uint32_t da, align, num, notifyid, pa;
} __attribute__((packed));

struct fw_rsc_vdev {
	uint32_t id, notifyid, dfeatures, gfeatures, config_len;
	uint8_t status, num_of_vrings, reserved[2];
	struct fw_rsc_vdev_vring vring[2];
} __attribute__((packed));

struct table {
	uint32_t ver, num, reserved[2];
	uint32_t offset[2];
	uint32_t trace_type;
	struct fw_rsc_trace trace;
	uint32_t vdev_type;
	struct fw_rsc_vdev vdev;
} __attribute__((packed));

char trace_buf[SRP_TRACE_LEN] __attribute__((section(".trace")));

__attribute__((section(".socbox_fw"), used)) const struct srp_ident ident = { SRP_MAGIC, FW_NAME };

__attribute__((section(".resource_table"), used))
struct table resource_table = {
	.ver = 1,
	.num = 2,
	.offset = { offsetof(struct table, trace_type), offsetof(struct table, vdev_type) },
	.trace_type = RSC_TRACE,
	.trace = { .da = SRP_TRACE_DA, .len = SRP_TRACE_LEN, .name = "socbox-trace" },
	.vdev_type = RSC_VDEV,
	.vdev = {
		.id = VIRTIO_ID_RPMSG,
		.dfeatures = 1u << VIRTIO_RPMSG_F_NS,
		.num_of_vrings = 2,
		.vring = {
			{ .da = FW_RSC_ADDR_ANY, .align = SRP_VRING_ALIGN, .num = SRP_VRING_NUM },
			{ .da = FW_RSC_ADDR_ANY, .align = SRP_VRING_ALIGN, .num = SRP_VRING_NUM },
		},
	},
};

void _start(void)
{
	for (;;)
		;
}
