#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Numbers for a person in the text modes (sizes as lsblk prints them, ratios as
# percentages), the same numbers in base units in JSON; lists as JSON arrays and objects
# beside the strings they were hidden in; a list item with a comma reads one way.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
NL=$F/netlink/devmem-nic.nl

t_run "dmabufcp ls" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf"
t_grep "a 8294400-byte buffer reads 7.9M" '^ +31 +7\.9M linux,cma ' "$T_TMP/out"
t_grep "total_bytes with its unit, under the name without _BYTES" '^total: 22\.9M$' "$T_TMP/out"
t_run "dmabufcp ls --bytes" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" --bytes
t_grep "--bytes: the exact size" '^ +31 +8294400 +linux,cma ' "$T_TMP/out"
t_grep "--bytes: fields too" '^total_bytes: 23989248$' "$T_TMP/out"
t_run "devmemstat pools -P --bytes" 0 "$SOCBOX" devmemstat pools -P --bytes --load-netlink "$NL"
t_grep "pairs --bytes: exact bytes, the ratio still a percentage" '^POOL_ID="10" .*INFLIGHT_MEM_BYTES="4194304" .*RECYCLE_RATE="99\.0%"$' "$T_TMP/out"
t_run "dmabufcp ls -J" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" -J
t_jq "JSON keeps the bytes" '(.buffers[] | select(.inode == 31) | .size_bytes) == 8294400 and .total_bytes == 23989248' "$T_TMP/out"

t_run "devmemstat pools -P" 0 "$SOCBOX" devmemstat pools -P --load-netlink "$NL"
t_grep "pairs: memory and recycle ratio for a person" '^POOL_ID="10" .*INFLIGHT_MEM="4M" .*RECYCLE_RATE="99\.0%"$' "$T_TMP/out"
t_run "devmemstat show" 0 "$SOCBOX" devmemstat show --load-netlink "$NL"
t_grep "the device's recycle ratio the same way" ' 40M +99\.0%$' "$T_TMP/out"
t_run "devmemstat pools -J" 0 "$SOCBOX" devmemstat pools -J --load-netlink "$NL"
t_jq "JSON keeps the ratio and the bytes" '(.pools[] | select(.pool_id == 10) | (.recycle_rate > 0.9898 and .recycle_rate < 0.9899) and .inflight_mem_bytes == 4194304)' "$T_TMP/out"

t_run "smmustat -J" 0 "$SOCBOX" smmustat --sysroot "$F/arm64-soc" -J
t_jq "domain counts as an object, the string kept" '.instances[0].domains == {"dma": 3, "identity": 1} and .instances[0].domain == "DMA:3,identity:1"' "$T_TMP/out"

t_run "dmabufcp heaps -r -o NAME" 0 "$SOCBOX" dmabufcp heaps --sysroot "$F/am62x-dmabuf" -r -n -o NAME
t_grep "a heap named with a comma is one field" '^linux,cma$' "$T_TMP/out"
t_done
