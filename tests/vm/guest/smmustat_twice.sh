#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# Two at once on one device: a second `smmustat stress` while the first holds QEMU's edu
# device, through iommufd + VFIO (the device cdev binds once: the kernel's EINVAL) and
# through dma_map_benchmark (one set of parameters and results per device: the second run
# would overwrite the first's). The second fails with one line naming the first process,
# exit 1; the first's figures are its own and it exits 0.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
S=smmustat
T=/tmp/smmustat-twice
mkdir -p $T
edu=$(edu_device)
like "$edu" '^0000:' "QEMU's edu device is there"

# shellcheck disable=SC2317 # called through wait_for
# holds PID FILE: process PID has FILE open (its fd links name it)
holds() { ls -l "/proc/$1/fd" 2>/dev/null | grep -q -- "-> $2\$"; }

# twice NAME FILE ARGS...: a first run of 4 s, and a second once the first has FILE open
twice() {
	name=$1 file=$2
	shift 2
	$S stress "$@" --duration 4 --label first -J >$T/first.json 2>$T/first.err &
	first=$!
	ok "$name: the first run has $file open" wait_for holds $first "$file"
	$S stress "$@" --duration 1 --label second >$T/second.out 2>$T/second.err
	is "$?" 1 "$name: the second exits 1"
	sed 's/^/# /' $T/second.err
	is "$(wc -l <$T/second.err)" 1 "$name: with one line"
	like "$(cat $T/second.err)" "^smmustat: .*: in use by process $first \\(smmustat\\)" "$name: that names the first process"
	wait $first
	is "$?" 0 "$name: the first exits 0"
	sed 's/^/# /' $T/first.err
	like "$(cat $T/first.json)" '"run": "first"' "$name: the first's table is its own run"
	like "$(cat $T/first.json)" '"requests_total": [1-9]' "$name: with requests counted"
}

echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
cdev=$(ls "/sys/bus/pci/devices/$edu/vfio-dev")
unsafe=/sys/module/iommufd/parameters/allow_unsafe_interrupts
echo 1 >$unsafe
twice "iommufd" "/dev/vfio/devices/$cdev" --device "$edu" --cpus 0
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo 0 >$unsafe

echo dma_map_benchmark >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
twice "map-benchmark" /sys/kernel/debug/dma_map_benchmark --method map-benchmark --cpus 0
echo "$edu" >/sys/bus/pci/drivers/dma_map_benchmark/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
done_testing
