#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox diff on this machine: two snapshots of the live kernel taken one after the other,
# and a snapshot against the live system, are equal (nothing socbox compares moves on an
# idle machine); a snapshot with one thing changed is not.
. "$SOCBOX_TESTLIB"
export TMPDIR="$T_TMP/tmp"
mkdir -p "$TMPDIR"

t_run "snapshot a directory" 0 "$SOCBOX" snapshot "$T_TMP/a"
t_run "snapshot a tarball" 0 "$SOCBOX" snapshot "$T_TMP/b.tar"
t_run "two snapshots of this machine are equal" 0 "$SOCBOX" diff "$T_TMP/a" "$T_TMP/b.tar"
t_eq "equal: nothing printed" "$(cat "$T_TMP/out")" ""
t_run "a snapshot against the live system" 0 "$SOCBOX" diff "$T_TMP/a"
t_run "the live system named /" 0 "$SOCBOX" diff -J "$T_TMP/b.tar" /
t_jq "live: JSON says equal" '.equal == true and .differences == [] and .new == "/"' "$T_TMP/out"
t_eq "the tarball was unpacked and removed" "$(ls -A "$TMPDIR")" ""

# The kernel release of the snapshot changed, as after an upgrade.
cp -a "$T_TMP/a" "$T_TMP/c"
echo "0.0.1-older" >"$T_TMP/c/proc/sys/kernel/osrelease"
t_run "an older kernel differs from this one" 1 "$SOCBOX" diff "$T_TMP/c"
t_grep "the kernel line" "^  ~ board kernel: 0\.0\.1-older -> $(uname -r | sed 's/\./\\./g')\$" "$T_TMP/out"
t_run "unless the kernel is ignored" 0 "$SOCBOX" diff -I 'doctor/board/kernel' "$T_TMP/c"
t_done
