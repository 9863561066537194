#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock
# A real DMA fault: QEMU's edu device reads from an IOVA nobody mapped, VT-d blocks it and
# logs a DMAR fault. smmustat events (--follow and the summary), check --no-faults and irq
# must all see it. Uses /dev/mem (the stock kernel has it) to program edu's DMA engine.
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
dev=/sys/bus/pci/devices/$edu
short=${edu#0000:}
not_ok "edu has no driver (its DMA goes through its default domain)" test -e "$dev/driver"
ok "check --no-faults holds before" $S check --no-faults
# The total of the DMAR line (the only IOMMU line on q35), from the pairs output.
dmar_total() { $S irq -P -o KIND,TOTAL | sed -n 's/^KIND="dmar" TOTAL="\([0-9]*\)"$/\1/p' | head -n1; }
irq_before=$(dmar_total)
like "$irq_before" '^[0-9]+$' "the DMAR fault line has a count"

# Memory space + bus master in the command register (config offset 4).
cmd=$(od -An -tu1 -j4 -N1 "$dev/config" | tr -d ' ')
new=$((cmd | 6))
# shellcheck disable=SC2059 # the byte is the format: an octal escape printf writes
printf "\\$(printf %o "$new")" | dd of="$dev/config" bs=1 seek=4 count=1 conv=notrunc 2>/dev/null
is "$(od -An -tu1 -j4 -N1 "$dev/config" | tr -d ' ')" "$new" "bus mastering enabled"
bar=$(head -n1 "$dev/resource" | cut -d' ' -f1)
like "$bar" '^0x[0-9a-f]+$' "BAR0 address"

# -v says when the log is followed: only then can the fault not be missed
$S events --follow -c 1 -v -J >/tmp/follow.json 2>/tmp/follow.err &
follower=$!
ok "events --follow says it follows the log" wait_line /tmp/follow.err 'following /dev/kmsg'
# edu DMA: source IOVA 0x1234000 (never mapped), destination its internal buffer 0x40000,
# 8 bytes, command 1 = start, RAM to device.
ok "program the edu DMA engine" sh -c "devmem $((bar + 0x80)) 64 0x1234000 && devmem $((bar + 0x88)) 64 0x40000 && devmem $((bar + 0x90)) 64 8 && devmem $((bar + 0x98)) 64 1"
# -c 1: it ends by itself once the record is out (killed only when it never comes)
wait_line /tmp/follow.json 'DMA Read'
printed=$?
[ $printed -eq 0 ] || kill "$follower"
is "$printed" 0 "events --follow printed a fault record"
wait "$follower"
is "$?" 0 "events --follow -c 1 ended by itself with status 0"
# --follow prints JSON Lines: one compact object per record
is "$(wc -l </tmp/follow.json | tr -d ' ')" 1 "events --follow -c 1 -J printed one line"
ok "events --follow printed the fault" grep -q '^{"events":\[{.*"kind":"DMA Read"' /tmp/follow.json
# Older kernels print the short bus address, newer ones the full one.
like "$(cat /tmp/follow.json)" "\"device\":\"($edu|$short)\"" "the fault names the edu device"
like "$(cat /tmp/follow.json)" '"addr":"0x1234000"' "the fault address is the unmapped IOVA"
out=$($S events -J)
like "$out" '"kind": "DMA Read"' "events summary has the fault"
like "$out" '"last_addr": "0x1234000"' "events summary keeps the address"
err=$($S check --no-faults 2>&1 >/dev/null)
like "$err" '^smmustat check: no-faults: [1-9][0-9]* records?, first: DMAR DMA Read' "check --no-faults fails and names the fault"
irq_after=$(dmar_total)
ok "the DMAR fault interrupt fired ($irq_before -> $irq_after)" test "$irq_after" -gt "$irq_before"
# shellcheck disable=SC2059 # the byte is the format: an octal escape printf writes
printf "\\$(printf %o "$cmd")" | dd of="$dev/config" bs=1 seek=4 count=1 conv=notrunc 2>/dev/null
is "$(od -An -tu1 -j4 -N1 "$dev/config" | tr -d ' ')" "$cmd" "command register restored"

# The stock kernel's VT-d from the other views.
out=$($S -J)
like "$out" '"kind": "intel-vt-d"' "overview on the stock kernel"
like "$($S groups --device "$edu" -J)" '"iommu": "dmar0"' "groups --device on the stock kernel"
done_testing
