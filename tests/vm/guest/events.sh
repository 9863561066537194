#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox events on a real kernel: one timeline of a DMA fault from QEMU's edu device (VT-d
# or the SMMUv3 blocks a read of an IOVA nobody mapped), an rpmsg endpoint device coming and
# going (the loopback rpmsg module) and a netdevsim page pool detached while a page is held
# (it does not drain until the page is given back). --follow sees them as they happen, in
# order; the one-shot run afterwards orders the fault and the detached pool by their times.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

EV="$SOCBOX events"
T=/tmp

edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
dev=/sys/bus/pci/devices/$edu
not_ok "edu has no driver (its DMA goes through its default domain)" test -e "$dev/driver"

# wait_for FILE ERE [TENTHS]: poll until a line of FILE matches (bounded), never sleep and hope
# shellcheck disable=SC2317 # called through ok
wait_for() {
	_n=0
	while ! grep -Eq -- "$2" "$1" 2>/dev/null; do
		[ "$_n" -ge "${3:-100}" ] && return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}

# --follow prints the log so far first (as dmesg -w); this test wants only what it causes,
# so --since now (other scripts of this boot left rpmsg and remoteproc events behind)
start_s=$(cut -d' ' -f1 /proc/uptime)
$EV --follow -J -v -t 120 -c 5 -s iommu,rpmsg,netdev --since "$start_s" >$T/follow.jsonl 2>$T/follow.err &
follower=$!
ok "events --follow is listening to the log, uevents and page-pool notifications" \
	wait_for $T/follow.err 'following the kernel log, rpmsg uevents, page-pool notifications'

# 1. the DMA fault: bus mastering on, then edu reads IOVA 0x1234000, which nobody mapped
cmd=$(od -An -tu1 -j4 -N1 "$dev/config" | tr -d ' ')
# shellcheck disable=SC2059 # the byte is the format: an octal escape printf writes
printf "\\$(printf %o $((cmd | 6)))" | dd of="$dev/config" bs=1 seek=4 count=1 conv=notrunc 2>/dev/null
# 4 bytes: one fault on VT-d and on the SMMUv3 alike (QEMU's SMMUv3 reads in 4-byte pieces)
ok "edu reads IOVA 0x1234000" socbox-edu-dma "$edu" 0x1234000 4
ok "the fault is in the timeline" wait_for $T/follow.jsonl '"subsystem":"iommu","kind":"fault"'
# shellcheck disable=SC2059 # the byte is the format: an octal escape printf writes
printf "\\$(printf %o "$cmd")" | dd of="$dev/config" bs=1 seek=4 count=1 conv=notrunc 2>/dev/null
fault_s=$(sed -n 's/.*"time_s":\([0-9.]*\),"subsystem":"iommu".*/\1/p' $T/follow.jsonl | head -n1)
like "$fault_s" '^[0-9]+\.[0-9]+$' "the fault has its kernel log time"

# 2. an rpmsg endpoint device appears and goes
ok "rpmsgctl ept create" sh -c "$SOCBOX rpmsgctl ept create evt -r -n -o DEVICE >$T/ept"
ept=$(cat $T/ept)
ok "endpoint-add in the timeline" wait_for $T/follow.jsonl "\"kind\":\"endpoint-add\",\"object\":\"$ept\""
ok "rpmsgctl ept destroy" "$SOCBOX" rpmsgctl ept destroy "$ept"
ok "endpoint-remove in the timeline" wait_for $T/follow.jsonl "\"kind\":\"endpoint-remove\",\"object\":\"$ept\""

# 3. the page pool: at least one boot second after the fault (detach times are whole seconds)
while [ "$(cut -d' ' -f1 /proc/uptime | cut -d. -f1)" -le "${fault_s%.*}" ]; do sleep 0.1; done
ok "netdevsim device" sh -c 'echo "7 1" >/sys/bus/netdevsim/new_device'
n=0
while [ ! -d /sys/bus/netdevsim/devices/netdevsim7/net ] && [ $n -lt 50 ]; do sleep 0.1; n=$((n + 1)); done
nd=$(ls /sys/bus/netdevsim/devices/netdevsim7/net 2>/dev/null)
like "$nd" '^[a-z0-9]+$' "netdevsim7 has a netdev"
ok "up" ip link set "$nd" up
hold=/sys/kernel/debug/netdevsim/netdevsim7/ports/0/pp_hold
ok "hold a page of its page pool" sh -c "echo y >$hold"
ok "down: the pool is detached with the page in flight" ip link set "$nd" down
ok "pool-not-drained in the timeline" wait_for $T/follow.jsonl '"kind":"pool-not-drained"'

# the one-shot timeline (kernel log + netdev state) while the pool still holds its page
ok "events -J" sh -c "$EV -J -s iommu,netdev >$T/once.jsonl"
cat $T/once.jsonl | sed 's/^/# /'
first=$(grep -n '"kind":"fault","object":"\(0000:\)\?00:' $T/once.jsonl | tail -n1 | cut -d: -f1)
pool=$(grep -n '"kind":"pool-not-drained"' $T/once.jsonl | tail -n1 | cut -d: -f1)
like "$first" '^[0-9]+$' "one-shot: the edu fault is there"
like "$pool" '^[0-9]+$' "one-shot: the detached pool is there (netdev state)"
ok "one-shot: fault before pool, by time" test "${first:-9}" -lt "${pool:-0}"
ok "text output" sh -c "$EV -s netdev >$T/once.txt"
like "$(cat $T/once.txt)" "^\\[ *[0-9]+\\.000000\\] netdev +pool-not-drained +pool [0-9]+  detached from $nd with 1 pages \\(4096 bytes\\) still in flight\$" "one line per event"

ok "give the page back" sh -c "echo n >$hold"
ok "pool-gone in the timeline" wait_for $T/follow.jsonl '"kind":"pool-gone"' 50
wait "$follower"
is "$?" 0 "events --follow stopped by itself after -c 5"
cat $T/follow.jsonl | sed 's/^/# /'
is "$(wc -l <$T/follow.jsonl | tr -d ' ')" 5 "five events followed"
is "$(sed -n 's/.*"kind":"\([a-z-]*\)".*/\1/p' $T/follow.jsonl | tr '\n' ' ')" \
	"fault endpoint-add endpoint-remove pool-not-drained pool-gone " "in the order they happened"
like "$(head -n1 $T/follow.jsonl)" "\"object\":\"($edu|${edu#0000:})\"" "the fault names the edu device"
like "$(head -n1 $T/follow.jsonl)" 'addr 0x1234000' "and the unmapped IOVA"
ok "delete the netdevsim device" sh -c 'echo 7 >/sys/bus/netdevsim/del_device'
done_testing
