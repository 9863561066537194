#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor on a remote processor that stopped returning tx buffers, on this kernel:
# the test remote (tests/vm/rproc_remote) with consume=0 takes nothing from its vring, so
# once the 64 tx buffers (half of the 128 of a 64-entry vring) are in flight the next
# send waits, and virtio_rpmsg_bus gives up after 15 s with its own "timeout waiting for a
# tx buffer" (drivers/rpmsg/virtio_rpmsg_bus.c, rpmsg_send_offchannel_raw()). doctor is not
# ok for rpmsg and names that record, its channel and remote processor. The remote is then
# restarted and works again; the record stays in the kernel log for the rest of the boot.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
consume=/sys/module/socbox_rproc/parameters/consume
status_of() { "$SOCBOX" doctor -r -n -o subsystem,status | sed -n "s/^$1 //p"; }
tx_timeouts() { dmesg | grep -c ': timeout waiting for a tx buffer$'; }

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor ($rp)"
ok "start it" $R rproc start "$rp"
ok "its rpmsg-raw channel" wait_for has_channel
raw=$(ls /sys/bus/rpmsg/devices/*.rpmsg-raw.*/rpmsg 2>/dev/null | head -n1)
like "$raw" '^rpmsg[0-9]+$' "rpmsg_char made /dev/$raw for it"
ok "it echoes" $R ping --dev "$raw" -c 5 --size 16
is "$(status_of rpmsg)" ok "doctor: rpmsg ok while the remote takes what is sent"
t0=$(tx_timeouts)

ok "the remote stops taking messages" sh -c "echo 0 >$consume"
# blocking writes, one message each: 64 take the tx buffers, the 65th waits 15 s and fails
# (the error the bus returns, -ERESTARTSYS, reaches user space as 512)
sent=0
exec 3>"/dev/$raw"
while [ $sent -lt 80 ] && printf x >&3 2>/dev/null; do
	sent=$((sent + 1))
done
exec 3>&-
is "$sent" 64 "64 messages went out, then a send failed"
is "$(tx_timeouts)" "$((t0 + 1))" "virtio_rpmsg_bus logged one tx buffer timeout"
line=$(dmesg | grep ': timeout waiting for a tx buffer$' | tail -n1 | sed 's/^\[[ 0-9.]*\] //')
# the announced channel (src RPMSG_ADDR_ANY, dst 0x400), bound by rpmsg_char
like "$line" '^rpmsg_chrdev virtio[0-9]+\.rpmsg-raw\.-1\.1024: timeout waiting for a tx buffer$' \
	"the record names the channel's device"
chan=$(echo "$line" | sed 's/^rpmsg_chrdev \([^:]*\): .*/\1/')

is "$(status_of rpmsg)" degraded "doctor: rpmsg is not ok"
causes=$(doctor_causes)
like "$causes" "^log\\.errors $chan\$" "doctor: a cause names the channel ($chan)"
is "$(doctor_cause log.errors "$chan" diagnosis)" \
	"\"$chan (rpmsg, of $rp): 1 kernel error no other cause explains, first \\\"timeout waiting for a tx buffer\\\"\"" \
	"doctor: the diagnosis names the channel, its remote processor and the record"
is "$(doctor_cause log.errors "$chan" evidence)" \
	"\"kernel log: $line (drivers/rpmsg/virtio_rpmsg_bus.c, rpmsg_send_offchannel_raw(), dev_err)\"" \
	"doctor: its evidence quotes the record with its source"
like "$(doctor_cause log.errors "$chan" fix)" "^\"the remote processor stopped returning tx buffers" \
	"doctor: the fix says what the record means"

# release: the remote takes messages again, and is restarted (what doctor's fix says)
ok "the remote takes messages again" sh -c "echo 1 >$consume"
ok "stop it" $R rproc stop "$rp"
ok "start it again" $R rproc start "$rp"
ok "the channel is back" wait_for has_channel
raw=$(ls /sys/bus/rpmsg/devices/*.rpmsg-raw.*/rpmsg 2>/dev/null | head -n1)
ok "and echoes" $R ping --dev "$raw" -c 5 --size 16
# The remote processor came up again after the record ("remote processor %s is now up",
# rproc_start()), as doctor's own fix asked: the record is answered. doctor still names it:
# its diagnosis ties the channel to its remote processor (rproc_of_rpmsg() in
# lib/doctor/cause_log.c: "... (rpmsg, of remoteprocN) ..."), but answered() asks
# rproc_of(), which knows only an object that is itself a remote processor.
diag "doctor after the restart: $(doctor_cause log.errors "$chan" diagnosis)"
unlike "$(doctor_causes)" "^log\\.errors $chan\$" "doctor: restarted, the timeout is answered"
is "$(status_of rpmsg)" ok "doctor: rpmsg ok again"
ok "stop it" $R rproc stop "$rp"
done_testing
