#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Progress and pictures for a person at a terminal (issue 22, items 7 and 8), on a real pty
# (script(1)): rpmsgctl ping prints a line per echo on stderr as ping(8) does, only when
# stderr is a terminal and neither -q nor -J is given; its histogram keeps the empty buckets
# between the fastest and the slowest round trip and draws bars. The echo is a FIFO opened read-write on fd 3: what ping
# writes, it reads back, as a remote's echo service would answer.
. "$SOCBOX_TESTLIB"
t_need script bsdutils || t_done
t_need jq jq || t_done
mkfifo "$T_TMP/echo"
exec 3<>"$T_TMP/echo"

# on a pty: stdout to a file, so what reaches the terminal is stderr alone
script -qec "'$SOCBOX' rpmsgctl ping --fd 3 -c 5 >'$T_TMP/out'" /dev/null >"$T_TMP/tty"
t_eq "ping on a terminal exits 0" "$?" 0
tr -d '\r' <"$T_TMP/tty" >"$T_TMP/lines"
t_eq "a line per echo, in order" "$(sed -n 's/^32 bytes: seq=\([0-9]*\) time=[0-9.]* us$/\1/p' "$T_TMP/lines" | tr '\n' ' ')" "0 1 2 3 4 "
t_grep "the statistics still on stdout" '^ +5 ' "$T_TMP/out"
for opt in -q -J; do
	script -qec "'$SOCBOX' rpmsgctl ping --fd 3 -c 3 $opt >'$T_TMP/out'" /dev/null >"$T_TMP/tty"
	t_eq "ping $opt on a terminal: nothing on stderr" "$(wc -c <"$T_TMP/tty")" 0
done
"$SOCBOX" rpmsgctl ping --fd 3 -c 3 >"$T_TMP/out" 2>"$T_TMP/err"
t_eq "stderr not a terminal: nothing on it" "$(wc -c <"$T_TMP/err")" 0

# the histogram: every bucket from the first to the last, bars to scale (40 = the fullest)
t_run "ping -c 300" 0 "$SOCBOX" rpmsgctl ping --fd 3 -c 300
sed -n '/^Histogram:/,/^$/p' "$T_TMP/out" | sed '1,2d' >"$T_TMP/hist"
t_eq "histogram rows counted" "$(awk '{ s += $2 } END { print s }' "$T_TMP/hist")" 300
t_eq "no bucket skipped inside the range" "$(awk 'NR > 1 && $1 != 2 * p { print "gap after " p } { p = $1 }' "$T_TMP/hist")" ""
t_eq "bars: COUNT to scale, 40 for the fullest" "$(awk '
	NR == FNR { if ($2 > m) m = $2; next }
	{ want = $2 ? int($2 * 40 / m + 0.5) : 0; if (want < 1 && $2) want = 1
	  if (length($3) != want) print $1 ": " length($3) " not " want }' "$T_TMP/hist" "$T_TMP/hist")" ""
t_run "ping -J" 0 "$SOCBOX" rpmsgctl ping --fd 3 -c 300 -J
t_jq "JSON: the numbers, no bar" '.histogram | all(has("bar") | not)' "$T_TMP/out"
# shellcheck disable=SC2016 # jq variables
t_jq "JSON: buckets contiguous, counts complete" '[.histogram[].le_us] as $l | ([range(1; $l | length)] | all($l[.] == 2 * $l[. - 1])) and ([.histogram[].count] | add) == 300' "$T_TMP/out"
exec 3>&-

t_done
