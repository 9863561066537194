// SPDX-License-Identifier: GPL-2.0-or-later
/* The list of what `socbox snapshot` copies (lib/snapshot/snapshot_paths.c) names each path
 * once: no entry repeats another or lies inside a tree another entry already copies (with
 * the same or more of its flags). A repeat costs a second walk of the tree, and two entries
 * for one path drift apart when only one of them is edited. */
#include <stdbool.h>
#include <string.h>

#include "socbox/snapshot.h"
#include "testutil.h"

/* Levels of inner below outer ("/a/b/c" below "/a": 2), or -1 when it is not below it. */
static int levels_below(const char *outer, const char *inner)
{
	size_t n = strlen(outer);
	int levels = 0;

	if (strncmp(outer, inner, n) || inner[n] != '/')
		return -1;
	for (const char *p = inner + n; *p; p++)
		levels += *p == '/';
	return levels;
}

/* outer copies everything inner would: inner is at most outer's depth below it, counting
 * inner's own depth, and outer has every flag inner has */
static bool covers(const struct sb_snap_path *outer, const struct sb_snap_path *inner)
{
	int k = levels_below(outer->path, inner->path);

	if (!strcmp(outer->path, inner->path))
		k = 0;
	return k >= 0 && k + inner->depth <= outer->depth && (inner->flags & ~outer->flags) == 0;
}

START_TEST(every_path_once)
{
	for (const struct sb_snap_path *a = sb_snap_paths; a->path; a++)
		for (const struct sb_snap_path *b = sb_snap_paths; b->path; b++) {
			if (a == b)
				continue;
			if (!strcmp(a->path, b->path))
				ck_abort_msg("%s is listed twice", a->path);
			if (covers(a, b))
				ck_abort_msg("%s (depth %d) already copies %s (depth %d)", a->path,
					     a->depth, b->path, b->depth);
		}
}
END_TEST

START_TEST(cover_rule)
{
	const struct sb_snap_path mod = { "/sys/module/udmabuf", 1, 0 };
	const struct sb_snap_path params = { "/sys/module/udmabuf/parameters", 0, 0 };
	const struct sb_snap_path deep = { "/sys/module/udmabuf/parameters", 1, 0 };
	const struct sb_snap_path follow = { "/sys/module/udmabuf/holders", 0, SB_SNAP_FOLLOW };
	const struct sb_snap_path other = { "/sys/module/udmabuffer", 0, 0 };

	ck_assert(covers(&mod, &params));
	ck_assert(!covers(&mod, &deep));
	ck_assert(!covers(&mod, &follow));
	ck_assert(!covers(&mod, &other));
	ck_assert(!covers(&params, &mod));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("snapshot_paths");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, every_path_once);
	tcase_add_test(tc, cover_rule);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
