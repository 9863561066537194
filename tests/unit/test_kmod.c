// SPDX-License-Identifier: GPL-2.0-or-later
/* Module states from files: sysfs first, then modules.builtin and modules.dep. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "socbox/kmod.h"
#include "testutil.h"

static char *dir;
static struct sb_root *root;

static void setup(void)
{
	dir = tu_tree_new();
	tu_write(dir, "proc/sys/kernel/osrelease", "6.12.0-test\n", -1);
	tu_write(dir, "sys/module/rpmsg_char/initstate", "live\n", -1);
	tu_write(dir, "sys/module/going_away/initstate", "going\n", -1);
	tu_write(dir, "sys/module/dma_heap/parameters/mem_accounting", "N\n", -1);
	tu_write(dir, "lib/modules/6.12.0-test/modules.builtin",
		 "kernel/drivers/iommu/intel/iommu.ko\nkernel/drivers/dma-buf/heaps/system_heap.ko\n",
		 -1);
	tu_write(dir, "lib/modules/6.12.0-test/modules.dep",
		 "kernel/drivers/dma-buf/udmabuf.ko.xz:\n"
		 "kernel/drivers/rpmsg/rpmsg_ctrl.ko.zst: kernel/drivers/rpmsg/rpmsg_char.ko.zst\n"
		 "kernel/drivers/net/netdevsim/netdevsim.ko: kernel/net/core/page_pool.ko\n",
		 -1);
	ck_assert_int_eq(sb_root_open(&root, dir, NULL), 0);
}

static void teardown(void)
{
	sb_root_close(root);
	tu_tree_free(dir);
}

static enum sb_mod_state state(const char *name)
{
	enum sb_mod_state st;
	ck_assert_int_eq(sb_kmod_state(root, name, &st), 0);
	return st;
}

START_TEST(states_from_files)
{
	ck_assert_int_eq(state("rpmsg_char"), SB_MOD_LOADED);
	ck_assert_int_eq(state("rpmsg-char"), SB_MOD_LOADED); /* '-' and '_' are the same */
	ck_assert_int_eq(state("going_away"), SB_MOD_AVAILABLE);
	ck_assert_int_eq(state("dma_heap"), SB_MOD_BUILTIN);	/* sysfs dir without initstate */
	ck_assert_int_eq(state("system_heap"), SB_MOD_BUILTIN); /* modules.builtin */
	ck_assert_int_eq(state("udmabuf"), SB_MOD_AVAILABLE);	/* compressed module file */
	ck_assert_int_eq(state("rpmsg_ctrl"), SB_MOD_AVAILABLE);
	ck_assert_int_eq(state("netdevsim"), SB_MOD_AVAILABLE);
	ck_assert_int_eq(state("page_pool"), SB_MOD_MISSING); /* only named as a dependency */
	ck_assert_int_eq(state("rpmsg"), SB_MOD_MISSING);     /* a prefix is not a name */
	ck_assert_str_eq(sb_kmod_state_name(SB_MOD_BUILTIN), "built-in");
}
END_TEST

START_TEST(unknown_without_module_lists)
{
	tu_tree_free(dir);
	sb_root_close(root);
	dir = tu_tree_new();
	tu_write(dir, "proc/sys/kernel/osrelease", "6.12.0-test\n", -1);
	ck_assert_int_eq(sb_root_open(&root, dir, NULL), 0);
	ck_assert_int_eq(state("udmabuf"), SB_MOD_UNKNOWN);
	ck_assert(!sb_kmod_present(SB_MOD_UNKNOWN));
	ck_assert(sb_kmod_present(SB_MOD_BUILTIN));
}
END_TEST

/* Only a module list that names things can say a module is missing. */
START_TEST(no_missing_without_builtin_list)
{
	char path[4096];

	tu_write(dir, "lib/modules/6.12.0-test/modules.builtin", "", 0);
	ck_assert_int_eq(state("page_pool"), SB_MOD_UNKNOWN); /* empty modules.builtin */
	ck_assert_int_eq(state("udmabuf"), SB_MOD_AVAILABLE);
	sb_root_close(root);
	snprintf(path, sizeof(path), "%s/lib/modules/6.12.0-test/modules.builtin", dir);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(sb_root_open(&root, dir, NULL), 0);
	ck_assert_int_eq(state("page_pool"), SB_MOD_UNKNOWN); /* no modules.builtin */
	ck_assert_int_eq(state("udmabuf"), SB_MOD_AVAILABLE);
}
END_TEST

START_TEST(load_reports_a_missing_module)
{
	struct sb_err e;
	/* this machine's kernel certainly has no module of this name */
	int rc = sb_kmod_load("socbox_no_such_module", &e);
	ck_assert_int_lt(rc, 0);
	ck_assert_str_eq(e.object, "socbox_no_such_module");
	ck_assert(sb_err_exit_code(&e) == SB_EXIT_FAIL ||
		  sb_err_exit_code(&e) == SB_EXIT_UNSUPPORTED);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kmod");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, states_from_files);
	tcase_add_test(tc, unknown_without_module_lists);
	tcase_add_test(tc, no_missing_without_builtin_list);
	tcase_add_test(tc, load_reports_a_missing_module);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
