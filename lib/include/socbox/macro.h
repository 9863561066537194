/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small macros every file may use (kmod's shared/macro.h is the model). */
#ifndef SOCBOX_MACRO_H
#define SOCBOX_MACRO_H

/* 1 when a is an array, 0 when it is a pointer (to which an array argument decays). */
#define SB_IS_ARRAY(a) (!__builtin_types_compatible_p(__typeof__(a), __typeof__(&(a)[0])))

/* Elements of an array; a pointer (a parameter, a malloc()ed table) fails to compile instead
 * of giving sizeof(pointer) / sizeof(element). */
#define ARRAY_SIZE(a) \
	(sizeof(a) / sizeof((a)[0]) + \
	 0 * sizeof(struct { \
		 _Static_assert(SB_IS_ARRAY(a), "ARRAY_SIZE of a pointer"); \
		 int sb_unused; \
	 }))

#endif
