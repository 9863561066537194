#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# The fd endpoint path (RPMSG_CREATE_EPT_FD_IOCTL, tests/vm/patches/0001) against the
# loopback rpmsg device: the ioctl's semantics (socbox-vmprobe rpmsg-fd), rpmsgctl ping /
# send / recv over fd endpoints, auto picking fd and saying so, legacy still there when
# asked for, no device node and no uevent, the backend removed under an open fd endpoint,
# and the seed thread's legacy/fd bench table.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/rpmsgctl_fd
mkdir -p $T

ok "RPMSG_CREATE_EPT_FD_IOCTL: flags, anonymous inode, echo, ioctls, DESTROY, no node, no uevent" \
	socbox-vmprobe rpmsg-fd /dev/rpmsg_ctrl0

# --- ping over fd endpoints, every byte checked ---
for size in 1 64 496; do
	ok "ping --method fd 1000 x $size bytes" sh -c "$R ping --method fd -c 1000 --size $size -P >$T/ping$size 2>&1"
	like "$(cat $T/ping$size)" '^METHOD="fd"' "ping $size: the fd path ran"
	like "$(cat $T/ping$size)" '^RECEIVED="1000"' "ping $size: 1000 echoes received"
	like "$(cat $T/ping$size)" '^CORRUPT="0"' "ping $size: every byte matched"
	like "$(cat $T/ping$size)" '^LOST="0"' "ping $size: none lost"
done
$R ping --method fd -c 1 --size 497 2>$T/ping497.err
is "$?" 1 "ping --method fd 497 bytes is refused with exit 1"

# --- auto picks fd and says so; legacy when asked ---
seq=$(cat /sys/kernel/uevent_seqnum)
ok "ping (auto) -v" sh -c "$R ping -c 50 -v -P >$T/auto 2>$T/auto.err"
like "$(cat $T/auto.err)" 'endpoint created by the fd path' "auto took the fd path (verbose)"
like "$(cat $T/auto)" '^METHOD="fd"' "and reports it"
is "$(cat /sys/kernel/uevent_seqnum)" "$seq" "an fd endpoint's life sends no uevent"
is "$(endpoint_devices)" 0 "and leaves no endpoint device"
like "$($R ping -c 5 -J | tr -d ' \n')" '"method":"fd"' "ping -J: method fd"
ok "ping --method legacy still works" sh -c "$R ping --method legacy -c 20 -P >$T/legacy 2>&1"
like "$(cat $T/legacy)" '^METHOD="legacy"' "and the legacy path ran"
is "$(endpoint_devices)" 0 "legacy left no endpoint device"

# --- send and recv through fd endpoints ---
ok "send --method fd -v" sh -c "$R send --method fd -v hello >$T/send 2>$T/send.err"
like "$(cat $T/send.err)" 'endpoint created by the fd path' "send used an fd endpoint"
head -c 1000 /dev/zero | tr '\0' 'z' >$T/big
ok "send --method fd --split 1000 bytes" $R send --method fd --split --file $T/big
$R recv --method fd -c 1 --timeout 300ms -v >$T/recv 2>$T/recv.err
is "$?" 1 "recv on a fresh fd endpoint times out with exit 1 (nobody sends to it)"
like "$(cat $T/recv.err)" 'endpoint created by the fd path' "recv used an fd endpoint"
like "$(cat $T/recv.err)" 'no message within 300 ms' "and says it timed out"
is "$(endpoint_devices)" 0 "send/recv left no endpoint device"

# --- the endpoint dies with the backend ---
ok "rmmod rpmsg_loopback under an open fd endpoint: EPIPE, DESTROY, close" \
	socbox-vmprobe rpmsg-fd-gone /dev/rpmsg_ctrl0 rpmsg_loopback
ok "insmod rpmsg_loopback again" insmod /lib/modules/socbox/rpmsg_loopback.ko
ok "fd endpoints work after reloading" socbox-vmprobe rpmsg-fd /dev/rpmsg_ctrl0

# --- the seed thread's table: legacy vs fd create/destroy ---
LOOPS=${RPMSG_FD_BENCH_LOOPS:-1000}
ok "bench --require-fd $LOOPS loops, 3 runs" sh -c "$R bench --require-fd --loops $LOOPS --runs 3 >$T/bench 2>&1"
sed 's/^/# bench: /' $T/bench
like "$(cat $T/bench)" "^ +1 +$LOOPS +[0-9]+ +[0-9]+ +[0-9.]+ +ok" "run 1 has legacy and fd totals and a ratio"
ok "bench -J" sh -c "$R bench --loops 100 -J >$T/bench.json"
like "$(tr -d ' \n' <$T/bench.json)" '"fd_path":"ok"' "JSON: fd path ok"
like "$(tr -d ' \n' <$T/bench.json)" '"method":"fd","op":"create"' "JSON: per-op statistics for fd"
is "$(endpoint_devices)" 0 "bench leaves no endpoint device"
done_testing
