#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# devmem TCP on the test kernel's netdevsim (patch 0004): a pair of ports in two network
# namespaces, header-data split on, a udmabuf bound to the receiver's RX queue. The binding
# as queues, pools and bindings show it; a second bind of the queue refused; 8 MiB received
# by devmemstat rx into the dma-buf, checked with cmp; the kernel's ncdevmem on the same
# stream as the reference; a binding leaked by rx --hold, seen by bindings, pools, monitor
# and socbox events, and its release.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# An skb read on another CPU than the one that received it waits in that CPU's defer list
# until it next runs NET_RX (net.core.skb_defer_max), with its dma-buf fragments: the
# binding's pool would linger after the receiver has gone. Freed at once here, so that a
# pool that stays is a leak.
echo 0 >/proc/sys/net/core/skb_defer_max
mkdir -p /run/netns
mkns() { # NAME: a namespace kept by a bind mount, as ip-netns does
	unshare -n sleep 100000 &
	touch "/run/netns/$1"
	wait_for test "$(readlink /proc/$!/ns/net)" != "$(readlink /proc/self/ns/net)"
	mount --bind "/proc/$!/ns/net" "/run/netns/$1"
	kill $!
}
mkns nsa
mkns nsb
nsenter --net=/run/netns/nsa sh -c 'echo "11 1 1" >/sys/bus/netdevsim/new_device'
nsenter --net=/run/netns/nsb sh -c 'echo "12 1 1" >/sys/bus/netdevsim/new_device'
# sysfs shows a netdev only in the namespace that mounted it: ask ip inside each one
port() { # NS: "IFINDEX IFNAME" of the namespace's netdevsim port
	nsenter --net="/run/netns/$1" ip -o link show | awk -F': ' '$2 != "lo" { print $1, $2; exit }'
}
ok "a netdevsim port in each namespace" wait_for sh -c "[ -n \"\$(nsenter --net=/run/netns/nsa ip -o link show | grep -v ': lo:')\" ] && [ -n \"\$(nsenter --net=/run/netns/nsb ip -o link show | grep -v ': lo:')\" ]"
read -r ixa ifa <<EOT
$(port nsa)
EOT
read -r ixb ifb <<EOT
$(port nsb)
EOT
diag "nsa $ifa ($ixa)  nsb $ifb ($ixb)"
exec 5</run/netns/nsa 6</run/netns/nsb
ok "link the two ports" sh -c "echo '5:$ixa 6:$ixb' >/sys/bus/netdevsim/link_device"
nsenter --net=/run/netns/nsa sh -c "ip addr add 192.0.2.1/24 dev $ifa && ip link set $ifa up && ip link set lo up"
nsenter --net=/run/netns/nsb sh -c "ip addr add 192.0.2.2/24 dev $ifb && ip link set $ifb up && ip link set lo up"
ok "ping across" nsenter --net=/run/netns/nsa ping -c 1 -W 5 192.0.2.2
ok "hds on" nsenter --net=/run/netns/nsb socbox-ethtool-hds "$ifb" on
dm() { "$SOCBOX" devmemstat "$@" --netns nsb; }
# background jobs run "$SOCBOX" itself, so that $! is its pid (a function would be a subshell)

# --- bind: a live binding as the netdev family shows it -------------------------------
"$SOCBOX" devmemstat bind --netns nsb --dev "$ifb" --queues 0 --size 1M --duration 60 -r -n -o BINDING_ID >/tmp/bind 2>/tmp/bind.err &
bindpid=$!
ok "bind holds a binding" wait_line /tmp/bind '^[0-9]+$'
id=$(cat /tmp/bind)
diag "binding $id"
like "$(dm queues --dev "$ifb" -r -n -o TYPE,QUEUE,DMABUF)" "^rx 0 $id\$" "queues: rx 0 carries binding $id"
like "$(dm pools --dev "$ifb" -r -n -o DMABUF,DETACHED_S)" "^$id " "pools: a page pool of binding $id"
like "$(dm bindings -r -n -o BINDING_ID,IFNAME,RX_QUEUES)" "^$id $ifb 0\$" "bindings: $id on $ifb queue 0"
# two at once on one queue: the second is refused with the kernel's reason, exit 1
dm bind --dev "$ifb" --queues 0 --size 1M --duration 1 >/tmp/out 2>/tmp/err
is "$?" 1 "a second bind of the same queue fails with exit 1"
diag "$(cat /tmp/err)"
ok "it says the queue is bound" grep -q 'already memory provider bound' /tmp/err
is "$(wc -l </tmp/err)" 1 "in one line"
kill $bindpid
wait $bindpid
is "$?" 0 "bind ends on SIGTERM with exit 0"
ok "the binding goes with it" wait_for sh -c "! \"$SOCBOX\" devmemstat bindings --netns nsb -r -n -o BINDING_ID | grep -qx $id"

