#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# smmustat on a snapshot captured in the arm64 guest (tests/fixtures/qemu-virt-arm64: QEMU
# virt with an SMMUv3, Debian's 7.2 arm64 kernel, one real edu fault): what the kernel wrote,
# read back offline.
. "$SOCBOX_TESTLIB"
V=$SOCBOX_FIXTURES/qemu-virt-arm64

t_run "overview" 0 "$SOCBOX" smmustat --sysroot "$V" -J -o NAME,BASE,OAS_BITS,FEATURES_RAW,UNKNOWN_BITS,FEATURE_TABLE,FEATURES
t_jq "the probe line decoded" '.instances == [{"name": "smmu3.0x0000000009050000", "base": "0x9050000", "oas_bits": 44, "features_raw": "0x01008305", "unknown_bits": null, "feature_table": "mainline-6.16", "features": ["2_LVL_STRTAB","TT_LE","COHERENCY","TRANS_S1","RANGE_INV","BBML2"]}]' "$T_TMP/out"
t_run "groups" 0 "$SOCBOX" smmustat groups --sysroot "$V" -J
t_jq "stream IDs from the device tree's iommu-map (= requester IDs)" '.stream_id_source == "dt" and [.groups[] | [.devices[0], .stream_ids[0]]] == [["0000:00:00.0","0x0"],["0000:00:01.0","0x8"],["0000:00:02.0","0x10"],["0000:00:03.0","0x18"]]' "$T_TMP/out"
t_run "events --list" 0 "$SOCBOX" smmustat events --sysroot "$V" --list -J -o +NAMED_BY
t_jq "the one real fault, once, with device, stream id, IOVA and qualifier" '.records == 1 and .events == [{"time_s": 23.9582, "instance": "smmu3.0x0000000009050000", "source": "9050000.smmuv3", "device": "0000:00:03.0", "sid": "0x18", "class": "dma-fault", "kind": "F_TRANSLATION", "addr": "0x100000", "reason": "unpriv data read s1 \"CD fetch\" stag: 0x0", "named_by": "log"}]' "$T_TMP/out"
t_grep "the log is /dev/kmsg's: the dump's tab escaped" '^3,[0-9]+,[0-9]+,-;arm-smmu-v3 9050000\.smmuv3: \\x090x0000001800000010$' "$V/dev/kmsg"
t_run "check --no-faults" 1 "$SOCBOX" smmustat check --sysroot "$V" --no-faults
t_grep "check names the fault" '^smmustat check: no-faults: 1 records, first: 9050000\.smmuv3 F_TRANSLATION on 0000:00:03\.0$' "$T_TMP/err"
t_run "irq" 0 "$SOCBOX" smmustat irq --sysroot "$V" -r -n -o IRQ,KIND,TOTAL
t_grep "the evtq line counted the fault" '^15 evtq 1$' "$T_TMP/out"
t_done
