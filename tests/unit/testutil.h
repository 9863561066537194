/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SOCBOX_TESTUTIL_H
#define SOCBOX_TESTUTIL_H
#include <check.h>
#include <stddef.h>

/* A temporary directory tree for one test; removed by tu_tree_free(). */
char *tu_tree_new(void);
void tu_tree_free(char *dir);
/* Create dir/rel (with parents) holding content (len bytes; -1 = strlen). */
void tu_write(const char *dir, const char *rel, const char *content, long len);
/* Create a symlink dir/rel -> target (parents created). */
void tu_symlink(const char *dir, const char *rel, const char *target);
/* Path of a file under tests/fixtures ($SOCBOX_FIXTURES). */
const char *tu_fixture(const char *rel);
/* Run a suite in fork mode and return the process exit status. */
int tu_run(Suite *s);
#endif
