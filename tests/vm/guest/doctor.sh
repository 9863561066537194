#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# socbox doctor and snapshot on a real kernel with dma-heaps, udmabuf, VT-d and netdev:
# what both kernels have is ok, and a snapshot read back answers as the live run did.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

ok "doctor runs" "$SOCBOX" doctor
status=$("$SOCBOX" doctor -r -n -o subsystem,status)
like "$status" '^dmabuf ok$' "dmabuf ok (system heap and udmabuf)"
like "$status" '^iommu ok$' "iommu ok (VT-d)"
like "$status" '^netdev ok$' "netdev family answers"
summary=$("$SOCBOX" doctor -P -o subsystem,summary)
like "$summary" '^SUBSYSTEM="iommu" SUMMARY="[0-9]+ instances? \(dmar0' "dmar0 named"
like "$summary" '^SUBSYSTEM="dmabuf" SUMMARY="1 heap \(system\), udmabuf present"$' "the system heap and udmabuf named"
facts=$("$SOCBOX" doctor -v -P)
like "$facts" '^SUBSYSTEM="dmabuf" KEY="access_system" VALUE="0[0-7]+ uid 0 gid 0" LIVE="yes" TABLE="facts"$' "heap node access reported on the live system"
ok "doctor --require dmabuf,iommu,netdev" "$SOCBOX" doctor -q --require dmabuf,iommu,netdev
json=$("$SOCBOX" doctor --json)
like "$json" '"subsystem": "iommu",' "JSON names subsystems"
like "$json" '"udmabuf_size_limit_mb": [0-9]+' "udmabuf limit read from the module parameter"

ok "snapshot" "$SOCBOX" snapshot /tmp/snap
live=$("$SOCBOX" doctor -r -n -o subsystem,status,summary)
offline=$("$SOCBOX" doctor --sysroot /tmp/snap -r -n -o subsystem,status,summary)
is "$offline" "$live" "the snapshot answers as the live run (netdev from its capture)"
like "$("$SOCBOX" doctor --sysroot /tmp/snap -P -o subsystem,status,summary)" \
	'^SUBSYSTEM="netdev" STATUS="ok" SUMMARY="netdev family v[0-9]+: [0-9]+ devices' "netdev answered from the snapshot"
live_facts=$("$SOCBOX" doctor -v -P | grep '^SUBSYSTEM="netdev"')
is "$("$SOCBOX" doctor --sysroot /tmp/snap -v -P | grep '^SUBSYSTEM="netdev"')" "$live_facts" "the same netdev facts, still marked live"
ok "tar snapshot" "$SOCBOX" snapshot /tmp/snap.tar
mkdir -p /tmp/untar && tar -C /tmp/untar -xf /tmp/snap.tar
is "$("$SOCBOX" doctor --sysroot /tmp/untar -r -n -o subsystem,status,summary)" "$live" "the tar snapshot too"
done_testing
