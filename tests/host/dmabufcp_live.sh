#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# dmabufcp against this machine's kernel. Without dma-heaps and udmabuf (the CI host) every
# copy must fail with exit 3 and a hint, and leave no output; PID:FD goes through pidfd_getfd
# for real (refusals, permission); ls reads the live /proc; a snapshot answers like the live run.
# shellcheck disable=SC2086 # $D is "$SOCBOX dmabufcp": split into words on purpose
. "$SOCBOX_TESTLIB"
D="$SOCBOX dmabufcp"
head -c 10000 /dev/urandom >"$T_TMP/f"

if [ -e /dev/dma_heap/system ] || [ -e /dev/udmabuf ]; then
	t_fail "this host has dma-heaps or udmabuf: the expectations below are for a host without them (the vm tier covers copies)"
fi
t_run "heaps on a kernel without allocators" 3 $D heaps
t_grep "... names the kernel options" 'CONFIG_DMABUF_HEAPS_SYSTEM' "$T_TMP/err"
t_run "file -> heap:system -> file without the heap" 3 $D "$T_TMP/f" heap:system "$T_TMP/dst"
t_grep "... one line naming the device and the option" '^dmabufcp: /dev/dma_heap/system: open heap: .*CONFIG_DMABUF_HEAPS_SYSTEM' "$T_TMP/err"
t_eq "... and no output file" "$(ls -A "$T_TMP" | grep -c '^dst\|dmabufcp-')" 0
t_run "file -> udmabuf without udmabuf" 3 $D "$T_TMP/f" udmabuf
t_grep "... says modprobe udmabuf" 'modprobe udmabuf' "$T_TMP/err"
t_run "stdin -> udmabuf without udmabuf" 3 sh -c "echo hi | $D - udmabuf"

sleep 60 &
holder=$!
t_run "PID:FD of a file that is not a dma-buf" 1 $D "$holder:0" "$T_TMP/out"
t_grep "... says so" 'not a dma-buf' "$T_TMP/err"
t_run "PID:FD of an fd the process lacks" 1 $D "$holder:999" "$T_TMP/out"
t_grep "... says so" 'no fd 999' "$T_TMP/err"
t_run "PID:FD of a process that does not exist: absent, as ls --pid" 3 $D "2147483646:3" "$T_TMP/out"
t_grep "... says so" 'no such process' "$T_TMP/err"
mkdir -p "$T_TMP/nobody"
chmod 777 "$T_TMP/nobody"
t_run "PID:FD of root's process as nobody: permission, exit 4" 4 setpriv --reuid=65534 --regid=65534 --clear-groups $D "$holder:0" "$T_TMP/nobody/out"
t_grep "... hints at ptrace rights" 'ptrace' "$T_TMP/err"
t_eq "... and leaves no output" "$(ls -A "$T_TMP/nobody" | wc -l)" 0
kill "$holder"

t_run "bench without allocators: exit 3 before any row" 3 $D bench --runs 1 -J "$T_TMP/f"
t_eq "... no output" "$(wc -c <"$T_TMP/out")" 0
t_eq "... one error line per buffer kind (heap:system, udmabuf)" "$(wc -l <"$T_TMP/err")" 2

t_run "ls on the live system" 0 $D ls -J
t_json "ls -J" "$T_TMP/out"
t_jq "ls counts buffers and processes it could not read" '(.total_buffers | type) == "number" and (.processes_unreadable | type) == "number"' "$T_TMP/out"
live=$(jq .total_buffers "$T_TMP/out")
t_run "socbox snapshot" 0 "$SOCBOX" snapshot "$T_TMP/snap"
t_run "ls on the snapshot" 0 $D ls -J --sysroot "$T_TMP/snap"
t_eq "the snapshot lists as many buffers as the live run" "$(jq .total_buffers "$T_TMP/out")" "$live"
t_run "heaps on the snapshot: the same answer as live" 3 $D heaps --sysroot "$T_TMP/snap"
t_done
