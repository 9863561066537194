#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# smmustat groups, irq, events, pmu (discovery) and check on the board dumps.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
SRV=$F/arm64-server-smmuv3
SOC=$F/arm64-soc
X86=$F/x86-vtd-server

# groups
t_run "x86: groups" 0 "$SOCBOX" smmustat groups --sysroot "$X86"
t_grep "x86: vfio-pci device shown with its driver" '^ +4 DMA +dmar0 +1 0000:17:00\.1 +vfio-pci$' "$T_TMP/out"
t_grep "x86: unbound device shows -" '^ +0 DMA +dmar1 +1 0000:00:00\.0 +-$' "$T_TMP/out"
t_run "x86: groups --json" 0 "$SOCBOX" smmustat groups --sysroot "$X86" -J -o +RESERVED
cp "$T_TMP/out" "$T_TMP/g.json"
t_json "x86: groups" "$T_TMP/g.json"
t_jq "x86: six groups, one identity" '(.groups | length) == 6 and ([.groups[] | select(.type=="identity")] | length) == 1' "$T_TMP/g.json"
t_jq "x86: xhci has an RMRR and the MSI window" '.groups[1].reserved == ["0x6f5f8000-0x6f7fffff:direct-relaxable","0xfee00000-0xfeefffff:msi"]' "$T_TMP/g.json"
t_run "server: --device 0002:01:00.1" 0 "$SOCBOX" smmustat groups --sysroot "$SRV" --device 0002:01:00.1 -J
cp "$T_TMP/out" "$T_TMP/d.json"
t_json "server: --device" "$T_TMP/d.json"
t_jq "server: device -> group 5 on the second SMMU" '.group == 5 and .iommu == "smmu3.0x0000200000000000" and .driver == "mlx5_core"' "$T_TMP/d.json"
t_jq "server: reserved regions table" '.reserved_regions == [{"group":5,"start":"0x0000000008000000","end":"0x00000000080fffff","size_bytes":1048576,"kind":"msi"}]' "$T_TMP/d.json"
t_run "x86: short BDF 17:00.0" 0 "$SOCBOX" smmustat groups --sysroot "$X86" --device 17:00.0 -P -o GROUP,IOMMU
t_grep "x86: short BDF resolves; -P keys rows of a view with several tables" '^GROUP="3" IOMMU="dmar0" TABLE="groups"$' "$T_TMP/out"
t_run "soc: platform device by name" 0 "$SOCBOX" smmustat groups --sysroot "$SOC" --group 2 -r -o GROUP,TYPE,DEVICES,DRIVERS
t_grep "soc: identity group of the VPU" '^2 identity 4ad00000\.vpu -$' "$T_TMP/out"
t_run "unknown device: exit 3 (not here)" 3 "$SOCBOX" smmustat groups --sysroot "$SOC" --device 0000:99:00.0
t_grep "unknown device message" 'find the IOMMU group of the device: no group has it' "$T_TMP/err"
t_run "unknown group: exit 3 (not here)" 3 "$SOCBOX" smmustat groups --sysroot "$SOC" --group 77
t_run "--group with --device: usage" 2 "$SOCBOX" smmustat groups --sysroot "$SOC" --group 1 --device x

