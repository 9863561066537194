#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# Arguments that look like values but are not: a usage error (exit 2) with one line on
# stderr, never a silent fallback (an empty --sysroot used to read the live system).
. "$SOCBOX_TESTLIB"
fx=$SOCBOX_FIXTURES/x86-vtd

t_run "--sysroot '' is a usage error" 2 "$SOCBOX" doctor --sysroot ''
t_grep "says what --sysroot needs" '^socbox doctor: --sysroot needs a directory' "$T_TMP/err"
t_eq "one line on stderr" "$(wc -l <"$T_TMP/err")" 1
t_run "--sysroot '' on an applet too" 2 "$SOCBOX" smmustat --sysroot ''
t_run "--sysroot DIR still works" 0 "$SOCBOX" smmustat --sysroot "$fx"
for bad in nan inf -1 0 -0 1e9; do
	t_run "-i $bad is a usage error" 2 "$SOCBOX" smmustat irq --sysroot "$fx" -i "$bad" -c 1
	t_grep "-i $bad: names the range" 'interval must be a number of seconds above 0, at most 86400' "$T_TMP/err"
done
t_run "snapshot '' is a usage error" 2 "$SOCBOX" snapshot ''
t_grep "snapshot '': says what it needs" 'needs exactly one output directory' "$T_TMP/err"
t_run "doctor --require '' is a usage error" 2 "$SOCBOX" doctor --sysroot "$fx" --require ''
t_grep "--require '': says what it needs" 'require needs a comma-separated list' "$T_TMP/err"
t_run "doctor --require , is a usage error" 2 "$SOCBOX" doctor --sysroot "$fx" --require ,
t_run "doctor --require iommu still works" 0 "$SOCBOX" doctor --sysroot "$fx" --require iommu
arm=$SOCBOX_FIXTURES/arm64-server-smmuv3
# a negative value used to mean "not given" (every group, no predicate, any CPU)
t_run "smmustat groups --group -1 is a usage error" 2 "$SOCBOX" smmustat groups --sysroot "$fx" --group -1
t_grep "--group -1: names the value and the bounds" "^smmustat groups: --group: '-1' is not a whole number \(0 to [0-9]+\)" "$T_TMP/err"
t_run "smmustat groups -vg 1x (clustered) is a usage error" 2 "$SOCBOX" smmustat groups --sysroot "$fx" -vg 1x
t_grep "-vg 1x: names the value" "--group: '1x' is not a whole number" "$T_TMP/err"
t_run "smmustat groups --group 0 still works" 0 "$SOCBOX" smmustat groups --sysroot "$fx" --group 0
t_run "smmustat check --expect-instances -1 is a usage error" 2 \
	"$SOCBOX" smmustat check --sysroot "$fx" --expect-instances -1
