// SPDX-License-Identifier: GPL-2.0-or-later
#include <ctype.h>
#include <string.h>

#include "socbox/suggest.h"

/* Words longer than this are not typos of a command name. */
#define WORD_MAX 64

void sb_suggest_init(struct sb_suggest *s, const char *word, size_t len)
{
	s->word = word;
	s->len = len == (size_t)-1 ? strlen(word) : len;
	s->best = NULL;
	s->dist = 0;
}

static size_t min3(size_t a, size_t b, size_t c)
{
	size_t m = a < b ? a : b;

	return m < c ? m : c;
}

/* Optimal string alignment distance: Levenshtein plus the swap of two neighbours, the
 * commonest typo ("lsit"). Three rows of the matrix are enough. */
static size_t distance(const char *a, size_t la, const char *b, size_t lb)
{
	size_t rows[3][WORD_MAX + 1], *pp = rows[0], *p = rows[1], *cur = rows[2];

	for (size_t j = 0; j <= lb; j++)
		p[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			int ca = tolower((unsigned char)a[i - 1]),
			    cb = tolower((unsigned char)b[j - 1]);
			size_t cost = ca != cb;

			cur[j] = min3(p[j] + 1, cur[j - 1] + 1, p[j - 1] + cost);
			if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
			    tolower((unsigned char)a[i - 2]) == cb && pp[j - 2] + 1 < cur[j])
				cur[j] = pp[j - 2] + 1;
		}
		size_t *t = pp;
		pp = p;
		p = cur;
		cur = t;
	}
	return p[lb];
}

void sb_suggest_add(struct sb_suggest *s, const char *candidate)
{
	size_t lc = strlen(candidate), d;

	if (!s->len || s->len > WORD_MAX || lc > WORD_MAX)
		return;
	d = distance(s->word, s->len, candidate, lc);
	if (d > (s->len <= 4 ? 1u : 2u) || (s->best && d >= s->dist))
		return;
	s->best = candidate;
	s->dist = d;
}

const char *sb_suggest_best(const struct sb_suggest *s)
{
	return s->best;
}

const char *sb_suggest_among(const char *word, const char *const *words)
{
	struct sb_suggest s;

	sb_suggest_init(&s, word, (size_t)-1);
	for (; *words; words++)
		sb_suggest_add(&s, *words);
	return sb_suggest_best(&s);
}
