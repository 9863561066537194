#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# devmemstat on the test kernel (CONFIG_PAGE_POOL_STATS=y, NET_DEVMEM, UDMABUF, netdevsim):
# virtio-net's page pools with stats and recycle rate, device and pool events of a netdevsim
# device created, brought up and down and deleted, queue/NAPI/qstats views, and bind-rx refused by netdevsim and virtio-net with the
# kernel's message.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# Some traffic so the pools allocate and recycle: ping the QEMU user-net gateway.
ping -c 20 -i 0.05 -W 1 10.0.2.2 >/dev/null 2>&1

out=$("$SOCBOX" devmemstat pools -o POOL_ID,IFNAME,NAPI_ID,INFLIGHT,ALLOC_FAST,ALLOC_SLOW,RECYCLE_RING,RECYCLE_RATE -r -n)
diag "pools:"
printf '%s\n' "$out" | sed 's/^/#   /'
like "$out" '^[0-9]+ eth0 ' "virtio-net eth0 has page pools"
like "$out" '^[0-9]+ eth0 [0-9]+ [0-9]+ [0-9]+ [0-9]+ ' "the pools carry page-pool stats (CONFIG_PAGE_POOL_STATS)"
json=$("$SOCBOX" devmemstat pools -J)
like "$json" '"recycle_rate": (0|1|0\.[0-9]+)' "a recycle rate is computed"
not_ok "no note that stats are unsupported" sh -c "printf '%s' '$json' | grep -q CONFIG_PAGE_POOL_STATS"
like "$("$SOCBOX" devmemstat --format openmetrics)" 'socbox_devmemstat_pools_recycle_rate\{[^}]*ifname="eth0"' "openmetrics exports the recycle rate"

out=$("$SOCBOX" devmemstat queues -o IFNAME,TYPE,QUEUE,NAPI_ID,IRQ,RX_BYTES -r -n)
diag "queues:"
printf '%s\n' "$out" | sed 's/^/#   /'
like "$out" '^eth0 rx 0 [0-9]+ ' "eth0 rx queue 0 with its NAPI"
out=$("$SOCBOX" devmemstat napi -o IFNAME,NAPI_ID,RX_QUEUES -r -n)
like "$out" '^eth0 [0-9]+ 0$' "eth0 NAPI serving rx queue 0"
out=$("$SOCBOX" devmemstat top -i 0.5 -c 1 -J --dev eth0)
diag "top: $out"
like "$out" '"ifname":"eth0","ifindex":[0-9]+,"source":"qstats"' "top reads virtio-net's rates from qstats"
like "$out" '"queues":\[\{"ifname":"eth0","type":"rx","queue":0,' "top has per-queue rates"
out=$("$SOCBOX" devmemstat top -i 0.5 -c 1)
diag "top text:"
printf '%s\n' "$out" | sed 's/^/#   /'
like "$out" 'pool [0-9]+ eth0: inflight [0-9]+ \([0-9]+ bytes\) alloc:[0-9]+/s' "top text shows eth0's page pool"
out=$("$SOCBOX" devmemstat bindings -J)
like "$out" '"leaked_pools_count": 0' "no leaked pools"

# events: a netdevsim device appears, goes up (netdevsim creates a page pool per RX queue
# when opened), down (its pools go) and disappears
# monitor says when it listens (-v); each step then waits for what the one before did, and
# SIGTERM ends monitor once the dev-delete is out (-t 120 only bounds a failure)
"$SOCBOX" devmemstat monitor -t 120 -v -J >/tmp/mon 2>/tmp/mon.err &
mon=$!
ok "monitor listens" wait_line /tmp/mon.err 'listening for netdev events'
echo "1 1" >/sys/bus/netdevsim/new_device
ok "netdevsim device created" wait_for test -d /sys/bus/netdevsim/devices/netdevsim1/net
nsim=$(ls /sys/bus/netdevsim/devices/netdevsim1/net 2>/dev/null)
like "$nsim" '^[a-z0-9]+$' "netdevsim names its netdev"
# ip returns once the driver's open ran: the page pools exist
ip link set "$nsim" up
out=$("$SOCBOX" devmemstat pools --dev "$nsim" -o POOL_ID,IFNAME,INFLIGHT -r -n)
diag "netdevsim pools: $out"
like "$out" "^[0-9]+ $nsim " "netdevsim's page pools are listed"
ok "page-pool-add event when it went up" wait_line /tmp/mon "\"event\":\"page-pool-add\",\"ifindex\":[0-9]*,\"ifname\":\"$nsim\""
ip link set "$nsim" down
ok "page-pool-delete event when it went down" wait_line /tmp/mon '"event":"page-pool-delete"'
echo 1 >/sys/bus/netdevsim/del_device
ok "dev-delete event names the gone netdev" wait_line /tmp/mon "\"event\":\"dev-delete\",\"ifindex\":[0-9]*,\"ifname\":\"$nsim\""
kill -TERM $mon
wait $mon
is "$?" 0 "monitor stopped by SIGTERM exits 0"
diag "events:"
sed 's/^/#   /' /tmp/mon | head -20
ok "dev-add event for the netdevsim netdev" grep -q "\"event\":\"dev-add\",\"ifindex\":[0-9]*,\"ifname\":\"$nsim\"" /tmp/mon

# bind-rx: a udmabuf is allocated here (/dev/udmabuf); virtio-net has no queue API, and
# netdevsim (which takes a binding on this kernel, guest/devmem.sh) wants header-data split
# first: both are requirements the device does not meet, exit 3
ok "/dev/udmabuf exists" test -c /dev/udmabuf
"$SOCBOX" devmemstat bind --dev eth0 --queues 0 --size 1M --duration 1 >/tmp/out 2>/tmp/err
is "$?" 3 "bind-rx on virtio-net fails with exit 3"
diag "$(cat /tmp/err)"
ok "virtio-net: the kernel's answer is shown" grep -q '^devmemstat: eth0: bind-rx: kernel: ' /tmp/err
echo "2 1" >/sys/bus/netdevsim/new_device
ok "second netdevsim device created" wait_for test -d /sys/bus/netdevsim/devices/netdevsim2/net
nsim=$(ls /sys/bus/netdevsim/devices/netdevsim2/net 2>/dev/null)
ip link set "$nsim" up
"$SOCBOX" devmemstat bind --dev "$nsim" --queues 0 --size 1M --duration 1 >/tmp/out 2>/tmp/err
rc=$?
diag "$(cat /tmp/err)"
is "$rc" 3 "bind-rx on netdevsim without header-data split fails with exit 3"
ok "netdevsim: the kernel's answer is shown" grep -q "^devmemstat: $nsim: bind-rx: kernel: tcp-data-split is disabled" /tmp/err
ok "netdevsim: the requirement is named" grep -q "tcp-data-split on hds-thresh 0" /tmp/err
is "$(wc -l </tmp/err)" 1 "netdevsim: one line"
echo 2 >/sys/bus/netdevsim/del_device
done_testing
