#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A name ending in _BYTES holds exact bytes: every view of tests/views on every fixture,
# in -P (KEY="value" for eval), prints a *_BYTES key with a whole number or nothing ("-"),
# never "7.9M"; printed as K/M/G the key drops the suffix (SIZE for SIZE_BYTES), and
# --bytes brings the _BYTES name back with the exact number. -o takes either name.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
views=$(dirname "$SOCBOX_TESTLIB")/views

# the sysroot and netlink views of tests/views, one command line each
grep -v '^[[:space:]]*\(#\|$\)' "$views" | awk '$3 == "sysroot" || $3 == "netlink" {
	printf "%s", $3; for (i = 6; i <= NF; i++) printf " %s", $i; print "" }' >"$T_TMP/views"
n=0 bad=
while read -r source cmd; do
	if [ "$source" = netlink ]; then
		srcs=$(for f in "$F"/netlink/*.nl; do echo "--load-netlink=$f"; done)
	else
		srcs=$(for d in "$F"/*/; do [ -d "$d/sys" ] || [ -d "$d/proc" ] && echo "--sysroot=${d%/}"; done)
	fi
	for s in $srcs; do
		# shellcheck disable=SC2086 # the words of the view
		"$SOCBOX" $cmd $s -P 2>/dev/null >"$T_TMP/p" || true
		n=$((n + 1))
		# KEY="value" pairs, one per line; a _BYTES key must hold digits or -
		tr ' ' '\n' <"$T_TMP/p" | grep -E '^[A-Z0-9_]+_BYTES=' |
			grep -vE '^[A-Z0-9_]+_BYTES="([0-9]+|-|)"$' | head -n 1 >"$T_TMP/b"
		if [ -s "$T_TMP/b" ]; then bad="$bad ${cmd} ${s##*/}: $(cat "$T_TMP/b");"; fi
	done
done <"$T_TMP/views"
t_eq "no *_BYTES key holds K/M/G in $n runs of every view" "$bad" ""
if [ "$n" -gt 100 ]; then t_ok "... ($n runs)"; else t_fail "only $n runs: tests/views not read"; fi

t_run "dmabufcp ls: the size as lsblk prints it" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf"
t_grep "... under SIZE" '^INODE SIZE EXPORTER ' "$T_TMP/out"
t_grep "... 7.9M" '^ +31 +7\.9M linux,cma ' "$T_TMP/out"
t_run "dmabufcp ls --bytes" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" --bytes
t_grep "... under SIZE_BYTES, exact" '^INODE SIZE_BYTES EXPORTER ' "$T_TMP/out"
t_grep "... 8294400" '^ +31 +8294400 linux,cma ' "$T_TMP/out"
t_run "-o takes the short name" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" -o INODE,SIZE -r -n
t_grep "... and prints the size" '^31 7\.9M$' "$T_TMP/out"
t_run "-o takes the _BYTES name with --bytes" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" -o INODE,SIZE_BYTES -r -n --bytes
t_grep "... exact" '^31 8294400$' "$T_TMP/out"
t_run "dmabufcp heaps -J" 0 "$SOCBOX" dmabufcp heaps --sysroot "$F/am62x-dmabuf" -J
t_jq "JSON keeps size_limit_bytes in bytes" '[.heaps[] | select(.name == "udmabuf") | .size_limit_bytes] == [67108864]' "$T_TMP/out"
t_done
