#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox snapshot captures what devmemstat top reads, and top on the snapshot answers like
# the live system (same CPUs and interfaces; averages since boot instead of deltas); the
# netlink views answer from the snapshot's netdev capture as the live kernel did.
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

# The netlink views answer from the snapshot's netdev capture as the live kernel did. The live
# runs come right before a second snapshot; only counters that traffic moves in between
# (qstats bytes/packets, pool inflight and page-pool stats) are left out of the comparison.
for v in show queues napi pools qstats bindings; do
	"$SOCBOX" devmemstat "$v" -J >"$T_TMP/live-$v.json" 2>"$T_TMP/live-$v.err"
	echo $? >"$T_TMP/live-$v.rc"
done
t_run "second snapshot" 0 "$SOCBOX" snapshot "$T_TMP/snap2"
moving='walk(if type == "object" then with_entries(select(.key | test("^(rx|tx)_(bytes|packets)|^inflight|^recycle|^alloc") | not)) else . end)'
for v in show queues napi pools qstats bindings; do
	t_run "$v on the snapshot" "$(cat "$T_TMP/live-$v.rc")" "$SOCBOX" devmemstat "$v" -J --sysroot "$T_TMP/snap2"
	jq -S "$moving" "$T_TMP/out" >"$T_TMP/b.json"
	jq -S "$moving" "$T_TMP/live-$v.json" >"$T_TMP/a.json"
	if [ -s "$T_TMP/a.json" ] && cmp -s "$T_TMP/a.json" "$T_TMP/b.json"; then t_ok "$v: snapshot answers as live"
	else t_fail "$v differs: $(diff "$T_TMP/a.json" "$T_TMP/b.json" | head -10)"; fi
done
t_jq "names come from the snapshot" '[.devices[].ifname] | index("lo") != null' "$T_TMP/live-show.json"
t_run "show -J --sysroot" 0 "$SOCBOX" devmemstat show -J --sysroot "$T_TMP/snap2"
t_jq "snapshot names lo" '[.devices[] | select(.ifindex == 1) | .ifname] == ["lo"]' "$T_TMP/out"
t_run "--dev lo on the snapshot" 0 "$SOCBOX" devmemstat queues -J --dev lo --sysroot "$T_TMP/snap2"
t_jq "only lo's queues" '(.queues | length) >= 1 and all(.queues[]; .ifname == "lo")' "$T_TMP/out"
t_run "--dev of no interface (exit 3 as live)" 3 "$SOCBOX" devmemstat queues --dev nosuch0 --sysroot "$T_TMP/snap2"
t_run "monitor still needs the live kernel" 3 "$SOCBOX" devmemstat monitor --sysroot "$T_TMP/snap2"
t_grep "says it needs the live kernel" 'needs the live kernel' "$T_TMP/err"
rm -r "$T_TMP/snap2/sys/kernel/socbox"
t_run "snapshot without capture" 3 "$SOCBOX" devmemstat pools --sysroot "$T_TMP/snap2"
t_grep "says the capture is missing" 'this snapshot has no netdev capture \(taken by an older socbox or a kernel without the netdev family\)' "$T_TMP/err"
t_done