t_grep "--expect-instances -1: names the bounds" "--expect-instances: '-1' is not a whole number \(0 to [0-9]+\)" "$T_TMP/err"
# on a sysroot nothing is counted, but a bad value is still bad
t_run "smmustat pmu --stream-id abc on a sysroot" 2 "$SOCBOX" smmustat pmu --sysroot "$arm" --stream-id abc
t_grep "--stream-id abc: names the value and the bounds" "--stream-id: 'abc' is not a whole number \(0 to 4294967295\)" "$T_TMP/err"
t_run "smmustat pmu --stream-id 0x100000000 on a sysroot" 2 "$SOCBOX" smmustat pmu --sysroot "$arm" --stream-id 0x100000000
t_grep "... is out of range" "--stream-id: '0x100000000' is out of range" "$T_TMP/err"
t_run "smmustat pmu --cpu -1 on a sysroot" 2 "$SOCBOX" smmustat pmu --sysroot "$arm" --cpu -1
t_grep "--cpu -1: names the bounds" "--cpu: '-1' is not a whole number \(0 to [0-9]+\)" "$T_TMP/err"
t_run "smmustat pmu --span without --stream-id" 2 "$SOCBOX" smmustat pmu --sysroot "$arm" --span
t_run "smmustat pmu -e bogus on a sysroot" 2 "$SOCBOX" smmustat pmu --sysroot "$arm" -e bogus
t_grep "-e bogus: names the event" "unknown event or term 'bogus'" "$T_TMP/err"
t_run "smmustat pmu -e tlb_miss on a sysroot works" 0 "$SOCBOX" smmustat pmu --sysroot "$arm" -e tlb_miss
t_run "smmustat pmu --stream-id 0x10 on a sysroot works" 0 "$SOCBOX" smmustat pmu --sysroot "$arm" --stream-id 0x10
# popt reads '' as 0: "no filter" or "no limit" instead of an error
t_run "dmabufcp ls --pid '' is a usage error" 2 "$SOCBOX" dmabufcp ls --sysroot "$fx" --pid ''
t_grep "--pid '': says what it needs" '^dmabufcp ls: --pid needs a number, not an empty string' "$T_TMP/err"
t_run "smmustat irq -c '' is a usage error" 2 "$SOCBOX" smmustat irq --sysroot "$arm" -c ''
t_run "smmustat groups --group= is a usage error" 2 "$SOCBOX" smmustat groups --sysroot "$fx" --group=
t_grep "--group=: names the empty value" "--group: '' is not a whole number" "$T_TMP/err"
for cols in + '' ',' 'NAME,,KIND' 'NAME,'; do
	t_run "smmustat -o '$cols' is a usage error" 2 "$SOCBOX" smmustat --sysroot "$fx" -o "$cols"
done
t_run "doctor -o + is a usage error" 2 "$SOCBOX" doctor --sysroot "$fx" -o +
t_run "smmustat -o +FEATURES still works" 0 "$SOCBOX" smmustat --sysroot "$fx" -o +FEATURES
# the name limit is checked before anything is opened (it used to exit 3 first)
long=$(printf '%0100d' 0)
t_run "dmabufcp -N <100 characters> is a usage error" 2 "$SOCBOX" dmabufcp -N "$long" /dev/null heap:system "$T_TMP/x"
t_grep "-N: names the limit" 'name needs 1 to 31 characters' "$T_TMP/err"
# a command's own option before the view: say that the view comes first (common options
# may come before it: tests/cli/options_anywhere.sh)
t_run "devmemstat --load-netlink F queues is a usage error" 2 "$SOCBOX" devmemstat --load-netlink x queues
t_grep "--load-netlink F queues: says the view comes first" "^devmemstat show: 'queues' is a command: it comes first" "$T_TMP/err"
t_run "devmemstat --netns X queues: the common option before the view" 3 "$SOCBOX" devmemstat --netns socbox-nosuch0 queues
t_grep "... reaches the view" "/run/netns/socbox-nosuch0: open network namespace" "$T_TMP/err"
# a huge argument is not echoed whole
huge=$(head -c 100000 /dev/zero | tr '\0' a)
t_run "a 100 kB unknown command is a usage error" 2 "$SOCBOX" smmustat "$huge"
t_eq "the error line is cut to 1024 bytes" "$(head -c 2000 "$T_TMP/err" | wc -c)" 1024
t_grep "the cut line keeps its end" "\\.\\.\\.a+' \\(see 'smmustat --help'\\)$" "$T_TMP/err"
# escaped first, then cut: 3000 ESC bytes became 1715 bytes of \x1b after the cut
ctl=$(head -c 3000 /dev/zero | tr '\0' '\033')
t_run "a 3000-byte control-character command is a usage error" 2 "$SOCBOX" smmustat "x${ctl}y"
t_eq "the escaped error line is at most 1024 bytes" "$(head -c 2000 "$T_TMP/err" | wc -c | awk '{ print ($1 <= 1024) }')" 1
t_eq "the escaped error line is one line" "$(wc -l <"$T_TMP/err")" 1
t_nogrep "no raw control byte in the error line" "$(printf '\033')" "$T_TMP/err"
t_grep "the cut falls between escapes" "^smmustat: unknown command 'x(\\\\x1b)+\\.\\.\\.(\\\\x1b)+y' \\(see" "$T_TMP/err"
t_done
