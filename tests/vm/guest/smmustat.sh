#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# smmustat on q35 + intel-iommu: overview, groups, irq, events, check, snapshot/sysroot
# equality (the map/unmap stress: smmustat_stress.sh).
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
edu=$(edu_device)
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
done_testing