# irq
t_run "server: irq -c 1 -J is one compact line (JSON Lines)" 0 "$SOCBOX" smmustat irq --sysroot "$SRV" -c 1 -J
t_eq "server: irq -c 1 -J: one line" "$(wc -l <"$T_TMP/out")" 1
t_json "server: irq -c 1" "$T_TMP/out"
t_run "server: irq --json" 0 "$SOCBOX" smmustat irq --sysroot "$SRV" -J
t_eq "server: irq -J without -i/-c: one indented object" "$(head -c1 "$T_TMP/out"; sed -n 2p "$T_TMP/out" | cut -c1-2)" "{  "
cp "$T_TMP/out" "$T_TMP/i.json"
t_json "server: irq" "$T_TMP/i.json"
t_jq "server: evtq/gerror/priq for both SMMUs" '[.irqs[].kind] == ["evtq","gerror","priq","evtq","gerror","priq"]' "$T_TMP/i.json"
t_jq "server: per-CPU counts" '.irqs[3].total == 4 and .irqs[3].per_cpu == ["0=4"]' "$T_TMP/i.json"
t_jq "server: per-CPU counts as numbers (cpu_counts)" '.irqs[3].cpu_counts == [{"cpu":0,"count":4}]' "$T_TMP/i.json"
t_run "server: irq --all" 0 "$SOCBOX" smmustat irq --sysroot "$SRV" --all -J
t_jq "server: cpu_counts and per_cpu say the same on every line" \
	'([.irqs[] | .per_cpu == [.cpu_counts[] | "\(.cpu)=\(.count)"]] | all) and ([.irqs[].cpu_counts[]] | length) > 10' "$T_TMP/out"
t_jq "server: cpu_counts sum to TOTAL" '[.irqs[] | .total == ([.cpu_counts[].count] | add // 0)] | all' "$T_TMP/out"
t_run "soc: irq on the 2026 layout with CPU2 offline" 0 "$SOCBOX" smmustat irq --sysroot "$SOC" -p -J
cp "$T_TMP/out" "$T_TMP/s.json"
t_jq "soc: two wired SMMU lines" '[.irqs[].irq] == ["70","71"] and .cpus == 5' "$T_TMP/s.json"
t_jq "soc: per_cpu table skips the offline CPU" '[.per_cpu[] | select(.irq=="70") | .cpu] == [0,1,3,4,5]' "$T_TMP/s.json"
t_run "x86: irq" 0 "$SOCBOX" smmustat irq --sysroot "$X86" -r -o IRQ,KIND,ACTION,TOTAL
t_grep "x86: DMAR fault lines" '^25 dmar dmar0 3$' "$T_TMP/out"
t_run "irq -i on a sysroot: not here" 3 "$SOCBOX" smmustat irq --sysroot "$X86" -i 1

# events
t_run "server: events --json" 0 "$SOCBOX" smmustat events --sysroot "$SRV" -J
cp "$T_TMP/out" "$T_TMP/e.json"
t_json "server: events" "$T_TMP/e.json"
t_jq "server: decoded events grouped by device" '.event_groups[0] | .device=="0002:01:00.1" and .kind=="F_TRANSLATION" and .count==2 and .last_addr=="0xfff01000"' "$T_TMP/e.json"
# "(unassigned sid)": the IORT's named component \_SB_.DMA0 has stream ID 0x20000 at SMMU 0
t_jq "server: an unassigned stream id named from the IORT" '.event_groups[1] | .device=="ARMH0330:00" and .source=="arm-smmu-v3.0.auto" and .last_addr=="0xdead0000"' "$T_TMP/e.json"
# Each fault is a raw dump, a decoded line and a qualifier in the log (7.x): one record each.
t_jq "server: one record per fault, not one per form" '.records == 3 and (.event_groups | length) == 2 and .suppressed == 0' "$T_TMP/e.json"
t_jq "server: REASON is the qualifier line" '.event_groups[0].reason == "unpriv data write s1 \"CD fetch\" stag: 0x0"' "$T_TMP/e.json"
# /dev/kmsg escapes the tab before each dword (\x09): the 6.6 raw dump must still parse.
t_run "soc: events --list of an escaped raw dump" 0 "$SOCBOX" smmustat events --sysroot "$SOC" --list -J
t_jq "soc: stream id, IOVA and the qualifier made from dword 1" '.events == [{"time_s": 37.1004, "instance": "smmu3.0x0000000049000000", "source": "49000000.iommu", "device": "4a200000.dma", "sid": "0x3", "class": "dma-fault", "kind": "F_TRANSLATION", "addr": "0x87650000", "reason": "unpriv data read s1 \"CD fetch\" stag: 0x0"}]' "$T_TMP/out"
# On an 80-column console the identifiers fill the line and REASON would be a word a line:
# it goes below each event, whole, and no line is wider than 80.
COLUMNS=80 "$SOCBOX" smmustat events --sysroot "$SRV" --list >"$T_TMP/w.txt"
t_eq "80 columns: REASON below each event, whole" "$(sed -n 's/^  REASON: //p' "$T_TMP/w.txt" | paste -sd ' ')" \
	'unpriv data write s1 "CD fetch" stag: 0x0 unpriv data write s1 "CD fetch" stag: 0x0 unpriv data read s1 "CD fetch" stag: 0x0'
