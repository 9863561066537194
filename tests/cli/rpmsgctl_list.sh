#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# rpmsgctl list and rproc status on board dumps: a TI AM62x-like board (M4F running with a
# control device and two endpoint devices, an attached R5F, an offline PRU) and an
# i.MX8MP-like board whose rpmsg_char/rpmsg_ctrl modules are not loaded.
. "$SOCBOX_TESTLIB"
AM=$SOCBOX_FIXTURES/am62x
IMX=$SOCBOX_FIXTURES/imx8mp

t_run "list is the default command" 0 "$SOCBOX" rpmsgctl --sysroot "$AM"
t_grep "remoteproc table" '^remoteproc0 +5000000\.m4fss +running +enabled +- +am62-mcu-m4f0_0-fw$' "$T_TMP/out"
t_grep "TI ping-pong channel with dst 13 (bus prints 0xd)" '^virtio0\.ti\.ipc4\.ping-pong\.-1\.13 +-1 +13 ' "$T_TMP/out"
t_grep "control device and its remote" '^rpmsg_ctrl1 +/dev/rpmsg_ctrl1 +virtio1\.rpmsg_ctrl\.0\.0 +remoteproc1' "$T_TMP/out"
t_grep "endpoint device made through the control device" '^rpmsg1 +socbox +1025 +14 +rpmsg_ctrl0 +remoteproc0' "$T_TMP/out"
t_grep "offline PRU explained" "remoteproc2 \(30034000\.pru\) is offline: 'rpmsgctl rproc start remoteproc2'" "$T_TMP/out"

t_run "list -J" 0 "$SOCBOX" rpmsgctl list -J --sysroot "$AM"
t_json "list -J" "$T_TMP/out"
t_jq "3 remoteprocs" '.remoteprocs | length == 3' "$T_TMP/out"
t_jq "5 channels" '.channels | length == 5' "$T_TMP/out"
t_jq "ANY as -1 on the bus (0xffffffff)" '[.channels[] | select(.name == "rpmsg_chrdev")][0].src == -1' "$T_TMP/out"
t_jq "endpoint addresses are numbers" '.endpoints[0].dst == 14 and .endpoints[1].src == 1025' "$T_TMP/out"
t_jq "drivers" '[.channels[] | select(.driver == "rpmsg_ctrl")] | length == 2' "$T_TMP/out"
t_jq "control devices" '[.control_devices[].devnode] == ["/dev/rpmsg_ctrl0", "/dev/rpmsg_ctrl1"]' "$T_TMP/out"
t_jq "announce is a boolean" '.channels[0].announce == false' "$T_TMP/out"

t_run "list -o on the channel table" 0 "$SOCBOX" rpmsgctl list -r -n -o NAME,DST --sysroot "$AM"
t_grep "raw NAME DST" '^ti\.ipc4\.ping-pong 13$' "$T_TMP/out"
t_run "-H lists the channel columns" 0 "$SOCBOX" rpmsgctl list -H -r -n
t_grep "REMOTEPROC column: its type, shown by default, its help" '^REMOTEPROC string yes ' "$T_TMP/out"
t_run "list -J" 0 "$SOCBOX" rpmsgctl list -J --sysroot "$AM"
t_jq "each channel names the remote processor it is under" \
	'[.channels[] | .remoteproc] == ["remoteproc0","remoteproc0","remoteproc0","remoteproc1","remoteproc1"]' "$T_TMP/out"
t_run "unknown column is a usage error" 2 "$SOCBOX" rpmsgctl list -o NOPE --sysroot "$AM"
t_run "unknown command is a usage error" 2 "$SOCBOX" rpmsgctl frobnicate
t_run "list takes no arguments" 2 "$SOCBOX" rpmsgctl list extra --sysroot "$AM"
t_run "--load-modules needs the live kernel" 3 "$SOCBOX" rpmsgctl list --load-modules --sysroot "$IMX"

