#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox diff on two real snapshots of this board, before and after the test remote
# processor crashed with recovery off: the remote's state, its crash count and recovery
# setting and doctor's cause appear as the differences, in text and JSON; a snapshot
# equals itself and the live board it was taken of; --ignore leaves out what it matches;
# after recovery the live board differs by the crash alone. A directory on one side, a
# tarball on the other.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/rdiff
mkdir -p $T

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor ($rp)"
# the crashes the kernel handled so far (other scripts of this boot crash it too); a diff
# shows none for 0, as a snapshot without a kernel log could not count them
c0=$($R rproc status "$rp" -r -n -o CRASHES)
if [ "${c0:-0}" -gt 0 ] 2>/dev/null; then was=$c0; else was='\(none\)' c0=0; fi
crash_line="~ remoteproc:$rp crashes: $was -> $((c0 + 1))"
ok "start it" $R rproc start "$rp"
ok "its channel is up" wait_for has_channel
ok "snapshot before (a directory)" "$SOCBOX" snapshot $T/before
"$SOCBOX" diff $T/before >$T/live 2>&1
is "$?" 0 "the snapshot equals the live board it was taken of"
sed 's/^/# /' $T/live

ok "recovery off" $R rproc recovery "$rp" off
ok "crash it" $R rproc crash "$rp"
ok "it stays crashed" wait_for state_is crashed
ok "snapshot after (a tarball)" "$SOCBOX" snapshot $T/after.tar

"$SOCBOX" diff $T/before $T/after.tar >$T/diff 2>$T/diff.err
is "$?" 1 "they differ: exit 1"
sed 's/^/# /' $T/diff $T/diff.err
d=$(cat $T/diff)
like "$d" "^--- $T/before" "header: the old side"
like "$d" "^\\+\\+\\+ $T/after.tar" "header: the new side"
like "$d" "~ remoteproc:$rp state: running -> crashed" "the remote's state"
like "$d" "$crash_line" "the crash the kernel handled"
like "$d" "~ remoteproc:$rp recovery: enabled -> disabled" "recovery turned off"
# without recovery the kernel leaves the crashed remote's virtio device, and so its
# channel and control device, in place
unlike "$d" 'channel:|ctrl:' "channel and control device unchanged"
like "$d" '\+ cause:rpmsg\.crashed' "doctor's cause appears"
unlike "$d" 'iommu|netdev|dmabuf' "nothing else differs"

j=$("$SOCBOX" diff -J $T/before $T/after.tar | tr -d ' \n')
like "$j" '"equal":false' "JSON: not equal"
like "$j" "\"subsystem\":\"rpmsg\",\"change\":\"changed\",\"object\":\"remoteproc:$rp\",\"attribute\":\"state\",\"old\":\"running\",\"new\":\"crashed\"" \
	"JSON: the state change as a record"

"$SOCBOX" diff -q -I 'rpmsg/*' -I 'doctor/*' $T/before $T/after.tar >$T/ign 2>&1
is "$?" 0 "everything ignored: exit 0"
is "$(cat $T/ign)" "" "-q: nothing printed"
"$SOCBOX" diff $T/after.tar $T/after.tar >/dev/null
is "$?" 0 "a tarball equals itself"

ok "recovery on brings it back" $R rproc recovery "$rp" on
ok "running again" wait_for state_is running
ok "channel back" wait_for has_channel
"$SOCBOX" diff $T/before >$T/recovered 2>&1
is "$?" 1 "recovered: the live board differs from before"
sed 's/^/# /' $T/recovered
like "$(cat $T/recovered)" "$crash_line" "by the crash it went through"
unlike "$(cat $T/recovered)" "remoteproc:$rp state" "not by its state"
ok "stop it again" $R rproc stop "$rp"
done_testing
