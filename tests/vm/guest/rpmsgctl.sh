#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsgctl against the loopback rpmsg device (tests/vm/rpmsg_loopback): list, endpoints by
# the legacy path, ping with every byte checked, MTU, send/recv, flow control, destroy,
# bench, the default endpoint of an rpmsg-raw channel, and a snapshot that answers like the
# live system. The fd path (this kernel's patch) is rpmsgctl_fd.sh's.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/rpmsgctl
mkdir -p $T

ok "rpmsgctl is installed as an applet" test -x "$(command -v $R)"

# --- list ---
ok "list" sh -c "$R list >$T/list 2>&1"
cat $T/list | sed 's/^/# /'
like "$(cat $T/list)" 'rpmsg_ctrl0 +/dev/rpmsg_ctrl0' "list shows the control device"
like "$(cat $T/list)" 'socbox-loopback\.1024\.1024 +1024 +1024' "list shows the loopback channel with its addresses"
ok "list -J" sh -c "$R list -J >$T/list.json"
like "$(tr -d ' \n' <$T/list.json)" '"name":"socbox-loopback","src":1024,"dst":1024' "JSON has the channel and its numbers"

# --- ept create (legacy) ---
ok "ept create --method legacy" sh -c "$R ept create probe --method legacy -r -n -o DEVICE,METHOD >$T/create 2>$T/create.err"
cat $T/create.err | sed 's/^/# /'
dev=$(cut -d' ' -f1 <$T/create)
is "$(cut -d' ' -f2 <$T/create)" legacy "the legacy path ran"
like "$dev" '^rpmsg[0-9]+$' "it names the new endpoint device"
ok "/dev/$dev is a char device" test -c "/dev/$dev"
is "$(cat "/sys/class/rpmsg/$dev/name")" probe "sysfs name of the endpoint"
like "$($R list 2>/dev/null | grep "^$dev ")" "^$dev +probe +-1 +-1 +rpmsg_ctrl0" "list shows the endpoint under rpmsg_ctrl0"

# --- ping: 1000 round trips, every byte compared ---
for size in 1 64 496; do
	ok "ping 1000 x $size bytes" sh -c "$R ping --dev $dev -c 1000 --size $size -P >$T/ping$size 2>&1"
	grep -v '^COUNT\|^LE_US' $T/ping$size | head -n 12 | sed 's/^/# /'
	like "$(cat $T/ping$size)" '^RECEIVED="1000"' "ping $size: 1000 echoes received"
	like "$(cat $T/ping$size)" '^CORRUPT="0"' "ping $size: every byte matched"
	like "$(cat $T/ping$size)" '^LOST="0"' "ping $size: none lost"
	like "$(cat $T/ping$size)" '^LATE="0"' "ping $size: no late echo"
done
ok "ping table output" sh -c "$R ping --dev $dev -c 100 --size 64 >$T/pingtab 2>&1"
cat $T/pingtab | sed 's/^/# /'
# the latency row under its heading: 100 round trips and six numbers
like "$(cat $T/pingtab)" '^ *100( +[0-9]+\.[0-9]){6}$' "ping's table: count, min, median, p99, max, mean, stddev"
ok "ping -P" sh -c "$R ping --dev $dev -c 100 --size 64 -P >$T/pingpairs 2>&1"
# min <= median <= p99 <= max, and the histogram buckets hold every round trip
is "$(awk -F'"' '/^COUNT="100" MIN_US/ { print ($4 <= $6 && $6 <= $8 && $8 <= $10) ? "ordered" : "not ordered" }' $T/pingpairs)" \
	ordered "min <= median <= p99 <= max"
is "$(awk -F'"' '/^LE_US=/ { n += $4 } END { print n }' $T/pingpairs)" 100 "the histogram counts all 100 round trips"

