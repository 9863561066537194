#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# The seed's matrix in a real kernel: 'dmabufcp bench' over a 128 MiB file on ext4 (4 x 32 MiB
# buffers), page cache dropped before every run, against dd over the same file with the same
# cache state (buffered, and iflag=direct). Then ROUNDS rounds, the order rotating, of dd
# bs=1M buffered and dmabufcp's buffered read into heap:system and into udmabuf, each after
# drop_caches: the per-round throughput ratios dmabufcp/dd as min/median/max, so load from
# outside the guest hits both alike. Prints the table and the ratios as diagnostics
# (bench/dmabuf shows them); asserts only what does not depend on time.
# The methods both kernels have; the rw-file rows (test kernel) are dmabufcp_rwfile.sh's.
# shellcheck source=../lib.sh
. /tests/lib.sh

F=$DATA/dmabufcp-bench
RUNS=5
ROUNDS=9
head -c $((128 * 1048576)) /dev/urandom >"$F"
sync
# QEMU backs guest RAM lazily: the first use of a guest page costs a host page fault (and
# zeroing), which a board does not have. dmabufcp's fresh buffers take the pages just
# dropped, so the page cache of its read lands on pages no one used yet, while dd's read
# reuses them: on a fresh guest dmabufcp paid for that (4.7 s instead of 0.6 s for the
# first 128 MiB read, 10-25% in the next rounds). Touch the free memory once, through a
# tmpfs of that size, before anything is measured.
echo 3 >/proc/sys/vm/drop_caches
free_mb=$(awk '/^MemFree:/ { print int($2 / 1024) }' /proc/meminfo)
mkdir -p /tmp/warm
ok "touch the guest's free memory once ($free_mb MiB free)" sh -c "mount -t tmpfs -o size=$((free_mb - 96))m warm /tmp/warm &&
	dd if=/dev/zero of=/tmp/warm/fill bs=1M count=$((free_mb - 128)) 2>/dev/null; umount /tmp/warm"

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
	diag "ratio: dmabufcp $1 $2 / $4 = ${r:-n/a} (medians of separate runs)"
	like "$r" '^[0-9]+\.[0-9]+$' "ratio dmabufcp $1 $2 / $4 computed"
}
ratio udmabuf sendfile "$dd_buf" "dd buffered"
ratio udmabuf direct "$dd_dir" "dd iflag=direct"

# Alternated rounds: dd bs=1M buffered against dmabufcp's buffered read (IO_MS: the reads
# and the DMA_BUF_IOCTL_SYNC around them, not the allocation), the order rotating.
# The guest's own memory work during a run (/proc/vmstat): direct reclaim and compaction
# stall the reader inside the guest; a run slow with none of it waited outside the guest.
vmstat_mark() { cp /proc/vmstat /tmp/vmstat.before; }
vmstat_delta() { # NAME
	awk -v name="$1" 'NR == FNR { b[$1] = $2; next }
		$1 ~ /^(allocstall_|compact_stall|pgscan_direct$|pgsteal_direct$|pgmajfault$)/ && $2 - b[$1] > 0 {
			printf " %s=%d", $1, $2 - b[$1] }
		END { print "" }' /tmp/vmstat.before /proc/vmstat | sed "s/^/$1:/" >>/tmp/r_vmstat
}
# shellcheck disable=SC3028 # busybox ash has EPOCHREALTIME (microseconds)
one_dd() {
	sync
	echo 3 >/proc/sys/vm/drop_caches
	vmstat_mark
	t0=$EPOCHREALTIME
	dd if="$F" of=/dev/null bs=1M 2>/dev/null
	t1=$EPOCHREALTIME
	vmstat_delta "round $round dd"
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }' >>/tmp/r_dd
}
one_tool() { # NAME BUFFER
	sync
	echo 3 >/proc/sys/vm/drop_caches
	vmstat_mark
	dmabufcp bench --runs 1 -m read -b "$2" -r -n -o STATUS,IO_MS "$F" >/tmp/one 2>&1
	vmstat_delta "round $round $1"
	like "$(cat /tmp/one)" '^ok [0-9.]+$' "round $round: dmabufcp read into $2: $(cat /tmp/one)"
	cut -d' ' -f2 /tmp/one >>"/tmp/r_$1"
}
: >/tmp/r_dd
: >/tmp/r_vmstat
: >/tmp/r_heap
: >/tmp/r_udmabuf
round=0
while [ $round -lt "$ROUNDS" ]; do
	round=$((round + 1))
	case $((round % 3)) in
	0) one_dd; one_tool heap heap:system; one_tool udmabuf udmabuf ;;
	1) one_tool heap heap:system; one_tool udmabuf udmabuf; one_dd ;;
	2) one_tool udmabuf udmabuf; one_dd; one_tool heap heap:system ;;
	esac
done
# throughput ratio per round = dd time / dmabufcp I/O time; min/median/max over the rounds
spread() {
	paste -d' ' /tmp/r_dd "/tmp/r_$1" | awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "min %s median %s max %s", v[1], v[int((NR + 1) / 2)], v[NR]; else print "n/a" }'
}
med() { sort -n "/tmp/r_$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
diag "ratio: $ROUNDS alternated rounds, guest load $(cut -d' ' -f1-3 /proc/loadavg); median ms: dd $(med dd), heap:system read $(med heap), udmabuf read $(med udmabuf)"
for b in heap udmabuf; do
	diag "ratio: per round, $b: $(paste -d' ' /tmp/r_dd "/tmp/r_$b" | awk '$2 > 0 { printf "%.2f ", $1 / $2 }')"
done
# each round's own times: a round slow for dd as well as for dmabufcp is the guest's (host
# load reaches a TCG guest as time), one slow only for dmabufcp would be dmabufcp's
for b in dd heap udmabuf; do
	diag "ratio: per round ms, $b: $(awk '{ printf "%.0f ", $1 }' "/tmp/r_$b")"
done
while IFS= read -r line; do diag "ratio: vmstat $line"; done </tmp/r_vmstat
for b in heap udmabuf; do
	r=$(spread $b)
	diag "ratio: dmabufcp $b read / dd bs=1M buffered, throughput: $r (goal >= 1.0)"
	like "$r" '^min [0-9.]+ median [0-9.]+ max [0-9.]+$' "alternated ratio for $b computed"
done
rm -f "$F"
done_testing
