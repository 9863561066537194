#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsg through the loopback module (tests/vm/rpmsg_loopback), loaded by /init.
# shellcheck source=../lib.sh
. /tests/lib.sh

ok "rpmsg_loopback module is loaded" test -d /sys/module/rpmsg_loopback
ok "/dev/rpmsg_ctrl0 is a char device" test -c /dev/rpmsg_ctrl0
like "$(ls /sys/bus/rpmsg/devices)" 'socbox-loopback' "the socbox-loopback channel is on the rpmsg bus"
is "$(cat /sys/bus/rpmsg/devices/*.socbox-loopback.*/name)" socbox-loopback "its name attribute"
is "$(cat /sys/bus/rpmsg/devices/*.socbox-loopback.*/src)" 0x400 "its src address"
ok "endpoint create, echo (64 and 496 bytes), 497 bytes refused, destroy" socbox-vmprobe rpmsg /dev/rpmsg_ctrl0
ok "rmmod rpmsg_loopback" rmmod rpmsg_loopback
not_ok "/dev/rpmsg_ctrl0 is gone after rmmod" test -e /dev/rpmsg_ctrl0
ok "insmod rpmsg_loopback again" insmod /lib/modules/socbox/rpmsg_loopback.ko
ok "/dev/rpmsg_ctrl0 is back" test -c /dev/rpmsg_ctrl0
ok "endpoints work after reloading" socbox-vmprobe rpmsg /dev/rpmsg_ctrl0
done_testing
