/* SPDX-License-Identifier: GPL-2.0 */
/* Run through cpp with fw_layout.h: the test firmware's sections in the remote's RAM. */
#include "fw_layout.h"

ENTRY(_start)
SECTIONS
{
	. = SRP_MEM_DA;
	.socbox_fw : { KEEP(*(.socbox_fw)) }
	.text : { *(.text*) }
	.rodata : { *(.rodata*) }
	.resource_table : ALIGN(8) { KEEP(*(.resource_table)) }
	.data : { *(.data*) }
	. = SRP_TRACE_DA;
	.trace : { *(.trace) }
	/DISCARD/ : { *(.comment) *(.note*) *(.eh_frame*) }
}
