#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Arguments that look like values but are not: a usage error (exit 2) with one line on
# stderr, never a silent fallback (an empty --sysroot used to read the live system).
. "$SOCBOX_TESTLIB"
fx=$SOCBOX_FIXTURES/x86-vtd

t_run "--sysroot '' is a usage error" 2 "$SOCBOX" doctor --sysroot ''
t_grep "says what --sysroot needs" '^socbox doctor: --sysroot needs a directory' "$T_TMP/err"
t_eq "one line on stderr" "$(wc -l <"$T_TMP/err")" 1
t_run "--sysroot '' on an applet too" 2 "$SOCBOX" smmustat --sysroot ''
t_run "--sysroot DIR still works" 0 "$SOCBOX" smmustat --sysroot "$fx"
for bad in nan inf -1 1e9; do
	t_run "-i $bad is a usage error" 2 "$SOCBOX" smmustat irq --sysroot "$fx" -i "$bad" -c 1
	t_grep "-i $bad: names the range" 'interval must be a number of seconds from 0 to 86400' "$T_TMP/err"
done
t_run "snapshot '' is a usage error" 2 "$SOCBOX" snapshot ''
t_grep "snapshot '': says what it needs" 'needs exactly one output directory' "$T_TMP/err"
t_run "doctor --require '' is a usage error" 2 "$SOCBOX" doctor --sysroot "$fx" --require ''
t_grep "--require '': says what it needs" 'require needs a comma-separated list' "$T_TMP/err"
t_run "doctor --require , is a usage error" 2 "$SOCBOX" doctor --sysroot "$fx" --require ,
t_run "doctor --require iommu still works" 0 "$SOCBOX" doctor --sysroot "$fx" --require iommu
t_done
