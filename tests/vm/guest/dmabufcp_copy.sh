#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# dmabufcp round trips file -> buffer -> file on ext4 (virtio-blk, so O_DIRECT is real), for
# the system heap and udmabuf, every method, sizes around the page and the udmabuf limit;
# all verified bit-exact (--verify, then cmp). rw-file (the test kernel's patch) is
# dmabufcp_rwfile.sh's; the stock kernel's refusal of it is stock_unsupported.sh's.
# shellcheck source=../lib.sh
. /tests/lib.sh

D=$DATA/dmabufcp
rm -rf "$D"
mkdir -p "$D"
for s in 0 1 4095 4096 4097; do
	head -c "$s" /dev/urandom >"$D/f$s"
done
# udmabuf's default size_limit_mb is 64: this one needs two udmabufs
big=$((64 * 1048576 + 1))
head -c "$big" /dev/urandom >"$D/big"
is "$(stat -c %s "$D/big")" "$big" "64 MiB + 1 test file written"

# shellcheck disable=SC2317 # called through ok
roundtrip() { # KIND METHOD FILE
	rm -f "$D/out"
	dmabufcp --verify -m "$2" "$3" "$1" "$D/out" && cmp "$3" "$D/out"
}
# shellcheck disable=SC2317
unsupported() { # KIND METHOD: must exit 3 and say why
	dmabufcp -m "$2" "$D/f4096" "$1" "$D/out" 2>"$D/err"
	rc=$?
	cat "$D/err"
	[ "$rc" -eq 3 ] && grep -q "unsupported\|does not apply" "$D/err"
}

for kind in heap:system udmabuf; do
	for m in auto read direct sendfile splice; do
		if [ "$kind" = heap:system ] && { [ "$m" = sendfile ] || [ "$m" = splice ]; }; then
			ok "$kind $m: refused with exit 3 (needs a memfd)" unsupported "$kind" "$m"
			continue
		fi
		for s in 0 1 4095 4096 4097; do
			ok "$kind $m: $s bytes round trip, verified" roundtrip "$kind" "$m" "$D/f$s"
		done
		ok "$kind $m: 64 MiB + 1 round trip, verified" roundtrip "$kind" "$m" "$D/big"
	done
	ok "$kind copy-range: unsupported by this kernel, exit 3" unsupported "$kind" copy-range
done

out=$(dmabufcp -J --verify -m direct "$D/big" udmabuf "$D/out")
like "$out" '"buffers": 2' "udmabuf: 64 MiB + 1 split over two buffers (size_limit_mb 64)"
like "$out" '"method": "direct"' "udmabuf direct: O_DIRECT ran"
like "$out" '"direct_bytes": 67108864' "udmabuf direct: the aligned 64 MiB went by O_DIRECT"
like "$out" '"verified": true' "JSON says verified"
like "$out" '"verified_output": true' "JSON says the output file was checked"
# --format ktap: a test per step, read as kselftest reads the kernel's own
out=$(dmabufcp --verify --format ktap "$D/f4097" udmabuf "$D/out")
echo "$out" | sed 's/^/# /'
like "$out" '^ok 2 to_buffer$' "KTAP: into the buffer"
like "$out" '^ok 3 from_buffer$' "KTAP: out of it"
like "$out" '^ok 4 verify$' "KTAP: verified"
out=$(dmabufcp --verify --format ktap "$D/f4097" udmabuf /nonexistent/out 2>/dev/null)
like "$out" '^not ok 3 from_buffer$' "KTAP: a destination that cannot be written fails from_buffer"
like "$out" '^ok 4 verify # SKIP not run: from_buffer failed$' "... and verify is skipped, saying why"
out=$(dmabufcp -v "$D/big" udmabuf "$D/out" 2>&1)
diag "$out"
like "$out" 'auto chose direct for in after rw-file-direct: ' "-v: auto probed rw-file-direct, then chose O_DIRECT into the udmabuf"
like "$out" 'limited to 64 MiB each by udmabuf' "-v: explains the udmabuf size limit split"
out=$(dmabufcp -J -m direct "$D/f4097" heap:system "$D/out")
like "$out" 'direct fell back to read' "heap direct: O_DIRECT into the heap mapping falls back, and says so"
out=$(dmabufcp -J -s 4096 "$D/f4097" heap:system "$D/out")
like "$out" '"buffers": 2' "--chunk-size 4096 splits 4097 bytes over two buffers"
ok "chunked heap copy is bit-exact" cmp "$D/f4097" "$D/out"

