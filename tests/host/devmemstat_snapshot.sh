#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox snapshot captures what devmemstat top reads, and top on the snapshot answers like
# the live system (same CPUs and interfaces; averages since boot instead of deltas).
. "$SOCBOX_TESTLIB"

t_run "snapshot" 0 "$SOCBOX" snapshot "$T_TMP/snap"
for f in proc/stat proc/softirqs proc/net/dev proc/uptime; do
	if [ -s "$T_TMP/snap/$f" ]; then t_ok "snapshot has $f"; else t_fail "snapshot lacks $f"; fi
done
t_run "top on the snapshot" 0 "$SOCBOX" devmemstat top --sysroot "$T_TMP/snap" -J
cp "$T_TMP/out" "$T_TMP/snap.json"
t_json "top on the snapshot" "$T_TMP/snap.json"
t_run "top live" 0 "$SOCBOX" devmemstat top -i 0.2 -c 1 -J
cp "$T_TMP/out" "$T_TMP/live.json"
t_eq "same CPUs as live" "$(jq -c '[.cpus[].cpu]' "$T_TMP/snap.json")" "$(jq -c '[.cpus[].cpu]' "$T_TMP/live.json")"
# live lists the netdev family's devices, the snapshot /proc/net/dev: the names must agree
t_eq "same interfaces as live" "$(jq -c '[.devices[].ifname] | sort' "$T_TMP/snap.json")" \
	"$(jq -c '[.devices[].ifname] | sort' "$T_TMP/live.json")"
t_jq "snapshot says it is since boot" '.notes | any(test("since boot"))' "$T_TMP/snap.json"
t_jq "CPU percentages add up to 100 less steal" '.cpus | all((.usr + .sys + .idle + .iow + .irq + .sirq) | (. > 90 and . < 100.01))' "$T_TMP/snap.json"
t_run "netlink view on the snapshot" 3 "$SOCBOX" devmemstat pools --sysroot "$T_TMP/snap"
t_grep "says it needs the live kernel" 'needs the live kernel' "$T_TMP/err"
t_done
