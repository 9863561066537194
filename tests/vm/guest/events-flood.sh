#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox events --follow while the kernel log is flooded (socbox-kmsg-flood writes records to
# /dev/kmsg as fast as the kernel takes them): first as it runs, then held (SIGSTOP) while
# the log overflows, so records are overwritten before it reads them. It keeps following in
# bounded memory, says in the timeline how many records were lost (by the log's sequence
# numbers), and a record after the flood comes through.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
T=/tmp/flood
FLOOD=${SOCBOX_FLOOD_LINES:-50000}
mkdir -p $T
devkmsg=$(cat /proc/sys/kernel/printk_devkmsg)
echo on >/proc/sys/kernel/printk_devkmsg # no rate limit for writers of /dev/kmsg

ok "socbox-kmsg-flood helper is in the guest" test -x /usr/bin/socbox-kmsg-flood
socbox-sigdfl "$SOCBOX" events -f -J -v -s remoteproc >$T/ev 2>$T/err &
pid=$!
ok "events -f is following" wait_line $T/err 'events: following the kernel log'

marker() { # N: a record events knows, as the remoteproc core prints it
	echo "<3>remoteproc remoteproc9: crash detected in socbox-flood-$1: type watchdog" >/dev/kmsg
}
lost_between() { # A B: records reported lost after marker A and before marker B
	sed -n "/socbox-flood-$1/,/socbox-flood-$2/p" $T/ev |
		sed -n 's/.*"kind":"lost","object":"kernel log","detail":"\([0-9]*\) records.*/\1/p' |
		awk '{ n += $1 } END { print n + 0 }'
}

marker 0
ok "a record before the flood comes through" wait_line $T/ev 'socbox-flood-0'
ok "flood while it follows" sh -c "socbox-kmsg-flood $FLOOD >$T/rate1"
marker 1
ok "a record after the flood comes through" wait_line $T/ev 'socbox-flood-1'
diag "flood 1 (following): $(cat $T/rate1); lost $(lost_between 0 1)"

kill -STOP $pid
ok "flood while it is held" sh -c "socbox-kmsg-flood $FLOOD >$T/rate2"
marker 2
kill -CONT $pid
ok "after the overflow it reads on: the next record comes through" wait_line $T/ev 'socbox-flood-2'
lost=$(lost_between 1 2)
diag "flood 2 (held): $(cat $T/rate2); lost $lost"
like "$(cat $T/ev)" '"subsystem":"log","kind":"lost","object":"kernel log","detail":"[0-9]+ records overwritten before they were read"' \
	"the loss is in the timeline, as a record of its own"
ok "it counts what the overflow took" test "$lost" -gt 0
ok "no more than was written" test "$lost" -le "$FLOOD"
hwm=$(awk '/^VmHWM/ { print $2 }' /proc/$pid/status)
diag "events -f peak memory: $hwm kB"
ok "its memory stays bounded (peak $hwm kB < 16 MiB)" test "$hwm" -lt 16384
kill -INT $pid
wait $pid
is "$?" 0 "SIGINT ends it with exit 0"
is "$(grep -c '"kind":"crash"' $T/ev)" 3 "the three markers, each once"
echo "$devkmsg" >/proc/sys/kernel/printk_devkmsg
done_testing
