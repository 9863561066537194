#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# devmemstat without the live kernel: the views on a netlink capture of a NIC with a
# devmem binding and a leaked pool (tests/fixtures/netlink/devmem-nic.nl), top on a
# sysroot (since-boot averages), usage errors and exit codes.
. "$SOCBOX_TESTLIB"
NL=$SOCBOX_FIXTURES/netlink/devmem-nic.nl
ROOT=$SOCBOX_FIXTURES/devmem-nic

t_run "help" 0 "$SOCBOX" devmemstat --help
for cmd in show queues napi pools qstats bindings top monitor bind; do
	t_grep "help lists $cmd" "^  $cmd " "$T_TMP/out"
done
t_run "unknown command" 2 "$SOCBOX" devmemstat frobnicate
t_run "unknown option" 2 "$SOCBOX" devmemstat pools --frobnicate
t_run "unknown column" 2 "$SOCBOX" devmemstat pools -o NOPE --load-netlink "$NL"
t_run "-H lists pool columns" 0 "$SOCBOX" devmemstat pools -H
t_grep "RECYCLE_RATE column documented" '^RECYCLE_RATE +number' "$T_TMP/out"
t_run "bind needs --dev" 2 "$SOCBOX" devmemstat bind --queues 0
t_run "top with a bad CPU list" 2 "$SOCBOX" devmemstat top --cpus 3-1 --sysroot "$ROOT"

# netlink views on a sysroot without a netdev capture: not supported here, and say how to
# get the data
t_run "overview on a sysroot" 3 "$SOCBOX" devmemstat --sysroot "$ROOT"
t_grep "sysroot: no capture" 'this snapshot has no netdev capture \(taken by an older socbox or a kernel without the netdev family\).*--save-netlink' "$T_TMP/err"
t_run "monitor on a sysroot" 3 "$SOCBOX" devmemstat monitor --sysroot "$ROOT"
t_grep "monitor needs the live kernel" 'needs the live kernel' "$T_TMP/err"

# the same board as a snapshot with the capture (what socbox snapshot writes): the views
# answer from it, with the names of its /sys/class/net
cp -r "$ROOT" "$T_TMP/snap"
mkdir -p "$T_TMP/snap/sys/kernel/socbox" "$T_TMP/snap/sys/devices/virtual/net/eth2" "$T_TMP/snap/sys/class/net"
cp "$NL" "$T_TMP/snap/sys/kernel/socbox/netdev.nlmsg"
printf 'family_version=1\nboottime_s=4700\nhave=0x7f\nunsupported=0x0\n' >"$T_TMP/snap/sys/kernel/socbox/netdev.parts"
echo 3 >"$T_TMP/snap/sys/devices/virtual/net/eth2/ifindex"
ln -s ../../devices/virtual/net/eth2 "$T_TMP/snap/sys/class/net/eth2"
t_run "pools on the snapshot" 0 "$SOCBOX" devmemstat pools --sysroot "$T_TMP/snap" -J
t_jq "same pools as the capture, eth2 named" '[.pools[] | .pool_id] == [9,10,11,12,13] and ([.pools[] | select(.ifindex == 3) | .ifname] | unique) == ["eth2"]' "$T_TMP/out"
t_jq "pool 9 detached 4700 - detach time ago" '.pools[] | select(.pool_id == 9) | .leaked == true and .detached_s > 0' "$T_TMP/out"
t_run "queues --dev eth2 on the snapshot" 0 "$SOCBOX" devmemstat queues --sysroot "$T_TMP/snap" --dev eth2 -J
t_jq "bound queues of eth2" '[.queues[] | select(.dmabuf == 1) | .queue] == [2,3]' "$T_TMP/out"
t_run "--netns on a snapshot" 3 "$SOCBOX" devmemstat queues --sysroot "$T_TMP/snap" --netns x
printf 'family_version=1\n' >"$T_TMP/snap/sys/kernel/socbox/netdev.parts"
t_run "damaged capture" 1 "$SOCBOX" devmemstat pools --sysroot "$T_TMP/snap"
t_grep "says it is damaged" 'netdev.parts: read netdev capture: .*damaged' "$T_TMP/err"

