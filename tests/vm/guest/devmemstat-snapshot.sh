#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox snapshot keeps the netdev netlink state of a kernel with page pools and their stats
# (virtio-net, CONFIG_PAGE_POOL_STATS=y): devmemstat pools, show, queues and napi on the
# snapshot answer exactly as the live kernel did.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# Traffic first, so the pools have allocated and recycled pages.
ping -c 20 -i 0.05 -W 1 10.0.2.2 >/dev/null 2>&1

# Counters move when a packet arrives between the live run and the snapshot. Take live,
# snapshot, live again until both live runs agree (nothing moved): then the snapshot must
# give that same JSON, byte for byte.
try=0
while :; do
	try=$((try + 1))
	rm -rf /tmp/ndsnap
	before=$("$SOCBOX" devmemstat pools -J)
	"$SOCBOX" snapshot /tmp/ndsnap 2>/dev/null || bail_out "snapshot failed"
	after=$("$SOCBOX" devmemstat pools -J)
	[ "$before" = "$after" ] && break
	[ "$try" -lt 8 ] || bail_out "page-pool counters never held still for one snapshot"
	sleep 0.2
done
diag "attempts until the counters held still: $try"
ok "the snapshot has the netdev capture" test -s /tmp/ndsnap/sys/kernel/socbox/netdev.nlmsg
ok "and which parts the kernel answered" grep -q '^have=0x7f$' /tmp/ndsnap/sys/kernel/socbox/netdev.parts
offline=$("$SOCBOX" devmemstat pools -J --sysroot /tmp/ndsnap)
is "$offline" "$before" "pools -J on the snapshot equals the live run"
like "$offline" '"ifname": "eth0"' "eth0 named from the snapshot's /sys/class/net"
like "$offline" '"recycle_rate": (0|1|0\.[0-9]+)' "page-pool stats came along (recycle rate)"
like "$offline" '"alloc_fast": [0-9]+' "allocation counters came along"

for v in show queues napi; do
	live=$("$SOCBOX" devmemstat "$v" -J 2>&1 | grep -v '_bytes\|_packets\|inflight\|recycle\|alloc')
	snap=$("$SOCBOX" devmemstat "$v" -J --sysroot /tmp/ndsnap 2>&1 | grep -v '_bytes\|_packets\|inflight\|recycle\|alloc')
	is "$snap" "$live" "$v -J on the snapshot equals the live run (traffic counters aside)"
done

live=$("$SOCBOX" doctor -v -P | grep '^SUBSYSTEM="netdev"')
is "$("$SOCBOX" doctor -v -P --sysroot /tmp/ndsnap | grep '^SUBSYSTEM="netdev"')" "$live" "doctor's netdev facts from the snapshot"
done_testing
