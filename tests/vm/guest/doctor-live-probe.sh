#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor on a probe that failed on this kernel: a driver of ours (tests/vm/probe_fail)
# says why with dev_err(), "mbox_request_channel failed: -22", then returns -EINVAL, and the
# driver core reports "probe with driver %s failed with error %d" (drivers/base/dd.c,
# call_driver_probe()). doctor names the failure and quotes the driver's own record of the
# device, not only the driver core's line. The kernel log keeps both records for the rest of
# the boot, so this runs last in its boot (vm/test-doctor-live).
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
dev=socbox-rproc-fail
T=/tmp/live-probe
mkdir -p $T

ok "load a driver whose probe fails" insmod /lib/modules/socbox/socbox_probe_fail.ko
ok "its device is registered" test -d /sys/bus/platform/devices/$dev
not_ok "and has no driver" test -e /sys/bus/platform/devices/$dev/driver
# the two records, in this order, from the kernel itself
log=$(dmesg | grep " $dev: " | sed 's/^\[[ 0-9.]*\] //')
is "$log" "$dev $dev: mbox_request_channel failed: -22
$dev $dev: probe with driver $dev failed with error -22" "the kernel log: the driver's reason, then the driver core's line"

like "$(doctor_causes)" "^probe\\.failed $dev\$" "doctor: a probe failure of $dev"
is "$(doctor_cause probe.failed $dev diagnosis)" \
	"\"$dev (remote processor): driver $dev failed to probe it (error -22, EINVAL); the driver said \\\"mbox_request_channel failed: -22\\\"\"" \
	"doctor: the diagnosis quotes the driver's own reason"
is "$(doctor_cause probe.failed $dev evidence)" \
	"\"kernel log: $dev $dev: mbox_request_channel failed: -22 | $dev $dev: probe with driver $dev failed with error -22\"" \
	"doctor: the evidence is both records, the driver's first"
like "$(doctor_cause probe.failed $dev fix)" "^\"the mailbox: check the mboxes and mbox-names properties of $dev's device-tree node" \
	"doctor: the fix follows the reason (the mailbox)"
like "$("$SOCBOX" doctor -r -n -o subsystem,status)" '^rpmsg failed$' "doctor: rpmsg failed"
ok "snapshot" "$SOCBOX" snapshot $T/snap
is "$(doctor_cause probe.failed $dev diagnosis --sysroot $T/snap)" "$(doctor_cause probe.failed $dev diagnosis)" \
	"doctor on the snapshot quotes the same reason"
ok "unload it" rmmod socbox_probe_fail
not_ok "the device is gone" test -e /sys/bus/platform/devices/$dev
rm -rf $T
done_testing
