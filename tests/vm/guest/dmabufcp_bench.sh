#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# The seed's matrix in a real kernel: 'dmabufcp bench' over a 128 MiB file on ext4 (4 x 32 MiB
# buffers), page cache dropped before every run, against dd over the same file with the same
# cache state (buffered, and iflag=direct). Prints the table and the dmabufcp/dd throughput
# ratios as diagnostics (bench/dmabuf shows them); asserts only what does not depend on time.
# The methods both kernels have; the rw-file rows (test kernel) are dmabufcp_rwfile.sh's.
# shellcheck source=../lib.sh
. /tests/lib.sh

F=$DATA/dmabufcp-bench
RUNS=5
head -c $((128 * 1048576)) /dev/urandom >"$F"
sync

dmabufcp bench --runs "$RUNS" -m read,direct,sendfile,splice,copy-range -r -o BUFFER,METHOD,STATUS,ALLOC_MS,IO_MS,TOTAL_MS,MBPS,PCT_OF_FASTEST,NOTE "$F" >/tmp/bench.txt 2>/tmp/bench.err
is "$?" 0 "dmabufcp bench exits 0"
sed "s/\\\\x20/ /g" /tmp/bench.txt | while IFS= read -r line; do diag "bench: $line"; done
cat /tmp/bench.err
is "$(grep -c '^heap:system \|^udmabuf ' /tmp/bench.txt)" 10 "bench: 2 buffer kinds x 5 methods"
like "$(grep '^udmabuf copy-range ' /tmp/bench.txt)" ' unsupported ' "bench: copy-range shown as unsupported"
like "$(grep '^heap:system direct ' /tmp/bench.txt)" ' fallback ' "bench: heap direct shown as a fallback"
like "$(grep '^udmabuf direct ' /tmp/bench.txt)" '^udmabuf direct ok [0-9.]+ [0-9.]+ [0-9.]+ [0-9.]+' "bench: udmabuf direct measured"
like "$(grep '^udmabuf sendfile ' /tmp/bench.txt)" '^udmabuf sendfile ok [0-9.]+' "bench: udmabuf sendfile measured"
like "$(dmabufcp bench -J --runs 1 -m read -b udmabuf "$F")" '"page_cache": "dropped"' "bench -J reports the cache state"

# dd over the same file, same cache state: dropped before every run; median of RUNS.
# shellcheck disable=SC3028 # busybox ash has EPOCHREALTIME (microseconds)
dd_ms() { # dd options...
	i=0
	while [ $i -lt "$RUNS" ]; do
		sync
		echo 3 >/proc/sys/vm/drop_caches
		t0=$EPOCHREALTIME
		dd if="$F" of=/dev/null "$@" 2>/dev/null
		t1=$EPOCHREALTIME
		awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }'
		i=$((i + 1))
	done | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
size=$(stat -c %s "$F")
# busybox dd is ~10x slower buffered with bs=32M than with bs=1M here: take its best case
dd_buf_ms=$(dd_ms bs=1M)
dd_dir_ms=$(dd_ms bs=32M iflag=direct)
mbps() { awk -v s="$size" -v ms="$1" 'BEGIN { printf "%.1f", s / 1000 / ms }'; }
dd_buf=$(mbps "$dd_buf_ms")
dd_dir=$(mbps "$dd_dir_ms")
diag "dd bs=1M buffered: $dd_buf_ms ms, $dd_buf MB/s; dd bs=32M iflag=direct: $dd_dir_ms ms, $dd_dir MB/s"
like "$dd_buf" '^[0-9]+\.[0-9]$' "dd buffered measured"
like "$dd_dir" '^[0-9]+\.[0-9]$' "dd iflag=direct measured"

ratio() { # BUFFER METHOD DD_MBPS LABEL
	r=$(awk -v b="$1" -v m="$2" -v d="$3" '$1 == b && $2 == m && $3 != "unsupported" && $3 != "failed" { printf "%.2f", $7 / d }' /tmp/bench.txt)
	diag "ratio: dmabufcp $1 $2 / $4 = ${r:-n/a} (goal >= 0.95)"
	like "$r" '^[0-9]+\.[0-9]+$' "ratio dmabufcp $1 $2 / $4 computed"
}
ratio heap:system read "$dd_buf" "dd buffered"
ratio udmabuf read "$dd_buf" "dd buffered"
ratio udmabuf sendfile "$dd_buf" "dd buffered"
ratio udmabuf direct "$dd_dir" "dd iflag=direct"
rm -f "$F"
done_testing
