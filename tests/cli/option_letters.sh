#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One meaning per option letter: every "-X, --long" of every command's --help is a row of
# the table in HACKING.md ("Option letters"), and times take units everywhere.
. "$SOCBOX_TESTLIB"
top=$(cd "$SOCBOX_FIXTURES/../.." && pwd)
mkdir -p "$T_TMP/bin"
for a in socbox $("$SOCBOX" --list); do ln -s "$SOCBOX" "$T_TMP/bin/$a"; done

# letters WORDS...: "X long" for every short option of WORDS and the commands below it
letters() {
	_p=$1
	shift
	_h=$("$T_TMP/bin/$_p" "$@" --help 2>/dev/null)
	printf '%s\n' "$_h" | sed -n 's/^  -\([A-Za-z0-9]\), --\([a-z0-9-]*\).*/\1 \2/p'
	for _c in $(printf '%s\n' "$_h" | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'); do
		letters "$_p" "$@" "$_c"
	done
}

{
	letters socbox
	for a in $("$SOCBOX" --list); do letters "$a"; done
} | sort -u >"$T_TMP/used"
# the table: | `-X` | `--a`, `--b` | meaning |
# shellcheck disable=SC2016 # backquotes of the markdown table, not a command
sed -n 's/^  | `-\([A-Za-z0-9]\)` | \([^|]*\) |.*/\1 \2/p' "$top/HACKING.md" |
	while read -r letter longs; do
		for l in $(echo "$longs" | tr -d '`,'); do echo "$letter ${l#--}"; done
	done | sort -u >"$T_TMP/table"
if [ "$(wc -l <"$T_TMP/table")" -gt 20 ]; then t_ok "HACKING.md has the table"; else t_fail "HACKING.md: no table of option letters"; fi
t_eq "every letter in use means what the table says" "$(comm -23 "$T_TMP/used" "$T_TMP/table" | tr '\n' ';')" ""
t_eq "the table lists no meaning no command has" "$(comm -13 "$T_TMP/used" "$T_TMP/table" | tr '\n' ';')" ""
t_eq "-t is --timeout wherever it is used" "$(awk '$1 == "t" && $2 != "timeout"' "$T_TMP/used")" ""

# durations with units, in every option whose --help names DURATION
t_run "events -f -t 200ms" 0 "$SOCBOX" events -f -t 200ms -s rpmsg
t_run "events --timeout=0.2s" 0 "$SOCBOX" events --follow --timeout=0.2s -s rpmsg
t_run "a bare number keeps its unit (seconds here)" 0 "$SOCBOX" events -f -t 0.2 -s rpmsg
t_run "no unit that is not one" 2 "$SOCBOX" events -f -t 2x
t_grep "... said with the units" "^socbox events: --timeout: '2x' is not a duration \\(250ms, 2s, 1m; a bare number counts seconds\\)" "$T_TMP/err"
t_run "no negative duration" 2 "$SOCBOX" events -f -t -1s
t_run "-i 100ms" 0 "$SOCBOX" smmustat irq -a -i 100ms -c 2 -J
t_run "ms options take seconds too (rpmsgctl ping -t 1.5s, refused on a sysroot after)" 3 \
	"$SOCBOX" rpmsgctl ping -t 1.5s --sysroot "$SOCBOX_FIXTURES/am62x"
t_run "... and refuse what is not a duration" 2 "$SOCBOX" rpmsgctl ping -t soon --sysroot "$SOCBOX_FIXTURES/am62x"
t_grep "... saying a bare number is seconds there too" "a bare number counts seconds" "$T_TMP/err"
# one unit for a bare number: seconds in rpmsgctl as in events (3000000 s is past what an
# int of milliseconds holds; as 3000000 ms it was taken)
t_run "rpmsgctl recv -t 3000000 is seconds (too long)" 2 \
	"$SOCBOX" rpmsgctl recv -t 3000000 --sysroot "$SOCBOX_FIXTURES/am62x"
t_grep "... said so" "^rpmsgctl recv: --timeout: '3000000' is too long" "$T_TMP/err"
# every duration option names its argument DURATION, none MS or SEC (which said the unit
# of a bare number, and differed)
for p in "rpmsgctl recv" "rpmsgctl ping" "rpmsgctl throughput" "rpmsgctl bench" "rpmsgctl rproc cycle" \
	"rpmsgctl send" "events" "devmemstat monitor" "devmemstat rx" "devmemstat bind" \
	"dmabufcp copy" "smmustat stress" "smmustat irq"; do
	# shellcheck disable=SC2086 # the words of the command
	"$SOCBOX" $p --help >"$T_TMP/h" 2>&1
	t_nogrep "$p --help: no MS or SEC argument" '=(MS|SEC)( |$)' "$T_TMP/h"
done
"$SOCBOX" rpmsgctl recv --help >"$T_TMP/h"
t_grep "rpmsgctl recv -t takes a DURATION" '^  -t, --timeout=DURATION ' "$T_TMP/h"

# metrics: --textfile has no letter; -t DIR still works for old scripts, with a note
"$SOCBOX" metrics --help >"$T_TMP/h"
t_nogrep "metrics --help: no -t" '^  -t' "$T_TMP/h"
mkdir "$T_TMP/prom"
t_run "metrics -t DIR (old spelling)" 0 "$SOCBOX" metrics -t "$T_TMP/prom" --sysroot "$SOCBOX_FIXTURES/am62x"
t_grep "... writes the file" 'socbox_doctor' "$T_TMP/prom/socbox.prom"
t_grep "... and says -t is --timeout elsewhere" "^socbox metrics: -t is the old spelling of --textfile" "$T_TMP/err"
t_done
