#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# Killed half way: SIGKILL at a random moment, KILLS times each, to dmabufcp copying into a
# file and to socbox snapshot (a directory and a tarball). Each time DST is absent, or
# complete and verified (the bytes of the source; the snapshot's own manifest counts), never
# partial; the next run to the same destination removes what the killed one left, so at no
# time is more than one temporary there; a last run unkilled succeeds and leaves none.
# The moments are spread over 1.2 times a run's length, so some kills come after the end.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
KILLS=${SOCBOX_KILLS:-200}
D=$DATA/sigkill
rm -rf "$D"
mkdir -p "$D"
head -c $((2 * 1048576)) /dev/urandom >"$D/src"

uptime_cs() { awk '{ printf "%d\n", $1 * 100 }' /proc/uptime; }
rand_below() { od -An -N4 -tu4 /dev/urandom | awk -v m="$1" '{ print $1 % m }'; }
# the window of kill moments in microseconds: 1.2 times the slowest of three runs of CMD
window_us() {
	w=0
	for _ in 1 2 3; do
		t0=$(uptime_cs)
		"$@" >/dev/null 2>&1
		t=$(($(uptime_cs) - t0))
		[ "$t" -gt "$w" ] && w=$t
	done
	echo $(((w + 1) * 12000))
}
# temporaries of DST now (dmabufcp: .NAME.dmabufcp-*; snapshot: NAME.tmp-* and their tree
# and archive, which count as one)
temporaries() { # DIR PATTERN
	# shellcheck disable=SC2010 # the names are ours
	ls -A "$1" | grep -c "$2"
}
# the names in a snapshot, a directory or a tarball alike
names() {
	if [ -d "$1" ]; then
		(cd "$1" && find . | sort)
	else
		tar tf "$1" | sed 's#/$##; s#^\./*$#.#' | sort
	fi
}
# shellcheck disable=SC2317 # called through kill_loop
snapshot_whole() { # OUT: every name the reference snapshot has, and no other
	[ "$(names "$1" 2>/dev/null)" = "$(cat "$D/ref.names")" ]
}

# kill_loop NAME DST CHECK TMP_PATTERN MAXTMP CMD...: KILLS runs of CMD, each killed at a
# random moment; after each, DST must be absent or pass CHECK (then it is removed), and at
# most MAXTMP temporaries may be there
kill_loop() {
	name=$1 dst=$2 check=$3 pat=$4 maxtmp=$5
	shift 5
	w=$(window_us "$@")
	rm -rf "$dst"
	killed=0 finished=0 partial=0 piled=0 most=0 i=0
	while [ $i -lt "$KILLS" ]; do
		i=$((i + 1))
		"$@" >/dev/null 2>&1 &
		pid=$!
		usleep "$(rand_below "$w")"
		kill -KILL $pid 2>/dev/null
		wait $pid
		if [ $? = 137 ]; then killed=$((killed + 1)); else finished=$((finished + 1)); fi
		if [ -e "$dst" ]; then
			"$check" "$dst" || partial=$((partial + 1))
			rm -rf "$dst"
		fi
		n=$(temporaries "$(dirname "$dst")" "$pat")
		[ "$n" -gt "$most" ] && most=$n
		[ "$n" -le "$maxtmp" ] || piled=$((piled + 1))
	done
	diag "$name: $KILLS runs over ${w} us: $killed killed, $finished finished; at most $most temporaries at once"
	is "$partial" 0 "$name: DST absent or whole after every kill"
	is "$piled" 0 "$name: what a killed run left is gone after the next (at most $maxtmp)"
	ok "$name: killed half way in some runs" test "$killed" -gt 0
	ok "$name: a last run, not killed" "$@"
	ok "$name: its DST is whole" "$check" "$dst"
	is "$(temporaries "$(dirname "$dst")" "$pat")" 0 "$name: no temporary left"
}

# shellcheck disable=SC2317 # called through kill_loop
same_as_src() { cmp -s "$D/src" "$1"; }
for kind in heap:system udmabuf; do
	kill_loop "dmabufcp $kind" "$D/out" same_as_src '^\.out\.dmabufcp-' 1 \
		dmabufcp -m read "$D/src" "$kind" "$D/out"
done
# a snapshot's temporary is a claim, its tree and its archive: three names; whole is what
# a snapshot not killed has
ok "a reference snapshot" "$SOCBOX" snapshot -q "$D/ref"
names "$D/ref" >"$D/ref.names"
rm -rf "$D/ref"
kill_loop "snapshot (directory)" "$D/snap" snapshot_whole '^snap\.tmp-' 3 \
	"$SOCBOX" snapshot -q "$D/snap"
kill_loop "snapshot (tarball)" "$D/snap.tar" snapshot_whole '^snap\.tar\.tmp-' 3 \
	"$SOCBOX" snapshot -q "$D/snap.tar"
done_testing
