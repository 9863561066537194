#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsgctl rproc against the test remote processor (tests/vm/rproc_remote): an ELF firmware
# the remoteproc core loads from /lib/firmware, a trace buffer the remote writes, an rpmsg
# virtio device whose "rpmsg-raw" channel echoes. start/stop/status, firmware change,
# a crash with recovery enabled (back running, counted) and disabled (stays crashed), the
# trace, and pings over the channel after each of them.
# shellcheck source=../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/rproc
mkdir -p $T

# wait_for SECONDS CMD...: poll CMD every 20 ms until it succeeds (bounded, never a guess)
# shellcheck disable=SC2317 # called through ok
wait_for() {
	w_n=$(($1 * 50))
	shift
	while [ "$w_n" -gt 0 ]; do
		"$@" >/dev/null 2>&1 && return 0
		usleep 20000
		w_n=$((w_n - 1))
	done
	return 1
}
crashes() { $R rproc status "$rp" -r -n -o CRASHES; }

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is registered ($rp)"
ok "status" sh -c "$R rproc status $rp >$T/status 2>&1"
sed 's/^/# /' $T/status
like "$($R rproc status "$rp" -P -o STATE,FIRMWARE,RECOVERY)" 'STATE="offline" FIRMWARE="socbox-rproc-a.elf" RECOVERY="enabled"' "offline, firmware a, recovery enabled"
ok "the firmware images are in /lib/firmware" test -f /lib/firmware/socbox-rproc-b.elf

# --- start: the core loads the ELF, the remote boots, its channel comes up ---
ok "start" $R rproc start "$rp"
is "$(cat "/sys/class/remoteproc/$rp/state")" running "state running"
ok "the rpmsg-raw channel appears" wait_for 10 has_channel
like "$($R rproc status "$rp" -P -o TRACES,CHANNELS)" 'TRACES="1" CHANNELS="[^"]*rpmsg-raw' "status: one trace buffer, channel rpmsg-raw"
# The remote counts its boots since the module was loaded; other scripts of this boot may
# have started it already, so the numbers below count from this first one.
b0=$($R rproc trace "$rp" | sed -n 's/^socbox test remote: boot \([0-9]*\), firmware socbox-rproc-a$/\1/p' | tail -n1)
like "$b0" '^[0-9]+$' "trace: firmware a booted (boot $b0)"
ctrl=$(rproc_ctrl)
like "$ctrl" '^[0-9]+$' "an rpmsg control device below $rp (rpmsg_ctrl$ctrl)"
ok "ping through rpmsg_ctrl$ctrl to the channel, 200 x 496 bytes" sh -c "$R ping --ctrl $ctrl --dst 0x400 -c 200 --size 496 -P >$T/ping 2>&1"
like "$(cat $T/ping)" '^RECEIVED="200"' "200 echoes over virtio rpmsg"
like "$(cat $T/ping)" '^CORRUPT="0"' "every byte matched"
raw=$(ls /sys/bus/rpmsg/devices/*.rpmsg-raw.*/rpmsg 2>/dev/null | head -n1)
like "$raw" '^rpmsg[0-9]+$' "rpmsg_char made /dev/$raw for the channel"
ok "ping the channel's own endpoint device" $R ping --dev "$raw" -c 50 --size 64

# --- firmware: only while offline ---
$R rproc firmware "$rp" socbox-rproc-b.elf 2>$T/fw.err
is "$?" 1 "changing the firmware while running fails"
like "$(cat $T/fw.err)" 'only change while offline' "and says why"
ok "stop" $R rproc stop "$rp"
is "$(cat "/sys/class/remoteproc/$rp/state")" offline "state offline"
not_ok "the channel is gone" has_channel
ok "firmware b" $R rproc firmware "$rp" socbox-rproc-b.elf
is "$($R rproc firmware "$rp")" socbox-rproc-b.elf "firmware reads back"
ok "start b" $R rproc start "$rp"
like "$($R rproc trace "$rp")" "boot $((b0 + 1)), firmware socbox-rproc-b" "trace: the next boot runs firmware b"
ok "the channel is back" wait_for 10 has_channel
ok "and answers" $R ping --ctrl "$(rproc_ctrl)" --dst 0x400 -c 20
$R rproc start "$rp" 2>$T/start.err
is "$?" 1 "start while running fails"
like "$(cat $T/start.err)" 'already running' "and says so"
ok "stop" $R rproc stop "$rp"
ok "firmware that does not exist" $R rproc firmware "$rp" socbox-missing.elf
$R rproc start "$rp" 2>$T/missing.err
is "$?" 1 "start with a missing firmware fails"
like "$(cat $T/missing.err)" "not found under /lib/firmware" "and names the problem"
like "$(cat $T/missing.err)" "its log: .*\"remoteproc $rp: request_firmware failed: -2\"" "and quotes what the kernel logged meanwhile"
is "$(cat "/sys/class/remoteproc/$rp/state")" offline "still offline"
# socbox doctor names it from the kernel's own lines (firmware_loader and remoteproc_core)
causes=$("$SOCBOX" doctor -P)
like "$causes" "^CODE=\"rpmsg\\.firmware-missing\" DIAGNOSIS=\"$rp \\([^)]*\\): firmware socbox-missing\\.elf not found \\(error -2\\)\" FIX=\"install socbox-missing\\.elf in /lib/firmware, then start it with rpmsgctl rproc start $rp\" RUN=\"rpmsgctl rproc start $rp\" TABLE=\"causes\"\$" \
	"doctor: the missing firmware named, with the fix"
