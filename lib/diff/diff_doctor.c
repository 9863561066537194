// SPDX-License-Identifier: GPL-2.0-or-later
/* doctor's view of a root as diff records: the board, each subsystem's status and facts, and
 * every cause (keyed by code and object, so the same cause on another object is another
 * record). Summaries are left out: they are built from the facts and would say it twice. */
#include <inttypes.h>
#include <stdlib.h>

#include "socbox/diff.h"
#include "socbox/doctor.h"
#include "socbox/out.h"

static void fact(struct sb_diff_set *s, struct sb_diff_obj *o, const struct sb_fact *f)
{
	char *list;

	switch (f->type) {
	case SB_FACT_STR:
		sb_diff_attr_str(s, o, f->key, f->str);
		break;
	case SB_FACT_NUM:
		sb_diff_attr_fmt(s, o, f->key, "%" PRId64, f->num);
		break;
	case SB_FACT_BOOL:
		sb_diff_attr_bool(s, o, f->key, f->num != 0);
		break;
	case SB_FACT_LIST:
		list = sb_out_join_list(f->items, f->nitems);
		if (!list)
			abort();
		sb_diff_attr_str(s, o, f->key, list);
		free(list);
		break;
	}
	/* a device node's mode and other answers of the running kernel: a snapshot has none */
	if (f->live)
		sb_diff_attr_live(o, f->key);
}

void sb_diff_collect_doctor(const struct sb_root *r, struct sb_diff_set *s)
{
	struct sb_doctor_opts opts = { 0 };
	struct sb_doctor_report rep;
	struct sb_diff_obj *o;

	sb_doctor_run(r, &opts, &rep);
	o = sb_diff_obj_add(s, SB_DIFF_DOCTOR, "board");
	sb_diff_attr_str(s, o, "kernel", rep.kernel);
	sb_diff_attr_str(s, o, "arch", rep.arch);
	sb_diff_attr_str(s, o, "firmware", rep.fwdesc);
	sb_diff_attr_str(s, o, "board", rep.board);
	for (int i = 0; i < SB_DOCTOR_NSUBS; i++) {
		const struct sb_doctor_sub *sub = &rep.subs[i];

		o = sb_diff_obj_add(s, SB_DIFF_DOCTOR, "subsystem:%s", sub->name);
		sb_diff_attr_str(s, o, "status", sb_health_name(sub->status));
		for (int j = 0; j < sub->nfacts; j++)
			fact(s, o, &sub->facts[j]);
	}
	for (size_t i = 0; i < rep.ncauses; i++) {
		const struct sb_cause *c = &rep.causes[i];

		o = sb_diff_obj_add(s, SB_DIFF_DOCTOR, "cause:%s:%s", c->def->code, c->object);
		sb_diff_attr_str(s, o, "diagnosis", c->diagnosis);
	}
	sb_doctor_report_free(&rep);
}
