#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# devmemstat monitor while netdev notifications overrun its socket: held (SIGSTOP) while
# netdevsim devices of 64 ports come and go ROUNDS times, far more notifications than the
# socket's buffer holds, so the kernel drops them (ENOBUFS). Let go, it says so with
# "lost" rows that count what the kernel dropped (SO_MEMINFO) and a line at the end,
# keeps running, and a device made afterwards comes through with its name.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
T=/tmp/ndflood
ROUNDS=${SOCBOX_NDFLOOD_ROUNDS:-10}
mkdir -p $T

socbox-sigdfl "$SOCBOX" devmemstat monitor -t 120 -v -J >$T/mon 2>$T/mon.err &
mon=$!
ok "monitor listens" wait_line $T/mon.err 'listening for netdev events'
kill -STOP $mon
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	echo "$((100 + i)) 64" >/sys/bus/netdevsim/new_device
	echo "$((100 + i))" >/sys/bus/netdevsim/del_device
done
diag "$((ROUNDS * 128)) device notifications while it was held"
kill -CONT $mon
ok "the overflow is a row of its own" wait_line $T/mon '"event":"lost"'
# The kernel says ENOBUFS once, then drops silently until the queue is empty again (netlink's
# congested state): the next device waits for monitor's socket (its port id is its pid) to
# hold nothing, as /proc/net/netlink shows; the kernel's drop count is there too.
ok "monitor reads its queue empty" wait_for genl_drained $mon
drops=$(genl_sock $mon 9)
diag "the kernel dropped $drops notifications for monitor"
# shellcheck disable=SC2317 # called through wait_for
lost_add_up() { # the lost rows' counts add up to the socket's drop count
	[ "$(sed -n 's/.*"event":"lost".*"lost":\([0-9]*\).*/\1/p' "$T"/mon |
		awk '{ n += $1 } END { print n + 0 }')" = "$drops" ]
}
ok "the lost rows say how many: $drops, the kernel's count (SO_MEMINFO)" wait_for lost_add_up
echo "200 1" >/sys/bus/netdevsim/new_device
ok "netdevsim device created after the flood" wait_for test -d /sys/bus/netdevsim/devices/netdevsim200/net
nsim=$(ls /sys/bus/netdevsim/devices/netdevsim200/net 2>/dev/null)
ok "its dev-add comes through, named" wait_line $T/mon "\"event\":\"dev-add\",\"ifindex\":[0-9]*,\"ifname\":\"$nsim\""
echo 200 >/sys/bus/netdevsim/del_device
ok "its dev-delete too" wait_line $T/mon "\"event\":\"dev-delete\",\"ifindex\":[0-9]*,\"ifname\":\"$nsim\""
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$mon/status)
ok "its memory stays bounded (peak $hwm kB < 16 MiB)" test "$hwm" -lt 16384
kill -TERM $mon
wait $mon
is "$?" 0 "SIGTERM ends it with exit 0"
sed 's/^/# /' $T/mon.err
like "$(cat $T/mon.err)" "the notification socket overflowed [0-9]+ time\\(s\\): the kernel dropped $drops notifications" "and it says so at the end, with the count"
diag "rows: $(grep -c '"event":' $T/mon), lost rows: $(grep -c '"event":"lost"' $T/mon)"
done_testing
