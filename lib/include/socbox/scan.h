/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sb_sscanf(): sscanf() for the formats socbox parses kernel text with, without the C
 * library's scanf engine (its floating-point conversions bring strtold and strtof: 55 KiB
 * of the static binary on aarch64). It reads as glibc's sscanf() does in the "C" locale,
 * return value, stored values and %n counts alike (tests/unit/test_scan.c compares the
 * two over every format socbox uses), for this subset:
 *   conversions  d i u x X o (strtol()/strtoul() of the characters scanf would take),
 *                s, [set] and [^set] (ranges a-z too), c, n, %%;
 *   modifiers    * (no assignment), a width, hh h l ll j z t.
 * Any other conversion (the floating-point ones, p, wide characters, %m) ends the scan
 * where it stands, as a matching failure, and is a bug of the caller: the test catches it. */
#ifndef SOCBOX_SCAN_H
#define SOCBOX_SCAN_H

#include <stdarg.h>

int sb_sscanf(const char *s, const char *fmt, ...) __attribute__((format(scanf, 2, 3)));
int sb_vsscanf(const char *s, const char *fmt, va_list ap) __attribute__((format(scanf, 2, 0)));

#endif
