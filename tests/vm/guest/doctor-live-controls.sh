#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor's healthy controls on this kernel: what the kernel said and later answered
# raises no cause. A driver that deferred its probe and later probed (tests/vm/defer_probe
# with ready set), and a crash of the test remote processor that its recovery answered
# (rproc_report_crash(), recovery on, its core kept in devcoredump): the causes after each
# are the causes before it. It runs before doctor-live-coredump in its boot, which crashes
# the remote until it is a crash loop.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
dev=socbox-rproc-defer
status() { "$SOCBOX" doctor -r -n -o subsystem,status; }
crashes() { $R rproc status "$rp" -r -n -o CRASHES; }

# --- a deferral that later probed ---
before=$(doctor_causes)
st_before=$(status)
diag "causes before: ${before:-none}"
ok "load a driver that defers its probe" insmod /lib/modules/socbox/socbox_defer_probe.ko
like "$(cat /sys/kernel/debug/devices_deferred)" "^$dev	$dev: mailbox channel tx not available\$" \
	"the kernel lists it in devices_deferred"
like "$(doctor_causes)" "^probe\\.deferred $dev\$" "doctor names it while it waits"
ok "its mailbox comes" sh -c 'echo 1 >/sys/module/socbox_defer_probe/parameters/ready'
ok "probe it again" sh -c "echo $dev >/sys/bus/platform/drivers_probe"
ok "it probed" test -e /sys/bus/platform/devices/$dev/driver
unlike "$(cat /sys/kernel/debug/devices_deferred)" "^$dev" "no longer in devices_deferred"
is "$(doctor_causes)" "$before" "doctor: a deferral that later probed is no cause"
is "$(status)" "$st_before" "doctor: the subsystems' status as before"
ok "unload it" rmmod socbox_defer_probe

# --- a crash that was recovered ---
rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor ($rp)"
ok "start it" $R rproc start "$rp"
ok "its channel" wait_for has_channel
ok "keep its core on a crash" sh -c "echo enabled >/sys/kernel/debug/remoteproc/$rp/coredump"
ok "no core kept yet" sh -c '! ls /sys/class/devcoredump/ 2>/dev/null | grep -q devcd'
before=$(doctor_causes)
st_before=$(status)
c0=$(crashes)
like "$c0" '^[0-9]+$' "crashes so far: $c0"
ok "crash it (rproc_report_crash(), recovery on)" $R rproc crash "$rp" --type watchdog
ok "the crash is counted" wait_for sh -c "[ \"\$($R rproc status $rp -r -n -o CRASHES)\" = $((c0 + 1)) ]"
ok "recovered: running" wait_for state_is running
ok "recovered: the channel is back" wait_for has_channel
like "$(dmesg | sed 's/^\[[ 0-9.]*\] //' | grep "^remoteproc $rp: " | tail -n 4)" \
	"remote processor socbox-remote is now up" "the kernel log: the remote is up after the crash"
devcd=$(ls /sys/class/devcoredump/ 2>/dev/null | grep '^devcd' | head -n1)
like "$devcd" '^devcd[0-9]+$' "the recovery kept its core ($devcd)"
is "$(readlink "/sys/class/devcoredump/$devcd/failing_device" | sed 's,.*/,,')" "$rp" "of $rp"
is "$(doctor_causes)" "$before" "doctor: a crash that was recovered is no cause"
is "$(status)" "$st_before" "doctor: the subsystems' status as before"

# release: the core, the setting, the remote
ok "free the core (a write to data)" sh -c "echo 1 >/sys/class/devcoredump/$devcd/data"
ok "the core is gone" wait_for sh -c "! test -e /sys/class/devcoredump/$devcd"
ok "cores off again" sh -c "echo disabled >/sys/kernel/debug/remoteproc/$rp/coredump"
ok "stop it" $R rproc stop "$rp"
done_testing
