#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --sysroot takes the tarball 'socbox snapshot OUT.tar' writes (README: the form to send),
# in every command: unpacked privately as socbox diff unpacks its operands, read as the
# directory would be, and removed however the command ends.
. "$SOCBOX_TESTLIB"
t_need jq jq || t_done
F=$SOCBOX_FIXTURES
AM=$F/am62x
ARM=$F/arm64-server-smmuv3
TMPDIR=$T_TMP/tmp
export TMPDIR
mkdir -p "$TMPDIR"

# the tarball of a board, as socbox snapshot writes it
SOCBOX_TEST_SNAPSHOT_FROM=$AM "$SOCBOX" snapshot -q "$T_TMP/am62x.tar" 2>"$T_TMP/snap.err"
t_eq "snapshot of the am62x fixture as a tarball" "$?" 0
tar -C "$ARM" -cf "$T_TMP/arm.tar" .

# each view reads the tarball as its directory: the same bytes (doctor's "sysroot" names
# the directory it read, the private one: left out here)
for v in "rpmsgctl" "rpmsgctl rproc status" "dmabufcp ls" "doctor" "events"; do
	# shellcheck disable=SC2086 # the words of the view
	"$SOCBOX" $v -J --sysroot "$T_TMP/am62x.tar" >"$T_TMP/tar.json" 2>"$T_TMP/tar.err"
	rt=$?
	# shellcheck disable=SC2086
	"$SOCBOX" $v -J --sysroot "$AM" >"$T_TMP/dir.json" 2>/dev/null
	rd=$?
	t_eq "$v: the tarball's exit is the directory's" "$rt" "$rd"
	t_eq "$v: the tarball's JSON is the directory's" "$(jq -S 'del(.sysroot?)' "$T_TMP/tar.json" 2>&1)" \
		"$(jq -S 'del(.sysroot?)' "$T_TMP/dir.json" 2>&1)"
done
t_run "smmustat groups from a tarball" 0 "$SOCBOX" smmustat groups -J --sysroot "$T_TMP/arm.tar"
t_jq "... the groups of the board" '[.groups[].group] == [0,1,2,3,4,5]' "$T_TMP/out"
t_run "before the command, from SOCBOX_SYSROOT too" 0 env SOCBOX_SYSROOT="$T_TMP/arm.tar" "$SOCBOX" smmustat -J groups
t_jq "... the same groups" '[.groups[].group] == [0,1,2,3,4,5]' "$T_TMP/out"
t_eq "views: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""

# every way out removes it: an absent device, what needs the live kernel, a usage error
t_run "absent: smmustat on an AM62x tarball" 3 "$SOCBOX" smmustat --sysroot "$T_TMP/am62x.tar"
t_run "live-only: rpmsgctl ping on a tarball" 3 "$SOCBOX" rpmsgctl ping --sysroot "$T_TMP/am62x.tar"
t_run "usage: an unknown column" 2 "$SOCBOX" rpmsgctl -o NAEM --sysroot "$T_TMP/am62x.tar"
t_run "-v says where it went" 0 "$SOCBOX" rpmsgctl rproc status -v --sysroot "$T_TMP/am62x.tar"
t_grep "... the directory named" "am62x\.tar: unpacked into $TMPDIR/socbox-sysroot-" "$T_TMP/err"
t_eq "failures: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""

# what is not a snapshot tarball: one line, exit 1 (a file named on the command line)
echo garbage >"$T_TMP/bad.tar"
t_run "not a tarball" 1 "$SOCBOX" rpmsgctl --sysroot "$T_TMP/bad.tar"
t_grep "not a tarball: said" 'bad\.tar: unpack snapshot' "$T_TMP/err"
# a member that climbs out of the directory is refused by tar, and nothing is written there
python3 - "$T_TMP/climb.tar" <<'PY'
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    data = b"escaped\n"
    info = tarfile.TarInfo("../socbox-escaped")
    info.size = len(data)
    t.addfile(info, io.BytesIO(data))
PY
t_run "a member named ../x" 1 "$SOCBOX" rpmsgctl --sysroot "$T_TMP/climb.tar"
t_eq "... wrote nothing outside" "$(ls "$TMPDIR/../socbox-escaped" "$T_TMP/socbox-escaped" 2>/dev/null)" ""
t_eq "bad tarballs: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""
t_done
