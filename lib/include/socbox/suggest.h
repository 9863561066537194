/* SPDX-License-Identifier: GPL-2.0-or-later */
/* "Did you mean": the known word closest to a mistyped one (an applet, command, option or
 * column). Candidates are offered one at a time, so any table can feed them. */
#ifndef SOCBOX_SUGGEST_H
#define SOCBOX_SUGGEST_H

#include <stddef.h>

struct sb_suggest {
	const char *word; /* what was typed */
	size_t len;	  /* its length (a part of a longer string may be matched) */
	const char *best; /* the closest candidate so far, NULL when none is close */
	size_t dist;
};

/* Start looking for words close to word[0..len) (len (size_t)-1: the whole string). */
void sb_suggest_init(struct sb_suggest *s, const char *word, size_t len);
/* Offer a candidate; case is ignored. Close means at most one edit (insertion, deletion,
 * substitution, swap of neighbours) for words up to 4 characters, two above. */
void sb_suggest_add(struct sb_suggest *s, const char *candidate);
/* The closest candidate, or NULL. */
const char *sb_suggest_best(const struct sb_suggest *s);
/* The word of a NULL-terminated list closest to word, or NULL. */
const char *sb_suggest_among(const char *word, const char *const *words);

#endif
