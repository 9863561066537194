#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# smmustat on q35 + intel-iommu: overview, groups, irq, events, check, snapshot/sysroot
# equality, and the map/unmap stress through iommufd + the VFIO cdev of the spare edu device
# and through dma_map_benchmark.
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
edu=$(grep -l '^0x11e8$' /sys/bus/pci/devices/*/device 2>/dev/null | head -n1)
edu=${edu%/device}
edu=${edu##*/}
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
group=$(basename "$(readlink "/sys/bus/pci/devices/$edu/iommu_group")")

# overview
ok "smmustat (overview) runs" $S
out=$($S -J -o NAME,KIND,GROUPS,FEATURES,FEATURES_RAW)
like "$out" '"name": "dmar0"' "overview names dmar0"
like "$out" '"kind": "intel-vt-d"' "dmar0 is intel-vt-d"
like "$out" '"features_raw": "cap=0x[0-9a-f]+,ecap=0x[0-9a-f]+"' "cap/ecap read from intel-iommu/"
like "$out" '"mgaw=[0-9]+"' "cap decoded (mgaw)"
ngroups=$(ls /sys/kernel/iommu_groups | wc -l)
like "$out" "\"groups\": $ngroups" "instance serves all $ngroups groups"

# groups
out=$($S groups --device "$edu" -J)
like "$out" "\"group\": $group" "groups --device finds the edu group ($group)"
like "$out" '"iommu": "dmar0"' "groups --device names the instance"
like "$out" '"kind": "msi"' "reserved regions include the MSI window"
_tap_run $S groups --device 0000:ff:1f.7
is "$?" 3 "groups --device of an unknown device: exit 3 (named object not found)"

# irq: VT-d registers its fault interrupt as dmar0
out=$($S irq -J)
like "$out" '"kind": "dmar"' "irq shows the DMAR fault line"
$S irq -i 0.5 -c 2 -J >/tmp/irq.jsonl
is "$(wc -l </tmp/irq.jsonl | tr -d ' ')" 2 "irq -i 0.5 -c 2 -J: two lines (JSON Lines)"
is "$(grep -cE '^\{"interval_s":[0-9.]+,.*"irqs":\[\{.*"kind":"dmar".*\}$' /tmp/irq.jsonl)" 2 \
	"each line is one object: its interval and the DMAR line's row"

# events and check
ok "events reads the kernel log" $S events
ok "check --expect-instances 1 --no-faults" $S check --expect-instances 1 --no-faults
_tap_run $S check --expect-instances 2
is "$?" 1 "check --expect-instances 2: exit 1 (a check failed)"
err=$($S check --expect-type blocked 2>&1 >/dev/null)
like "$err" 'expect-type=blocked' "a failed check names its predicate"
ok "check --require-feature qi (queued invalidation)" $S check --require-feature qi
_tap_run $S pmu
is "$?" 3 "pmu: no SMMUv3 PMCG on x86: exit 3 (not supported here)"

# snapshot, then the same answers offline
ok "socbox snapshot" "$SOCBOX" snapshot /tmp/snap
live=$($S -J | grep -v log_source)
offline=$($S -J --sysroot /tmp/snap | grep -v log_source)
is "$offline" "$live" "overview on the snapshot equals the live one"
is "$($S groups -J --sysroot /tmp/snap)" "$($S groups -J)" "groups on the snapshot equal the live ones"
is "$($S events -J --sysroot /tmp/snap | grep -v log_source)" "$($S events -J | grep -v log_source)" "events on the snapshot equal the live ones"

# stress through iommufd without a device (IOAS only), then with edu bound to vfio-pci
ok "stress without a device (bare IOAS)" $S stress --duration 1 --cpus 0
# A thread that cannot be pinned (CPU 1000 is not in the guest) stops the run at once and its
# error is the command's: before, the run slept the whole --duration, then reported it.
err=$(timeout 60 $S stress --duration 600 --cpus 0,1000 2>&1 >/dev/null)
is "$?" 1 "stress with an unpinnable CPU ends early with exit 1 (not the status of timeout killing it)"
like "$err" 'CPU 1000: pin the stress thread' "the failing thread names its CPU"
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" vfio-pci "edu is bound to vfio-pci"
# The test bed runs intel-iommu with intremap=off: iommufd refuses such devices unless told.
unsafe=/sys/module/iommufd/parameters/allow_unsafe_interrupts
err=$($S stress --device "$edu" --duration 0.2 2>&1 >/dev/null)
like "$err" 'allow_unsafe_interrupts' "without interrupt remapping the error says how to proceed"
ok "allow unsafe interrupts for the test" sh -c "echo 1 >$unsafe"
ok "stress iommufd+vfio, 4K fixed (baseline)" sh -c "$S stress --device $edu --duration 3 --label 'iommufd 4K fixed' -J >$DATA/base.json"
like "$(cat "$DATA/base.json")" '"path": "iommufd\+vfio"' "the stress ran with the device attached"
like "$(cat "$DATA/base.json")" '"requests_total": [1-9]' "requests were counted"
ok "stress 4K random window" sh -c "$S stress --device $edu --duration 3 --pattern random --window 1M --label 'iommufd 4K random' -J >$DATA/random.json"
ok "stress 64K no-huge" sh -c "$S stress --device $edu --duration 3 --size 64K --no-huge --label 'iommufd 64K no-huge' -J >$DATA/nohuge.json"
ok "stress on CPU 1 only" sh -c "$S stress --device $edu --duration 3 --cpus 1 --label 'iommufd 4K cpu1' -J >$DATA/cpu1.json"
like "$(cat "$DATA/cpu1.json")" '"cpus": 1' "--cpus 1 ran one thread"
ok "stress 4K sequential, the table against all earlier runs" sh -c "$S stress --device $edu --duration 3 --pattern sequential --label 'iommufd 4K sequential' \
	--baseline $DATA/base.json --baseline $DATA/random.json --baseline $DATA/nohuge.json --baseline $DATA/cpu1.json -J >$DATA/seq.json"
is "$(grep -o '"run": "[^"]*"' "$DATA/seq.json" | tr '\n' ';')" '"run": "iommufd 4K fixed";"run": "iommufd 4K random";"run": "iommufd 64K no-huge";"run": "iommufd 4K cpu1";"run": "iommufd 4K sequential";' \
	"the baselines keep their labels, in order, the reference first"
# a baseline that itself compared with others is read as its own run, not its first row
ok "a run with baselines is a baseline too" sh -c "$S stress --device $edu --duration 1 --label again --baseline $DATA/seq.json -J >$DATA/again.json"
like "$(grep -o '"run": "[^"]*"' "$DATA/again.json" | head -n1)" '"run": "iommufd 4K sequential"' "seq.json is read as 'iommufd 4K sequential'"
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
echo 0 >"$unsafe"

# dma_map_benchmark: the kernel's own per-thread map/unmap loop on the same device
echo dma_map_benchmark >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" dma_map_benchmark "edu is bound to dma_map_benchmark"
ok "stress through dma_map_benchmark, compared with the iommufd baseline" $S stress --method map-benchmark --duration 2 --label "dma_map_benchmark 4K" --baseline "$DATA/base.json"
echo "$edu" >/sys/bus/pci/drivers/dma_map_benchmark/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "edu is unbound again" test -e "/sys/bus/pci/devices/$edu/driver"
done_testing