t_eq "80 columns: no line wider" "$(awk 'length($0) > 80' "$T_TMP/w.txt")" ""
t_run "x86: events --list" 0 "$SOCBOX" smmustat events --sysroot "$X86" --list -J
cp "$T_TMP/out" "$T_TMP/l.json"
t_jq "x86: three DMAR records" '(.events | length) == 3 and .events[2].kind == "INTR-REMAP" and .events[0].time_s == 811.40212' "$T_TMP/l.json"
t_run "soc: events -o with --list columns" 0 "$SOCBOX" smmustat events --sysroot "$SOC" --list -r -n -o TIME_S,DEVICE,KIND
t_grep "soc: list row, the stream id named from the device tree" '^37\.100 4a200000\.dma F_TRANSLATION$' "$T_TMP/out"
t_run "soc: NAMED_BY" 0 "$SOCBOX" smmustat events --sysroot "$SOC" --list -r -n -o DEVICE,SID,NAMED_BY
t_grep "soc: firmware named it" '^4a200000\.dma 0x3 firmware$' "$T_TMP/out"
# groups: each device's stream IDs, from the device tree (SoC) and the IORT (server)
t_run "soc: groups with stream ids" 0 "$SOCBOX" smmustat groups --sysroot "$SOC" -r -o GROUP,DEVICES,STREAM_IDS
t_grep "soc: two stream ids of the npu (iommus = <&smmu 6>, <&smmu 7>)" '^3 4d800000\.npu 0x6\+0x7$' "$T_TMP/out"
t_run "server: groups -J" 0 "$SOCBOX" smmustat groups --sysroot "$SRV" -J
t_jq "server: stream ids from the IORT root complexes" '.stream_id_source == "iort" and [.groups[].stream_ids[0]] == ["0x0","0x100","0x200","0x10000","0x10100","0x10101"]' "$T_TMP/out"
t_run "server: groups --device names its stream ids" 0 "$SOCBOX" smmustat groups --sysroot "$SRV" --device 0002:01:00.1 -J
t_jq "server: --device stream_ids" '.stream_ids == "0x10101"' "$T_TMP/out"
t_run "x86: no stream ids without SMMU firmware" 0 "$SOCBOX" smmustat groups --sysroot "$X86" -J
t_jq "x86: no stream_id_source, no column" '(has("stream_id_source") | not) and (.groups[0] | has("stream_ids") | not)' "$T_TMP/out"
t_run "events --follow on a sysroot: not here" 3 "$SOCBOX" smmustat events --sysroot "$SOC" --follow
t_run "events without a log: exit 1 naming the file" 1 "$SOCBOX" smmustat events --sysroot "$F/x86-vtd"
t_grep "missing log hint" '/dev/kmsg: read the kernel log of the sysroot' "$T_TMP/err"

