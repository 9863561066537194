// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <string.h>

#include "socbox/path.h"

int sb_path_join(char *restrict out, size_t len, const char *restrict dir, const char *restrict rel)
{
	const char *const parts[2] = { rel[0] == '/' ? "" : dir, rel };
	size_t o = 0;

	if (len < 2)
		return -ENAMETOOLONG;
	out[0] = '\0';
	for (int k = 0; k < 2; k++) {
		for (const char *p = parts[k]; *p;) {
			size_t n = strcspn(p, "/");

			if (n == 2 && p[0] == '.' && p[1] == '.') {
				while (o && out[--o] != '/')
					;
				out[o] = '\0';
			} else if (n && !(n == 1 && p[0] == '.')) {
				if (o + 1 + n >= len) {
					out[0] = '\0';
					return -ENAMETOOLONG;
				}
				out[o++] = '/';
				memcpy(out + o, p, n);
				o += n;
				out[o] = '\0';
			}
			p += n;
			if (*p == '/')
				p++;
		}
	}
	if (!o)
		strcpy(out, "/");
	return 0;
}
