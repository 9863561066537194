#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock-arm64
# The other applets on Debian's arm64 kernel: doctor (and a snapshot that answers as the
# live system, stream IDs and faults included), udmabuf round trips (this kernel has
# CONFIG_UDMABUF=y and no dma-heaps), devmemstat on virtio-net with page-pool statistics
# (CONFIG_PAGE_POOL_STATS=y), and rpmsgctl saying what is missing (no rpmsg_ctrl, no
# rpmsg_char, no remote processor).
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# doctor
ok "doctor runs" "$SOCBOX" doctor
status=$("$SOCBOX" doctor -r -n -o subsystem,status)
# the IOMMU works; faults an earlier script made (arm64-fault.sh) make it degraded
if [ "$("$SOCBOX" smmustat events -r -n | wc -l)" -gt 0 ]; then
	like "$status" '^iommu degraded$' "iommu degraded: the SMMUv3 works, devices faulted"
	like "$("$SOCBOX" doctor -P)" '^CODE="iommu\.faults" DIAGNOSIS="0000:00:03\.0: [0-9]+ DMA faults? in smmu3\.0x0000000009050000 since boot' \
		"doctor names the faulting edu device"
else
	like "$status" '^iommu ok$' "iommu ok (SMMUv3)"
fi
like "$status" '^netdev ok$' "netdev family answers"
like "$status" '^dmabuf degraded$' "dmabuf degraded: udmabuf without dma-heaps"
like "$status" '^rpmsg absent$' "rpmsg absent: QEMU's virt machine describes no remote processor"
summary=$("$SOCBOX" doctor -P -o subsystem,summary)
like "$summary" '^SUBSYSTEM="iommu" SUMMARY="1 instance \(smmu3\.0x0000000009050000\)' "the SMMUv3 named"
like "$summary" '^SUBSYSTEM="dmabuf" SUMMARY="0 heaps, udmabuf present"$' "no heap, udmabuf present"
causes=$("$SOCBOX" doctor -P 2>&1)
like "$causes" '^CODE="dmabuf\.no-heap" DIAGNOSIS="[^"]*" FIX="enable CONFIG_DMABUF_HEAPS' "doctor names the missing dma-heaps as a cause"
notes=$("$SOCBOX" doctor 2>&1)
unlike "$(printf '%s\n' "$notes" | grep -E '^note:|^[a-z]+\.[a-z-]+ ')" 'rpmsg' \
	"no rpmsg advice or cause on a board without remote processors"
unlike "$notes" 'intel_iommu|VT-d|AMD-Vi' "no x86 advice on arm64"

# a fault first, so the snapshot has one to keep
edu=$(edu_device)
records() { "$SOCBOX" smmustat events -J | sed -n 's/^ *"records": \([0-9]*\),$/\1/p'; }
before=$(records)
ok "edu DMA from an unmapped IOVA" socbox-edu-dma "$edu" 0x400000 4
n=0
until [ "$(records)" = $((before + 1)) ] || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
is "$(records)" $((before + 1)) "the fault is in the log"

ok "snapshot" "$SOCBOX" snapshot /tmp/snap
is "$("$SOCBOX" doctor --sysroot /tmp/snap -r -n -o subsystem,status,summary)" \
	"$("$SOCBOX" doctor -r -n -o subsystem,status,summary)" "doctor: the snapshot answers as the live system"
is "$("$SOCBOX" smmustat --sysroot /tmp/snap -r -n)" "$("$SOCBOX" smmustat -r -n)" "smmustat overview: the same"
is "$("$SOCBOX" smmustat groups --sysroot /tmp/snap -r)" "$("$SOCBOX" smmustat groups -r)" "groups with stream IDs: the same (the device tree files were kept)"
is "$("$SOCBOX" smmustat events --sysroot /tmp/snap --list -r -n)" "$("$SOCBOX" smmustat events --list -r -n)" "events: the same"
is "$("$SOCBOX" smmustat irq --sysroot /tmp/snap -r -n -o IRQ,INSTANCE,KIND)" "$("$SOCBOX" smmustat irq -r -n -o IRQ,INSTANCE,KIND)" \
	"irq: the snapshot names the same instances"
ok "the snapshot kept the SMMU node's interrupts" test -s /tmp/snap/sys/class/iommu/smmu3.0x0000000009050000/device/of_node/interrupts
like "$("$SOCBOX" smmustat irq --sysroot /tmp/snap -r -n -o INSTANCE,KIND)" '^smmu3\.0x0000000009050000 evtq$' "irq: the event queue line named by its SMMU"
ok "the snapshot's kernel log is /dev/kmsg byte for byte (escaped tab of the dump)" grep -q '^3,[0-9]*,[0-9]*,-;arm-smmu-v3 9050000.smmuv3: \\x090x' /tmp/snap/dev/kmsg
ok "the snapshot kept the host bridge's iommu-map" test -s /tmp/snap/sys/firmware/devicetree/base/pcie@10000000/iommu-map

# dmabufcp: udmabuf only
ok "dmabufcp heaps" "$SOCBOX" dmabufcp heaps
like "$("$SOCBOX" dmabufcp heaps -r -n -o NAME,KIND)" '^udmabuf udmabuf$' "heaps lists udmabuf"
head -c $((3 * 1048576 + 123)) /dev/urandom >"$DATA/u.bin"
for m in auto read direct sendfile splice; do
	rm -f "$DATA/u.out"
	ok "udmabuf round trip -m $m, verified" "$SOCBOX" dmabufcp --verify -m "$m" "$DATA/u.bin" udmabuf "$DATA/u.out"
	ok "udmabuf round trip -m $m: output equals input" cmp "$DATA/u.bin" "$DATA/u.out"
done
"$SOCBOX" dmabufcp "$DATA/u.bin" heap:system "$DATA/u.out" >/dev/null 2>/tmp/err
is "$?" 3 "heap:system: not supported here (exit 3)"
like "$(cat /tmp/err)" 'CONFIG_DMABUF_HEAPS' "heap:system names CONFIG_DMABUF_HEAPS"

# devmemstat on virtio-net
dev=$(ls /sys/class/net | grep -v '^lo$' | head -n1)
ok "devmemstat show" "$SOCBOX" devmemstat
like "$("$SOCBOX" devmemstat -r -n -o IFNAME,RX_QUEUES,POOLS)" "^$dev 1 [1-9]" "$dev: one RX queue and a page pool"
pools=$("$SOCBOX" devmemstat pools -J)
like "$pools" "\"ifname\": \"$dev\"" "page pools of $dev"
like "$pools" '"alloc_fast": [0-9]+' "page-pool statistics (CONFIG_PAGE_POOL_STATS)"
like "$pools" '"recycle_ring": [0-9]+' "recycle counters"

# rpmsgctl: nothing there, and it says what
ok "rpmsgctl list" "$SOCBOX" rpmsgctl
like "$("$SOCBOX" rpmsgctl 2>&1)" 'no rpmsg channel announced' "rpmsgctl: no channel"
"$SOCBOX" rpmsgctl ept create probe >/dev/null 2>/tmp/err
is "$?" 3 "rpmsgctl ept create: not supported here (exit 3)"
like "$(cat /tmp/err)" 'CONFIG_RPMSG_CTRL' "rpmsgctl names CONFIG_RPMSG_CTRL"
done_testing
