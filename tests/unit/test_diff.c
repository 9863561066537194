// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox diff's record sets and their comparison: order, one-sided objects and attributes,
 * --ignore globs. */
#include <string.h>

#include "socbox/diff.h"
#include "testutil.h"

static void board(struct sb_diff_set *s, const char *state, bool with_ctrl, const char *extra)
{
	struct sb_diff_obj *o;

	/* added out of order on purpose: the comparison sorts */
	o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "remoteproc:remoteproc10");
	sb_diff_attr_str(s, o, "state", "offline");
	o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "remoteproc:remoteproc2");
	sb_diff_attr_str(s, o, "state", state);
	sb_diff_attr_str(s, o, "firmware", "m4.elf");
	if (extra)
		sb_diff_attr_u64(s, o, extra, 3);
	if (with_ctrl) {
		o = sb_diff_obj_add(s, SB_DIFF_RPMSG, "ctrl:rpmsg_ctrl0");
		sb_diff_attr_str(s, o, "channel", "virtio0.rpmsg_ctrl.0.0");
	}
	o = sb_diff_obj_add(s, SB_DIFF_DOCTOR, "board");
	sb_diff_attr_str(s, o, "kernel", "6.6");
	o = sb_diff_obj_add(s, SB_DIFF_IOMMU, "group:3");
	sb_diff_attr_bool(s, o, "default", true);
}