t_run "i.MX8MP list" 0 "$SOCBOX" rpmsgctl list --sysroot "$IMX"
t_grep "rpmsg_ctrl not loaded is explained" 'module rpmsg_ctrl is not loaded, so there is no /dev/rpmsg_ctrlN: modprobe rpmsg_ctrl' "$T_TMP/out"
t_grep "rpmsg_char not loaded is explained" 'module rpmsg_char is not loaded, so raw channels have no /dev/rpmsgN' "$T_TMP/out"
t_grep "tty channel bound to imx_rpmsg_tty" '^virtio0\.rpmsg-virtual-tty-channel\.-1\.30 +-1 +30 +imx_rpmsg_tty' "$T_TMP/out"
t_run "i.MX8MP list -J" 0 "$SOCBOX" rpmsgctl list -J --sysroot "$IMX"
t_json "i.MX8MP -J" "$T_TMP/out"
t_jq "no control devices, two notes" '(.control_devices | length) == 0 and (.notes | length) == 2' "$T_TMP/out"

mkdir -p "$T_TMP/empty/proc/sys/kernel" && echo 6.18.0 >"$T_TMP/empty/proc/sys/kernel/osrelease"
t_run "no rpmsg at all: exit 3" 3 "$SOCBOX" rpmsgctl list --sysroot "$T_TMP/empty"
t_grep "says what is missing" 'no remote processors and no rpmsg bus in this kernel \(CONFIG_REMOTEPROC' "$T_TMP/err"

# remoteproc status
t_run "rproc status" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$AM" -J
t_json "rproc status -J" "$T_TMP/out"
t_jq "channels of the M4F" '.remoteprocs[0].channels == ["rpmsg_chrdev", "rpmsg_ctrl", "ti.ipc4.ping-pong"]' "$T_TMP/out"
t_jq "parent device" '.remoteprocs[2].device == "30034000.pru"' "$T_TMP/out"
t_run "rproc status by name" 0 "$SOCBOX" rpmsgctl rproc status 78000000.r5f -r -n -o ID,STATE --sysroot "$AM"
t_eq "one row" "$(cat "$T_TMP/out")" "remoteproc1 attached"
t_run "rproc unknown name: not here" 3 "$SOCBOX" rpmsgctl rproc status nope --sysroot "$AM"
t_grep "unknown name error" "^rpmsgctl: nope: find remote processor: .*rpmsgctl list" "$T_TMP/err"
t_run "rproc firmware shows the file" 0 "$SOCBOX" rpmsgctl rproc firmware remoteproc0 --sysroot "$AM"
t_eq "firmware" "$(cat "$T_TMP/out")" "am62-mcu-m4f0_0-fw"
t_run "rproc recovery shows the mode" 0 "$SOCBOX" rpmsgctl rproc recovery 2 --sysroot "$AM"
t_eq "recovery" "$(cat "$T_TMP/out")" "disabled"
t_run "rproc recovery bad word" 2 "$SOCBOX" rpmsgctl rproc recovery 2 maybe --sysroot "$AM"
t_run "rproc trace from debugfs" 0 "$SOCBOX" rpmsgctl rproc trace 0 --sysroot "$AM"
t_grep "trace text" 'IPC RPMSG ECHO\] Remote Core waiting for messages at end point 14' "$T_TMP/out"
t_run "rproc trace without a trace buffer: exit 3" 3 "$SOCBOX" rpmsgctl rproc trace imx-rproc --sysroot "$IMX"
t_run "rproc start on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl rproc start 2 --sysroot "$AM"
t_grep "needs the live kernel" 'start: needs the live kernel' "$T_TMP/err"
t_run "rproc start without a name" 2 "$SOCBOX" rpmsgctl rproc start --sysroot "$AM"

