#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox snapshot keeps the cores devcoredump holds (the kernel frees them 5 minutes after
# the crash): each devcdN's data, bounded (SB_SNAPSHOT_CORE_MAX, 32 MiB), with its links, so
# doctor on the snapshot names the core as on the board. A core cut or left out is said in
# socbox-snapshot.txt and on stderr, even with -q. data is only read: a write would free
# the core. The board is the crash-loop case of tests/fixtures/causes, copied as if it were
# the live system (SOCBOX_TEST_SNAPSHOT_FROM, as tests/cli/snapshot_covers.sh does).
. "$SOCBOX_TESTLIB"
C=$SOCBOX_FIXTURES/causes
t_need python3 python3 || t_done
"$C/compose" "$C/imx8mp-crash-loop-coredump" "$T_TMP/board"
board=$(cd "$T_TMP/board" && pwd -P)
data=sys/devices/virtual/devcoredump/devcd1/data
before=$(stat -c %Y "$board/$data")
cp "$board/$data" "$T_TMP/data.orig"

SOCBOX_TEST_SNAPSHOT_FROM=$board t_run "snapshot of a board with a core" 0 \
	"$SOCBOX" snapshot "$T_TMP/snap"
t_grep "stderr says it was kept" 'snapshot .*: 1 devcoredump core kept whole \(340 bytes\)' "$T_TMP/err"
t_run "the core is copied whole" 0 cmp "$board/$data" "$T_TMP/snap/$data"
t_eq "the class link" "$(readlink "$T_TMP/snap/sys/class/devcoredump/devcd1")" \
	../../devices/virtual/devcoredump/devcd1
t_eq "failing_device resolves inside the snapshot" \
	"$(cat "$T_TMP/snap/sys/class/devcoredump/devcd1/failing_device/name")" imx-rproc
t_grep "the manifest counts it" '^cores=1$' "$T_TMP/snap/socbox-snapshot.txt"
t_grep "the manifest names it" "^devcoredump\.devcd1=whole: remoteproc0's core, 340 bytes$" \
	"$T_TMP/snap/socbox-snapshot.txt"
t_run "the source core is unchanged (only read)" 0 cmp "$T_TMP/data.orig" "$board/$data"
t_eq "... and was not written to (mtime)" "$(stat -c %Y "$board/$data")" "$before"

# doctor and rpmsgctl on the snapshot name the core as on the board
for view in "doctor -J" "rpmsgctl rproc status -J"; do
	# shellcheck disable=SC2086 # two words by design
	"$SOCBOX" $view --sysroot "$board" 2>&1 | sed "s|$board|ROOT|g" >"$T_TMP/on.board"
	# shellcheck disable=SC2086
	"$SOCBOX" $view --sysroot "$T_TMP/snap" 2>&1 | sed "s|$T_TMP/snap|ROOT|g" >"$T_TMP/on.snap"
	t_run "$view: the same on the snapshot" 0 cmp "$T_TMP/on.board" "$T_TMP/on.snap"
	cp "$T_TMP/on.snap" "$T_TMP/${view%% *}.snap"
done
t_grep "doctor on the snapshot names the core" "devcd1 holds remoteproc0's core" "$T_TMP/doctor.snap"
t_grep "rpmsgctl on the snapshot names it" '"devcoredump": "devcd1"' "$T_TMP/rpmsgctl.snap"

# A core larger than the bound is cut there, and said so (a sparse file: no disk used)
truncate -s 40M "$board/$data"
SOCBOX_TEST_SNAPSHOT_FROM=$board t_run "snapshot -q of a 40 MiB core" 0 \
	"$SOCBOX" snapshot -q "$T_TMP/big"
t_eq "cut at 32 MiB" "$(stat -c %s "$T_TMP/big/$data")" 33554432
t_grep "the manifest says it was cut" \
	"^devcoredump\.devcd1=cut: remoteproc0's core, its first 33554432 bytes of more$" \
	"$T_TMP/big/socbox-snapshot.txt"
t_grep "the manifest counts it" '^cores_cut=1$' "$T_TMP/big/socbox-snapshot.txt"
t_grep "stderr says it even with -q" \
	'devcoredump cores: 1 cut at 32 MiB, 0 left out; socbox-snapshot.txt says which' "$T_TMP/err"
rm -rf "$T_TMP/big"

# A core that refuses to be read (here a directory: read() fails) is left out, said so
rm -f "$board/$data"
mkdir "$board/$data"
SOCBOX_TEST_SNAPSHOT_FROM=$board t_run "snapshot of an unreadable core" 0 \
	"$SOCBOX" snapshot "$T_TMP/bad"
t_grep "the manifest says it was left out" \
	"^devcoredump\.devcd1=left out: remoteproc0's core: Is a directory$" \
	"$T_TMP/bad/socbox-snapshot.txt"
t_grep "stderr says it" 'devcoredump cores: 0 cut at 32 MiB, 1 left out' "$T_TMP/err"

# the healthy control: no devcoredump, nothing said of one
SOCBOX_TEST_SNAPSHOT_FROM=$SOCBOX_FIXTURES/imx8mp t_run "snapshot of a board without a core" 0 \
	"$SOCBOX" snapshot "$T_TMP/none"
t_grep "no core counted" '^cores=0$' "$T_TMP/none/socbox-snapshot.txt"
t_nogrep "nothing said of cores" 'devcoredump' "$T_TMP/err"
t_done