# the capture
t_run "overview of the capture" 0 "$SOCBOX" devmemstat --load-netlink "$NL" -J
t_json "overview" "$T_TMP/out"
t_jq "eth2: 4 rx, 4 tx queues, binding 1, 4 pools" \
	'.devices[] | select(.ifindex == 3) | .rx_queues == 4 and .tx_queues == 4 and .dmabufs == [1] and .pools == 4' "$T_TMP/out"
t_jq "NAPI IRQs joined" '.devices[] | select(.ifindex == 3) | .irqs == [120,121,122,123]' "$T_TMP/out"
# ids are numbers, as the README promises (they were strings: "napi_ids": ["280"])
t_jq "NAPI ids are numbers" '[.devices[].napi_ids[]] | length > 0 and all(type == "number")' "$T_TMP/out"
t_run "napi view" 0 "$SOCBOX" devmemstat napi --load-netlink "$NL" -J
t_jq "napi: queue ids are numbers" '[.napis[] | (.rx_queues + .tx_queues)[]] | length > 0 and all(type == "number")' "$T_TMP/out"
t_run "queues --dev 3" 0 "$SOCBOX" devmemstat queues --load-netlink "$NL" --dev 3 -J
t_jq "bound queues carry the binding id" '[.queues[] | select(.dmabuf == 1) | .queue] == [2,3]' "$T_TMP/out"
t_jq "queue qstats joined" '.queues[] | select(.type == "rx" and .queue == 0) | .rx_bytes == 40000000000' "$T_TMP/out"
t_run "napi" 0 "$SOCBOX" devmemstat napi --load-netlink "$NL" -J
t_jq "threaded NAPI with its pid" '.napis[] | select(.napi_id == 8196) | .threaded == "enabled" and .pid == 1412' "$T_TMP/out"
t_run "pools" 0 "$SOCBOX" devmemstat pools --load-netlink "$NL" -J
t_json "pools" "$T_TMP/out"
t_jq "leaked pool flagged" '.pools[] | select(.pool_id == 9) | .leaked == true and .inflight_mem_bytes == 49152' "$T_TMP/out"
t_jq "recycle rate of pool 10" '.pools[] | select(.pool_id == 10) | (.recycle_rate - 0.98988) | fabs < 0.0001' "$T_TMP/out"
t_jq "devmem pools carry the binding" '[.pools[] | select(.dmabuf == 1) | .pool_id] == [12,13]' "$T_TMP/out"
t_run "bindings finds the leak (exit 1)" 1 "$SOCBOX" devmemstat bindings --load-netlink "$NL" -J
t_json "bindings" "$T_TMP/out"
t_grep "bindings -J: exit 1 says why on stderr" '^devmemstat bindings: 1 detached page pool\(s\) still hold memory' "$T_TMP/err"
t_eq "bindings -J: one line on stderr" "$(wc -l <"$T_TMP/err")" 1
t_jq "binding joins queues, pools, memory" \
	'.bindings[0] | .binding_id == 1 and .ifindex == 3 and .rx_queues == [2,3] and .pools == [12,13] and .inflight_mem_bytes == 33554432' "$T_TMP/out"
t_jq "leaked pool listed" '.leaked_pools_count == 1 and .leaked_pools[0].pool_id == 9 and .leaked_pools[0].inflight == 12' "$T_TMP/out"
t_run "bindings text" 1 "$SOCBOX" devmemstat bindings --load-netlink "$NL"
t_grep "text says what leaked" 'detached from their device still hold memory' "$T_TMP/out"
t_run "qstats openmetrics" 0 "$SOCBOX" devmemstat qstats --load-netlink "$NL" --format openmetrics
t_grep "counter with labels (no ifname label: the capture names no interface)" '^socbox_devmemstat_qstats_rx_bytes_total\{ifindex="3",scope="device"\} 160000000000$' "$T_TMP/out"
t_grep "queue-scope counter" '^socbox_devmemstat_qstats_rx_bytes_total\{ifindex="3",scope="queue",type="rx",queue="2"\} 40000000000$' "$T_TMP/out"
t_run "pools -o" 0 "$SOCBOX" devmemstat pools --load-netlink "$NL" -o POOL_ID,LEAKED -r -n
t_eq "raw rows" "$(tr '\n' ';' <"$T_TMP/out")" "9 yes;10 no;11 no;12 no;13 no;"