# one remoteproc table for list and rproc status (they had drifted: -o +COREDUMP worked in
# one only, CHANNELS was in the other only)
t_run "rproc status -o +COREDUMP" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$SOCBOX_FIXTURES/am62x" -o +COREDUMP
t_grep "rproc status: COREDUMP on request" '^ID +NAME .* COREDUMP$' "$T_TMP/out"
t_run "list -J" 0 "$SOCBOX" rpmsgctl list --sysroot "$SOCBOX_FIXTURES/am62x" -J
t_jq "list: the channels each processor announced, as in rproc status" \
	'.remoteprocs[0].channels == ["rpmsg_chrdev","rpmsg_ctrl","ti.ipc4.ping-pong"]' "$T_TMP/out"
t_run "rproc status -J" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$SOCBOX_FIXTURES/am62x" -J
cp "$T_TMP/out" "$T_TMP/status.json"
t_run "list -J again" 0 "$SOCBOX" rpmsgctl list --sysroot "$SOCBOX_FIXTURES/am62x" -J
if python3 -c 'import json,sys; a=json.load(open(sys.argv[1]))["remoteprocs"]; b=json.load(open(sys.argv[2]))["remoteprocs"]; sys.exit(a != b)' "$T_TMP/out" "$T_TMP/status.json"; then
	t_ok "list and rproc status print the same remoteproc rows"
else
	t_fail "list and rproc status differ in their remoteproc rows"
fi
# One truth per object: a crash doctor names is in STATE and CRASHES, with its evidence
# (issue 37: the AM62x M4F crashed with recovery disabled was "running" with no note).
C=$SOCBOX_FIXTURES/causes
"$C/compose" "$C/am62x-k3-crash" "$T_TMP/k3"
"$C/compose" "$C/imx8mp-crash-loop-coredump" "$T_TMP/loop"
t_run "K3 crash: rproc status" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$T_TMP/k3"
t_grep "K3 crash: shown crashed, recovery and crash count by default" \
	'^remoteproc0 +5000000\.m4fss +crashed +disabled +1 +am62-mcu-m4f0_0-fw$' "$T_TMP/out"
t_grep "K3 crash: the evidence, the log line doctor quotes" \
	'^problem: remoteproc0 \(5000000\.m4fss\) crashed though its state file says running: .*K3 rproc 5000000\.m4fss crashed\)$' "$T_TMP/out"
t_run "K3 crash: list" 0 "$SOCBOX" rpmsgctl list --sysroot "$T_TMP/k3"
t_grep "K3 crash: list says crashed too" '^remoteproc0 +5000000\.m4fss +crashed ' "$T_TMP/out"
t_grep "K3 crash: list gives the evidence" 'crashed though its state file says running' "$T_TMP/out"
t_nogrep "K3 crash: not 'running but no channel'" 'remoteproc0 .* is running but' "$T_TMP/out"
t_run "K3 crash: doctor -J" 0 "$SOCBOX" doctor --sysroot "$T_TMP/k3" -J
t_jq "K3 crash: doctor names the same object crashed" \
	'[.causes[] | select(.code == "rpmsg.crashed") | .object] == ["remoteproc0"]' "$T_TMP/out"
t_run "crash loop: rproc status -J" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$T_TMP/loop" -J
t_jq "crash loop: the count and the core" \
	'.remoteprocs[0].crashes == 4 and .remoteprocs[0].devcoredump == "devcd1" and .remoteprocs[0].recovery == "enabled"' "$T_TMP/out"
t_run "crash loop: rproc status" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$T_TMP/loop"
t_grep "crash loop: the count by default" '^remoteproc0 +imx-rproc +running +enabled +4 ' "$T_TMP/out"
t_grep "crash loop: the core and how long it stays" \
	"^note: remoteproc0's core is in devcd1: the kernel frees it 5 minutes after the crash; 'socbox snapshot FILE.tar' keeps it$" "$T_TMP/out"
t_run "no core: no devcoredump note" 0 "$SOCBOX" rpmsgctl rproc status --sysroot "$IMX"
t_nogrep "no core: nothing said of one" 'devcd' "$T_TMP/out"
t_done
