#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor names what the test kernel can be made to show, from the kernel's own
# files and lines: a remote processor's driver deferring its probe on a mailbox channel
# that never comes (tests/vm/defer_probe), a CMA area run out (this boot has cma=32M, and
# a 48 MiB buffer is asked from its heap), a heap node this user cannot open, a page pool
# detached with a page in flight (netdevsim's pp_hold), a remote processor that runs but
# never announces its channel. Each cause is also read back from a snapshot. (Firmware missing and a crash with recovery disabled: guest/rproc.sh.)
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
T=/tmp/causes
mkdir -p $T
codes() { "$SOCBOX" doctor "$@" -P | grep '^CODE='; }
objects() { codes "$@" | sed 's/^\(CODE="[^"]*"\) DIAGNOSIS="\([^ ]*\).*/\1 \2/'; }
status_of() { "$SOCBOX" doctor -r -n -o subsystem,status | sed -n "s/^$1 //p"; }
same_from_snapshot() { # what the live run names, a snapshot names too
	rm -rf $T/snap
	"$SOCBOX" snapshot $T/snap 2>/dev/null
	is "$(objects --sysroot $T/snap)" "$(objects)" "$1: the snapshot names the same causes"
}

# --- a driver that defers for ever ---
ok "load a driver that defers its probe" insmod /lib/modules/socbox/socbox_defer_probe.ko
like "$(cat /sys/kernel/debug/devices_deferred)" '^socbox-rproc-defer	socbox-rproc-defer: mailbox channel tx not available$' \
	"the kernel lists it in devices_deferred"
like "$(codes)" '^CODE="probe\.deferred" DIAGNOSIS="socbox-rproc-defer \(remote processor\) waits in deferred probe: mailbox channel tx not available"' \
	"doctor: the waiting device and its reason"
is "$(status_of rpmsg)" missing "doctor: rpmsg missing while it waits"
same_from_snapshot "deferred probe"
ok "unload it" rmmod socbox_defer_probe
unlike "$(codes)" 'probe\.deferred' "doctor: gone with the device"

# --- CMA run out ---
ok "the CMA area of cma=32M" test -d /sys/kernel/mm/cma/reserved
ok "and its heap" test -c /dev/dma_heap/reserved
dd if=/dev/zero of=$T/big bs=1M count=48 2>/dev/null
dmabufcp $T/big heap:reserved $T/out 2>$T/cma.err
is "$?" 1 "a 48 MiB buffer from the 32 MiB area fails"
like "$(cat /sys/kernel/mm/cma/reserved/alloc_pages_fail)" '^[1-9][0-9]*$' "the kernel counted the failed pages"
# more than the area holds: 7.2 answers -EBUSY (no free range that long), a full area -ENOMEM
ret=$(dmesg | sed -n 's/^.*cma: [_a-z]*: reserved: alloc failed, req-size: 12288 pages, ret: \(-[0-9]*\)$/\1/p' | tail -n1)
like "$ret" '^-[0-9]+$' "and logged the failure"
like "$(codes)" "^CODE=\"dmabuf\\.cma-exhausted\" DIAGNOSIS=\"CMA area reserved: [0-9]+ pages failed to allocate, largest request 12288 pages \\(ret $ret\\)\"" \
	"doctor: the CMA area named with the request and the kernel's answer"
is "$(status_of dmabuf)" degraded "doctor: dmabuf degraded"
same_from_snapshot "CMA"

# --- a heap node this user cannot open ---
mode=$(stat -c %a /dev/dma_heap/system)
ok "system heap for root only" chmod 600 /dev/dma_heap/system
like "$(socbox-asuser 65534 65534 "$SOCBOX" doctor -P | grep '^CODE="dmabuf\.heap-denied"')" \
	'^CODE="dmabuf\.heap-denied" DIAGNOSIS="/dev/dma_heap/system \(mode 0600, uid 0, gid 0\) cannot be opened by this user"' \
	"doctor as nobody: the node it cannot open"
unlike "$(codes)" 'heap-denied' "doctor as root: no such cause"
ok "mode back" chmod "$mode" /dev/dma_heap/system

# --- a page pool that cannot go away ---
ok "netdevsim device" sh -c 'echo "9 1" >/sys/bus/netdevsim/new_device'
ok "its netdev" wait_for sh -c 'ls /sys/bus/netdevsim/devices/netdevsim9/net 2>/dev/null | grep -q .'
nd=$(ls /sys/bus/netdevsim/devices/netdevsim9/net)
hold=/sys/kernel/debug/netdevsim/netdevsim9/ports/0/pp_hold
ok "link up" ip link set "$nd" up
ok "hold a page of its page pool" sh -c "echo y >$hold"
ok "down: the pool is detached with the page in flight" ip link set "$nd" down
like "$(codes)" '^CODE="netdev\.pool-stalled" DIAGNOSIS="page pool [0-9]+ was detached [0-9]+ s ago and still holds 1 pages"' \
	"doctor: the pool that cannot go away"
is "$(status_of netdev)" degraded "doctor: netdev degraded"
same_from_snapshot "page pool"
# what devmem TCP needs of it: netdevsim splits headers (tcp-data-split on by default)
like "$("$SOCBOX" doctor --devmem "$nd" -P | grep '^CODE="netdev\.devmem-unsupported"')" \
	"FIX=\"[^\"]*ethtool -K $nd ntuple on" "doctor --devmem: what netdevsim lacks, with the ethtool command"
unlike "$("$SOCBOX" doctor --devmem "$nd" -P | grep devmem-unsupported)" 'tcp-data-split off' \
	"doctor --devmem: netdevsim's header-data split is on"
ok "give the page back" sh -c "echo n >$hold"
ok "the pool is gone" wait_for sh -c "! \"$SOCBOX\" doctor -P | grep -q 'netdev\\.pool-stalled'"
ok "remove the device" sh -c 'echo 9 >/sys/bus/netdevsim/del_device'

# --- a remote that runs but never announces its channel (tests/vm/rproc_remote) ---
rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor ($rp)"
ok "firmware that will not announce" sh -c 'echo 0 >/sys/module/socbox_rproc/parameters/announce'
ok "start it" rpmsgctl rproc start "$rp"
like "$(codes)" "^CODE=\"rpmsg\\.no-channel\" DIAGNOSIS=\"$rp \\(socbox-remote\\) runs socbox-rproc-a\\.elf but announced no rpmsg channel\"" \
	"doctor: the silent remote named"
same_from_snapshot "silent remote"
ok "stop it" rpmsgctl rproc stop "$rp"
ok "announce again" sh -c 'echo 1 >/sys/module/socbox_rproc/parameters/announce'
unlike "$(codes)" 'rpmsg\.no-channel' "doctor: stopped, no longer a cause"
done_testing
