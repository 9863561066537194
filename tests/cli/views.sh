#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# tests/views is the one list of the views' test cases: the golden outputs,
# hostile_mutations.py and scripts/static-check read it. It is held to the commands'
# descriptors (`socbox --list-commands`, tests/cli/descriptors.sh): every view is a line of
# it, no command the descriptor says is live, and its COLLECTOR column is the descriptor's
# socbox metrics label; every line a command that exists; hostile_mutations.py
# runs its views of one or two roots; and socbox metrics' collectors print what their
# command lines print, sample for sample.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
VIEWS=$(dirname "$SOCBOX_TESTLIB")/views

grep -v '^[[:space:]]*\(#\|$\)' "$VIEWS" >"$T_TMP/rows"
# the command lines, and those of the views by source
cut_cmd() { awk '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); print }'; }
cut_cmd <"$T_TMP/rows" >"$T_TMP/cmds"
awk '{ print $3 }' "$T_TMP/rows" | paste -d' ' - "$T_TMP/cmds" | sort | uniq -d >"$T_TMP/dup"
t_eq "tests/views: no command line twice from one source" "$(head -3 "$T_TMP/dup" | tr '\n' ' ')" ""
awk '$1 != "-" && $2 != "-" { print $1 "/" $2 }' "$T_TMP/rows" | sort | uniq -d >"$T_TMP/dup"
t_eq "tests/views: no golden name twice" "$(head -3 "$T_TMP/dup" | tr '\n' ' ')" ""

# commands PREFIX...: the commands of PREFIX's --help (its Commands: block), each as a full
# command line; one with a Commands: block of its own (rpmsgctl rproc) gives its commands.
commands() {
	"$SOCBOX" "$@" --help 2>/dev/null | sed -n '/^Commands:/,/^$/p' | awk 'NR > 1 && /^  [a-z]/ { print $1 }' |
		while read -r c; do
			if "$SOCBOX" "$@" "$c" --help 2>/dev/null | grep -q '^Commands:'; then
				commands "$@" "$c"
			else
				echo "$*${*:+ }$c"
			fi
		done
}
commands | sed 's/^socbox //' >"$T_TMP/help"
for applet in $("$SOCBOX" --list); do
	commands "$applet"
done >>"$T_TMP/help"
t_eq "the --help of socbox and its applets list at least 40 commands" \
	"$([ "$(wc -l <"$T_TMP/help")" -ge 40 ] && echo yes)" yes
# every --help is read at an 80-column console: socbox's, each applet's, each command's
{ echo; "$SOCBOX" --list; cat "$T_TMP/help"; } | while read -r c; do
	# shellcheck disable=SC2086 # a command line: its words
	"$SOCBOX" $c --help 2>&1 | awk -v c="${c:-socbox}" 'length > 80 { print c ": " length " columns: " $0; exit }'
done >"$T_TMP/wide"
t_eq "every --help fits 80 columns" "$(head -3 "$T_TMP/wide")" ""
# the descriptors: a line per view, none for a live command, and the same collector labels
"$SOCBOX" --list-commands >"$T_TMP/desc"
TAB=$(printf '\t')
while IFS=$TAB read -r c flags label; do
	n=$(awk -v c="$c" '{ $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); if (index($0 " ", c " ") == 1) print }' "$T_TMP/rows" | wc -l)
	case ,$flags, in
	*,live,*) t_eq "tests/views: no line for '$c' (live, as its descriptor says)" "$n" 0 ;;
	*) t_eq "tests/views: '$c' (a view, as its descriptor says) has a line" "$([ "$n" -gt 0 ] && echo yes)" yes ;;
	esac
	[ "$label" = - ] && continue
	line=$(awk -v l="$label" -v c="$c" '{ x = $5; $1 = $2 = $3 = $4 = $5 = ""; sub(/^ +/, ""); if (x == "=" ? $0 == l : x == l) print $0 }' "$T_TMP/rows")
	case "$line " in "$c "*) at=yes ;; *) at="no: '$line'" ;; esac
	t_eq "tests/views: the line labelled '$label' runs $c, as its descriptor says" "$at" yes
