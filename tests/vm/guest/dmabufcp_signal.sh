#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# No data lost: SIGINT while dmabufcp writes its output leaves nothing at DST (the temporary
# beside it is removed), and a full file system is an error, never a short output.
# shellcheck source=../lib.sh
. /tests/lib.sh

D=$DATA/dmabufcp-sig
rm -rf "$D"
mkdir -p "$D"
head -c $((64 * 1048576 + 1)) /dev/urandom >"$D/big"

# the temporary output exists: the copy is then writing it
# shellcheck disable=SC2317 # called through wait_for
tmp_exists() { ls "$D"/.out.dmabufcp-* >/dev/null 2>&1; }

# socbox-sigdfl: the shell starts a background job with SIGINT ignored (dmabufcp keeps a
# signal ignored on entry, as under nohup). SIGSTOP holds the copy where the temporary output
# exists and nothing is committed yet, so the SIGINT cannot come after the end of the copy.
for kind in heap:system udmabuf; do
	rm -f "$D/out" "$D"/.out.dmabufcp-*
	socbox-sigdfl dmabufcp --verify -m read -s 64K "$D/big" "$kind" "$D/out" 2>"$D/err" &
	pid=$!
	ok "$kind: temporary output appeared while copying" wait_for tmp_exists
	kill -STOP "$pid"
	ok "$kind: ... and is still there with the copy held" ls "$D"/.out.dmabufcp-*
	kill -INT "$pid"
	kill -CONT "$pid"
	wait "$pid"
	is "$?" 1 "$kind: SIGINT mid-copy exits 1"
	like "$(cat "$D/err")" 'interrupted by signal 2' "$kind: and says it was interrupted"
	ok "$kind: no file at DST" test ! -e "$D/out"
	# shellcheck disable=SC2010 # names are ours
	is "$(ls -A "$D" | grep -c dmabufcp)" 0 "$kind: no temporary left behind"
done

# SIGINT while writing to stdout: part of the data may already be out, and the message must
# say so instead of claiming nothing was written. A fifo nobody drains blocks the write; the
# first byte read from it shows that the data has started to go out.
rm -f "$D/fifo"
mkfifo "$D/fifo"
socbox-sigdfl dmabufcp -m read "$D/big" udmabuf - >"$D/fifo" 2>"$D/err" &
pid=$!
exec 3<"$D/fifo"
is "$(dd bs=1 count=1 <&3 2>/dev/null | wc -c | tr -d ' ')" 1 "DST -: the data started to come out"
kill -INT "$pid"
wait "$pid"
is "$?" 1 "DST -: SIGINT mid-write exits 1"
exec 3<&-
like "$(cat "$D/err")" 'interrupted by signal 2' "DST -: says it was interrupted"
like "$(cat "$D/err")" 'may already be on standard output' "DST -: warns that part of the data went out"
not_ok "DST -: does not claim nothing was written" grep -q "nothing was written" "$D/err"
rm -f "$D/fifo"

# A source that shrinks during the copy is an error (exit 1) and DST is not written. The
# copy is held (SIGSTOP) once it writes its output, after reading the source and before
# --verify reads it again; the source shrinks meanwhile.
head -c $((32 * 1048576)) /dev/urandom >"$D/shrink"
rm -f "$D/out"
dmabufcp --verify -s 64K "$D/shrink" udmabuf "$D/out" 2>"$D/err" &
pid=$!
ok "shrink: temporary output appeared while copying" wait_for tmp_exists
kill -STOP "$pid"
truncate -s 1048576 "$D/shrink"
kill -CONT "$pid"
wait "$pid"
is "$?" 1 "source truncated mid-copy: exit 1"
like "$(cat "$D/err")" 'shrank|differs from buffer' "... says the source ended early or differs"
ok "... and nothing at DST" test ! -e "$D/out"
# shellcheck disable=SC2010
is "$(ls -A "$D" | grep -c dmabufcp)" 0 "... and no temporary left behind"

# ENOSPC: a 1 MiB tmpfs cannot take 2 MiB
mkdir -p /tmp/dmabufcp-small
mount -t tmpfs -o size=1m tmpfs /tmp/dmabufcp-small
head -c 2097152 /dev/urandom >"$D/two"
dmabufcp "$D/two" udmabuf /tmp/dmabufcp-small/out 2>"$D/err"
is "$?" 1 "ENOSPC: exit 1"
like "$(cat "$D/err")" 'No space left|file system is full' "ENOSPC: says the file system is full"
is "$(ls -A /tmp/dmabufcp-small | wc -l)" 0 "ENOSPC: neither output nor temporary left"
umount /tmp/dmabufcp-small
rm -rf "$D"
done_testing
