#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# Emulated Intel VT-d (q35 + intel-iommu, intel_iommu=on) and the spare edu PCI device.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

edu=$(edu_device)

like "$(ls /sys/class/iommu)" '^dmar[0-9]+$' "/sys/class/iommu/dmar* exists"
like "$(find /sys/kernel/iommu_groups -mindepth 1 -maxdepth 1 | wc -l)" '^[1-9][0-9]*$' "/sys/kernel/iommu_groups is not empty"
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
ok "the edu device is in an iommu group" test -e "/sys/bus/pci/devices/$edu/iommu_group"
group=$(basename "$(readlink "/sys/bus/pci/devices/$edu/iommu_group")")

# Bind it to vfio-pci (a module /init loads on the stock kernel, built into the test kernel).
ok "vfio-pci driver is registered" test -d /sys/bus/pci/drivers/vfio-pci
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" vfio-pci "edu is bound to vfio-pci"
ok "/dev/vfio/$group exists for its group" test -c "/dev/vfio/$group"
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "edu is unbound again" test -e "/sys/bus/pci/devices/$edu/driver"
done_testing
