#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One name per IOMMU object (issue 22, item 3): smmustat events, smmustat irq and socbox
# events name an instance as the overview does (NAME) and a device as the groups do (PCI
# with its domain, a bare stream ID through the firmware), on every board dump that has one.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES

# the names of the overview and of the groups, to compare the other views with
names() { "$SOCBOX" smmustat --sysroot "$F/$1" -J | jq -r '.instances[].name' | sort -u | tr '\n' ' '; }
gdevs() { "$SOCBOX" smmustat groups --sysroot "$F/$1" -J | jq -r '.groups[].devices[]' | sort -u; }

for b in arm64-server-smmuv3 x86-vtd-server arm64-soc qemu-virt-arm64; do
	all=$(names "$b")
	gdevs "$b" >"$T_TMP/gdevs"
	t_run "$b: smmustat events -l -J" 0 "$SOCBOX" smmustat events -l --sysroot "$F/$b" -J
	jq -r '.events[] | select(.instance != null) | .instance' "$T_TMP/out" | sort -u >"$T_TMP/inst"
	# only the VT-d interrupt-remapping fault of a source id in no group has none
	t_eq "$b: every fault of a grouped device names its instance" \
		"$(jq -r '[.events[] | select(.instance == null) | .device] | join(" ")' "$T_TMP/out")" \
		"$([ "$b" = x86-vtd-server ] && echo 0000:f0:1f.0)"
	while read -r i; do
		case " $all" in *" $i "*) t_ok "$b: event instance $i is an overview NAME" ;;
		*) t_fail "$b: event instance '$i' is not among the overview names: $all" ;; esac
	done <"$T_TMP/inst"
	# shellcheck disable=SC2016 # jq's own $n
	t_jq "$b: smmustat events keeps the log's SOURCE" '(.events | length) as $n | [.events[] | .source | strings] | length == $n' "$T_TMP/out"
	jq -r '.events[] | select(.named_by == "log") | .device' "$T_TMP/out" | sort -u >"$T_TMP/edevs"
	while read -r d; do
		if grep -qxF "$d" "$T_TMP/gdevs" || expr "$d" : '[0-9a-f]\{4\}:' >/dev/null; then
			t_ok "$b: event device $d is named as the groups name it"
		else
			t_fail "$b: event device '$d' is not a group device nor a full PCI address"
		fi
	done <"$T_TMP/edevs"
	# socbox events: the same device and the same instance for every fault
	t_run "$b: socbox events -J" 0 "$SOCBOX" events -s iommu --sysroot "$F/$b" -J
	jq -r '"\(.object) \(.instance // "-")"' "$T_TMP/out" | sort -u >"$T_TMP/ev1"
	"$SOCBOX" smmustat events -l --sysroot "$F/$b" -J | jq -r '.events[] | "\(.device) \(.instance // "-")"' | sort -u >"$T_TMP/ev2"
	t_eq "$b: socbox events and smmustat events name device and instance alike" "$(cat "$T_TMP/ev1")" "$(cat "$T_TMP/ev2")"
done

t_run "arm64-server: the SMMUv3 fault at arm-smmu-v3.1.auto" 0 "$SOCBOX" smmustat events --sysroot "$F/arm64-server-smmuv3"
t_grep "instance by its name (the log's device under -o +SOURCE and in JSON)" '^0002:01:00\.1 +smmu3\.0x0000200000000000 +dma-fault +F_TRANSLATION' "$T_TMP/out"
t_grep "a bare stream ID named through the IORT" '^ARMH0330:00 +smmu3\.0x0000100000000000 +dma-fault +F_TRANSLATION' "$T_TMP/out"
t_run "arm64-soc: socbox events" 0 "$SOCBOX" events --sysroot "$F/arm64-soc"
t_grep "the stream ID named as smmustat events names it" '^\[   37\.100400\] iommu +fault +4a200000\.dma  F_TRANSLATION addr 0x87650000: .* \(smmu3\.0x0000000049000000, 49000000\.iommu\)$' "$T_TMP/out"
t_run "x86: VT-d faults" 0 "$SOCBOX" events --sysroot "$F/x86-vtd-server"
t_grep "PCI address with its domain, instance from its group" '^\[  811\.402120\] iommu +fault +0000:17:00\.0  DMA Read addr 0xfffff000: 0x06 PTE Read access is not set \(dmar0\)$' "$T_TMP/out"
t_grep "a source id in no group gets domain 0000" ' 0000:f0:1f\.0  INTR-REMAP' "$T_TMP/out"
t_nogrep "no address without its domain" ' [0-9a-f]{2}:[0-9a-f]{2}\.[0-7] ' "$T_TMP/out"

