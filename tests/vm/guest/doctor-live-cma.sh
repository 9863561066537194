#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor on a CMA area fragmented on this kernel (its boot has cma=32M): through
# CMA's own debugfs (mm/cma_debug.c; CONFIG_CMA_DEBUGFS), each round allocates 2 MiB from
# the area and gives the first half back, leaving a free run of 1 MiB that the next round's
# 2 MiB does not fit in (cma_alloc() takes the first free range long enough). Half the area
# is then free, in runs of 1 MiB: doctor --buffer-size 4M names dmabuf.cma-fragmented, with
# the counts the kernel shows; a size that fits the longest run, or that the free total
# does not cover, is no fragmentation. Everything is given back at the end.
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
done_testing
