#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor with the rpmsg loopback device: bus, channel and control device found.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

status=$("$SOCBOX" doctor -r -n -o subsystem,status)
like "$status" '^rpmsg (ok|degraded)$' "rpmsg found"
facts=$("$SOCBOX" doctor -v -P)
like "$facts" '^SUBSYSTEM="rpmsg" KEY="rpmsg_bus" VALUE="yes"' "rpmsg bus present"
like "$facts" '^SUBSYSTEM="rpmsg" KEY="ctrl_devices" VALUE="[1-9][0-9]*"' "a control device"
like "$facts" '^SUBSYSTEM="rpmsg" KEY="channels" VALUE="[1-9][0-9]*"' "an announced channel"
like "$facts" '^SUBSYSTEM="rpmsg" KEY="module_rpmsg_char" VALUE="(built-in|loaded)"' "rpmsg_char in the kernel"
ok "snapshot" "$SOCBOX" snapshot /tmp/snap
is "$("$SOCBOX" doctor --sysroot /tmp/snap -r -n -o subsystem,status,summary | grep '^rpmsg')" \
	"$("$SOCBOX" doctor -r -n -o subsystem,status,summary | grep '^rpmsg')" "rpmsg answers the same from the snapshot"
done_testing
