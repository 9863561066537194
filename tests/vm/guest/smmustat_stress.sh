#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# smmustat stress, the seed's map/unmap shape, on the guest's IOMMU (VT-d on x86-64,
# SMMUv3 on arm64): through iommufd without a device, then through iommufd + the VFIO cdev
# of the spare edu device (4K fixed, random, 64K, one CPU, sequential against all of them),
# then through the kernel's dma_map_benchmark on the same device.
# shellcheck disable=SC2086 # $S is "$SOCBOX smmustat": split into words on purpose
# shellcheck source=../lib.sh
. /tests/lib.sh

S="$SOCBOX smmustat"
edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
iommu=$($S -r -n -o NAME,KIND | head -n1)
diag "IOMMU: $iommu ($(uname -m))"

ok "stress without a device (bare IOAS)" $S stress --duration 1 --cpus 0
# A thread that cannot be pinned (CPU 1000 is not in the guest) stops the run at once and its
# error is the command's: before, the run slept the whole --duration, then reported it.
err=$(timeout 60 $S stress --duration 600 --cpus 0,1000 2>&1 >/dev/null)
is "$?" 1 "stress with an unpinnable CPU ends early with exit 1 (not the status of timeout killing it)"
like "$err" 'CPU 1000: pin the stress thread' "the failing thread names its CPU"
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" vfio-pci "edu is bound to vfio-pci"
unsafe=/sys/module/iommufd/parameters/allow_unsafe_interrupts
case $(uname -m) in
x86_64)
	# The x86-64 test bed runs intel-iommu with intremap=off: iommufd refuses such devices
	# unless told.
	err=$($S stress --device "$edu" --duration 0.2 2>&1 >/dev/null)
	like "$err" 'allow_unsafe_interrupts' "without interrupt remapping the error says how to proceed"
	ok "allow unsafe interrupts for the test" sh -c "echo 1 >$unsafe"
	;;
*)
	# The GICv3 ITS isolates MSIs: iommufd takes the device as it is.
	ok "stress iommufd+vfio without allow_unsafe_interrupts (the ITS isolates MSIs)" \
		$S stress --device "$edu" --duration 0.2
	;;
esac
ok "stress iommufd+vfio, 4K fixed (baseline)" sh -c "$S stress --device $edu --duration 3 --label 'iommufd 4K fixed' -J >$DATA/base.json"
like "$(cat "$DATA/base.json")" '"path": "iommufd\+vfio"' "the stress ran with the device attached"
like "$(cat "$DATA/base.json")" '"requests_total": [1-9]' "requests were counted"
ok "stress 4K random window" sh -c "$S stress --device $edu --duration 3 --pattern random --window 1M --label 'iommufd 4K random' -J >$DATA/random.json"
ok "stress 64K no-huge" sh -c "$S stress --device $edu --duration 3 --size 64K --no-huge --label 'iommufd 64K no-huge' -J >$DATA/nohuge.json"
ok "stress on CPU 1 only" sh -c "$S stress --device $edu --duration 3 --cpus 1 --label 'iommufd 4K cpu1' -J >$DATA/cpu1.json"
like "$(cat "$DATA/cpu1.json")" '"cpus": 1' "--cpus 1 ran one thread"
ok "stress 4K sequential, the table against all earlier runs" sh -c "$S stress --device $edu --duration 3 --pattern sequential --label 'iommufd 4K sequential' \
	--baseline $DATA/base.json --baseline $DATA/random.json --baseline $DATA/nohuge.json --baseline $DATA/cpu1.json -J >$DATA/seq.json"
is "$(grep -o '"run": "[^"]*"' "$DATA/seq.json" | tr '\n' ';')" '"run": "iommufd 4K fixed";"run": "iommufd 4K random";"run": "iommufd 64K no-huge";"run": "iommufd 4K cpu1";"run": "iommufd 4K sequential";' \
	"the baselines keep their labels, in order, this run last"
# the seed's table: each run against the fastest one, which has no difference
is "$(grep -c '"diff_pct": null' "$DATA/seq.json")" 1 "one run, the fastest, is the reference"
is "$(grep -Eo '"diff_pct": [0-9][0-9.]*' "$DATA/seq.json" | grep -Evc '": 0(\.0+)?$')" 0 "no run is faster than the reference"
# a baseline that itself compared with others is read as its own run, not its first row
ok "a run with baselines is a baseline too" sh -c "$S stress --device $edu --duration 1 --label again --baseline $DATA/seq.json -J >$DATA/again.json"
like "$(grep -o '"run": "[^"]*"' "$DATA/again.json" | head -n1)" '"run": "iommufd 4K sequential"' "seq.json is read as 'iommufd 4K sequential'"
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
[ "$(uname -m)" != x86_64 ] || echo 0 >"$unsafe"

# dma_map_benchmark: the kernel's own per-thread map/unmap loop on the same device; its
# table against every iommufd run, as the seed prints it (for the log: this IOMMU's figures)
echo dma_map_benchmark >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" dma_map_benchmark "edu is bound to dma_map_benchmark"
ok "stress through dma_map_benchmark, compared with the iommufd runs" sh -c "$S stress --method map-benchmark --duration 2 --label 'dma_map_benchmark 4K' \
	--baseline $DATA/base.json --baseline $DATA/random.json --baseline $DATA/nohuge.json --baseline $DATA/cpu1.json --baseline $DATA/seq.json >$DATA/table.txt"
like "$(cat "$DATA/table.txt")" 'dma_map_benchmark 4K' "the table has the dma_map_benchmark row"
while IFS= read -r line; do diag "$line"; done <"$DATA/table.txt"
echo "$edu" >/sys/bus/pci/drivers/dma_map_benchmark/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "edu is unbound again" test -e "/sys/bus/pci/devices/$edu/driver"
done_testing
