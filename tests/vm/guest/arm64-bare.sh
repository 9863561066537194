#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: stock-arm64
# The static aarch64 socbox alone: a root holding nothing but busybox and socbox (no C
# library, no /lib at all), as on a board that got the binary by scp. Every read-only view
# prints its table on an 80-column console.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

bare=/tmp/bare
mkdir -p "$bare/bin" "$bare/proc" "$bare/sys" "$bare/dev" "$bare/tmp"
cp /bin/busybox "$bare/bin/busybox"
cp "$SOCBOX" "$bare/bin/socbox"
ln -s busybox "$bare/bin/sh"
is "$(cd "$bare" && find . -type f | sort | tr '\n' ' ')" "./bin/busybox ./bin/socbox " "the root holds two files"
ok "nothing else: no /lib, no /usr" test ! -e "$bare/lib" -a ! -e "$bare/usr"
mount -t proc proc "$bare/proc"
mount -t sysfs sysfs "$bare/sys"
mount -t devtmpfs devtmpfs "$bare/dev"

in_bare() { # CMD...: run in the bare root on an 80-column console, output in /tmp/bare.out
	chroot "$bare" /bin/busybox env -i PATH=/bin COLUMNS=80 "$@" >/tmp/bare.out 2>/tmp/bare.err
}
check() { # DESC HEADER-ERE CMD...
	desc=$1 header=$2
	shift 2
	in_bare "$@"
	is "$?" 0 "$desc: exit 0"
	like "$(cat /tmp/bare.out)" "$header" "$desc: its table"
	diag "$(head -n 12 /tmp/bare.out)"
}
check "socbox doctor" '^SUBSYSTEM +STATUS +SUMMARY$' /bin/socbox doctor
check "smmustat" '^NAME +KIND +GROUPS +DEVICES' /bin/socbox smmustat
check "smmustat groups" '^GROUP +TYPE +IOMMU +NDEVS +DEVICES +DRIVERS +STREAM_IDS$' /bin/socbox smmustat groups
check "smmustat events" '^records: ' /bin/socbox smmustat events
check "devmemstat show" '^IFINDEX +IFNAME +RX_QUEUES' /bin/socbox devmemstat show
like "$(cat /tmp/bare.out)" 'eth0|enp' "devmemstat shows the NIC"
in_bare /bin/socbox --list
like "$(cat /tmp/bare.out)" '^smmustat' "socbox --list in the bare root"
umount "$bare/proc" "$bare/sys" "$bare/dev"
done_testing
