/* SPDX-License-Identifier: GPL-2.0-or-later */
/* sb_strtod(): strtod() without the C library's arbitrary-precision conversion, which is
 * 10.6 KiB of the static armhf binary (strtod_l.o and the mpn routines only it needs) for
 * numbers socbox never reads: its numbers are durations, sizes and rates a person types
 * or a kernel file holds, of a few digits. It reads what glibc's strtod() reads in the "C"
 * locale (white space, a sign, decimal digits with a fraction and an e exponent,
 * hexadecimal ones with a p exponent, inf, infinity, nan, nan(chars)), ends where it ends
 * and sets ERANGE where it does. The value is the same double whenever the digits make at
 * most 15 significant ones and the decimal exponent left is within 22 (one correctly
 * rounded multiplication or division), and every hexadecimal number of up to 13 digits;
 * past that it may differ in the last bits. tests/unit/test_strtod.c compares it with
 * glibc's. The static build's strtod() is this one (lib/compat/strtod.c). */
#ifndef SOCBOX_STRTOD_H
#define SOCBOX_STRTOD_H

double sb_strtod(const char *s, char **end);

#endif
