#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# man/smmustat.1 and completions/bash/smmustat name every command-specific long option that
# the binary's own --help lists (the first option block of each command), so a short
# option documented without its long form (-e without --event) fails here.
. "$SOCBOX_TESTLIB"
top=$(cd "$(dirname "$SOCBOX_TESTLIB")/.." && pwd)
page=$top/man/smmustat.1
comp=$top/completions/bash/smmustat

for cmd in overview groups irq events pmu stress check; do
	"$SOCBOX" smmustat "$cmd" --help >"$T_TMP/help" 2>&1
	# first block after the Usage line: the command's own options
	sed -n '2,/^$/p' "$T_TMP/help" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u >"$T_TMP/opts"
	t_run "smmustat $cmd --help lists options" 0 test -s "$T_TMP/opts"
	while read -r o; do
		man_o=$(printf '%s' "$o" | sed 's/-/\\\\-/g')
		t_grep "man/smmustat.1 documents $cmd $o" "$man_o([^a-z0-9-]|\$)" "$page"
		t_grep "completions/bash/smmustat offers $cmd $o" "(^|[ \"])$o([ \"|)]|\$)" "$comp"
	done <"$T_TMP/opts"
done
t_done