# pmu discovery
t_run "server: pmu on a sysroot lists the PMCGs" 0 "$SOCBOX" smmustat pmu --sysroot "$SRV" -J
cp "$T_TMP/out" "$T_TMP/p.json"
t_json "server: pmu" "$T_TMP/p.json"
t_jq "server: two PMCGs with type and cpumask" '[.pmus[] | [.pmu, .type, .cpu]] == [["smmuv3_pmcg_100000020",12,0],["smmuv3_pmcg_200000020",13,0]]' "$T_TMP/p.json"
t_jq "server: events and format fields" '.pmus[0].events | index("transaction(event=0x01)")' "$T_TMP/p.json"
t_jq "server: filter fields" '.pmus[0].formats == ["event","filter_enable","filter_span","filter_stream_id"]' "$T_TMP/p.json"
t_run "x86: no PMCG: exit 3" 3 "$SOCBOX" smmustat pmu --sysroot "$X86"
t_grep "x86: hint names the module" 'arm_smmuv3_pmu \(CONFIG_ARM_SMMU_V3_PMU\)' "$T_TMP/err"

# check
t_run "server: all predicates hold" 0 "$SOCBOX" smmustat check --sysroot "$SRV" --expect-instances 2 --expect-type DMA-FQ --require-feature SVA --require-feature ha
t_run "server: --no-faults fails on logged events" 1 "$SOCBOX" smmustat check --sysroot "$SRV" --no-faults -J
t_jq "server: failed count" '.failed == 1 and .checks[0].check == "no-faults"' "$T_TMP/out"
t_grep "server: stderr names the predicate" '^smmustat check: no-faults: 3 records' "$T_TMP/err"
t_run "soc: expect-type fails on the identity group" 1 "$SOCBOX" smmustat check --sysroot "$SOC" --expect-type DMA
t_grep "soc: which group" 'expect-type=DMA: 1 of 4 groups differ \(group 2 is identity\)' "$T_TMP/err"
t_run "soc: HA is not decoded on a 6.6 vendor kernel" 1 "$SOCBOX" smmustat check --sysroot "$SOC" --require-feature HA
t_run "x86: pasid missing, instances ok" 1 "$SOCBOX" smmustat check --sysroot "$X86" --expect-instances 2 --require-feature pasid
t_grep "x86: only the failed one on stderr" '^smmustat check: require-feature=pasid: 2 of 2 instances lack it' "$T_TMP/err"
t_nogrep "x86: passing predicate not on stderr" 'expect-instances' "$T_TMP/err"
t_run "x86: qi present" 0 "$SOCBOX" smmustat check --sysroot "$X86" --require-feature qi --require-feature sagaw
t_run "check without predicates: usage" 2 "$SOCBOX" smmustat check --sysroot "$X86"
t_run "check --expect-type bogus: usage" 2 "$SOCBOX" smmustat check --sysroot "$X86" --expect-type bogus
t_grep "... names the types" "--expect-type: 'bogus' is not one of DMA, DMA-FQ, identity, blocked or unmanaged" "$T_TMP/err"
t_run "check --expect-type dma: usage, naming the one meant" 2 "$SOCBOX" smmustat check --sysroot "$X86" --expect-type dma
t_grep "... DMA" "did you mean 'DMA'\?" "$T_TMP/err"
t_run "check --help" 0 "$SOCBOX" smmustat check --help
tr -s ' \n' '  ' <"$T_TMP/out" >"$T_TMP/flat" # popt wraps the help at 79 columns
# it read DMA|DMA-FQ|identity, though blocked and unmanaged were taken too
t_grep "... lists every type --expect-type takes" 'domain type: DMA, DMA-FQ, identity, blocked or unmanaged' "$T_TMP/flat"

