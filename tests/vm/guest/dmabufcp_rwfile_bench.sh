#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# The seed thread's table (alloc / read / total ms, % of udmabuf sendfile) with the
# DMA_BUF_IOCTL_RW_FILE rows (tests/vm/patches/0002, system heap) measured next to the other
# methods, page cache dropped, then warm. Timing is printed, never asserted. Apart from
# dmabufcp_rwfile.sh, whose round trips prove the method: this one moves 128 MiB per
# method and run, which only measures TCG on the slower guests.
# shellcheck source=../lib.sh
. /tests/lib.sh

# The seed's matrix: 128 MiB over 4 x 32 MiB buffers, every method, cache dropped.
F=$DATA/rwfile-bench
RUNS=${RWFILE_BENCH_RUNS:-3}
head -c $((128 * 1048576)) /dev/urandom >"$F"
sync
cols=BUFFER,METHOD,STATUS,ALLOC_MS,IO_MS,TOTAL_MS,IO_PCT_OF_REF,NOTE
dmabufcp bench --runs "$RUNS" -o $cols "$F" >/tmp/bench.txt 2>/tmp/bench.err
is "$?" 0 "dmabufcp bench (cache dropped) exits 0"
sed 's/^/# bench: /' /tmp/bench.txt
cat /tmp/bench.err
like "$(grep '^heap:system *rw-file ' /tmp/bench.txt)" '^heap:system +rw-file +ok +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+' "bench: heap rw-file measured, % of the reference shown"
like "$(grep '^heap:system *rw-file-direct ' /tmp/bench.txt)" '^heap:system +rw-file-direct +ok +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9]+' "bench: heap rw-file-direct measured"
like "$(grep '^udmabuf *rw-file ' /tmp/bench.txt)" ' unsupported ' "bench: udmabuf rw-file unsupported (the exporter lacks it)"
like "$(grep '^udmabuf *sendfile ' /tmp/bench.txt)" '^udmabuf +sendfile +ok +[0-9.]+ +[0-9.]+ +[0-9.]+ +100\.00 ' "bench: udmabuf sendfile is the 100 % reference"
dmabufcp bench --cached --runs "$RUNS" -b heap:system -m read,rw-file,rw-file-direct -o $cols "$F" >/tmp/warm.txt 2>&1
is "$?" 0 "dmabufcp bench --cached (heap: read, rw-file, rw-file-direct) exits 0"
sed 's/^/# warm: /' /tmp/warm.txt
rm -f "$F"
done_testing
