#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock-arm64
# Real SMMUv3 faults: QEMU's edu device (no driver, so in its translated default domain)
# reads 4 bytes from IOVAs nobody mapped (socbox-edu-dma programs its DMA engine through
# BAR0). Each read is one F_TRANSLATION event, which the kernel logs as a raw dump, a
# decoded line and a qualifier: smmustat must show exactly one record per event, with the
# device, the stream ID and the IOVA, live (--follow, started before the fault) and from
# the log (events, check --no-faults).
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
not_ok "edu has no driver (its DMA goes through its default domain)" test -e "/sys/bus/pci/devices/$edu/driver"
is "$(cat "/sys/bus/pci/devices/$edu/iommu_group/type")" DMA "edu's group is translated (DMA)"
sid=$($S groups -r -n -o DEVICES,STREAM_IDS | awk -v d="$edu" '$1 == d { print $2 }')
like "$sid" '^0x[0-9a-f]+$' "edu's stream ID from the device tree ($sid)"
ok "check --no-faults holds before" $S check --no-faults
# The kernel's own count of SMMUv3 events: one raw dump header per event.
kernel_events() { dmesg | grep -c 'arm-smmu-v3 9050000.smmuv3: event 0x'; }
is "$(kernel_events)" 0 "no event logged yet"
evtq() { $S irq -r -n -o KIND,TOTAL | sed -n 's/^evtq //p'; }
evtq_before=$(evtq)

# Wait for a line in a file that a background command writes (never sleep and hope):
# up to 30 s for the command to say it is ready or to finish.
# shellcheck disable=SC2317 # called through ok
wait_for() { # FILE ERE PID
	n=0
	while ! grep -Eq "$2" "$1" 2>/dev/null; do
		kill -0 "$3" 2>/dev/null || return 1
		[ "$n" -lt 300 ] || return 1
		n=$((n + 1))
		sleep 0.1
	done
}
# shellcheck disable=SC2317 # called through ok
wait_exit() { # PID: up to 30 s
	n=0
	while kill -0 "$1" 2>/dev/null && [ "$n" -lt 300 ]; do
		n=$((n + 1))
		sleep 0.1
	done
	! kill -0 "$1" 2>/dev/null
}

# --follow, table: started first, then two faults; one header, one row each.
$S events --follow -c 2 -v >/tmp/follow.txt 2>/tmp/follow.err &
follower=$!
ok "events --follow says it is reading" wait_for /tmp/follow.err 'following /dev/kmsg' $follower
ok "edu DMA from unmapped IOVA 0x100000" socbox-edu-dma "$edu" 0x100000 4
ok "edu DMA from unmapped IOVA 0x200000" socbox-edu-dma "$edu" 0x200000 4
ok "events --follow -c 2 stops after two records" wait_exit $follower
wait $follower
is "$?" 0 "events --follow exit status"
diag "$(cat /tmp/follow.txt)"
is "$(grep -c '^ *TIME_S ' /tmp/follow.txt)" 1 "the header is printed once"
is "$(grep -c "smmu3.0x0000000009050000 $edu $sid F_TRANSLATION" /tmp/follow.txt)" 2 "two rows: instance, device, stream ID, kind"
like "$(cat /tmp/follow.txt)" " 0x100000 " "first row: IOVA 0x100000"
like "$(cat /tmp/follow.txt)" " 0x200000 " "second row: IOVA 0x200000"
is "$(kernel_events)" 2 "the kernel logged two events"

# --follow, JSON: one object per record, with the qualifier as reason.
$S events --follow -c 1 -J -o +NAMED_BY -v >/tmp/follow.json 2>/tmp/follow.err &
follower=$!
ok "events --follow -J says it is reading" wait_for /tmp/follow.err 'following /dev/kmsg' $follower
ok "edu DMA from unmapped IOVA 0x300000" socbox-edu-dma "$edu" 0x300000 4
ok "events --follow -c 1 -J stops" wait_exit $follower
wait $follower
j=$(cat /tmp/follow.json)
is "$(grep -c . /tmp/follow.json)" 1 "JSON Lines: one object"
like "$j" "\"device\": ?\"$edu\"" "JSON: the device"
like "$j" "\"sid\": ?\"$sid\"" "JSON: the stream ID"
like "$j" '"addr": ?"0x300000"' "JSON: the IOVA"
like "$j" '"reason": ?"unpriv data read s1 \\"CD fetch\\" stag: 0x0"' "JSON: the qualifier line as reason"
like "$j" '"named_by": ?"log"' "JSON: the kernel named the client"

# From the log: exactly one record per event the kernel logged.
faults=$(kernel_events)
is "$faults" 3 "three events in the kernel log"
out=$($S events -J)
like "$out" "\"records\": $faults," "events: one record per event ($faults)"
like "$out" '"suppressed": 0' "nothing rate-limited"
like "$out" "\"device\": \"$edu\"" "events: grouped under the edu device"
like "$out" "\"count\": $faults," "events: one group of $faults"
like "$out" '"last_addr": "0x300000"' "events: the last IOVA"
list=$($S events --list -r -n -o DEVICE,SID,KIND,ADDR)
is "$list" "$edu $sid F_TRANSLATION 0x100000
$edu $sid F_TRANSLATION 0x200000
$edu $sid F_TRANSLATION 0x300000" "events --list: each fault once, in order"
$S check --no-faults >/dev/null 2>/tmp/err
is "$?" 1 "check --no-faults fails"
like "$(cat /tmp/err)" "^smmustat check: no-faults: $faults records, first: 9050000.smmuv3 F_TRANSLATION on $edu\$" "check names the count and the device"
evtq_after=$(evtq)
ok "the evtq interrupt fired ($evtq_before -> $evtq_after)" test "$evtq_after" -gt "$evtq_before"
done_testing
