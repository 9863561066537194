#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# dmabufcp ls and heaps on a dump of an AM62x board (weston, a camera pipeline, a CMA heap).
# shellcheck disable=SC2086 # $D is "$SOCBOX dmabufcp": split into words on purpose
. "$SOCBOX_TESTLIB"
B=$SOCBOX_FIXTURES/am62x-dmabuf
D="$SOCBOX dmabufcp"

t_run "ls on the dump" 0 $D ls --sysroot "$B"
t_grep "ls shows the camera buffer by name" '^ +45 +3M system +cam-rx0 +913/gst-launch-1.0:fd11,913/gst-launch-1.0:map$' "$T_TMP/out"
t_grep "ls shows a CMA buffer shared by weston and another process" '612/weston:fd18,612/weston:map,1022/kmsxc:fd5' "$T_TMP/out"
t_grep "ls has the per-process totals" '^ +612 weston +3 +15.9M +16M +15.9M$' "$T_TMP/out"
t_grep "ls has the per-exporter totals" '^linux,cma +2 +15.8M$' "$T_TMP/out"

t_run "ls -J" 0 $D ls -J --sysroot "$B"
t_json "ls -J" "$T_TMP/out"
t_jq "six buffers" '.total_buffers == 6 and (.buffers | length) == 6' "$T_TMP/out"
t_jq "total bytes agree with bufinfo's footer" '.total_bytes == 23989248' "$T_TMP/out"
t_jq "bufinfo was read" '.bufinfo == true' "$T_TMP/out"
t_jq "holders of buffer 31" '(.buffers[] | select(.inode == 31) | .holders) == ["612/weston:fd18","612/weston:map","1022/kmsxc:fd5"]' "$T_TMP/out"
t_jq "an unnamed buffer has name null" '(.buffers[] | select(.inode == 51) | .name) == null' "$T_TMP/out"
t_jq "processes sorted by pid" '[.processes[].pid] == [612, 913, 1022]' "$T_TMP/out"
t_jq "gst maps two buffers" '(.processes[] | select(.pid == 913) | .map_bytes) == 6217728' "$T_TMP/out"
t_jq "system exporter total" '(.exporters[] | select(.exporter == "system") | .size_bytes) == 6351872' "$T_TMP/out"

t_run "ls -o +ATTACHED,COUNT -J" 0 $D ls -J -o +ATTACHED,COUNT --sysroot "$B"
t_jq "attached devices from bufinfo" '(.buffers[] | select(.inode == 45) | .attached) == ["30102000.ticsi2rx"]' "$T_TMP/out"
t_jq "refcount from bufinfo" '(.buffers[] | select(.inode == 31) | .count) == 4' "$T_TMP/out"

t_run "ls --pid 913" 0 $D ls -J --pid 913 --sysroot "$B"
t_jq "--pid keeps that process's three buffers" '[.buffers[].inode] == [45, 46, 51] and (.processes | length) == 1' "$T_TMP/out"
t_run "ls --pid of a process that is not there" 3 $D ls --pid 4242 --sysroot "$B"
t_grep "... says which" 'no process 4242' "$T_TMP/err"
t_run "ls -o with an unknown column" 2 $D ls -o BOGUS --sysroot "$B"
t_run "ls -H" 0 $D ls -H -r -n
t_grep "ls -H lists HOLDERS" '^HOLDERS ' "$T_TMP/out"

# without debugfs: buffers still come from fdinfo and maps, and a note says what is missing
cp -a "$B" "$T_TMP/nodebugfs"
rm -r "$T_TMP/nodebugfs/sys/kernel/debug"
t_run "ls without bufinfo" 0 $D ls -J --sysroot "$T_TMP/nodebugfs"
t_jq "same six buffers from fdinfo and maps" '.total_buffers == 6 and .bufinfo == false' "$T_TMP/out"
t_jq "a note names debugfs" '.notes | any(test("debugfs"))' "$T_TMP/out"
t_jq "sizes from fdinfo" '(.buffers[] | select(.inode == 57) | .size_bytes) == 131072' "$T_TMP/out"

t_run "heaps on the dump" 0 $D heaps --sysroot "$B"
t_grep "system heap listed" '^system +/dev/dma_heap/system' "$T_TMP/out"
t_grep "CMA heap listed" '^linux,cma +/dev/dma_heap/linux,cma' "$T_TMP/out"
t_run "heaps -J" 0 $D heaps -J --sysroot "$B"
t_json "heaps -J" "$T_TMP/out"
t_jq "udmabuf limit from size_limit_mb" '(.heaps[] | select(.name == "udmabuf") | .size_limit_bytes) == 67108864 and (.heaps[] | select(.name == "udmabuf") | .list_limit) == 1024' "$T_TMP/out"
t_jq "device permissions are unknown offline" '(.heaps[] | select(.name == "system") | .can_alloc) == null' "$T_TMP/out"

mkdir -p "$T_TMP/bare/proc/sys/kernel" "$T_TMP/bare/sys/class"
echo 6.6.32 >"$T_TMP/bare/proc/sys/kernel/osrelease"
t_run "heaps on a board without heaps or udmabuf" 3 $D heaps --sysroot "$T_TMP/bare"
t_grep "... names the kernel options" 'CONFIG_DMABUF_HEAPS_SYSTEM.*CONFIG_UDMABUF' "$T_TMP/err"
t_done
