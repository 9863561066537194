#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# The guest the other tests rely on: file systems, CPUs, data disk, network, socbox itself.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

# shellcheck disable=SC2317 # called through ok
mounted() { # MOUNTPOINT FSTYPE
	awk -v m="$1" -v t="$2" '$2 == m && $3 == t { f = 1 } END { exit !f }' /proc/mounts
}
ok "proc on /proc" mounted /proc proc
ok "sysfs on /sys" mounted /sys sysfs
ok "devtmpfs on /dev" mounted /dev devtmpfs
ok "debugfs on /sys/kernel/debug" mounted /sys/kernel/debug debugfs
ok "tmpfs on /tmp" mounted /tmp tmpfs
ok "ext4 data disk on $DATA" mounted "$DATA" ext4
is "$(cat /sys/devices/system/cpu/online)" "0-1" "2 CPUs online"
ok "O_DIRECT write of 1 MiB to $DATA" dd if=/dev/zero of="$DATA/direct" bs=4096 count=256 oflag=direct
is "$(stat -c %s "$DATA/direct")" 1048576 "the O_DIRECT file has 1 MiB"
like "$(ls /sys/class/net)" '^eth0$|^enp' "virtio-net interface present"
ok "$SOCBOX --version runs" "$SOCBOX" --version
like "$("$SOCBOX" --version 2>&1)" '[0-9]+\.[0-9]+' "$SOCBOX --version prints a version"
done_testing