# stress needs the live kernel
t_run "stress on a sysroot: exit 3" 3 "$SOCBOX" smmustat stress --sysroot "$X86"
t_grep "stress says why" 'needs the live kernel' "$T_TMP/err"
t_run "stress --size not 4K aligned: usage" 2 "$SOCBOX" smmustat stress --size 1000
t_grep "... names the bound" "--size: '1000' is out of range \(at least 4K\)" "$T_TMP/err"
t_run "stress --size 6K: usage" 2 "$SOCBOX" smmustat stress -s 6K
t_grep "... says why" '--size: 6144 bytes is not a multiple of 4K' "$T_TMP/err"
t_run "stress --method bogus: usage" 2 "$SOCBOX" smmustat stress --method bogus
t_grep "... names the methods" "--method: 'bogus' is not one of iommufd or map-benchmark" "$T_TMP/err"
t_run "stress -vm iommu (clustered): usage" 2 "$SOCBOX" smmustat stress -vm iommu
t_grep "... names the one meant" "did you mean 'iommufd'\?" "$T_TMP/err"
t_run "stress --pattern zigzag: usage" 2 "$SOCBOX" smmustat stress --pattern zigzag
t_grep "... names the patterns" "'zigzag' is not one of fixed, sequential or random" "$T_TMP/err"
t_run "stress --window below --size: usage" 2 "$SOCBOX" smmustat stress -s 16K --window 8K
t_grep "... names both" '--window: 8192 bytes is less than --size \(16384\)' "$T_TMP/err"
t_run "stress -s 0x2000 --pattern random: accepted, then needs the live kernel" 3 "$SOCBOX" smmustat stress -s 0x2000 --pattern random --sysroot "$X86"
t_run "stress --help" 0 "$SOCBOX" smmustat stress --help
tr -s ' \n' '  ' <"$T_TMP/out" >"$T_TMP/flat" # popt wraps the help at 79 columns
t_grep "... the defaults" 'a multiple of 4K \(default 4K\).*fixed, sequential or random \(default fixed\).*iommufd or map-benchmark \(default iommufd\)' "$T_TMP/flat"
# dma_map_benchmark's own limits (kernel/dma/map_benchmark.c), refused before the live check
t_run "map-benchmark --duration 301: usage" 2 "$SOCBOX" smmustat stress --method map-benchmark --duration 301 --cpus 0 --sysroot "$X86"
t_grep "the seconds limit is named" 'at most 300 seconds' "$T_TMP/err"
t_run "map-benchmark --duration 300: accepted, then needs the live kernel" 3 "$SOCBOX" smmustat stress --method map-benchmark --duration 300 --cpus 0 --sysroot "$X86"
t_run "map-benchmark 1025 threads: usage" 2 "$SOCBOX" smmustat stress --method map-benchmark --cpus 0-1024 --sysroot "$X86"
t_grep "the thread limit is named" 'at most 1024 threads' "$T_TMP/err"
t_run "map-benchmark 1024 threads: accepted" 3 "$SOCBOX" smmustat stress --method map-benchmark --cpus 0-1023 --sysroot "$X86"
t_run "map-benchmark --size over 1024 pages: usage" 2 "$SOCBOX" smmustat stress --method map-benchmark --size 1G --cpus 0 --sysroot "$X86"
t_grep "the granule limit is named" 'at most 1024 pages' "$T_TMP/err"
t_run "iommufd is not bound by those limits" 3 "$SOCBOX" smmustat stress --duration 301 --size 1G --cpus 0 --sysroot "$X86"
t_run "stress --baseline missing file" 1 "$SOCBOX" smmustat stress --baseline "$T_TMP/nope.json" --sysroot "$X86"
echo '{"label": "x"}' >"$T_TMP/bad.json"
t_run "stress --baseline without totals: usage" 2 "$SOCBOX" smmustat stress --baseline "$T_TMP/bad.json" --sysroot "$X86"
head -c 200 "$F/stress/baseline-sequential.json" >"$T_TMP/trunc.json"
t_run "stress --baseline truncated: usage" 2 "$SOCBOX" smmustat stress --baseline "$T_TMP/trunc.json" --sysroot "$X86"
t_grep "the truncation is named with its offset" 'trunc.json: read baseline: at byte 200: file ends early' "$T_TMP/err"
t_run "stress --baseline of a real run passes the reader (then needs the live kernel)" 3 "$SOCBOX" smmustat stress --baseline "$F/stress/baseline-sequential.json" --sysroot "$X86"
t_done
