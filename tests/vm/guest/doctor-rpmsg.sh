#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor with the rpmsg loopback device: bus, channel and control device found.
# shellcheck source=../lib.sh
. /tests/lib.sh

status=$("$SOCBOX" doctor -r -n -o subsystem,status)
like "$status" '^rpmsg (ok|partial)$' "rpmsg found"
facts=$("$SOCBOX" doctor -v -r -n)
like "$facts" '^rpmsg rpmsg_bus yes no$' "rpmsg bus present"
like "$facts" '^rpmsg ctrl_devices [1-9][0-9]* no$' "a control device"
like "$facts" '^rpmsg channels [1-9][0-9]* no$' "an announced channel"
like "$facts" '^rpmsg module_rpmsg_char (built-in|loaded) no$' "rpmsg_char in the kernel"
ok "snapshot" "$SOCBOX" snapshot /tmp/snap
is "$("$SOCBOX" doctor --sysroot /tmp/snap -r -n -o subsystem,status,summary | grep '^rpmsg')" \
	"$("$SOCBOX" doctor -r -n -o subsystem,status,summary | grep '^rpmsg')" "rpmsg answers the same from the snapshot"
done_testing
