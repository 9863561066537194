#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# Another process's dma-buf: 'dmabufcp --hold' keeps named buffers alive, 'dmabufcp PID:FD'
# dumps one (pidfd_getfd) and writes into it, and 'dmabufcp ls' shows it with its size and
# holder.
# shellcheck source=../lib.sh
. /tests/lib.sh

D=$DATA/dmabufcp-pidfd
rm -rf "$D"
mkdir -p "$D"
head -c 1048577 /dev/urandom >"$D/src"
head -c 1048577 /dev/urandom >"$D/src2"

dmabufcp --hold 120 -N socbox-held "$D/src" heap:system >"$D/heap.pidfd" &
heap_holder=$!
dmabufcp --hold 120 -N socbox-udma "$D/src" udmabuf >"$D/udma.pidfd" &
udma_holder=$!
i=0
while { [ ! -s "$D/heap.pidfd" ] || [ ! -s "$D/udma.pidfd" ]; } && [ $i -lt 200 ]; do
	usleep 100000
	i=$((i + 1))
done
heap_spec=$(head -n 1 "$D/heap.pidfd")
udma_spec=$(head -n 1 "$D/udma.pidfd")
like "$heap_spec" "^$heap_holder:[0-9]+\$" "--hold prints PID:FD of the heap buffer"
like "$udma_spec" "^$udma_holder:[0-9]+\$" "--hold prints PID:FD of the udmabuf"

# The buffer is the file rounded up to a page: 1 MiB + 4 KiB.
ok "dump the held heap buffer by PID:FD, verified" dmabufcp --verify "$heap_spec" "$D/dump"
is "$(stat -c %s "$D/dump")" 1052672 "the dump has the buffer's size (1 MiB + 1 page)"
ok "the dump starts with the file, bit-exact" cmp -n 1048577 "$D/src" "$D/dump"
ok "dump the held udmabuf by PID:FD" dmabufcp --verify -m read "$udma_spec" "$D/dump2"
ok "the udmabuf dump starts with the file" cmp -n 1048577 "$D/src" "$D/dump2"
ok "write another file into the held heap buffer by PID:FD" dmabufcp --verify "$D/src2" "$heap_spec"
ok "dump it again" dmabufcp "$heap_spec" "$D/dump3"
ok "the held buffer now holds the second file" cmp -n 1048577 "$D/src2" "$D/dump3"

json=$(dmabufcp ls -J --pid "$heap_holder")
diag "$json"
like "$json" '"name": "socbox-held"' "ls --pid shows the named heap buffer"
like "$json" '"size_bytes": 1052672' "ls shows its size"
like "$json" '"exporter": "system"' "ls shows the system heap as exporter"
like "$json" "\"$heap_holder/dmabufcp:fd[0-9]+\"" "ls shows the holder process and fd"
like "$json" "\"$heap_holder/dmabufcp:map\"" "ls shows the holder's mapping"
json=$(dmabufcp ls -J)
like "$json" '"exporter": "udmabuf"' "ls (all) shows the udmabuf"
like "$json" '"name": "socbox-udma"' "ls (all) shows the udmabuf's name"
like "$json" '"bufinfo": true' "ls read debugfs bufinfo"
ok "ls table output runs" dmabufcp ls
like "$(dmabufcp ls -r -n -o INODE,EXPORTER,NAME --pid "$udma_holder")" 'udmabuf socbox-udma' "ls -r -o shows the udmabuf row"
like "$(dmabufcp heaps -r -n -o NAME,CAN_ALLOC)" '^system yes' "heaps: root can allocate from the system heap"
like "$(dmabufcp heaps -J)" '"size_limit_bytes": 67108864' "heaps: udmabuf limit is 64 MiB"

# the formats ls parses, as this kernel writes them (for the unit tests and fixtures)
heap_fd=${heap_spec#*:}
sed 's/^/format: fdinfo: /' "/proc/$heap_holder/fdinfo/$heap_fd" | while IFS= read -r l; do diag "$l"; done
grep dmabuf "/proc/$heap_holder/maps" | sed 's/^/format: maps: /' | while IFS= read -r l; do diag "$l"; done
sed 's/^/format: bufinfo: /' /sys/kernel/debug/dma_buf/bufinfo | while IFS= read -r l; do diag "$l"; done

# a snapshot answers as the live system did
ok "socbox snapshot while the buffers are held" "$SOCBOX" snapshot /tmp/dmabufcp-snap
live=$(dmabufcp ls -r -n -o INODE,SIZE_BYTES,EXPORTER,NAME,HOLDERS)
snap=$(dmabufcp ls -r -n -o INODE,SIZE_BYTES,EXPORTER,NAME,HOLDERS --sysroot /tmp/dmabufcp-snap)
diag "live: $live"
is "$snap" "$live" "ls on the snapshot lists the same buffers, sizes, names and holders"
is "$(dmabufcp heaps -r -n -o NAME,KIND,SIZE_LIMIT_BYTES --sysroot /tmp/dmabufcp-snap)" \
	"$(dmabufcp heaps -r -n -o NAME,KIND,SIZE_LIMIT_BYTES)" "heaps on the snapshot: same heaps and udmabuf limit"
rm -rf /tmp/dmabufcp-snap

dmabufcp "$heap_holder:999" "$D/none" 2>"$D/err"
is "$?" 1 "PID:FD of an fd the process lacks: exit 1"
like "$(cat "$D/err")" 'no fd 999' "... and says so"
dmabufcp "$$:0" "$D/none" 2>"$D/err"
is "$?" 1 "PID:FD of a non-dma-buf fd: exit 1"
like "$(cat "$D/err")" 'not a dma-buf' "... and says so"
ok "no output file was left by the failures" test ! -e "$D/none"

kill -TERM "$heap_holder" "$udma_holder"
wait "$heap_holder"
is "$?" 0 "the holder ends cleanly on SIGTERM"
wait "$udma_holder"
rm -rf "$D"
done_testing
