#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox doctor and snapshot on this machine's live kernel: the snapshot read back with
# --sysroot answers as the live run did, netdev included (from the snapshot's capture).
. "$SOCBOX_TESTLIB"

t_run "doctor on the live kernel" 0 "$SOCBOX" doctor
t_grep "live: no sysroot" '^sysroot: -$' "$T_TMP/out"
t_run "doctor --json" 0 "$SOCBOX" doctor --json
cp "$T_TMP/out" "$T_TMP/live.json"
t_json "live doctor JSON" "$T_TMP/live.json"
t_jq "live: every subsystem has a status" '[.subsystems[].status] | length == 4 and all(. == "ok" or . == "degraded" or . == "failed" or . == "missing" or . == "absent")' "$T_TMP/live.json"
t_jq "live: kernel is this one" ".kernel == \"$(uname -r)\"" "$T_TMP/live.json"
# this machine has the netdev family (Linux 6.18) and lo at least
t_jq "live: netdev family found" '.subsystems[] | select(.subsystem=="netdev") | .status=="ok" and .live.family==true and .live.devices>=1' "$T_TMP/live.json"
# shellcheck disable=SC2016 # a jq program: its $ are jq's
t_jq "live: missing subsystems carry a cause or a hint" '. as $root | [.subsystems[] | select(.status=="missing") | .subsystem as $s | (.hints|length) > 0 or ([$root.causes[] | select(.subsystem==$s)] | length) > 0] | all' "$T_TMP/live.json"

t_run "snapshot to a directory" 0 "$SOCBOX" snapshot "$T_TMP/snap"
t_grep "snapshot summary" 'snapshot .*: [0-9]+ files' "$T_TMP/err"
t_grep "manifest written" "^release=$(uname -r)\$" "$T_TMP/snap/socbox-snapshot.txt"
t_run "doctor on the snapshot" 0 "$SOCBOX" doctor --json --sysroot "$T_TMP/snap"
cp "$T_TMP/out" "$T_TMP/snap.json"
# with the netdev capture nothing needs the live kernel: the whole JSON but the sysroot path
# is the live run's, the live facts included
live_only=$(jq -c '[.subsystems[] | select(.live_only) | .subsystem]' "$T_TMP/snap.json")
t_eq "nothing needs the live kernel" "$live_only" '[]'
strip='del(.sysroot)'
jq "$strip" "$T_TMP/live.json" >"$T_TMP/a.json"
jq "$strip" "$T_TMP/snap.json" >"$T_TMP/b.json"
if cmp -s "$T_TMP/a.json" "$T_TMP/b.json"; then t_ok "snapshot answers as the live run"
else t_fail "snapshot differs from live: $(diff "$T_TMP/a.json" "$T_TMP/b.json" | head -20)"; fi
t_jq "netdev from the capture, facts under live" '.subsystems[] | select(.subsystem=="netdev") | (.live_only|not) and .status=="ok" and .live.family==true and .live.devices>=1' "$T_TMP/snap.json"
for f in netdev.nlmsg netdev.parts; do
	if [ -s "$T_TMP/snap/sys/kernel/socbox/$f" ]; then t_ok "snapshot has the netdev capture $f"
	else t_fail "snapshot lacks sys/kernel/socbox/$f"; fi
done
# the same snapshot without its capture (an older socbox): netdev is unknown, as before
cp -a "$T_TMP/snap" "$T_TMP/old"
rm -r "$T_TMP/old/sys/kernel/socbox"
t_run "doctor on a snapshot without capture" 0 "$SOCBOX" doctor --json --sysroot "$T_TMP/old"
t_jq "without capture netdev needs the live kernel" '.subsystems[] | select(.subsystem=="netdev") | .live_only and .status=="unknown" and .live==null' "$T_TMP/out"
t_jq "without capture the others still answer" '[.subsystems[] | select(.subsystem!="netdev") | .live_only] | all(. == false)' "$T_TMP/out"

t_run "snapshot refuses an existing directory" 1 "$SOCBOX" snapshot "$T_TMP/snap"
t_grep "never overwritten" 'never overwritten' "$T_TMP/err"
t_run "snapshot to a tar" 0 "$SOCBOX" snapshot "$T_TMP/snap.tar"
mkdir "$T_TMP/untar" && tar -C "$T_TMP/untar" -xf "$T_TMP/snap.tar"
t_run "doctor on the unpacked tar" 0 "$SOCBOX" doctor --json --sysroot "$T_TMP/untar"
jq "$strip" "$T_TMP/out" >"$T_TMP/c.json"
if cmp -s "$T_TMP/a.json" "$T_TMP/c.json"; then t_ok "tar snapshot answers as the live run"
else t_fail "tar snapshot differs: $(diff "$T_TMP/a.json" "$T_TMP/c.json" | head -20)"; fi
t_eq "no temporary left behind" "$(ls -d "$T_TMP"/snap.tmp-* 2>/dev/null | wc -l)" 0
t_run "snapshot with --sysroot is refused" 2 "$SOCBOX" snapshot --sysroot "$T_TMP/snap" "$T_TMP/x"
t_done
