#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A snapshot holds everything every view reads. Each fixture board is snapshotted as if it
# were the live system (SOCBOX_TEST_SNAPSHOT_FROM, a test hook of lib/snapshot), then every
# view of one root in tests/views runs on the board with the paths it opens recorded
# (SOCBOX_TEST_RECORD_READS, a test hook of lib/kernel/sys.c): each path it found on the
# board must be in the snapshot, and the view must print the same on the snapshot as on the
# board. A new reader without its entry in lib/snapshot/snapshot_paths.c fails here.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
VIEWS=$(dirname "$SOCBOX_TESTLIB")/views

grep -v '^[[:space:]]*\(#\|$\)' "$VIEWS" |
	awk '$3 == "sysroot" || $3 == "netlink" { $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }' \
		>"$T_TMP/views"
t_eq "tests/views has at least 20 views of one root" \
	"$([ "$(wc -l <"$T_TMP/views")" -ge 20 ] && echo yes)" yes

# norm ROOT: a view's output with ROOT's name and the time each metrics collector took
# taken out
norm() {
	sed -e "s|$1|ROOT|g" -e 's/^\(socbox_metrics_collectors_duration_seconds{[^}]*}\) .*/\1 S/'
}

boards=0 reads=0
for dir in "$F"/*/; do
	[ -d "$dir/sys" ] || [ -d "$dir/proc" ] || continue
	board=$(basename "$dir")
	root=$(cd "$dir" && pwd -P)
	snap=$T_TMP/snap.$board
	if ! SOCBOX_TEST_SNAPSHOT_FROM=$root "$SOCBOX" snapshot "$snap" 2>"$T_TMP/err"; then
		t_fail "$board: socbox snapshot: $(head -c 300 "$T_TMP/err")"
		continue
	fi
	boards=$((boards + 1))
	n=0
	while IFS= read -r view; do
		n=$((n + 1))
		rec=$T_TMP/reads.$board.$n
		# shellcheck disable=SC2086 # $view: words by design (tests/views)
		SOCBOX_TEST_RECORD_READS=$rec "$SOCBOX" $view --sysroot "$root" >"$T_TMP/board" 2>&1
		rc_board=$?
		# shellcheck disable=SC2086
		"$SOCBOX" $view --sysroot "$snap" >"$T_TMP/snap" 2>&1
		rc_snap=$?
		# the same answer, the two roots' names and metrics' timings aside
		norm "$root" <"$T_TMP/board" >"$T_TMP/board.n"
		norm "$snap" <"$T_TMP/snap" >"$T_TMP/snap.n"
		if [ "$rc_board" -eq "$rc_snap" ] && cmp -s "$T_TMP/board.n" "$T_TMP/snap.n"; then
			t_ok "$board: $view: the same on its snapshot (exit $rc_snap)"
		else
			t_fail "$board: $view: exit $rc_board, on its snapshot $rc_snap:
$(diff "$T_TMP/board.n" "$T_TMP/snap.n" | head -8)"
		fi
		# each path it found on the board is in the snapshot
		[ -f "$rec" ] || continue
		: >"$T_TMP/missing"
		sort -u "$rec" | while IFS= read -r path; do
			case $path in "$root"/*) ;; *) continue ;; esac
			rel=${path#"$root"}
			# dmabufcp ls reads every process's fdinfo and maps to find the dma-bufs; a
			# snapshot keeps those of the processes that hold one (the same answer, above)
			case $rel in /proc/[1-9]*) continue ;; esac
			[ -e "$snap$rel" ] || [ -L "$snap$rel" ] || echo "$rel"
		done >"$T_TMP/missing"
		reads=$((reads + $(sort -u "$rec" | wc -l)))
		t_eq "$board: $view: every path it read is in the snapshot" \
			"$(head -5 "$T_TMP/missing" | tr '\n' ' ')" ""
	done <"$T_TMP/views"
done
t_eq "at least 8 boards snapshotted" "$([ "$boards" -ge 8 ] && echo yes)" yes
t_eq "the views read at least 2000 paths" "$([ "$reads" -ge 2000 ] && echo yes)" yes
t_done
