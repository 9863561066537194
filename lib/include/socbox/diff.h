/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socbox diff: what differs between two roots (snapshots or the live system), per subsystem.
 * Each root is read with the same readers the views and doctor use and turned into keyed
 * records: objects ("remoteproc:remoteproc0") with attributes ("state" = "running"); two
 * record sets are then compared object by object, so the result does not depend on file
 * layout, order or values nobody looks at (counters, timestamps).
 *
 * A difference has a path, SUBSYSTEM/OBJECT/ATTRIBUTE (SUBSYSTEM/OBJECT for an object only
 * one side has), which --ignore patterns match as globs where '*' also matches
 * '/' (sb_diff_glob()). */
#ifndef SOCBOX_DIFF_H
#define SOCBOX_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/sys.h"

/* The subsystems, in the order they are printed. */
enum sb_diff_sub { SB_DIFF_DOCTOR, SB_DIFF_RPMSG, SB_DIFF_DMABUF, SB_DIFF_IOMMU, SB_DIFF_NETDEV };
extern const char *const sb_diff_sub_names[]; /* "doctor", ...; NULL-terminated */

struct sb_diff_attr {
	char *key;
	char *val;
	bool live; /* only the running kernel tells it (a device node's mode): compared when
		    * both sides have it, as a snapshot never does */
};

struct sb_diff_obj {
	enum sb_diff_sub sub;
	char *id; /* "remoteproc:remoteproc0", "group:3", "queue:eth0:rx:0" */
	struct sb_diff_attr *attrs;
	size_t nattrs, cap;
};

/* The records of one root. Adders never fail the caller: an allocation failure is kept in
 * err (-ENOMEM) and later adds do nothing, so a collector checks once at the end. */
struct sb_diff_set {
	struct sb_diff_obj **objs;
	size_t n, cap;
	int err;
};

struct sb_diff_obj *sb_diff_obj_add(struct sb_diff_set *s, enum sb_diff_sub sub, const char *fmt,
				    ...) __attribute__((format(printf, 3, 4)));
/* Attribute setters; o may be NULL (after a failed add). */
void sb_diff_attr_str(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key,
		      const char *val);
void sb_diff_attr_fmt(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key,
		      const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void sb_diff_attr_u64(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, uint64_t v);
void sb_diff_attr_bool(struct sb_diff_set *s, struct sb_diff_obj *o, const char *key, bool v);
/* Mark the attribute key of o (added before) as live (struct sb_diff_attr). */
void sb_diff_attr_live(struct sb_diff_obj *o, const char *key);
void sb_diff_set_free(struct sb_diff_set *s);

/* Read every subsystem of a root into s. Subsystems a root cannot show (no netdev capture)
 * contribute nothing beyond what doctor says about them. 0, or -ENOMEM with e set. */
int sb_diff_collect(const struct sb_root *r, struct sb_diff_set *s, struct sb_err *e);
/* The parts of sb_diff_collect(), one per subsystem (lib/diff/diff_<sub>.c). */
void sb_diff_collect_doctor(const struct sb_root *r, struct sb_diff_set *s);
void sb_diff_collect_rpmsg(const struct sb_root *r, struct sb_diff_set *s);
void sb_diff_collect_dmabuf(const struct sb_root *r, struct sb_diff_set *s);
void sb_diff_collect_iommu(const struct sb_root *r, struct sb_diff_set *s);
void sb_diff_collect_netdev(const struct sb_root *r, struct sb_diff_set *s);

enum sb_diff_kind { SB_DIFF_ADDED, SB_DIFF_REMOVED, SB_DIFF_CHANGED };
extern const char *const sb_diff_kind_names[]; /* "added", "removed", "changed"; NULL-ended */

/* One difference. Strings point into the two sets (valid while they live). An object only
 * one side has carries that side's object in obj; attr, old_val and new_val are NULL. For a
 * changed attribute, old_val or new_val is NULL when only one side has the attribute. */
struct sb_diff_change {
	enum sb_diff_kind kind;
	enum sb_diff_sub sub;
	const char *id;
	const struct sb_diff_obj *obj;
	const char *attr, *old_val, *new_val;
	bool ignored; /* matched an --ignore pattern */
};

struct sb_diff_result {
	struct sb_diff_change *v;
	size_t n;
	size_t nignored;
};

/* Compare old and new (both sorted on the way) into res, in print order: by subsystem, then
 * object, then the attribute order of the object. ignore: NULL-terminated globs, or NULL.
 * 0 or -ENOMEM. */
int sb_diff_compare(struct sb_diff_set *old_set, struct sb_diff_set *new_set,
		    const char *const *ignore, struct sb_diff_result *res);
void sb_diff_result_free(struct sb_diff_result *res);
/* Whether path (SUBSYSTEM/OBJECT[/ATTRIBUTE]) matches one of the patterns. */
bool sb_diff_ignored(const char *const *ignore, const char *path);
/* Whether s matches the glob p: '*' any run of characters ('/' too), '?' one character,
 * '[a-z]' and '[!a-z]' sets, '\' quotes the next character. */
bool sb_diff_glob(const char *p, const char *s);

/* A diff operand: a snapshot directory, a .tar written by `socbox snapshot` (unpacked into
 * a private temporary directory that sb_diff_operand_close() removes), or "/" for the live
 * system. */
struct sb_diff_operand {
	struct sb_root *root;
	char tmpdir[4096]; /* "" unless a tarball was unpacked */
};
int sb_diff_operand_open(struct sb_diff_operand *op, const char *path, struct sb_err *e);
void sb_diff_operand_close(struct sb_diff_operand *op);

#endif
