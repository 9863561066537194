/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the fuzz harnesses (tests/fuzz/fuzz_*.c): each defines LLVMFuzzerTestOneInput()
 * and feeds the input to one parser the way socbox feeds it a file's content. Built with
 * libFuzzer when SOCBOX_FUZZ is on, and always with replay.c, which runs the seed and
 * regression inputs through the same function (the unit tier, under ASan in scripts/test). */
#ifndef SOCBOX_FUZZ_H
#define SOCBOX_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input as a NUL-terminated string in a buffer of exactly size + 1 bytes (so ASan sees
 * a read past the end), as sb_read_file() hands a file to its parser. An embedded NUL ends
 * the text there, as it does for the parsers. */
static inline char *fuzz_text(const uint8_t *data, size_t size)
{
	char *s = malloc(size + 1);

	if (!s)
		abort();
	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* Fail loudly (libFuzzer keeps the input) when a property of the output does not hold. */
#define FUZZ_ASSERT(cond) \
	do { \
		if (!(cond)) \
			fuzz_fail(__FILE__, __LINE__, #cond); \
	} while (0)
void fuzz_fail(const char *file, int line, const char *what) __attribute__((noreturn));

struct sb_root;
/* A sysroot on a directory of its own, made on first use and removed at exit; harnesses
 * that read through the path layer write the input into it. Beside the root (outside it)
 * lies a file "canary" holding FUZZ_CANARY: no read below the root may ever see it. */
#define FUZZ_CANARY "CANARY-OUTSIDE-THE-ROOT"
const char *fuzz_root_dir(void);
const struct sb_root *fuzz_root(void);
/* Write len bytes to the file rel (parents made) below fuzz_root_dir(). */
void fuzz_put(const char *rel, const void *data, size_t len);
/* Make rel (parents made) a symlink to target. */
void fuzz_link(const char *rel, const char *target);

#endif
