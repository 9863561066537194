#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# Interfaces tests/vm/kernel.config promises beyond those other guest tests exercise.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# dma_map_benchmark's debugfs file exists while a device is bound to it: use edu.
edu=$(edu_device)
ok "dma_map_benchmark PCI driver (CONFIG_DMA_MAP_BENCHMARK)" test -d /sys/bus/pci/drivers/dma_map_benchmark
echo dma_map_benchmark >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" dma_map_benchmark "edu is bound to dma_map_benchmark"
ok "/sys/kernel/debug/dma_map_benchmark exists" test -e /sys/kernel/debug/dma_map_benchmark
echo "$edu" >/sys/bus/pci/drivers/dma_map_benchmark/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "and is gone once edu is unbound" test -e /sys/kernel/debug/dma_map_benchmark
ok "perf events (CONFIG_PERF_EVENTS)" test -e /proc/sys/kernel/perf_event_paranoid
ok "modules (CONFIG_MODULES)" test -e /proc/modules
ok "IPv6 (CONFIG_IPV6)" test -e /proc/net/if_inet6
ok "io_uring (CONFIG_IO_URING)" test -e /proc/sys/kernel/io_uring_disabled
ok "remoteproc (CONFIG_REMOTEPROC)" test -d /sys/class/remoteproc
like "$(cat /sys/kernel/iommu_groups/*/type | sort -u)" '^(DMA|DMA-FQ)$' "VT-d gives translated DMA domains"
ok "veth pair can be made (CONFIG_VETH)" ip link add socbox-v0 type veth peer name socbox-v1
ok "and removed" ip link del socbox-v0
done_testing
