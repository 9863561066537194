#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock-arm64
# smmustat against a real SMMUv3: QEMU virt (iommu=smmuv3) under Debian's arm64 kernel.
# Overview, features, groups with the stream IDs of the device tree's iommu-map, interrupts,
# check, and what this kernel lacks (no PMCG, no iommufd) said with the exit code 3.
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
smmu=$(ls /sys/class/iommu)
is "$smmu" smmu3.0x0000000009050000 "one SMMUv3 instance, at virt's 0x9050000"

# overview and the feature decode of this kernel's probe line ("oas 44-bit (features 0x...)")
ok "smmustat (overview)" $S
out=$($S -J -o NAME,KIND,BASE,GROUPS,OAS_BITS,HWDEV,FEATURES,FEATURES_RAW,UNKNOWN_BITS,FEATURE_TABLE)
probe=$(dmesg | sed -n 's/.*arm-smmu-v3 9050000.smmuv3: oas \([0-9]*\)-bit (features \(0x[0-9a-f]*\)).*/\1 \2/p' | head -n1)
like "$probe" '^[0-9]+ 0x[0-9a-f]{8}$' "the kernel logged its probe line"
like "$out" '"kind": "arm-smmu-v3"' "kind arm-smmu-v3"
like "$out" '"base": "0x9050000"' "MMIO base 0x9050000"
like "$out" "\"oas_bits\": ${probe% *}," "OAS as logged (${probe% *} bits)"
like "$out" "\"features_raw\": \"${probe#* }\"" "raw features as logged (${probe#* })"
like "$out" '"hwdev": "9050000.smmuv3"' "the platform device"
like "$out" '"feature_table": "mainline-6.16"' "the 6.16+ feature table for 7.2"
like "$out" '"unknown_bits": null' "every set feature bit has a name"
like "$out" '"2_LVL_STRTAB"' "features decoded (2_LVL_STRTAB)"
like "$out" '"TRANS_S1"' "features decoded (TRANS_S1)"
ngroups=$(ls /sys/kernel/iommu_groups | wc -l)
like "$out" "\"groups\": $ngroups," "the instance serves all $ngroups groups"

# groups: every PCI device's stream ID is what the host bridge's iommu-map gives its
# requester ID (read here from the raw property with od, independently of socbox)
be32s() { # FILE: its big-endian cells, decimal, one per line
	od -An -v -tx1 "$1" | tr -s ' \n' '  ' | sed 's/^ //' |
		awk '{ for (i = 1; i + 3 <= NF; i += 4) print $i $(i + 1) $(i + 2) $(i + 3) }' |
		while read -r h; do echo $((0x$h)); done
}
# shellcheck disable=SC2046
set -- $(be32s /sys/firmware/devicetree/base/pcie@10000000/iommu-map)
is "$#" 4 "virt's iommu-map has one entry (rid-base phandle sid-base length)"
rid_base=$1 sid_base=$3 length=$4
is "$(be32s /sys/firmware/devicetree/base/smmuv3@9050000/phandle)" "$2" "the entry points at the SMMUv3 node"
json=$($S groups -J)
like "$json" '"stream_id_source": "dt"' "stream IDs from the device tree"
for d in /sys/bus/pci/devices/*; do
	bdf=${d##*/}
	rid=$(requester_id "$bdf")
	want=$(printf '0x%x' $((rid - rid_base + sid_base)))
	[ "$rid" -lt $((rid_base + length)) ] || want=-
	is "$($S groups -r -n -o DEVICES,STREAM_IDS | awk -v d="$bdf" '$1 == d { print $2 }')" "$want" "$bdf: stream ID $want (requester ID $rid)"
done
is "$($S groups -r -n -o STREAM_IDS | wc -l)" "$ngroups" "a stream ID column for every group"

# interrupts: the evtq and gerror lines of the SMMU
irq=$($S irq -r -n -o KIND,ACTION)
like "$irq" '^evtq arm-smmu-v3-evtq$' "evtq line"
like "$irq" '^gerror arm-smmu-v3-gerror$' "gerror line"

ok "check: one instance, every group DMA" $S check --expect-instances 1 --expect-type DMA --require-feature TRANS_S1
not_ok "check: SVA is not there" $S check --require-feature SVA

# what this kernel and QEMU 7.2 do not have: exit 3 naming it
$S pmu >/tmp/out 2>/tmp/err
is "$?" 3 "pmu: no PMCG (exit 3)"
like "$(cat /tmp/err)" 'CONFIG_ARM_SMMU_V3_PMU' "pmu names the driver option"
# stress: edu on vfio-pci (as stress wants it), then back to no driver for the other tests
edu=$(edu_device)
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" vfio-pci "edu bound to vfio-pci"
$S stress --device "$edu" --duration 1 >/tmp/out 2>/tmp/err
is "$?" 3 "stress: no iommufd (exit 3)"
like "$(cat /tmp/err)" 'CONFIG_IOMMUFD' "stress names CONFIG_IOMMUFD"
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "edu has no driver again" test -e "/sys/bus/pci/devices/$edu/driver"
is "$(cat "/sys/bus/pci/devices/$edu/iommu_group/type")" DMA "edu's group is translated again"
done_testing
