#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox events on snapshots: the IOMMU faults of the board dumps, and a kernel log with
# every kind of record merged in time order. The extra records are composed in this script
# from the kernel's format strings (see tests/unit/test_events.c), around the SMMUv3 event
# of the arm64-soc dump; the vm tier has the real thing (tests/vm/guest/events.sh).
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
PY=/usr/bin/python3
CHECK=$(dirname "$0")/metrics_check.py

t_run "x86 server faults" 0 "$SOCBOX" events --sysroot "$F/x86-vtd-server"
t_grep "one line per event, device named" '^\[  811\.402120\] iommu +fault +0000:17:00\.0  DMA Read addr 0xfffff000: 0x06 PTE Read access is not set \(dmar0\)$' "$T_TMP/out"
t_eq "three faults" "$(wc -l <"$T_TMP/out")" 3

rm -rf "$T_TMP/board"
cp -a "$F/arm64-soc" "$T_TMP/board"
cat >"$T_TMP/extra" <<'LOG'
6,20,2000000,-;remoteproc remoteproc0: powering up 5000000.m4fss
6,21,2000100,-;remoteproc remoteproc0: Booting fw image am62-mcu-m4f0_0-fw, size 182380
6,22,2150000,-;virtio_rpmsg_bus virtio0: rpmsg host is online
6,23,2200000,-;rpmsg_ns virtio0.rpmsg_ns.53.53: creating channel ti.ipc4.ping-pong addr 0xd
6,24,2300000,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up
3,25,37100500,-;remoteproc remoteproc0: crash detected in 5000000.m4fss: type watchdog
3,26,37100600,-;remoteproc remoteproc0: handling crash #1 in 5000000.m4fss
3,27,37100700,-;remoteproc remoteproc0: recovering 5000000.m4fss
6,28,37200000,-;rpmsg_ns virtio0.rpmsg_ns.53.53: destroying channel ti.ipc4.ping-pong addr 0xd
3,29,40000000,-;__cma_alloc_frozen: linux,cma: alloc failed, req-size: 2025 pages, ret: -12
4,30,99000000,-;page_pool_release_retry() stalled pool shutdown: id 12, 1 inflight 60 sec
LOG
# into the dump's log, in time order and numbered again, as the kernel would have logged them
sort -s -t, -k3,3n "$SOCBOX_FIXTURES/arm64-soc/dev/kmsg" "$T_TMP/extra" |
	awk -F, -v OFS=, '{ $2 = NR - 1; print }' >"$T_TMP/board/dev/kmsg"
t_run "the timeline" 0 "$SOCBOX" events --sysroot "$T_TMP/board"
cp "$T_TMP/out" "$T_TMP/all.txt"
t_eq "every record once, in time order" "$(awk '{print $3 "/" $4}' "$T_TMP/all.txt" | tr '\n' ' ')" \
	"remoteproc/power-up remoteproc/booting rpmsg/online rpmsg/channel-add remoteproc/up iommu/fault remoteproc/crash remoteproc/crash-handled remoteproc/recovery rpmsg/channel-remove dmabuf/alloc-failed netdev/pool-stalled "
t_grep "the SMMU fault: device of the stream, event, address, qualifier, SMMU" '^\[   37\.100400\] iommu +fault +4a200000\.dma  F_TRANSLATION addr 0x87650000: unpriv data read s1 "CD fetch" stag: 0x0 \(smmu3\.0x0000000049000000, 49000000\.iommu\)$' "$T_TMP/all.txt"
t_grep "the crash and its type" '^\[   37\.100500\] remoteproc crash +remoteproc0  5000000\.m4fss, type watchdog$' "$T_TMP/all.txt"
t_run "-J: JSON Lines" 0 "$SOCBOX" events --sysroot "$T_TMP/board" -J
cp "$T_TMP/out" "$T_TMP/all.jsonl"
t_eq "one object a line" "$(jq -c . "$T_TMP/all.jsonl" | wc -l)" 12
head -n1 "$T_TMP/all.jsonl" >"$T_TMP/first.json"
t_jq "fields" '.time_s == 2 and .subsystem == "remoteproc" and .kind == "power-up" and .object == "remoteproc0" and .source == "kmsg"' "$T_TMP/first.json"
t_run "filter by subsystem" 0 "$SOCBOX" events --sysroot "$T_TMP/board" -s iommu,dmabuf -J
t_eq "only those" "$(jq -r .subsystem "$T_TMP/out" | tr '\n' ' ')" "iommu dmabuf "
t_run "--since seconds since boot" 0 "$SOCBOX" events --sysroot "$T_TMP/board" --since 37.1005
t_eq "from the crash on" "$(head -n1 "$T_TMP/out" | awk '{print $4}')" crash
t_run "--since -DURATION before the newest record (a snapshot)" 0 "$SOCBOX" events --sysroot "$T_TMP/board" --since -1m
t_eq "the last minute of the log" "$(awk '{print $4}' "$T_TMP/out" | tr '\n' ' ')" "alloc-failed pool-stalled "
t_run "-r with chosen columns" 0 "$SOCBOX" events --sysroot "$T_TMP/board" -r -n -o KIND,OBJECT -s remoteproc
t_eq "raw rows" "$(head -n2 "$T_TMP/out" | tr '\n' ';')" "power-up remoteproc0;booting remoteproc0;"

