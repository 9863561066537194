#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# dma-buf sources the applets inspect: the system dma-heap and udmabuf.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

ok "/dev/dma_heap/system is a char device" test -c /dev/dma_heap/system
ok "system heap: allocate 1 MiB, mmap, pattern through SYNC windows" socbox-vmprobe dmaheap system
ok "/dev/udmabuf is a char device" test -c /dev/udmabuf
ok "udmabuf from a sealed memfd, seen both ways" socbox-vmprobe udmabuf
ok "debugfs dma_buf/bufinfo is readable" test -r /sys/kernel/debug/dma_buf/bufinfo
done_testing