# --- thresholds, and the same checks as KTAP ---
ok "ping --max-p99 10s --format ktap" sh -c "$R ping --dev $dev -c 50 --max-p99 10s --format ktap >$T/ping.ktap 2>&1"
sed 's/^/# /' $T/ping.ktap
like "$(cat $T/ping.ktap)" '^ok 1 echoes$' "KTAP: no echo lost"
like "$(cat $T/ping.ktap)" '^ok 2 payload$' "KTAP: every echo as sent"
like "$(cat $T/ping.ktap)" '^ok 3 p99$' "KTAP: p99 within 10 s"
$R ping --dev "$dev" -c 50 --max-p99 1us --format ktap >$T/slow.ktap 2>$T/slow.err
is "$?" 1 "a p99 over --max-p99: exit 1"
like "$(cat $T/slow.ktap)" '^not ok 3 p99$' "KTAP: the p99 test fails"
like "$(cat $T/slow.ktap)" '^# p99 [0-9.]+ us, at most 1\.0 us allowed$' "... saying by how much"
like "$(cat $T/slow.err)" 'p99 is over --max-p99 1 us' "stderr names the threshold"

# --- MTU ---
$R ping --dev "$dev" -c 1 --size 497 2>$T/ping497.err
is "$?" 1 "ping 497 bytes is refused with exit 1 (not a crash or a usage error)"
like "$(cat $T/ping497.err)" '497 bytes does not fit one message' "ping names the MTU"
$R send --dev "$dev" "$(printf '%497s' x)" 2>$T/mtu.err
is "$?" 1 "send 497 bytes exits 1"
like "$(cat $T/mtu.err)" '497 bytes is over the endpoint MTU of 496 bytes' "send names the MTU"

# --- send/recv through one held fd (an endpoint device opens only once) ---
exec 3<>"/dev/$dev"
$R ping --dev "$dev" -c 1 2>$T/busy.err
is "$?" 1 "second open of the endpoint fails"
like "$(cat $T/busy.err)" 'opened only once' "EBUSY is explained"
ok "send hello on fd 3" $R send --fd 3 hello
is "$($R recv --fd 3 -c 1 --timeout 2s)" hello "recv gets the echo"
head -c 1000 /dev/zero | tr '\0' 'z' >$T/big
$R send --fd 3 --file $T/big 2>$T/big.err
is "$?" 1 "1000 bytes without --split is refused with exit 1"
like "$(cat $T/big.err)" '1000 bytes is over the endpoint MTU of 496 bytes' "and names the MTU"
ok "1000 bytes with --split" $R send --fd 3 --split --file $T/big
# the loopback echoes from an unbound workqueue, so the echoes may come back in any order
is "$($R recv --fd 3 -c 3 --timeout 2s --hex | awk '{ print length($0) / 2 }' | sort -n | tr '\n' ' ')" "8 496 496 " "split into 496+496+8 byte messages"
printf 'from stdin' | $R send --fd 3
is "$($R recv --fd 3 -c 1 --timeout 2s)" "from stdin" "send reads stdin"
ok "send hi" $R send --fd 3 hi
like "$($R recv --fd 3 -c 1 --timeout 2s -J | tr -d ' \n')" '"messages":\[\{"length_bytes":2,"data_hex":"6869"\}\]' "recv -J gives length and hex"
ok "send hi again" $R send --fd 3 hi
$R recv --fd 3 -c 1 --timeout 2s -P >$T/recv.pairs
like "$(cat $T/recv.pairs)" '^LENGTH="2B" DATA_HEX="6869"$' "recv -P gives the messages table as pairs"
like "$(cat $T/recv.pairs)" '^RECEIVED="1"$' "and the received count"
ok "send hi once more" $R send --fd 3 hi
is "$($R recv --fd 3 -c 1 --timeout 2s -r -n -o DATA_HEX)" '6869' "recv -r -n -o DATA_HEX"
$R recv --fd 3 -c 1 --timeout 200ms 2>$T/timeout.err
is "$?" 1 "recv times out with exit 1 on an idle endpoint"
exec 3>&-

ok "flow set pause" $R flow set "$dev" pause
ok "flow set resume" $R flow set "$dev" resume
ok "flow get" sh -c "$R flow get $dev -P >$T/flow"
like "$(cat $T/flow)" '^OUTGOING_PAUSED="(yes|no|true|false)"' "flow get reports the outgoing state"

# --- destroy ---
ok "ept destroy $dev" $R ept destroy "$dev"
not_ok "/dev/$dev is gone" test -e "/dev/$dev"
not_ok "/sys/class/rpmsg/$dev is gone" test -e "/sys/class/rpmsg/$dev"

