#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor on a CMA area fragmented on this kernel (its boot has cma=32M): through
# CMA's own debugfs (mm/cma_debug.c; CONFIG_CMA_DEBUGFS), each round allocates 2 MiB from
# the area and gives the first half back, leaving a free run of 1 MiB that the next round's
# 2 MiB does not fit in (cma_alloc() takes the first free range long enough). Half the area
# is then free, in runs of 1 MiB: doctor --buffer-size 4M names dmabuf.cma-fragmented, with
# the counts the kernel shows; a size that fits the longest run, or that the free total
# does not cover, is no fragmentation, nor is the area once given back. Fragmented again, a
# 4 MiB buffer from the area's heap fails though 16 MiB are free: the kernel logs the
# failure with the free runs (mm/cma.c), and doctor names it from the log alone.
# Everything is given back at the end; the failure stays in the kernel log.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
A=/sys/kernel/debug/cma/reserved
run=256 # pages, 1 MiB with 4 KiB pages: the free runs the pattern leaves

ok "the CMA area of cma=32M in debugfs" test -d $A
is "$(cat $A/order_per_bit)" 0 "kept page by page (order_per_bit 0): a part of an allocation can be freed"
ok "and its heap" test -c /dev/dma_heap/reserved
count=$(cat $A/count)
used0=$(cat $A/used)
like "$count" '^[0-9]+$' "the area counts $count pages"
unlike "$(doctor_causes --buffer-size 4M)" '^dmabuf\.cma-fragmented ' "doctor --buffer-size 4M: not fragmented before"

# allocate 2 runs, free the first (debugfs free takes the last allocation first, and frees
# the start of it); at most one round per 2 runs of the area
fragment() {
	rounds=0
	while [ "$(cat $A/maxchunk)" -ge $((2 * run)) ] && [ $rounds -lt $((count / (2 * run))) ]; do
		echo $((2 * run)) >$A/alloc || break
		echo $run >$A/free || break
		rounds=$((rounds + 1))
	done
	used=$(cat $A/used)
	maxchunk=$(cat $A/maxchunk)
	free=$((count - used))
	diag "$rounds rounds: $used of $count pages used, $free free, the longest free run $maxchunk pages"
}
fragment
ok "the longest free run is below 2 MiB" test "$maxchunk" -lt $((2 * run))
ok "though more than 4 MiB is free" test "$free" -ge 1024
is "$(dmesg | grep -c 'cma: .*alloc failed')" 0 "no allocation failed on the way"

like "$(doctor_causes --buffer-size 4M)" '^dmabuf\.cma-fragmented reserved$' \
	"doctor --buffer-size 4M: the area is fragmented"
like "$(doctor_cause dmabuf.cma-fragmented reserved diagnosis --buffer-size 4M)" \
	'^"CMA area reserved has [0-9.]+[KM] free but its longest free run is [0-9.]+[KM]: a buffer of 4M \(--buffer-size\) does not fit"$' \
	"doctor: what is free, the longest run, the size asked"
diag "doctor: $(doctor_cause dmabuf.cma-fragmented reserved diagnosis --buffer-size 4M)"
is "$(doctor_cause dmabuf.cma-fragmented reserved evidence --buffer-size 4M)" \
	"\"/sys/kernel/debug/cma/reserved: count $count, used $used, maxchunk $maxchunk pages\"" \
	"doctor: the kernel's counts as evidence"
is "$("$SOCBOX" doctor --buffer-size 4M -r -n -o subsystem,status | sed -n 's/^dmabuf //p')" degraded \
	"doctor --buffer-size 4M: dmabuf degraded"
unlike "$(doctor_causes --buffer-size $((maxchunk * 4))K)" '^dmabuf\.cma-fragmented ' \
	"doctor --buffer-size $((maxchunk * 4))K (the longest run): no cause"
unlike "$(doctor_causes --buffer-size 64M)" '^dmabuf\.cma-fragmented ' \
	"doctor --buffer-size 64M (more than is free): not fragmentation"

ok "give everything back" sh -c "echo $count >$A/free"
is "$(cat $A/used)" "$used0" "the area is as it was ($used0 pages used)"
unlike "$(doctor_causes --buffer-size 4M)" '^dmabuf\.cma-fragmented ' "doctor --buffer-size 4M: no longer fragmented"

# what an application meets
fragment
ok "fragmented again: the longest free run below 1 MiB + 1 page" test "$maxchunk" -le $run
dd if=/dev/zero of=/tmp/cma4m bs=1M count=4 2>/dev/null
dmabufcp /tmp/cma4m heap:reserved /tmp/cma4m.out 2>/tmp/cma4m.err
is "$?" 1 "a 4 MiB buffer from the reserved heap fails though $free pages are free"
diag "dmabufcp: $(cat /tmp/cma4m.err)"
fail=$(dmesg | grep 'cma: .*: reserved: alloc failed' | tail -n1 | sed 's/^\[[ 0-9.]*\] //')
like "$fail" '^cma: __cma_alloc_frozen: reserved: alloc failed, req-size: 1024 pages, ret: -[0-9]+$' \
	"the kernel logged the failed request"
diag "kernel: $(dmesg | grep -A4 'cma: .*alloc failed' | tail -n5 | sed 's/^\[[ 0-9.]*\] //' | tr '\n' '|')"
like "$(doctor_causes)" '^dmabuf\.cma-fragmented reserved$' "doctor (no --buffer-size): fragmented, from the kernel log"
is "$(doctor_cause dmabuf.cma-fragmented reserved diagnosis)" \
	"\"CMA area reserved: a request for 1024 pages failed with $free of $count pages free, the longest free run $maxchunk pages: the area is fragmented\"" \
	"doctor: the request, what was free and the longest run, as the kernel printed them"
is "$(doctor_cause dmabuf.cma-fragmented reserved evidence)" \
	"\"kernel log: $fail; => $free free of $count total pages\"" \
	"doctor: the kernel's records as evidence"
rm -f /tmp/cma4m /tmp/cma4m.out /tmp/cma4m.err
ok "give everything back" sh -c "echo $count >$A/free"
is "$(cat $A/used)" "$used0" "the area is as it was"
# the failure stays in the log, but the area has its run again: the record is answered
unlike "$(doctor_causes)" '^dmabuf\.cma-fragmented ' "doctor once given back: the old record raises nothing"
done_testing
