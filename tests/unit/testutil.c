// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "testutil.h"

char *tu_tree_new(void)
{
	char tmpl[] = "/tmp/socbox-unit.XXXXXX";
	char *d = mkdtemp(tmpl);
	ck_assert_ptr_nonnull(d);
	return strdup(d);
}

void tu_tree_free(char *dir)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", dir);
	free(dir);
}

static void mkparents(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, 0755) && errno != EEXIST)
			ck_abort_msg("mkdir %s: %s", buf, strerror(errno));
		*p = '/';
	}
}

void tu_write(const char *dir, const char *rel, const char *content, long len)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkparents(path);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "create %s: %s", path, strerror(errno));
	if (len < 0)
		len = (long)strlen(content);
	ck_assert_int_eq(fwrite(content, 1, (size_t)len, f), (size_t)len);
	fclose(f);
}

void tu_symlink(const char *dir, const char *rel, const char *target)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	mkparents(path);
	ck_assert_msg(symlink(target, path) == 0, "symlink %s: %s", path, strerror(errno));
}

const char *tu_fixture(const char *rel)
{
	static char path[PATH_MAX];
	const char *base = getenv("SOCBOX_FIXTURES");
	snprintf(path, sizeof(path), "%s/%s", base ? base : "tests/fixtures", rel);
	return path;
}

int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