like "$("$SOCBOX" doctor -r -n -o subsystem,status)" '^rpmsg failed$' "doctor: rpmsg failed"
"$SOCBOX" doctor -q --require rpmsg 2>$T/require.err
is "$?" 1 "doctor --require rpmsg fails"
like "$(cat $T/require.err)" "^socbox: rpmsg: required subsystem is failed: rpmsg\\.firmware-missing $rp" "and names the cause"
ok "back to firmware a" $R rproc firmware "$rp" socbox-rproc-a.elf
unlike "$("$SOCBOX" doctor -P)" 'rpmsg\.firmware-missing' "doctor: with a firmware that exists set, the old failure is no cause"
ok "start a" $R rproc start "$rp"
ok "channel up" wait_for 10 has_channel

# --- crash with recovery enabled: back running, counted ---
before=$(crashes)
like "$before" '^[0-9]+$' "status counts crashes ($before so far)"
ok "crash (recovery enabled)" $R rproc crash "$rp" --type fatal
ok "the core counted it" wait_for 10 sh -c "[ \"\$($R rproc status $rp -r -n -o CRASHES)\" = $((before + 1)) ]"
ok "and recovered it: running" wait_for 10 state_is running
ok "the channel is back after the recovery" wait_for 10 has_channel
like "$($R rproc trace "$rp")" "boot $((b0 + 3)), firmware socbox-rproc-a" "trace: the recovery booted the firmware again (boot $((b0 + 3)))"
ok "and answers" $R ping --ctrl "$(rproc_ctrl)" --dst 0x400 -c 20
like "$(dmesg | grep "$rp: handling crash #$((before + 1))")" 'handling crash' "the kernel log has the crash"

# --- crash with recovery disabled: stays crashed ---
ok "recovery off" $R rproc recovery "$rp" off
is "$($R rproc recovery "$rp")" disabled "recovery reads disabled"
recovering=$(dmesg | grep -c "$rp: recovering")
ok "crash (recovery disabled)" $R rproc crash "$rp"
ok "state crashed" wait_for 10 state_is crashed
ok "counted" wait_for 10 sh -c "[ \"\$($R rproc status $rp -r -n -o CRASHES)\" = $((before + 2)) ]"
is "$(dmesg | grep -c "$rp: recovering")" "$recovering" "no recovery was started"
like "$($R rproc status "$rp" -P)" 'STATE="crashed"' "status says crashed"
causes=$("$SOCBOX" doctor -P)
like "$causes" "^CODE=\"rpmsg\\.crashed\" DIAGNOSIS=\"$rp \\([^)]*\\) crashed and stays down: recovery is disabled\"" \
	"doctor: the crashed processor named"
like "$("$SOCBOX" doctor -r -n -o subsystem,status)" '^rpmsg degraded$' "doctor: a crashed processor is never ok"
ok "snapshot of the crashed board" "$SOCBOX" snapshot $T/crashed
is "$("$SOCBOX" doctor --sysroot $T/crashed -P | grep '^CODE=')" "$(echo "$causes" | grep '^CODE=')" \
	"doctor: the snapshot names the same causes"
ok "trace still readable for the post-mortem" sh -c "$R rproc trace $rp | grep -q 'boot $((b0 + 3)),'"
ok "recovery on recovers the crashed remote" $R rproc recovery "$rp" on
ok "running again" wait_for 10 state_is running
ok "channel back" wait_for 10 has_channel
unlike "$("$SOCBOX" doctor -P)" 'rpmsg\.crashed' "doctor: recovered, no longer a cause"
ok "stop" $R rproc stop "$rp"
$R rproc stop "$rp" 2>$T/stop.err
is "$?" 1 "stop while offline fails"
like "$(cat $T/stop.err)" 'only a running processor can be stopped' "and says why"
$R rproc trace "$rp" 2>$T/trace.err
is "$?" 3 "trace while offline: exit 3 (no trace buffer without firmware)"
done_testing
