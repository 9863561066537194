#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# scripts/kmsg-coverage on a small source tree made here: what it extracts (pr_fmt as the
# file (re)defines it, literals concatenated across lines, dev_err_probe()'s prefix, %pe,
# %pfwP and __func__ as printk prints them, comments and info levels left out) and each way
# its check fails: a string with no entry, a reason class the words contradict, a harmless
# text that catches another string, an entry that matches nothing, an unknown cause, an
# err record log.errors would raise filed as ignored. The kernel's own trees are checked by
# tests/kmsg/coverage.sh.
. "$SOCBOX_TESTLIB"
t_need python3 python3 || t_done
top=$(cd "$(dirname "$0")/../.." && pwd)
kc=$top/scripts/kmsg-coverage
tree=$T_TMP/linux
mkdir -p "$tree/drivers/x"
printf 'VERSION = 9\nPATCHLEVEL = 9\nSUBLEVEL = 0\n' >"$tree/Makefile"
cat >"$tree/drivers/x/x.c" <<'C'
// dev_err(dev, "in a comment\n");
#define pr_fmt(fmt) "cma: " fmt
#define MY_PREFIX "pre: "
static int x_probe(struct device *dev)
{
	pr_err("first %d\n", 1);
	dev_err(dev, MY_PREFIX "split "
		"across lines: %pe\n", ERR_PTR(-ENOMEM));
	return dev_err_probe(dev, -EINVAL, "mbox_request_channel failed\n");
}
#undef pr_fmt
#define pr_fmt(fmt) fmt
void x_other(struct device *dev)
{
	pr_warn(FW_BUG "table %s\n", __func__);
	dev_warn_ratelimited(dev, "%s: failed (%d)\n", __func__, 3);
	/* pr_err("in a comment\n"); */
	printk(KERN_ERR "x: raw %pfwP\n", fwnode);
	printk(KERN_INFO "not read\n");
	dev_info(dev, "not read\n");
}
C
cat >"$tree/drivers/x/y.c" <<'C'
#define pr_fmt(fmt) "%s: " fmt, __func__
#define dev_fmt(fmt) pr_fmt(fmt)
static int y_init(struct device *dev)
{
	pr_err("no %s\n", "x");
	dev_warn(dev, "dev side %d\n", 1);
}
C
good=$T_TMP/good.def
cat >"$good" <<'DEF'
/* test classes */
KMSG_SOURCE("drivers/x/*.c")
#define WHY "no object"
KMSG_REASON("mailbox", "mbox")
KMSG_LOG("drivers/x/x.c", "cma: first %d\n", "")
KMSG_LOG("drivers/x/x.c", "pre: split "
	 "across lines: %pe\n", "")
KMSG_LOG("drivers/x/x.c", "error %pe: mbox_request_channel failed\n", "mailbox")
KMSG_IGNORE("drivers/x/x.c", "[Firmware Bug]: table %s\n", "a warning without a device")
KMSG_LOG("drivers/x/x.c", "%s: failed (%d)\n", "")
KMSG_IGNORE("drivers/x/x.c", "x: raw %pfwP\n", WHY)
KMSG_IGNORE("drivers/x/y.c", "%s: no %s\n", WHY)
KMSG_LOG("drivers/x/y.c", "%s: dev side %d\n", "")
DEF

