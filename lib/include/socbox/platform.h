/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The board in front of the user: the kernel's architecture and how the firmware describes
 * the hardware (a device tree or ACPI tables), read from a root, live or sysroot, so that
 * advice fits the board (no VT-d hint on an AM62x, no device-tree hint on an x86 server). */
#ifndef SOCBOX_PLATFORM_H
#define SOCBOX_PLATFORM_H

#include <stdbool.h>

#include "socbox/sys.h"

enum sb_arch {
	SB_ARCH_UNKNOWN,
	SB_ARCH_ARM64,
	SB_ARCH_ARM, /* 32-bit Arm */
	SB_ARCH_X86_64,
	SB_ARCH_X86,
	SB_ARCH_RISCV,
	SB_ARCH_OTHER,
};

enum sb_fwdesc { SB_FW_UNKNOWN, SB_FW_DT, SB_FW_ACPI };

struct sb_platform {
	enum sb_arch arch;
	enum sb_fwdesc fw;
	char model[96];	     /* device tree "model", "" when none */
	char compatible[96]; /* the root node's first compatible ("ti,am625-sk"), "" */
	bool acpi_iort, acpi_dmar, acpi_ivrs; /* IOMMU tables present (ACPI) */
};

/* Live: uname(2) and /sys/firmware; a sysroot: /proc/sys/kernel/arch when it has one, else
 * the compiler or release in /proc/version ("aarch64-oe-linux-gcc", "+deb13-amd64"). */
void sb_platform_read(const struct sb_root *r, struct sb_platform *p);
/* "arm64", "arm", "x86_64", "x86", "riscv", "other" or "unknown". */
const char *sb_arch_name(enum sb_arch a);
/* "devicetree", "acpi" or "unknown". */
const char *sb_fwdesc_name(enum sb_fwdesc f);
bool sb_arch_is_arm(enum sb_arch a);
bool sb_arch_is_x86(enum sb_arch a);
/* The architecture a kernel's /proc/version or machine name ("aarch64", "armv7l") names. */
enum sb_arch sb_arch_from_text(const char *text);

#endif