# --- temporary endpoints by the legacy path ---
ok "ping on a temporary endpoint (--method legacy)" sh -c "$R ping --method legacy -c 20 -v -P >$T/legacy 2>$T/legacy.err"
like "$(cat $T/legacy.err)" 'endpoint created by the legacy path' "the legacy path ran (verbose)"
like "$(cat $T/legacy)" '^METHOD="legacy"' "ping reports the path that ran"
is "$(endpoint_devices)" 0 "no endpoint device left behind"
$R ept create x --method fd 2>$T/fdc.err
is "$?" 2 "ept create --method fd is a usage error (an fd endpoint dies with the process)"
like "$(cat $T/fdc.err)" 'destroyed when its last file descriptor closes' "and says why"
ok "ept create (auto) -v -J" sh -c "$R ept create lasting -v -J >$T/lasting.json 2>$T/lasting.err"
like "$(cat $T/lasting.err)" 'auto means legacy for ept create' "verbose says auto means legacy here"
like "$(tr -d ' \n' <$T/lasting.json)" '"requested_method":"auto"' "JSON says auto was asked"
like "$(tr -d ' \n' <$T/lasting.json)" '"method":"legacy"' "and legacy ran"
is "$(endpoint_devices)" 1 "the endpoint device stays after rpmsgctl exits"
ok "ept destroy it" $R ept destroy "$(sed -n 's/.*"device": *"\(rpmsg[0-9]*\)".*/\1/p' $T/lasting.json)"
is "$(endpoint_devices)" 0 "and it is gone"

# --- bench, legacy path ---
ok "bench --method legacy, 200 loops" sh -c "$R bench --method legacy --loops 200 -J >$T/bench.json"
like "$(tr -d ' \n' <$T/bench.json)" '"fd_path":"notrun"' "JSON says the fd path was not run"
like "$(tr -d ' \n' <$T/bench.json)" '"method":"legacy","op":"create"' "JSON has per-op statistics"
is "$(endpoint_devices)" 0 "bench leaves no endpoint device"

# --- dev create/release on a backend without it ---
$R dev create socbox-new --dst 0x500 2>$T/dev.err
rc=$?
cat $T/dev.err | sed 's/^/# /'
is "$rc" 3 "dev create: the loopback backend cannot create channels (ENXIO, exit 3)"

# --- snapshot ---
ok "socbox snapshot" socbox snapshot $T/snap
$R list -J >$T/live.json 2>/dev/null
$R list -J --sysroot $T/snap >$T/snap.json 2>/dev/null
ok "list on the snapshot equals the live list" cmp $T/live.json $T/snap.json

# --- the default endpoint of an rpmsg-raw channel ---
ok "reload loopback with raw_channel=1" sh -c 'rmmod rpmsg_loopback && insmod /lib/modules/socbox/rpmsg_loopback.ko raw_channel=1'
raw=$(ls /sys/bus/rpmsg/devices/*.rpmsg-raw.*/rpmsg 2>/dev/null)
like "$($R list 2>/dev/null)" "rpmsg-raw\.1025\.1025 +1025 +1025 +rpmsg_chrdev" "list shows the raw channel bound to rpmsg_chrdev"
like "$($R list 2>/dev/null | grep "^$raw ")" "^$raw +rpmsg-raw +1025 +1025 .*rpmsg-raw" "its endpoint device hangs off the channel"
ok "ping the raw channel's endpoint" $R ping --dev "$raw" -c 100 --size 496
$R ept destroy "$raw" 2>$T/raw.err
is "$?" 1 "the default endpoint cannot be destroyed"
like "$(cat $T/raw.err)" 'default endpoint of a channel cannot be destroyed' "and the hint says why"
exec 3<>"/dev/$raw"
ok "rmmod while the endpoint is open" rmmod rpmsg_loopback
$R send --fd 3 gone 2>$T/gone.err
is "$?" 1 "send on a dead endpoint fails"
like "$(cat $T/gone.err)" 'endpoint has gone' "and says the endpoint has gone"
exec 3>&-
ok "reload loopback" insmod /lib/modules/socbox/rpmsg_loopback.ko
ok "/dev/rpmsg_ctrl0 is back" test -c /dev/rpmsg_ctrl0
done_testing