START_TEST(equal_sets_do_not_differ)
{
	struct sb_diff_set a = { 0 }, b = { 0 };
	struct sb_diff_result r;

	board(&a, "running", true, NULL);
	board(&b, "running", true, NULL);
	ck_assert_int_eq(a.err, 0);
	ck_assert_int_eq(sb_diff_compare(&a, &b, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 0);
	sb_diff_result_free(&r);
	sb_diff_set_free(&a);
	sb_diff_set_free(&b);
}
END_TEST

START_TEST(changes_in_print_order)
{
	struct sb_diff_set a = { 0 }, b = { 0 };
	struct sb_diff_result r;
	const struct sb_diff_change *c;

	board(&a, "running", true, NULL);
	board(&b, "crashed", false, "crashes");
	ck_assert_int_eq(sb_diff_compare(&a, &b, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 3);
	/* rpmsg: the remote processor (kinds in their order) before the control device */
	c = &r.v[0];
	ck_assert_int_eq(c->kind, SB_DIFF_CHANGED);
	ck_assert_int_eq(c->sub, SB_DIFF_RPMSG);
	ck_assert_str_eq(c->id, "remoteproc:remoteproc2");
	ck_assert_str_eq(c->attr, "state");
	ck_assert_str_eq(c->old_val, "running");
	ck_assert_str_eq(c->new_val, "crashed");
	c = &r.v[1]; /* an attribute only NEW has */
	ck_assert_str_eq(c->attr, "crashes");
	ck_assert_ptr_null(c->old_val);
	ck_assert_str_eq(c->new_val, "3");
	c = &r.v[2];
	ck_assert_int_eq(c->kind, SB_DIFF_REMOVED);
	ck_assert_str_eq(c->id, "ctrl:rpmsg_ctrl0");
	ck_assert_ptr_null(c->attr);
	ck_assert_str_eq(c->obj->attrs[0].val, "virtio0.rpmsg_ctrl.0.0");
	sb_diff_result_free(&r);

	/* the other way round */
	ck_assert_int_eq(sb_diff_compare(&b, &a, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_ptr_null(r.v[1].new_val);
	ck_assert_int_eq(r.v[2].kind, SB_DIFF_ADDED);
	sb_diff_result_free(&r);
	sb_diff_set_free(&a);
	sb_diff_set_free(&b);
}
END_TEST

START_TEST(ignore_globs_cross_slashes)
{
	const char *const state[] = { "rpmsg/*/state", NULL };
	const char *const all[] = { "nothing/*", "rpmsg/*", NULL };
	const char *const obj[] = { "rpmsg/ctrl:*", NULL };
	struct sb_diff_set a = { 0 }, b = { 0 };
	struct sb_diff_result r;

	ck_assert(sb_diff_ignored(all, "rpmsg/remoteproc:remoteproc2/state"));
	ck_assert(!sb_diff_ignored(all, "doctor/board/kernel"));
	ck_assert(!sb_diff_ignored(NULL, "doctor/board/kernel"));
	board(&a, "running", true, NULL);
	board(&b, "crashed", false, "crashes");
	ck_assert_int_eq(sb_diff_compare(&a, &b, state, &r), 0);
	ck_assert_uint_eq(r.n, 3);
	ck_assert_uint_eq(r.nignored, 1);
	ck_assert(r.v[0].ignored);
	ck_assert(!r.v[1].ignored);
	sb_diff_result_free(&r);
	ck_assert_int_eq(sb_diff_compare(&a, &b, obj, &r), 0);
	ck_assert_uint_eq(r.nignored, 1);
	ck_assert(r.v[2].ignored);
	sb_diff_result_free(&r);
	ck_assert_int_eq(sb_diff_compare(&a, &b, all, &r), 0);
	ck_assert_uint_eq(r.nignored, r.n);
	sb_diff_result_free(&r);
	sb_diff_set_free(&a);
	sb_diff_set_free(&b);
}
END_TEST

START_TEST(globs)
{
	ck_assert(sb_diff_glob("*", ""));
	ck_assert(sb_diff_glob("*", "rpmsg/remoteproc:remoteproc0/state"));
	ck_assert(sb_diff_glob("rpmsg/*/state", "rpmsg/remoteproc:remoteproc0/state"));
	ck_assert(!sb_diff_glob("rpmsg/*/state", "rpmsg/remoteproc:remoteproc0/firmware"));
	ck_assert(sb_diff_glob("*/kernel", "doctor/board/kernel"));
	ck_assert(!sb_diff_glob("doctor/board", "doctor/board/kernel"));
	ck_assert(sb_diff_glob("remoteproc?", "remoteproc1"));
	ck_assert(!sb_diff_glob("remoteproc?", "remoteproc10"));
	ck_assert(sb_diff_glob("group:[0-3]", "group:2"));
	ck_assert(!sb_diff_glob("group:[0-3]", "group:7"));
	ck_assert(sb_diff_glob("group:[!0-3]", "group:7"));
	ck_assert(sb_diff_glob("group:[^0-3]", "group:7"));
	ck_assert(sb_diff_glob("a[]]b", "a]b"));
	ck_assert(sb_diff_glob("a[x", "a[x")); /* no ']': a literal '[' */
	ck_assert(sb_diff_glob("pool\\*", "pool*"));
	ck_assert(!sb_diff_glob("pool\\*", "pool9"));
	ck_assert(sb_diff_glob("*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaab"));
	ck_assert(!sb_diff_glob("*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaa"));
	ck_assert(sb_diff_glob("**", "x"));
	ck_assert(!sb_diff_glob("", "x"));
	ck_assert(!sb_diff_glob("x", ""));
}
END_TEST

START_TEST(fixture_against_itself)
{
	struct sb_diff_set a = { 0 }, b = { 0 };
	struct sb_diff_operand op;
	struct sb_diff_result r;
	struct sb_err e;
	size_t rprocs = 0;

	ck_assert_int_eq(sb_diff_operand_open(&op, tu_fixture("am62x"), &e), 0);
	ck_assert_int_eq(sb_diff_collect(op.root, &a, &e), 0);
	ck_assert_int_eq(sb_diff_collect(op.root, &b, &e), 0);
	for (size_t i = 0; i < a.n; i++)
		rprocs += !strncmp(a.objs[i]->id, "remoteproc:", 11);
	ck_assert_uint_eq(rprocs, 3);
	ck_assert_int_eq(sb_diff_compare(&a, &b, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 0);
	sb_diff_result_free(&r);
	sb_diff_set_free(&a);
	sb_diff_set_free(&b);
	sb_diff_operand_close(&op);
	ck_assert_ptr_null(op.root);
}
END_TEST

/* A device node's mode is a fact only the running kernel gives: a snapshot never has it, so
 * snapshot against live must not report it; two sides that both have it are compared. */
START_TEST(live_attributes_compared_when_both_have_them)
{
	struct sb_diff_set snap = { 0 }, live = { 0 }, other = { 0 };
	struct sb_diff_result r;
	struct sb_diff_obj *o;

	o = sb_diff_obj_add(&snap, SB_DIFF_DOCTOR, "subsystem:dmabuf");
	sb_diff_attr_str(&snap, o, "heaps", "1");
	o = sb_diff_obj_add(&live, SB_DIFF_DOCTOR, "subsystem:dmabuf");
	sb_diff_attr_str(&live, o, "heaps", "1");
	sb_diff_attr_str(&live, o, "access_system", "0600 uid 0 gid 0");
	sb_diff_attr_live(o, "access_system");
	o = sb_diff_obj_add(&other, SB_DIFF_DOCTOR, "subsystem:dmabuf");
	sb_diff_attr_str(&other, o, "heaps", "1");
	sb_diff_attr_str(&other, o, "access_system", "0666 uid 0 gid 0");
	sb_diff_attr_live(o, "access_system");
	ck_assert_int_eq(sb_diff_compare(&snap, &live, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 0);
	sb_diff_result_free(&r);
	ck_assert_int_eq(sb_diff_compare(&live, &snap, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 0);
	sb_diff_result_free(&r);
	ck_assert_int_eq(sb_diff_compare(&live, &other, NULL, &r), 0);
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.v[0].attr, "access_system");
	ck_assert_str_eq(r.v[0].new_val, "0666 uid 0 gid 0");
	sb_diff_result_free(&r);
	sb_diff_set_free(&snap);
	sb_diff_set_free(&live);
	sb_diff_set_free(&other);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, equal_sets_do_not_differ);
	tcase_add_test(tc, changes_in_print_order);
	tcase_add_test(tc, ignore_globs_cross_slashes);
	tcase_add_test(tc, globs);
	tcase_add_test(tc, fixture_against_itself);
	tcase_add_test(tc, live_attributes_compared_when_both_have_them);
	suite_add_tcase(s, tc);
	return tu_run(s);
}
