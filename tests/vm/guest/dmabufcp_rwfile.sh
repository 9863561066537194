#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# DMA_BUF_IOCTL_RW_FILE (tests/vm/patches/0002, system heap) on ext4 over virtio-blk: the
# ioctl's semantics (socbox-vmprobe dmabuf-rw, EBUSY through socbox_dmabuf_holder), dmabufcp
# round trips file -> heap buffer -> file with rw-file and rw-file-direct at every size of
# dmabufcp_copy.sh, verified; udmabuf refusing it; what auto picks. The seed thread's table
# with the rw-file rows is dmabufcp_rwfile_bench.sh.
# shellcheck source=../lib.sh
. /tests/lib.sh

D=$DATA/rwfile
rm -rf "$D"
mkdir -p "$D"
ok "DMA_BUF_IOCTL_RW_FILE: both directions, buffered and DIRECT, refusals, EBUSY" socbox-vmprobe dmabuf-rw "$D"

for s in 0 1 4095 4096 4097; do
	head -c "$s" /dev/urandom >"$D/f$s"
done
big=$((64 * 1048576 + 1))
head -c "$big" /dev/urandom >"$D/big"
# shellcheck disable=SC2317 # called through ok
roundtrip() { # METHOD FILE
	rm -f "$D/out"
	dmabufcp --verify -m "$1" "$2" heap:system "$D/out" && cmp "$2" "$D/out"
}
for m in rw-file rw-file-direct; do
	for s in 0 1 4095 4096 4097; do
		ok "heap $m: $s bytes round trip, verified" roundtrip "$m" "$D/f$s"
	done
	ok "heap $m: 64 MiB + 1 round trip, verified" roundtrip "$m" "$D/big"
done
out=$(dmabufcp -J --verify -m rw-file-direct "$D/big" heap:system "$D/out")
like "$(echo "$out" | tr -d ' \n')" '"direction":"in","file_offset":0,"size_bytes":67108865,"method":"rw-file-direct","requested":"rw-file-direct","direct_bytes":67108864' \
	"rw-file-direct in: the aligned 64 MiB went with DIRECT, the last byte buffered"
like "$(echo "$out" | tr -d ' \n')" '"direction":"out","file_offset":0,"size_bytes":67108865,"method":"rw-file-direct","requested":"rw-file-direct","direct_bytes":67108864' \
	"rw-file-direct out: the same"
like "$out" '"verified": true' "and verified"
ok "rw-file-direct to and from tmpfs (O_DIRECT since 6.6)" dmabufcp --verify -m rw-file-direct "$D/f4097" heap:system /tmp/out
ok "and the copy is exact" cmp "$D/f4097" /tmp/out

dmabufcp -m rw-file "$D/f4096" udmabuf "$D/out" 2>"$D/err"
is "$?" 3 "udmabuf rw-file: exit 3"
like "$(cat "$D/err")" 'udmabuf exporter does not implement DMA_BUF_IOCTL_RW_FILE' "and says the exporter lacks it (not the kernel)"

out=$(dmabufcp -v "$D/big" heap:system "$D/out" 2>&1)
diag "$out"
like "$out" 'auto chose rw-file-direct for in' "heap auto: rw-file-direct in"
like "$out" 'auto chose rw-file-direct for out' "heap auto: rw-file-direct out"
ok "heap auto round trip is exact" cmp "$D/big" "$D/out"
rm -rf "$D"

done_testing