# extract: file, line, function, macro, level, format, sample
t_run "extract" 0 python3 "$kc" extract --classes "$good" "$tree"
cp "$T_TMP/out" "$T_TMP/extract"
t_eq "extract: eight strings" "$(wc -l <"$T_TMP/extract")" 8
tab=$(printf '\t')
t_grep "pr_fmt of its line" "^drivers/x/x.c${tab}6${tab}x_probe${tab}pr_err${tab}err${tab}\"cma: first %d\\\\n\"${tab}cma: first 0\\\\n$" "$T_TMP/extract"
t_grep "literals joined, %pe named" "${tab}dev_err${tab}err${tab}\"pre: split across lines: %pe\\\\n\"${tab}pre: split across lines: -EINVAL\\\\n$" "$T_TMP/extract"
t_grep "dev_err_probe's prefix" "${tab}dev_err_probe${tab}err${tab}\"error %pe: mbox_request_channel failed\\\\n\"${tab}error -EINVAL: mbox" "$T_TMP/extract"
t_grep "pr_fmt redefined, FW_BUG, __func__" "${tab}x_other${tab}pr_warn${tab}warn${tab}\"\\[Firmware Bug\\]: table %s\\\\n\"${tab}\\[Firmware Bug\\]: table x_other\\\\n$" "$T_TMP/extract"
t_grep "a _ratelimited form" "${tab}dev_warn_ratelimited${tab}warn${tab}.*${tab}x_other: failed \\(0\\)\\\\n$" "$T_TMP/extract"
t_grep "printk(KERN_ERR, %pfwP" "${tab}printk${tab}err${tab}\"x: raw %pfwP\\\\n\"${tab}x: raw node@0\\\\n$" "$T_TMP/extract"
t_grep "pr_fmt with __func__" "^drivers/x/y.c${tab}5${tab}y_init${tab}pr_err${tab}err${tab}\"%s: no %s\\\\n\"${tab}y_init: no x\\\\n$" "$T_TMP/extract"
t_grep "dev_fmt as pr_fmt" "^drivers/x/y.c${tab}6${tab}y_init${tab}dev_warn${tab}warn${tab}\"%s: dev side %d\\\\n\"${tab}y_init: dev side 0\\\\n$" "$T_TMP/extract"
t_nogrep "comments and info left out" "in a comment|not read" "$T_TMP/extract"

t_run "check: all classified" 0 python3 "$kc" check --classes "$good" "$tree"
t_grep "coverage row" "^drivers/x/x.c +6 +0 +4 +2 +0 +0 +100.0%$" "$T_TMP/out"
t_grep "coverage total" "^total +8 +0 +5 +3 +0 +0 +100.0%$" "$T_TMP/out"

# check_fails NAME PATTERN FILE: the check of FILE fails and says PATTERN
check_fails() {
	t_run "$1: fails" 1 python3 "$kc" check --classes "$3" "$tree"
	t_grep "$1: says why" "$2" "$T_TMP/out"
}
grep -v 'first %d' "$good" >"$T_TMP/bad.def"
check_fails "no entry" '^FAIL unclassified: drivers/x/x.c:6 x_probe\(\) "cma: first %d\\n"' "$T_TMP/bad.def"
sed 's/failed\\n", "mailbox")/failed\\n", "")/' "$good" >"$T_TMP/bad.def"
check_fails "reason class" '^FAIL wrong entry: .*mbox_request_channel.*words make its class "mailbox", the entry says ""' "$T_TMP/bad.def"
sed 's/^KMSG_LOG("drivers\/x\/x.c", "cma: first %d\\n", "")$/KMSG_HARMLESS("drivers\/x\/x.c", "cma: first %d\\n", "s", "too wide")/' "$good" >"$T_TMP/bad.def"
check_fails "harmless too wide" '^FAIL wrong entry: .*"pre: split across lines: %pe\\n": matched by the HARMLESS entry for drivers/x/x.c "cma: first %d\\n"' "$T_TMP/bad.def"
{ cat "$good"; printf '%s\n' 'KMSG_LOG("drivers/x/x.c", "gone\n", "")'; } >"$T_TMP/bad.def"
check_fails "stale entry" 'stale entry: no string of drivers/x/x.c is "gone\\n"' "$T_TMP/bad.def"
sed 's/^KMSG_LOG("drivers\/x\/x.c", "cma: first %d\\n", "")$/KMSG_CAUSE("drivers\/x\/x.c", "cma: first %d\\n", "no.such", "first")/' "$good" >"$T_TMP/bad.def"
check_fails "unknown cause" 'cause no.such is not in lib/doctor/causes.c' "$T_TMP/bad.def"
sed 's/^KMSG_LOG("drivers\/x\/x.c", "cma: first %d\\n", "")$/KMSG_IGNORE("drivers\/x\/x.c", "cma: first %d\\n", "why")/' "$good" >"$T_TMP/bad.def"
check_fails "ignored but raised" '"cma: first %d\\n": log.errors raises it' "$T_TMP/bad.def"

t_run "usage" 2 python3 "$kc" check
t_run "not a tree" 3 python3 "$kc" check --classes "$good" "$T_TMP"
t_run "tree: bad version" 2 python3 "$kc" tree 5.4
t_done