# counted, as metrics: crashes and recoveries per remote processor, faults per device
t_run "openmetrics" 0 "$SOCBOX" events --sysroot "$T_TMP/board" --format openmetrics
cp "$T_TMP/out" "$T_TMP/ev.om"
t_grep "crashes counted" '^socbox_events_records_total\{subsystem="remoteproc",kind="crash",object="remoteproc0"\} 1$' "$T_TMP/ev.om"
t_grep "recoveries counted" '^socbox_events_records_total\{subsystem="remoteproc",kind="recovery",object="remoteproc0"\} 1$' "$T_TMP/ev.om"
t_run "prometheus" 0 "$SOCBOX" events --sysroot "$T_TMP/board" --format prometheus
cp "$T_TMP/out" "$T_TMP/ev.prom"
t_need promtool prometheus && t_run "promtool check metrics" 0 promtool check metrics <"$T_TMP/ev.prom"
if "$PY" "$CHECK" events "$T_TMP/ev.om" "$T_TMP/ev.prom" >"$T_TMP/parsed" 2>&1; then
	t_ok "both parsers: $(cat "$T_TMP/parsed")"
else
	t_fail "parsers: $(cat "$T_TMP/parsed")"
fi

# hostile: text from the log reaches the terminal escaped
printf '6,99,99500000,-;remoteproc remoteproc0: recovering m4\\x1b]0;owned\\x07\n' >>"$T_TMP/board/dev/kmsg"
t_run "escape sequences from the log" 0 "$SOCBOX" events --sysroot "$T_TMP/board" -s remoteproc
t_grep "escaped" 'recovering +remoteproc0  m4\\x1b\]0;owned\\x07$|recovery +remoteproc0  m4\\x1b\]0;owned\\x07$' "$T_TMP/out"
t_nogrep "no raw ESC" "$(printf '\033')" "$T_TMP/out"

# a record about no object (an event-queue overflow): null in JSON, "-" in text, in socbox
# events and smmustat events alike
ovf=$F/causes/arm64-server-evtq-overflow/root
t_run "an overflow's event" 0 "$SOCBOX" events --sysroot "$ovf" -s iommu -J
t_grep "its object is null" '"kind":"lost","object":null,"detail":"evtq-overflow' "$T_TMP/out"
t_run "and in text" 0 "$SOCBOX" events --sysroot "$ovf" -s iommu
t_grep "its object is -" '^\[ *[0-9.]+\] iommu +lost +- +evtq-overflow' "$T_TMP/out"
t_grep "a master's fault stays a fault" '^\[ *[0-9.]+\] iommu +fault +0002:01:00.1 +F_TRANSLATION' "$T_TMP/out"
# the kind follows the event's class: records the queue lost are "lost", the SMMU's own
# error (a CMD_SYNC timeout) "error", never a master's "fault"
t_run "a CMD_SYNC timeout's event" 0 "$SOCBOX" events --sysroot "$F/causes/arm64-server-cmdsync-timeout/root" -s iommu -J
t_grep "its kind is error" '"kind":"error","object":null,"detail":"cmd-sync-timeout.*"class":"smmu-error"' "$T_TMP/out"
t_nogrep "no fault" '"kind":"fault"' "$T_TMP/out"
mkdir "$T_TMP/ovf"
cp -a "$F/arm64-server-smmuv3/." "$T_TMP/ovf/"
cp "$ovf/dev/kmsg" "$T_TMP/ovf/dev/kmsg"
t_run "smmustat events --list -J" 0 "$SOCBOX" smmustat events --sysroot "$T_TMP/ovf" --list -J
cp "$T_TMP/out" "$T_TMP/ovf.json"
t_run "the overflow's device is null" 0 python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = [e for e in d["events"] if e["kind"] == "evtq-overflow"]
sys.exit(not (len(e) == 1 and e[0]["device"] is None and e[0]["sid"] is None))' "$T_TMP/ovf.json"

t_run "no kernel log in the snapshot" 1 "$SOCBOX" events --sysroot "$F/stm32mp157-dk2"
t_grep "says what to do" 'take the snapshot as root' "$T_TMP/err"
t_run "--follow needs the live kernel" 3 "$SOCBOX" events --follow --sysroot "$T_TMP/board"
t_run "unknown subsystem" 2 "$SOCBOX" events -s gpu
t_run "bad --since" 2 "$SOCBOX" events --sysroot "$T_TMP/board" --since 5x
t_run "-c without --follow" 2 "$SOCBOX" events -c 1
t_run "-i does not apply" 2 "$SOCBOX" events -i 1
t_run "--follow with metrics" 2 "$SOCBOX" events --follow --format prometheus
t_done