head -c 1000 "$NL" >"$T_TMP/cut.nl"
t_run "truncated capture" 0 "$SOCBOX" devmemstat pools --load-netlink "$T_TMP/cut.nl" -J
t_jq "truncated capture is reported" '.notes | any(test("could not be parsed"))' "$T_TMP/out"
t_run "missing capture" 1 "$SOCBOX" devmemstat --load-netlink "$T_TMP/none.nl"

# top on a snapshot: averages since boot from /proc/stat, /proc/softirqs, /proc/net/dev
t_run "top on a sysroot" 0 "$SOCBOX" devmemstat top --sysroot "$ROOT"
t_grep "kperf CPU 0 line" '^CPU 0: usr: 4\.39% sys: 5\.21% idle:81\.92% iow: 0\.13% irq: 0\.00% sirq: 8\.34% net_rx:4744/s$' "$T_TMP/out"
t_grep "kperf Rx line of eth2" '^eth2: Rx  0\.278 Gbps \(160000000000 bytes in 4612370000 usec\)' "$T_TMP/out"
t_grep "says it is since boot" 'since boot' "$T_TMP/out"
t_run "top -J on a sysroot" 0 "$SOCBOX" devmemstat top --sysroot "$ROOT" -J --cpus 1-2
t_json "top" "$T_TMP/out"
t_jq "only CPUs 1-2" '[.cpus[].cpu] == [1,2]' "$T_TMP/out"
t_jq "eth2 from interface counters" '.devices[] | select(.ifname == "eth2") | .source == "netdev" and (.rx_gbps * 1000 | floor) == 277' "$T_TMP/out"
# a file that is not a capture is an error, not an empty view
printf 'this is not netlink\n' >"$T_TMP/garbage.nlmsg"
t_run "garbage capture is refused" 1 "$SOCBOX" devmemstat queues --load-netlink "$T_TMP/garbage.nlmsg"
t_grep "garbage capture explained" 'not a sequence of netlink messages' "$T_TMP/err"
t_run "missing capture file" 1 "$SOCBOX" devmemstat queues --load-netlink "$T_TMP/none.nlmsg"
t_run "bind size must be page aligned" 2 "$SOCBOX" devmemstat bind --dev lo --queues 0 --size 1000
t_grep "page size named" 'multiple of the page size' "$T_TMP/err"
t_run "bind --size 0" 2 "$SOCBOX" devmemstat bind --dev lo --queues 0 --size 0
t_grep "... names the bound" "--size: '0' is out of range \(at least 1\)" "$T_TMP/err"
t_run "rx -vs 4Q (clustered)" 2 "$SOCBOX" devmemstat rx --dev lo --queues 0 -vs 4Q
t_grep "... names the value" "--size: '4Q' is not a size" "$T_TMP/err"
t_run "rx --port 0" 2 "$SOCBOX" devmemstat rx --dev lo --queues 0 --port 0
t_grep "... names the bounds" "--port: '0' is out of range \(1 to 65535\)" "$T_TMP/err"
t_run "rx --help" 0 "$SOCBOX" devmemstat rx --help
t_grep "... the default port" 'TCP port \(default 5201\)' "$T_TMP/out"
t_grep "... the default size" 'udmabuf size, K, M or G suffix \(default 64M\)' "$T_TMP/out"
# the device attributes the kernel gives beside xdp-features (a virtio-net and a netdevsim
# in the test kernel, tests/fixtures/netlink/vm-virtio-netdevsim-show.nl): in JSON by
# default, in tables on request
VM_NL=$SOCBOX_FIXTURES/netlink/vm-virtio-netdevsim-show.nl
t_run "show -J from the VM capture" 0 "$SOCBOX" devmemstat show --load-netlink "$VM_NL" -J
t_jq "virtio-net: xdp-features, rx metadata, xsk features, zero-copy segments as the kernel said" \
	'.devices[] | select(.ifindex == 2) | .xdp_features == 43 and .xdp_rx_metadata_features == 0 and .xsk_features == 0 and .xdp_zc_max_segs == 1' "$T_TMP/out"
t_run "show -o +XSK_FEATURES,XDP_ZC_MAX_SEGS" 0 "$SOCBOX" devmemstat show --load-netlink "$VM_NL" -r -n -o IFINDEX,XDP_FEATURES,XSK_FEATURES,XDP_ZC_MAX_SEGS
t_grep "the table shows them on request" '^2 43 0 1$' "$T_TMP/out"
t_done