# --- rx: 8 MiB through the binding, checked byte for byte -------------------------------
dd if=/dev/urandom of=/tmp/src.bin bs=1M count=8 2>/dev/null
"$SOCBOX" devmemstat rx --netns nsb --dev "$ifb" --queues 0 --size 4M --save /tmp/rx.bin -t 60 >/tmp/rx.out 2>/tmp/rx.err &
rxpid=$!
ok "rx listens" wait_line /tmp/rx.err 'listening on \* port 5201, binding [0-9]+'
nsenter --net=/run/netns/nsa socbox-tcp-send 192.0.2.2 5201 /tmp/src.bin >/tmp/tx.rx
is "$?" 0 "send 8 MiB"
wait $rxpid
is "$?" 0 "rx exits 0"
sed 's/^/# /' /tmp/rx.out /tmp/rx.err
ok "the payload arrived intact (cmp)" cmp /tmp/src.bin /tmp/rx.bin
like "$(cat /tmp/rx.out)" '^Rx +[0-9.]+ Gbps \(8388608 bytes in [0-9]+ usec\)$' "kperf's Rx line"
like "$(cat /tmp/rx.out)" '^net CPU [0-9]+: usr: *[0-9.]+% sys: *[0-9.]+% idle: *[0-9.]+% iow: *[0-9.]+% irq: *[0-9.]+% sirq: *[0-9.]+%$' "kperf's net CPU line"
like "$(cat /tmp/rx.out)" '^app CPU [0-9]+: ' "kperf's app CPU line"
"$SOCBOX" devmemstat rx --netns nsb --dev "$ifb" --queues 0 --size 4M -t 60 -J >/tmp/rx.json 2>/tmp/rx.err &
rxpid=$!
ok "rx -J listens" wait_line /tmp/rx.err 'listening'
ok "send again" nsenter --net=/run/netns/nsa socbox-tcp-send 192.0.2.2 5201 /tmp/src.bin
wait $rxpid
is "$?" 0 "rx -J exits 0"
ok "every byte landed in the dma-buf" grep -q '"devmem_bytes": *8388608' /tmp/rx.json
ok "none was copied instead" grep -q '"linear_bytes": *0' /tmp/rx.json
# every fragment was given back: once rx is gone its pools go too, nothing leaked
ok "no pool is left holding memory after rx" wait_for sh -c "\"$SOCBOX\" devmemstat bindings --netns nsb >/dev/null 2>&1"

# --- the kernel's own ncdevmem, the reference: same stream, same kernel -----------------
# -n: no NIC configuration (header-data split is on; the one queue takes every flow)
nsenter --net=/run/netns/nsb ncdevmem -l -n -f "$ifb" -s 192.0.2.2 -p 5202 -t 0 -q 1 >/tmp/nc.out 2>/tmp/nc.err &
ncpid=$!
ok "ncdevmem listens" wait_line /tmp/nc.err '^Waiting or connection'
ncid=$(sed -n 's/^got dmabuf id=\([0-9]*\)$/\1/p' /tmp/nc.err)
like "$(dm bindings -r -n -o BINDING_ID,IFNAME,RX_QUEUES)" "^$ncid $ifb 0\$" "devmemstat sees ncdevmem's binding $ncid on $ifb queue 0"
like "$(dm queues --dev "$ifb" -r -n -o TYPE,QUEUE,DMABUF)" "^rx 0 $ncid\$" "and its queue"
nsenter --net=/run/netns/nsa socbox-tcp-send 192.0.2.2 5202 /tmp/src.bin >/tmp/tx.nc
is "$?" 0 "send 8 MiB to ncdevmem"
diag "to devmemstat rx: $(cat /tmp/tx.rx); to ncdevmem: $(cat /tmp/tx.nc)"
wait $ncpid
is "$?" 0 "ncdevmem exits 0"
tail -n 2 /tmp/nc.err | sed 's/^/# ncdevmem: /'
is "$(sed -n 's/^total_received=\([0-9]*\)$/\1/p' /tmp/nc.err | tail -n1)" 8388608 "ncdevmem received 8388608 bytes in the dma-buf, as devmemstat rx did"
ok "ncdevmem's payload is the file too" cmp /tmp/src.bin /tmp/nc.out
not_ok "ncdevmem saw no linear data" grep -q SCM_DEVMEM_LINEAR /tmp/nc.err

