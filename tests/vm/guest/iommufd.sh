#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# iommufd (/dev/iommu) and the VFIO device cdev on the edu device.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

ok "/dev/iommu is a char device" test -c /dev/iommu
ok "IOAS alloc, map 4 pages, unmap, destroy" socbox-vmprobe iommufd

edu=$(edu_device)
like "$edu" '^0000:' "the edu device (1234:11e8) is on the PCI bus"
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
is "$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")" vfio-pci "edu is bound to vfio-pci"
cdev=$(ls "/sys/bus/pci/devices/$edu/vfio-dev" 2>/dev/null)
like "$cdev" '^vfio[0-9]+$' "edu has a VFIO device cdev in sysfs"
ok "/dev/vfio/devices/$cdev is a char device" test -c "/dev/vfio/devices/$cdev"
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"
not_ok "edu is unbound again" test -e "/sys/bus/pci/devices/$edu/driver"
done_testing
