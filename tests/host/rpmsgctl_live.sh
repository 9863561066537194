#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# rpmsgctl on this machine's live kernel. The host has no remoteproc and no rpmsg (the vm
# tier has them): every command must say so with exit 3 and a hint, and a snapshot of the
# live system must answer `list` exactly as the live run did.
. "$SOCBOX_TESTLIB"

if [ -e /sys/bus/rpmsg ] || [ -e /sys/class/remoteproc ]; then
	t_fail "this host has rpmsg or remoteproc; the expectations below are for a host without them"
	t_done
fi

t_run "live list: no rpmsg here, exit 3" 3 "$SOCBOX" rpmsgctl list -J
t_eq "live list -J: no empty tables, the error alone" "$(wc -c <"$T_TMP/out")" 0
t_grep "one-line error with the advice for this machine's architecture" '^rpmsgctl: rpmsg: list: no remote processors and no rpmsg bus in this kernel \((this [a-z0-9_]+ system( \(ACPI\))? has no remote processor|CONFIG_REMOTEPROC)' "$T_TMP/err"
cp "$T_TMP/out" "$T_TMP/live.json"

t_run "socbox snapshot" 0 "$SOCBOX" snapshot "$T_TMP/snap"
t_run "list on the snapshot" 3 "$SOCBOX" rpmsgctl list -J --sysroot "$T_TMP/snap"
t_eq "snapshot answers as the live run" "$(cat "$T_TMP/out")" "$(cat "$T_TMP/live.json")"

t_run "ept create: no control device, exit 3" 3 "$SOCBOX" rpmsgctl ept create probe --method legacy
t_grep "hint names rpmsg_ctrl" '/dev/rpmsg_ctrl0: open control device: .*\(load rpmsg_ctrl \(CONFIG_RPMSG_CTRL' "$T_TMP/err"
t_run "ping: exit 3" 3 "$SOCBOX" rpmsgctl ping -c 1
t_run "bench: exit 3" 3 "$SOCBOX" rpmsgctl bench --loops 1
t_run "ept destroy of a missing device: exit 1" 1 "$SOCBOX" rpmsgctl ept destroy rpmsg4242
t_grep "names the device" '^rpmsgctl: /dev/rpmsg4242: open endpoint: No such file' "$T_TMP/err"
t_run "rproc status: none registered, exit 3" 3 "$SOCBOX" rpmsgctl rproc status
t_run "rproc start of an unknown remote: exit 3" 3 "$SOCBOX" rpmsgctl rproc start m4f
t_grep "hint" 'no remote processor registered' "$T_TMP/err"
t_done