# --- a leaked binding: unbound while the receiver still holds its fragments -------------
# devmemstat monitor and socbox events follow it from inside the namespace
"$SOCBOX" devmemstat monitor --netns nsb -t 120 -v -J >/tmp/mon 2>/tmp/mon.err &
mon=$!
ok "monitor listens" wait_line /tmp/mon.err 'listening for netdev events'
start_s=$(cut -d' ' -f1 /proc/uptime)
nsenter --net=/run/netns/nsb "$SOCBOX" events --follow -J -v -t 120 -s netdev --since "$start_s" >/tmp/ev.jsonl 2>/tmp/ev.err &
ev=$!
ok "events listens" wait_line /tmp/ev.err 'page-pool notifications'
dd if=/dev/urandom of=/tmp/small.bin bs=64k count=16 2>/dev/null
"$SOCBOX" devmemstat rx --netns nsb --dev "$ifb" --queues 0 --size 4M -t 60 --hold 60 >/tmp/rx.out 2>/tmp/rx.err &
rxpid=$!
ok "rx --hold listens" wait_line /tmp/rx.err 'listening'
id=$(sed -n 's/.*binding \([0-9]*\)$/\1/p' /tmp/rx.err | head -n1)
ok "monitor: the binding's page pool came (page-pool-add with its dmabuf)" wait_line /tmp/mon "\"event\":\"page-pool-add\".*\"dmabuf\":${id}[,}]"
ok "send 1 MiB" nsenter --net=/run/netns/nsa socbox-tcp-send 192.0.2.2 5201 /tmp/small.bin
ok "rx unbinds and holds the fragments" wait_line /tmp/rx.err 'unbound binding'
ok "rx is still holding them" kill -0 $rxpid
dm bindings >/tmp/leak.txt 2>/tmp/leak.err
is "$?" 1 "bindings finds the leaked binding's pool (exit 1)"
sed 's/^/# /' /tmp/leak.txt /tmp/leak.err
like "$(dm pools -r -n -o DMABUF,LEAKED)" "^$id yes\$" "pools: binding $id's pool is detached and leaked"
pool=$(dm pools -r -n -o POOL_ID,DMABUF | sed -n "s/^\([0-9]*\) $id\$/\1/p")
ok "events: pool $pool not drained" wait_line /tmp/ev.jsonl "\"kind\":\"pool-not-drained\",\"object\":\"pool $pool\""
kill $rxpid
wait $rxpid
is "$?" 0 "rx --hold ends on SIGTERM with exit 0"
sed 's/^/# /' /tmp/rx.err
ok "the fragments come back and the pool goes" wait_for sh -c "\"$SOCBOX\" devmemstat bindings --netns nsb >/dev/null 2>&1"
ok "events: pool $pool gone, its pages back" wait_line /tmp/ev.jsonl "\"kind\":\"pool-gone\",\"object\":\"pool $pool\""
ok "monitor: page-pool-delete of pool $pool" wait_line /tmp/mon "\"event\":\"page-pool-delete\".*\"pool_id\":${pool}[,}]"
kill $mon $ev
wait $mon
is "$?" 0 "monitor ends on SIGTERM with exit 0"
wait $ev
is "$?" 0 "events ends on SIGTERM with exit 0"
sed 's/^/# monitor: /' /tmp/mon
sed 's/^/# events: /' /tmp/ev.jsonl
not_ok "no pool of binding $id is left" sh -c "\"$SOCBOX\" devmemstat pools --netns nsb -r -n -o DMABUF | grep -qx $id"

# --- the kernel log stayed clean ---------------------------------------------------------
not_ok "no WARN, BUG or Oops" sh -c 'dmesg | grep -E "WARNING:|BUG:|Oops"'
dmesg | tail -5 | sed 's/^/# /'
done_testing
