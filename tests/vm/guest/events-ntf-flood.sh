#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox events --follow while page-pool notifications overrun its netlink socket: held
# (SIGSTOP) while a netdevsim port with 64 queues goes up and down ROUNDS times (64 pools
# made and destroyed each time), far more notifications than the socket holds, so the
# kernel drops them (ENOBUFS). Let go, it says so in the timeline ("lost", "netdev
# notifications", with the kernel's count of what the socket dropped), keeps running in
# bounded memory, and a pool detached with a page in flight afterwards comes through
# (pool-not-drained, then pool-gone).
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
T=/tmp/evflood
ROUNDS=${SOCBOX_EVFLOOD_ROUNDS:-40}
mkdir -p $T

echo "30 1 64" >/sys/bus/netdevsim/new_device
ok "netdevsim30 with 64 queues" wait_for test -d /sys/bus/netdevsim/devices/netdevsim30/net
nd=$(ls /sys/bus/netdevsim/devices/netdevsim30/net)
start_s=$(cut -d' ' -f1 /proc/uptime)
socbox-sigdfl "$SOCBOX" events --follow -J -v -t 120 -s netdev --since "$start_s" >$T/ev 2>$T/ev.err &
ev=$!
ok "events follows page-pool notifications" wait_line $T/ev.err 'page-pool notifications'
kill -STOP $ev
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	ip link set "$nd" up
	ip link set "$nd" down
done
diag "$((ROUNDS * 128)) page-pool notifications or more while it was held"
kill -CONT $ev
ok "the overflow is in the timeline" wait_line $T/ev '"kind":"lost","object":"netdev notifications"'
# after ENOBUFS the kernel drops until the queue is empty (netlink's congested state): wait
# for events' socket (port id: its pid) to hold nothing, as /proc/net/netlink shows
ok "events reads its queue empty" wait_for genl_drained $ev
drops=$(genl_sock $ev 9)
diag "the kernel dropped $drops notifications for events"
# shellcheck disable=SC2317 # called through wait_for
lost_add_up() { # the lost records' counts add up to the socket's drop count
	[ "$(sed -n 's/.*"kind":"lost","object":"netdev notifications","detail":"\([0-9]*\) page-pool notifications dropped.*/\1/p' "$T"/ev |
		awk '{ n += $1 } END { print n + 0 }')" = "$drops" ]
}
ok "the lost records say how many: $drops, the kernel's count (SO_MEMINFO)" wait_for lost_add_up
ok "up again" ip link set "$nd" up
hold=/sys/kernel/debug/netdevsim/netdevsim30/ports/0/pp_hold
ok "hold a page of queue 0's pool" sh -c "echo y >$hold"
ok "down: that pool is detached with the page in flight" ip link set "$nd" down
ok "pool-not-drained comes through after the flood" wait_line $T/ev '"kind":"pool-not-drained"'
ok "give the page back" sh -c "echo n >$hold"
ok "pool-gone too" wait_line $T/ev '"kind":"pool-gone"'
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$ev/status)
ok "its memory stays bounded (peak $hwm kB < 16 MiB)" test "$hwm" -lt 16384
kill -TERM $ev
wait $ev
is "$?" 0 "SIGTERM ends it with exit 0"
echo 30 >/sys/bus/netdevsim/del_device
diag "timeline: $(grep -c '"kind":' $T/ev) events, $(grep -c '"kind":"lost"' $T/ev) lost"
grep '"kind":"lost"' $T/ev | sed 's/^/# /'
done_testing
