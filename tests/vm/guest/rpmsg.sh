#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsg through the loopback module (tests/vm/rpmsg_loopback), loaded by /init.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

ok "rpmsg_loopback module is loaded" test -d /sys/module/rpmsg_loopback
ok "/dev/rpmsg_ctrl0 is a char device" test -c /dev/rpmsg_ctrl0
like "$(ls /sys/bus/rpmsg/devices)" 'socbox-loopback' "the socbox-loopback channel is on the rpmsg bus"
is "$(cat /sys/bus/rpmsg/devices/*.socbox-loopback.*/name)" socbox-loopback "its name attribute"
is "$(cat /sys/bus/rpmsg/devices/*.socbox-loopback.*/src)" 0x400 "its src address"
ok "endpoint create, echo (64 and 496 bytes), 497 bytes refused, flow control, destroy" socbox-vmprobe rpmsg /dev/rpmsg_ctrl0
ok "rmmod rpmsg_loopback" rmmod rpmsg_loopback
not_ok "/dev/rpmsg_ctrl0 is gone after rmmod" test -e /dev/rpmsg_ctrl0
ok "insmod rpmsg_loopback again" insmod /lib/modules/socbox/rpmsg_loopback.ko
ok "/dev/rpmsg_ctrl0 is back" test -c /dev/rpmsg_ctrl0
ok "endpoints work after reloading" socbox-vmprobe rpmsg /dev/rpmsg_ctrl0

# raw_channel=1 adds an rpmsg-raw channel that rpmsg_char binds (a default endpoint).
ok "reload with raw_channel=1" sh -c 'rmmod rpmsg_loopback && insmod /lib/modules/socbox/rpmsg_loopback.ko raw_channel=1'
raw=$(ls /sys/bus/rpmsg/devices/*.rpmsg-raw.*/rpmsg 2>/dev/null)
like "$raw" '^rpmsg[0-9]+$' "rpmsg_char made an endpoint node for the rpmsg-raw channel"
ok "messages echo through /dev/$raw" socbox-vmprobe rpmsg-echo "/dev/$raw"
ok "reload without the raw channel" sh -c 'rmmod rpmsg_loopback && insmod /lib/modules/socbox/rpmsg_loopback.ko'
done_testing
