/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the test firmware (built with the host compiler, no kernel headers) and the
 * socbox_rproc module: where the remote's memory is, and the firmware's identity block.
 * The resource table layout itself is the kernel's (include/linux/remoteproc.h); the
 * firmware spells it out with its own definitions.
 */
#ifndef SOCBOX_RPROC_FW_LAYOUT_H
#define SOCBOX_RPROC_FW_LAYOUT_H

/* SRP_MEM_DA and SRP_TRACE_DA have no u suffix: the linker script uses them too */
#define SRP_MEM_DA \
	0xd0000000		/* device address of its RAM: above the guest's RAM, so it
				 * never shadows the vrings' DMA addresses (physical) */
#define SRP_MEM_SIZE 0x40000u	/* 256 KiB */
#define SRP_MAGIC "SBRPROC1"	/* first bytes of RAM once a firmware is loaded */
#define SRP_ECHO_ADDR 0x400u	/* the announced "rpmsg-raw" channel's address */
#define SRP_SINK_ADDR 0x401u	/* takes messages, answers none (not announced) */
#define SRP_TRACE_DA 0xd0008000 /* the trace buffer (firmware.ld.S puts .trace here) */
#define SRP_TRACE_LEN 4096u
#define SRP_VRING_NUM 64u
#define SRP_VRING_ALIGN 4096u

#ifndef __ASSEMBLER__ /* firmware.ld.S includes the numbers only */
/* At SRP_MEM_DA: who this firmware is, for the remote to put in its trace. */
struct srp_ident {
	char magic[8];
	char name[56];
};
#endif

#endif