# tmpfs: O_DIRECT may be missing (EINVAL) -> falls back; either way the copy is exact
head -c 10000 /dev/urandom >/tmp/t10000
ok "udmabuf direct from tmpfs: copy succeeds (O_DIRECT or fallback)" roundtrip udmabuf direct /tmp/t10000
# stdin and stdout
# shellcheck disable=SC2317,SC2002 # a pipe on purpose: stdin must not be a regular file
pipe_copy() { cat "$D/f4097" | dmabufcp --verify - udmabuf - >"$D/out" && cmp "$D/f4097" "$D/out"; }
ok "stdin pipe -> udmabuf -> stdout, exact" pipe_copy
# --verify with DST '-': stdout cannot be read back, so the bytes are hashed as they are
# written. A buffer that changes while it is being written must fail the verification.
# shellcheck disable=SC2002 # stdin must be a pipe here, not the file
out=$(cat "$D/f4097" | dmabufcp -v --verify - udmabuf - 2>&1 >"$D/out")
ok "--verify to stdout: exact" cmp "$D/f4097" "$D/out"
like "$out" 'verified stdout: the bytes were hashed' "--verify to stdout: -v says what was verified"
head -c 1048576 /dev/urandom >"$D/m1"
head -c 1048576 /dev/urandom >"$D/m2"
rm -f "$D/hold" "$D/fifo"
dmabufcp --hold 60 "$D/m1" udmabuf >"$D/hold" &
holder=$!
i=0
while [ ! -s "$D/hold" ] && [ $i -lt 500 ]; do usleep 20000; i=$((i + 1)); done
buf=$(cat "$D/hold")
like "$buf" '^[0-9]+:[0-9]+$' "holder printed its PID:FD"
mkfifo "$D/fifo"
dmabufcp --verify "$buf" - >"$D/fifo" 2>"$D/err" &
writer=$!
exec 3<"$D/fifo"
# the first byte out means the writer has taken (and hashed) its first 1 MiB piece
dd bs=1 count=1 <&3 >/dev/null 2>&1
ok "the held buffer is overwritten while it is written to a blocked stdout" dmabufcp "$D/m2" "$buf"
cat <&3 >/dev/null
exec 3<&-
wait "$writer"
is "$?" 1 "--verify to stdout: a buffer that changed during the write exits 1"
like "$(cat "$D/err")" 'written to stdout from buffer 0 .*differ' "... and says the written bytes differ"
kill "$holder"
wait "$holder"
rm -f "$D/fifo" "$D/hold"
# --hold with DST '-': the PID:FD lines go to stderr, stdout carries only the data
dmabufcp --hold 0.1 "$D/f4097" udmabuf - >"$D/out" 2>"$D/err"
is "$?" 0 "--hold with DST -: exit 0"
ok "--hold with DST -: stdout is exactly the data" cmp "$D/f4097" "$D/out"
like "$(cat "$D/err")" '^[0-9]+:[0-9]+$' "--hold with DST -: PID:FD printed on stderr"
out=$(dmabufcp --hold 0.1 "$D/f4097" udmabuf)
like "$out" '^[0-9]+:[0-9]+$' "--hold without DST: PID:FD printed on stdout"
rm -rf "$D" /tmp/t10000
done_testing
