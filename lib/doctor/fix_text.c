// SPDX-License-Identifier: GPL-2.0-or-later
/* A cause's commands and its fix in words (socbox/doctor.h). The commands are kept apart
 * from the words, so a name read from the board can never make a command of its own: a
 * command is listed only when every name in it is a plain word. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "socbox/doctor.h"

/* A name a shell takes as one word, inside single quotes too: what kernel names of
 * devices, remote processors, modules and heaps are. */
static bool plain_word(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || strchr("._:@+,=-/", *s)))
			return false;
	return true;
}

int sb_cause_run(struct sb_cause *c, const char *fmt, ...)
{
	char *out;
	size_t used = 0, room = SB_FIX_COMMAND_MAX;
	bool ok = true;
	va_list ap;
	int i;

	if (c->nrun >= SB_FIX_COMMANDS)
		return -1;
	i = (int)c->nrun++;
	out = c->run[i];
	out[0] = '\0';
	va_start(ap, fmt);
	/* %s (a name: checked), %d, %u, %llu; the template's own text is trusted */
	for (const char *p = fmt; *p && used < room - 1; p++) {
		char piece[SB_FIX_COMMAND_MAX];
		int n;

		if (*p != '%') {
			out[used++] = *p;
			out[used] = '\0';
			continue;
		}
		p++;
		if (*p == 's') {
			const char *s = va_arg(ap, const char *);

			ok = ok && plain_word(s);
			n = snprintf(piece, sizeof(piece), "%s", s);
		} else if (*p == 'd') {
			n = snprintf(piece, sizeof(piece), "%d", va_arg(ap, int));
		} else if (*p == 'u') {
			n = snprintf(piece, sizeof(piece), "%u", va_arg(ap, unsigned));
		} else if (!strncmp(p, "llu", 3)) {
			p += 2;
			n = snprintf(piece, sizeof(piece), "%llu", va_arg(ap, unsigned long long));
		} else {
			n = snprintf(piece, sizeof(piece), "%%");
		}
		if (n < 0 || (size_t)n >= room - used) {
			ok = false; /* cut: never listed */
			n = (int)(room - 1 - used);
		}
		memcpy(out + used, piece, (size_t)n);
		used += (size_t)n;
		out[used] = '\0';
	}
	va_end(ap);
	if (ok)
		c->run_ok |= 1u << i;
	return i;
}

static void append(char *buf, size_t size, size_t *used, const char *s, size_t n)
{
	if (!size || *used >= size - 1)
		return;
	if (n > size - 1 - *used)
		n = size - 1 - *used;
	memcpy(buf + *used, s, n);
	*used += n;
	buf[*used] = '\0';
}

size_t sb_cause_commands(const struct sb_cause *c, const char **cmds)
{
	size_t k = 0;

	for (unsigned i = 0; i < c->nrun; i++)
		if (c->run_ok & (1u << i))
			cmds[k++] = c->run[i];
	return k;
}

void sb_cause_fix_text(const struct sb_cause *c, bool refer, char *buf, size_t size)
{
	static const char *const ordinal[] = { "first", "second", "third", "fourth" };
	const char *from = c->fix, *p;
	const char *cmds[SB_FIX_COMMANDS];
	size_t used = 0, listed = sb_cause_commands(c, cmds), k = 0;
	char word[40];

	if (size)
		buf[0] = '\0';
	while ((p = strchr(from, SB_FIX_RUN_MARK[0]))) {
		unsigned i = (unsigned)(p[1] - '0');

		append(buf, size, &used, from, (size_t)(p - from));
		if (p[1] < '0' || i >= c->nrun) { /* not ours: a name's own byte */
			append(buf, size, &used, p, 1);
			from = p + 1;
			continue;
		}
		if (refer && (c->run_ok & (1u << i))) {
			for (k = 0; k < listed && cmds[k] != c->run[i]; k++)
				;
			snprintf(word, sizeof(word), "the %s%scommand below",
				 listed > 1 ? ordinal[k] : "", listed > 1 ? " " : "");
			append(buf, size, &used, word, strlen(word));
		} else {
			append(buf, size, &used, c->run[i], strlen(c->run[i]));
		}
		from = p + 2;
	}
	append(buf, size, &used, from, strlen(from));
}
