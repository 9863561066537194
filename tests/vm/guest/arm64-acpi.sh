#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock-arm64
# The arm64 guest booted through UEFI with ACPI (vm/arm64-acpi: tests/vm/run --firmware
# uefi): the SMMUv3 and every PCI device's stream ID come from QEMU's IORT, not from a
# device tree. smmustat's stream IDs are checked against the IORT's own ID mappings (read
# here with od, independently of socbox), and a real fault of the edu device is named by
# the stream ID the IORT gives it.
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
IORT=/sys/firmware/acpi/tables/IORT
ok "booted with ACPI: the firmware's IORT is there" test -r $IORT
is "$(ls /sys/class/iommu)" smmu3.0x0000000009050000 "one SMMUv3 instance, at virt's 0x9050000"
like "$($S -r -n -o NAME,KIND,HWDEV)" '^smmu3\.0x0000000009050000 arm-smmu-v3 arm-smmu-v3\.[0-9]+\.auto$' \
	"the SMMUv3 is the IORT's platform device (arm-smmu-v3.N.auto)"

# The IORT's PCI root complex nodes (type 2) and their ID mappings: "INPUT_BASE COUNT
# OUTPUT_BASE" per mapping (ACPI's IORT: nodes from the offset at byte 40; a node's type at
# 0, length at 1, mapping count at 8, mapping array offset at 12; a mapping is 20 bytes).
mappings=$(od -An -v -tu1 $IORT | tr -s ' \n' '  ' | awk '
	function u32(o) { return b[o] + b[o + 1] * 256 + b[o + 2] * 65536 + b[o + 3] * 16777216 }
	function u16(o) { return b[o] + b[o + 1] * 256 }
	{ for (i = 1; i <= NF; i++) b[n++] = $i }
	END {
		count = u32(36); off = u32(40)
		for (k = 0; k < count; k++) {
			if (b[off] == 2) {
				m = u32(off + 8); a = off + u32(off + 12)
				for (j = 0; j < m; j++)
					print u32(a + 20 * j), u32(a + 20 * j + 4), u32(a + 20 * j + 8)
			}
			off += u16(off + 1)
		}
	}')
like "$mappings" '^[0-9]+ [0-9]+ [0-9]+' "the IORT maps the root complex's requester IDs ($(echo "$mappings" | wc -l) mappings)"
like "$($S groups -J)" '"stream_id_source": "iort"' "stream IDs from the IORT"
ngroups=$(ls /sys/kernel/iommu_groups | wc -l)
for d in /sys/bus/pci/devices/*; do
	bdf=${d##*/}
	rid=$(requester_id "$bdf")
	want=$(echo "$mappings" | awk -v r="$rid" '
		r >= $1 && r <= $1 + $2 { printf "0x%x\n", r - $1 + $3; found = 1; exit }
		END { if (!found) print "-" }')
	is "$($S groups -r -n -o DEVICES,STREAM_IDS | awk -v d="$bdf" '$1 == d { print $2 }')" "$want" "$bdf: stream ID $want (requester ID $rid, by the IORT)"
done
is "$($S groups -r -n -o STREAM_IDS | wc -l)" "$ngroups" "a stream ID column for every group"

# A real fault: edu (no driver, translated default domain) reads an IOVA nobody mapped.
edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
sid=$($S groups -r -n -o DEVICES,STREAM_IDS | awk -v d="$edu" '$1 == d { print $2 }')
like "$sid" '^0x[0-9a-f]+$' "edu's stream ID from the IORT ($sid)"
ok "edu DMA from unmapped IOVA 0x100000" socbox-edu-dma "$edu" 0x100000 4
ok "the kernel logged the event" wait_for sh -c "dmesg | grep -q 'arm-smmu-v3 arm-smmu-v3.*: event 0x'"
events=$($S events -r -n -o INSTANCE,DEVICE,SID,KIND,LAST_ADDR)
diag "$events"
like "$events" "^smmu3\\.0x0000000009050000 $edu $sid F_TRANSLATION 0x100000\$" \
	"the fault names edu by its IORT stream ID, with the IOVA"
like "$($SOCBOX doctor -P)" "CODE=\"iommu\\.faults\" DIAGNOSIS=\"$edu: [0-9]+ DMA faults? in smmu3\\.0x0000000009050000" \
	"doctor names the faulting edu device"
done_testing