done <"$T_TMP/desc"
cut -f3 "$T_TMP/desc" | grep -vx -- - | sort >"$T_TMP/desc.labels"
# and each line runs a command that exists
while read -r line; do
	known=no
	while read -r c; do
		case "$line " in "$c "*) known=yes ;; esac
	done <"$T_TMP/help"
	[ "$known" = yes ] || t_fail "tests/views: '$line' runs no command of any --help"
done <"$T_TMP/cmds"

# hostile_mutations.py: the views of one root (sysroot, netlink) and of two
awk '$3 == "sysroot" || $3 == "netlink" || $3 == "two"' "$T_TMP/rows" | cut_cmd | sort >"$T_TMP/want"
python3 "$(dirname "$0")/hostile_mutations.py" --list | sort >"$T_TMP/got"
t_eq "hostile_mutations.py runs every view of one or two roots" \
	"$(comm -3 "$T_TMP/want" "$T_TMP/got" | head -5 | tr '\n\t' ' +')" ""
t_eq "hostile_mutations.py runs at least 25 views" "$([ "$(wc -l <"$T_TMP/got")" -ge 25 ] && echo yes)" yes

# socbox metrics: its collectors' labels are the COLLECTOR column (= the command line)
awk '$5 != "-"' "$T_TMP/rows" >"$T_TMP/collect"
while read -r _d _n _s _f label cmd; do
	[ "$label" = = ] && label=$cmd
	echo "$label"
done <"$T_TMP/collect" | sort >"$T_TMP/labels.want"
"$SOCBOX" metrics --sysroot "$F/arm64-soc" >"$T_TMP/m" 2>/dev/null
sed -n 's/^socbox_metrics_collectors_success{collector="\([^"]*\)"}.*/\1/p' "$T_TMP/m" | sort >"$T_TMP/labels.got"
t_eq "socbox metrics runs the collectors of tests/views" \
	"$(comm -3 "$T_TMP/labels.want" "$T_TMP/labels.got" | tr '\n\t' ' +')" ""
t_eq "... which are the descriptors marked collector" \
	"$(comm -3 "$T_TMP/labels.want" "$T_TMP/desc.labels" | tr '\n\t' ' +')" ""
t_eq "socbox metrics has at least 10 collectors" "$([ "$(wc -l <"$T_TMP/labels.got")" -ge 10 ] && echo yes)" yes

# ... and run their command lines: on every board, each sample of the exposition is one
# those commands print, and each family they print is in the exposition
samples() { grep -v '^#' | grep -v '^socbox_metrics_collectors_' | sort -u; }
families() { sed 's/[{ ].*//' | sort -u; }
boards=0
for dir in "$F"/*/; do
	[ -d "$dir/sys" ] || [ -d "$dir/proc" ] || continue
	board=$(basename "$dir")
	boards=$((boards + 1))
	"$SOCBOX" metrics --sysroot "$dir" 2>/dev/null | samples >"$T_TMP/expo"
	: >"$T_TMP/views"
	while read -r _d _n _s _f _label cmd; do
		# shellcheck disable=SC2086 # $cmd: words by design (tests/views)
		"$SOCBOX" $cmd --format prometheus --sysroot "$dir" 2>/dev/null >>"$T_TMP/views"
	done <"$T_TMP/collect"
	samples <"$T_TMP/views" >"$T_TMP/views.s"
	extra=$(comm -23 "$T_TMP/expo" "$T_TMP/views.s" | head -3 | tr '\n' ' ')
	t_eq "$board: each sample of socbox metrics is one of its collectors' commands" "$extra" ""
	families <"$T_TMP/views.s" >"$T_TMP/views.f"
	families <"$T_TMP/expo" >"$T_TMP/expo.f"
	missing=$(comm -23 "$T_TMP/views.f" "$T_TMP/expo.f" | head -3 | tr '\n' ' ')
	t_eq "$board: each family of the collectors' commands is in socbox metrics" "$missing" ""
	t_eq "$board: the collectors print samples" "$([ -s "$T_TMP/expo" ] && echo yes)" yes
done
t_eq "metrics compared on at least 8 boards" "$([ "$boards" -ge 8 ] && echo yes)" yes
t_done
