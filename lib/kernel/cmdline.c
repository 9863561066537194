// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/cmdline.h"

char *sb_cmdline_read(const struct sb_root *r)
{
	char *text = NULL;

	if (sb_read_file(r, &text, SB_READ_ATTR_MAX, "/proc/cmdline") < 0)
		return strdup("");
	return text;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

bool sb_cmdline_param(const char *cmdline, const char *key, char *val, size_t len)
{
	size_t kl = strlen(key);
	bool found = false;
	const char *p = cmdline;

	while (*p) {
		const char *word, *v = NULL;
		size_t vl = 0;
		bool quoted = false;

		while (is_space(*p))
			p++;
		if (!*p)
			break;
		word = p;
		/* a word ends at a space outside double quotes */
		for (; *p && (quoted || !is_space(*p)); p++) {
			if (*p == '"')
				quoted = !quoted;
			else if (*p == '=' && !v && !quoted)
				v = p + 1;
		}
		if (!v) {
			if ((size_t)(p - word) == kl && !strncmp(word, key, kl)) {
				snprintf(val, len, "%s", "");
				found = true;
			}
			continue;
		}
		if ((size_t)(v - 1 - word) != kl || strncmp(word, key, kl))
			continue;
		vl = (size_t)(p - v);
		if (vl >= 2 && v[0] == '"' && v[vl - 1] == '"') {
			v++;
			vl -= 2;
		}
		if (len) {
			size_t n = vl < len - 1 ? vl : len - 1;
			memcpy(val, v, n);
			val[n] = '\0';
		}
		found = true;
	}
	return found;
}

bool sb_cmdline_has_option(const char *list, const char *word)
{
	size_t wl = strlen(word);

	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");

		if (n == wl && !strncmp(p, word, wl))
			return true;
		p += n;
		if (*p == ',')
			p++;
	}
	return false;
}
