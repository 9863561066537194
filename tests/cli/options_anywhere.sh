#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The common options before the command mean what they mean after it (README, Conventions):
# each pair below prints the same bytes and exits the same, in socbox and in the applets.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
AM=$F/am62x
ARM=$F/arm64-server-smmuv3
DB=$F/am62x-dmabuf

# same LABEL "BEFORE..." "AFTER...": both exit 0 with identical, non-empty stdout
same() {
	label=$1 before=$2 after=$3
	# shellcheck disable=SC2086 # the words of each command
	"$SOCBOX" $before >"$T_TMP/before" 2>"$T_TMP/before.err"
	rb=$?
	# shellcheck disable=SC2086
	"$SOCBOX" $after >"$T_TMP/after" 2>"$T_TMP/after.err"
	ra=$?
	t_eq "$label: exit before the command" "$rb" 0
	t_eq "$label: exit after the command" "$ra" 0
	if [ -s "$T_TMP/after" ] && cmp -s "$T_TMP/before" "$T_TMP/after"; then
		t_ok "$label: the same output"
	else
		t_fail "$label: differs: $(head -c 300 "$T_TMP/before.err")"
	fi
}

same "rpmsgctl --sysroot rproc status" "rpmsgctl --sysroot $AM rproc status" \
	"rpmsgctl rproc status --sysroot $AM"
same "rpmsgctl -J --sysroot= rproc status" "rpmsgctl -J --sysroot=$AM rproc status" \
	"rpmsgctl rproc status -J --sysroot $AM"
same "smmustat -o LIST groups" "smmustat -o GROUP,TYPE --sysroot $ARM groups" \
	"smmustat groups -o GROUP,TYPE --sysroot $ARM"
same "smmustat -qJ irq" "smmustat -qJ --sysroot $ARM irq" "smmustat irq -q -J --sysroot $ARM"
same "dmabufcp -v heaps" "dmabufcp -v --sysroot $DB heaps" "dmabufcp heaps -v --sysroot $DB"
same "socbox --sysroot events" "events --sysroot $ARM -J" "events -J --sysroot $ARM"
same "socbox --sysroot before events" "--sysroot $ARM -J events" "events -J --sysroot $ARM"
same "socbox before the applet" "-J --sysroot $AM rpmsgctl rproc status" \
	"rpmsgctl rproc status -J --sysroot $AM"

# the rproc status the options came before is the one shown: a value, not only exit 0
t_run "rpmsgctl --sysroot DIR rproc status -J" 0 "$SOCBOX" rpmsgctl --sysroot "$AM" rproc status -J
t_jq "... lists the sysroot's remote processors" '[.remoteprocs[].id] == ["remoteproc0","remoteproc1","remoteproc2"]' "$T_TMP/out"
# an option that is not common still has to follow the command
t_run "a command's own option before it" 2 "$SOCBOX" rpmsgctl --load-modules rproc status --sysroot "$AM"
t_grep "... says where it goes" "'rproc' is a command: it comes first" "$T_TMP/err"
# a common option's value that is a command's name is a value
t_run "-o value named like a command" 2 "$SOCBOX" smmustat -o events --sysroot "$ARM"
t_grep "... is an unknown column of the default command" "smmustat overview: unknown column .events." "$T_TMP/err"
t_done
