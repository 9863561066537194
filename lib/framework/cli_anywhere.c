// SPDX-License-Identifier: GPL-2.0-or-later
/* Common options before the command: "rpmsgctl --sysroot DIR rproc status" is
 * "rpmsgctl rproc status --sysroot DIR", as "ip -n NS link" and "git -C DIR log" take
 * theirs. The command word is moved in front of the options, which its parser then reads. */
#include <stdlib.h>
#include <string.h>

#include "socbox/cli.h"

/* How many words the common option at a takes (1 or 2), or 0 when a is not one: "-J",
 * "-qv", "--sysroot=DIR", "-oNAME" are one; "--sysroot DIR", "-Jo LIST" two. */
static int common_option(const char *a)
{
	static const char *const flags[] = { "--json", "--quiet", "--verbose", "--bytes", NULL };
	static const char *const valued[] = { "--sysroot", "--output", "--netns", "--format", NULL };
	size_t len;

	for (const char *const *n = flags; *n; n++)
		if (!strcmp(a, *n))
			return 1;
	for (const char *const *n = valued; *n; n++) {
		len = strlen(*n);
		if (!strncmp(a, *n, len) && (!a[len] || a[len] == '='))
			return a[len] ? 1 : 2;
	}
	if (a[0] != '-' || a[1] == '-' || !a[1])
		return 0;
	a += 1 + strspn(a + 1, "Jqv");
	if (!*a)
		return 1;
	if (*a == 'o')
		return a[1] ? 1 : 2;
	return 0;
}

int sb_cli_command_after_options(
	int argc, const char **argv, bool (*is_command)(const char *word, const void *arg),
	const void *arg)
{
	int i = 1, n;

	while (i < argc && (n = common_option(argv[i])))
		i += n;
	return i > 1 && i < argc && is_command(argv[i], arg) ? i : 0;
}

const char **sb_cli_command_first(int argc, const char **argv, int at)
{
	const char **v = calloc((size_t)argc + 1, sizeof(*v));
	int n = 0;

	if (!v)
		return NULL;
	v[n++] = argv[0];
	v[n++] = argv[at];
	for (int i = 1; i < argc; i++)
		if (i != at)
			v[n++] = argv[i];
	v[n] = NULL;
	return v;
}
