#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# netdevsim: create a simulated device, see its netdev, delete it.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

ok "/sys/bus/netdevsim/new_device exists" test -e /sys/bus/netdevsim/new_device
ok "create netdevsim device 1 with 1 port" sh -c 'echo "1 1" >/sys/bus/netdevsim/new_device'
ok "its netdev appears" wait_for test -d /sys/bus/netdevsim/devices/netdevsim1/net
netdev=$(ls /sys/bus/netdevsim/devices/netdevsim1/net 2>/dev/null)
like "$netdev" '^[a-z0-9]+$' "netdevsim1 has a netdev"
ok "the netdev $netdev is in /sys/class/net" test -e "/sys/class/net/$netdev"
ok "it can be brought up" ip link set "$netdev" up
ok "delete netdevsim device 1" sh -c 'echo 1 >/sys/bus/netdevsim/del_device'
not_ok "netdevsim1 is gone" test -e /sys/bus/netdevsim/devices/netdevsim1
not_ok "its netdev is gone" test -e "/sys/class/net/$netdev"
done_testing
