#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock
# What a shipped kernel answers for the interfaces only the test kernel's patches and test
# modules provide: DMA_BUF_IOCTL_RW_FILE is refused (ENOTTY, exit 3) and auto falls back to
# read; no rpmsg control device and no remote processor (exit 3 with the hint); virtio-net
# refuses a devmem binding (exit 3).
# shellcheck source=../lib.sh
. /tests/lib.sh

D=$DATA/stock
mkdir -p "$D"
head -c 4097 /dev/urandom >"$D/f"
for m in rw-file rw-file-direct; do
	dmabufcp -m "$m" "$D/f" heap:system "$D/out" 2>"$D/err"
	is "$?" 3 "heap $m: exit 3 on a kernel without the patch"
	like "$(cat "$D/err")" "method $m: use: unsupported by this kernel \\(Inappropriate ioctl" "heap $m: the kernel lacks the ioctl (ENOTTY)"
done
out=$(dmabufcp -v "$D/f" heap:system "$D/out" 2>&1)
like "$out" 'auto chose read for in after rw-file-direct: unsupported by this kernel' "heap auto: rw-file refused, read ran"
ok "and the copy is exact" cmp "$D/f" "$D/out"
dmabufcp bench --runs 1 -b heap:system -m read,rw-file -r -o METHOD,STATUS "$D/f" >"$D/bench" 2>&1
is "$?" 0 "bench with the rw-file row exits 0"
like "$(cat "$D/bench")" '^rw-file unsupported$' "bench: rw-file row says unsupported"

# devmem: virtio-net has no queue API, so the kernel refuses bind-rx: exit 3, one line
devmemstat bind --dev eth0 --queues 0 --size 1M --duration 1 >/dev/null 2>"$D/err"
is "$?" 3 "devmemstat bind on virtio-net: exit 3"
like "$(cat "$D/err")" '^devmemstat: eth0: bind-rx: ' "with the kernel's answer"
is "$(wc -l <"$D/err")" 1 "in one line"

rpmsgctl ping -c 1 2>"$D/err"
is "$?" 3 "rpmsgctl ping: exit 3 without an rpmsg control device"
like "$(cat "$D/err")" 'rpmsg_ctrl' "and the hint names rpmsg_ctrl"
rpmsgctl ping --method fd -c 1 2>"$D/err"
is "$?" 3 "rpmsgctl ping --method fd: exit 3"
rpmsgctl rproc status >/dev/null 2>"$D/err"
is "$?" 3 "rpmsgctl rproc status: exit 3 without a remote processor"
like "$(cat "$D/err")" 'no remote processor registered' "and says so"
rm -rf "$D"
done_testing