# smmustat irq: INSTANCE, the overview's name
t_run "x86: smmustat irq -J" 0 "$SOCBOX" smmustat irq --sysroot "$F/x86-vtd-server" -J
t_eq "each DMAR line names its unit" "$(jq -r '.irqs[] | "\(.irq)=\(.instance)"' "$T_TMP/out" | tr '\n' ' ')" "25=dmar0 26=dmar1 "
t_run "arm64-soc: smmustat irq" 0 "$SOCBOX" smmustat irq --sysroot "$F/arm64-soc"
t_grep "the one SMMUv3 owns its lines" '^ 70 smmu3\.0x0000000049000000 evtq ' "$T_TMP/out"
t_run "arm64-server: smmustat irq -J" 0 "$SOCBOX" smmustat irq --sysroot "$F/arm64-server-smmuv3" -J
t_jq "two SMMUv3 on platform MSIs: INSTANCE unknown (null), never a guess" '[.irqs[] | .instance] | all(. == null)' "$T_TMP/out"
# Two SMMUv3s with wired interrupts: each line is the one whose device tree node lists its
# GIC interrupt (arm64-soc with a second SMMU at 0x4a000000; SPI n is GIC hwirq n + 32).
B=$T_TMP/two
cp -a "$F/arm64-soc" "$B"
dt=$B/sys/firmware/devicetree/base/soc
mkdir -p "$dt/iommu@4a000000" "$B/sys/devices/platform/soc/4a000000.iommu/iommu/smmu3.0x000000004a000000/devices"
cp "$dt/iommu@49000000/#iommu-cells" "$dt/iommu@49000000/compatible" "$dt/iommu@4a000000/"
python3 - "$dt" <<'PY'
import struct, sys
dt = sys.argv[1]
def prop(node, name, *cells):
    open("%s/%s/%s" % (dt, node, name), "wb").write(struct.pack(">%dI" % len(cells), *cells))
prop("iommu@49000000", "interrupts", 0, 100, 4, 0, 102, 4)
prop("iommu@4a000000", "interrupts", 0, 110, 4, 0, 112, 4)
prop("iommu@4a000000", "phandle", 0x2b)
prop("iommu@4a000000", "reg", 0, 0x4a000000, 0, 0x100000)
open(dt + "/iommu@4a000000/name", "wb").write(b"iommu\0")
PY
ln -s ../../../../bus/platform/drivers/arm-smmu-v3 "$B/sys/devices/platform/soc/4a000000.iommu/driver"
ln -s ../../../../firmware/devicetree/base/soc/iommu@4a000000 "$B/sys/devices/platform/soc/4a000000.iommu/of_node"
ln -s ../../../4a000000.iommu "$B/sys/devices/platform/soc/4a000000.iommu/iommu/smmu3.0x000000004a000000/device"
ln -s ../../devices/platform/soc/4a000000.iommu/iommu/smmu3.0x000000004a000000 "$B/sys/class/iommu/smmu3.0x000000004a000000"
printf '%s\n' '  73:         0          7          0          0          0  GICv3    142 Level  arm-smmu-v3-evtq' \
	'  74:         0          0          0          0          0  GICv3    144 Level  arm-smmu-v3-gerror' >>"$B/proc/interrupts"
t_run "two DT SMMUs: overview" 0 "$SOCBOX" smmustat --sysroot "$B" -J
t_eq "both instances registered" "$(jq -r '[.instances[].name] | join(" ")' "$T_TMP/out")" "smmu3.0x0000000049000000 smmu3.0x000000004a000000"
t_run "two DT SMMUs: irq -J" 0 "$SOCBOX" smmustat irq --sysroot "$B" -J
t_eq "each line named by the node that lists its interrupt" "$(jq -r '.irqs[] | "\(.irq)=\(.instance)"' "$T_TMP/out" | tr '\n' ' ')" \
	"70=smmu3.0x0000000049000000 71=smmu3.0x0000000049000000 73=smmu3.0x000000004a000000 74=smmu3.0x000000004a000000 "
t_jq "the old keys stay" '.irqs[0] | has("irq") and has("kind") and has("action") and has("total")' "$T_TMP/out"

# doctor names the faulting instance as the other views do; the log's name is evidence
t_run "doctor on the arm64 guest capture" 0 "$SOCBOX" doctor --sysroot "$SOCBOX_FIXTURES/qemu-virt-arm64" -J
t_jq "iommu.faults: the instance by its one name" \
	'.causes[] | select(.code == "iommu.faults") | .diagnosis == "0000:00:03.0: 1 DMA fault in smmu3.0x0000000009050000 since boot (F_TRANSLATION)"' "$T_TMP/out"
t_jq "... the kernel log's device name and the reason in the evidence" \
	'.causes[] | select(.code == "iommu.faults") | .evidence | startswith("kernel log of 9050000.smmuv3: F_TRANSLATION fault at 0x")' "$T_TMP/out"
t_done
