#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every error and warning string of the kernel sources socbox covers, in Linux 7.2 (the test
# kernel's pinned source) and Debian bookworm's 6.1, against lib/doctor/kmsg_classes.def:
# fails on a string with no entry, one the wrong entry matches, or an entry nothing matches,
# and prints the coverage per source file. Needs both trees in the cache (scripts/test
# fetches them: scripts/kmsg-coverage tree 7.2|6.1 --fetch); without them it is skipped
# (exit 77), saying which is missing.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
kc=$top/scripts/kmsg-coverage
missing=
t72=$(python3 "$kc" tree 7.2 2>/dev/null) || missing="$missing 7.2"
t61=$(python3 "$kc" tree 6.1 2>/dev/null) || missing="$missing 6.1"
if [ -n "$missing" ]; then
	for v in $missing; do
		echo "SKIP: no Linux $v source tree cached; scripts/kmsg-coverage tree $v --fetch gets it"
	done
	exit 77
fi
exec python3 "$kc" check "$t72" "$t61"
