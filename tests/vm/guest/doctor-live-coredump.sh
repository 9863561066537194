#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor and snapshot on a crash's core, on this kernel: the test remote processor
# (tests/vm/rproc_remote), its debugfs coredump set to "enabled", crashes three times through
# rproc_report_crash() and is recovered each time; the first recovery's rproc_coredump()
# leaves its core (an ELF of the remote's RAM) in /sys/class/devcoredump. doctor names the
# crash loop and the devcdN that holds the core; socbox snapshot copies the core whole, and
# doctor on the snapshot says the same. The crashes stay counted in the kernel log, so
# the healthy controls (doctor-live-controls) run before this in its boot.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/live-core
mkdir -p $T
crashes() { $R rproc status "$rp" -r -n -o CRASHES; }
# shellcheck disable=SC2317 # called through wait_for
crashed_to() { [ "$(crashes)" = "$1" ] && state_is running && has_channel; }

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor ($rp)"
ok "start it" $R rproc start "$rp"
ok "its channel" wait_for has_channel
ok "keep its core on a crash" sh -c "echo enabled >/sys/kernel/debug/remoteproc/$rp/coredump"
ok "no core kept yet" sh -c '! ls /sys/class/devcoredump/ 2>/dev/null | grep -q devcd'
c=$(crashes)
like "$c" '^[0-9]+$' "crashes so far: $c"
for i in 1 2 3; do
	ok "crash $i (rproc_report_crash(), recovery on)" $R rproc crash "$rp" --type fatal
	ok "recovered: crash $((c + i)) counted, running, its channel back" wait_for crashed_to $((c + i))
done
devcd=$(ls /sys/class/devcoredump/ 2>/dev/null | grep '^devcd')
like "$devcd" '^devcd[0-9]+$' "one core kept ($devcd): the kernel keeps one per device until it is freed"
is "$(readlink "/sys/class/devcoredump/$devcd/failing_device" | sed 's,.*/,,')" "$rp" "of $rp"
ok "read the core" sh -c "cat /sys/class/devcoredump/$devcd/data >$T/core"
# an ELF core of the remote's RAM: header, one program header, the 256 KiB segment
is "$(od -An -c -N4 $T/core | tr -d ' ')" '177ELF' "the core is an ELF"
is "$(wc -c <$T/core)" "$(((64 + 56) + 262144))" "with the remote's 256 KiB of RAM"

like "$(doctor_causes)" "^rpmsg\\.crash-loop $rp\$" "doctor: the crash loop of $rp"
is "$(doctor_cause rpmsg.crash-loop "$rp" diagnosis)" \
	"\"$rp (socbox-remote) crashed $((c + 3)) times since boot and was recovered each time\"" \
	"doctor: how often it crashed"
diag "doctor: $(doctor_cause rpmsg.crash-loop "$rp" evidence)"
like "$(doctor_cause rpmsg.crash-loop "$rp" evidence)" \
	"$devcd holds $rp's core \\(/sys/class/devcoredump/$devcd/data\\)\"\$" \
	"doctor: the evidence names the core ($devcd)"
like "$(doctor_cause rpmsg.crash-loop "$rp" fix)" \
	"keep $devcd's core before the kernel frees it \\(5 minutes after the crash, or on a write to data\\): socbox snapshot FILE\\.tar, or cat /sys/class/devcoredump/$devcd/data > FILE\"\$" \
	"doctor: the fix says how to keep it"
like "$("$SOCBOX" doctor -r -n -o subsystem,status)" '^rpmsg degraded$' "doctor: rpmsg degraded"

ok "snapshot" sh -c "\"$SOCBOX\" snapshot $T/snap 2>$T/snap.err"
# the file itself, not the class link to it (which a careless copy could leave pointing
# at the live /sys)
snapcore=$(find $T/snap/sys/devices -path "*/devcoredump/$devcd/data" -type f)
like "$snapcore" "^$T/snap/sys/devices/.*/$devcd/data\$" "the snapshot holds the core"
ok "the class link leads to it" test "$T/snap/sys/class/devcoredump/$devcd/data" -ef "$snapcore"
ok "byte for byte" cmp "$T/core" "$snapcore"
like "$(cat $T/snap/socbox-snapshot.txt)" "^devcoredump\\.$devcd=whole: $rp's core, $(wc -c <$T/core) bytes\$" \
	"its manifest says the core is whole"
like "$(cat $T/snap/socbox-snapshot.txt)" '^cores=1$' "one core in it"
is "$(doctor_cause rpmsg.crash-loop "$rp" evidence --sysroot $T/snap)" \
	"$(doctor_cause rpmsg.crash-loop "$rp" evidence)" "doctor on the snapshot names the same core"

# release: the core, the setting, the remote
ok "free the core (a write to data)" sh -c "echo 1 >/sys/class/devcoredump/$devcd/data"
ok "the core is gone" wait_for sh -c "! test -e /sys/class/devcoredump/$devcd"
ok "cores off again" sh -c "echo disabled >/sys/kernel/debug/remoteproc/$rp/coredump"
ok "stop it" $R rproc stop "$rp"
rm -rf $T
done_testing
