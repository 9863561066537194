#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Docs that cannot drift: every long option of every command's --help is in the applet's
# manual page and is offered by its bash completion for that command, and neither offers an
# option the binary lacks; the manual pages fit an 80-column console.
. "$SOCBOX_TESTLIB"
top=$(cd "$SOCBOX_FIXTURES/../.." && pwd)
t_need bash bash || t_done
t_need col bsdextrautils || t_done
t_need man man-db || t_done
mkdir -p "$T_TMP/bin"
for a in socbox $("$SOCBOX" --list); do ln -s "$SOCBOX" "$T_TMP/bin/$a"; done

# Options a page names that belong to other programs (cut at the first dot).
foreign='collector|now'

# help_opts WORDS...: the long options in the option column of 'WORDS --help'
help_opts() {
	_p=$1
	shift
	"$T_TMP/bin/$_p" "$@" --help 2>/dev/null |
		sed -n 's/^  \(-[A-Za-z0-9], \|    \)\{0,1\}--\([a-z0-9][a-z0-9-]*\).*/--\2/p' | sort -u
}

# commands WORDS...: the commands 'WORDS --help' lists
commands() {
	_p=$1
	shift
	"$T_TMP/bin/$_p" "$@" --help 2>/dev/null | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'
}

# completion WORDS...: what the completion of the applet (or socbox) offers after WORDS --
completion() {
	PATH="$T_TMP/bin:$PATH" bash -c '
		_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${words[cword]}; prev=${words[cword-1]}; }
		_filedir() { :; }
		_completion_loader() { return 1; }
		. "$0"
		COMP_WORDS=("$@" --); COMP_CWORD=$#
		"_$1"
		printf "%s\n" "${COMPREPLY[@]}"' "$top/completions/bash/$1" "$@" | grep '^--' | sort -u
}

# leaves WORDS...: every command path below WORDS that takes options (one per line)
leaves() {
	_cmds=$(commands "$@")
	if [ -z "$_cmds" ]; then
		echo "$*"
		return
	fi
	for _c in $_cmds; do leaves "$@" "$_c"; done
}

# per applet: the completion for each command, and the options of all its commands
: >"$T_TMP/any"
for a in socbox $("$SOCBOX" --list); do
	: >"$T_TMP/$a.all"
	if [ "$a" = socbox ]; then
		paths=$(for c in $(commands socbox); do echo "socbox $c"; done)
		help_opts socbox >>"$T_TMP/$a.all"
	else
		paths=$(leaves "$a")
	fi
	echo "$paths" >"$T_TMP/paths"
	while read -r path; do
		# shellcheck disable=SC2086 # the words of the command path
		help_opts $path >"$T_TMP/help"
		cat "$T_TMP/help" >>"$T_TMP/$a.all"
		# shellcheck disable=SC2086
		completion $path >"$T_TMP/comp"
		t_eq "$path: completion offers --help's options" \
			"$(comm -23 "$T_TMP/help" "$T_TMP/comp" | tr '\n' ' ')" ""
		t_eq "$path: completion offers no option --help lacks" \
			"$(comm -13 "$T_TMP/help" "$T_TMP/comp" | tr '\n' ' ')" ""
	done <"$T_TMP/paths"
	sort -u -o "$T_TMP/$a.all" "$T_TMP/$a.all"
	cat "$T_TMP/$a.all" >>"$T_TMP/any"
done
sort -u -o "$T_TMP/any" "$T_TMP/any"

# what --help says of the output is what the command does
"$SOCBOX" events --help >"$T_TMP/h"
t_grep "events --help: -J prints JSON Lines" '^  -J, --json +JSON Lines output' "$T_TMP/h"
"$SOCBOX" snapshot --help >"$T_TMP/h"
t_nogrep "snapshot --help offers no --sysroot (it reads the live system)" '--sysroot' "$T_TMP/h"

# per page: every option of its applet, and none that no applet has (a page may name
# another applet's option, as socbox(1) names devmemstat --save-netlink)
for a in socbox $("$SOCBOX" --list); do
	# in roff a minus is \-, also inside a name: \-\-list\-columns
	grep -o '\\-\\-[a-z0-9]\([a-z0-9]\|\\-\)*' "$top/man/$a.1" | sed 's/\\//g' |
		grep -Ev "^--($foreign)\$" | sort -u >"$T_TMP/man"
	t_eq "man/$a.1 has every option of $a's --help" \
		"$(comm -23 "$T_TMP/$a.all" "$T_TMP/man" | tr '\n' ' ')" ""
	t_eq "man/$a.1 names no option socbox lacks" \
		"$(comm -13 "$T_TMP/any" "$T_TMP/man" | tr '\n' ' ')" ""
	MANWIDTH=80 man -l "$top/man/$a.1" 2>"$T_TMP/man.err" | col -bx >"$T_TMP/page"
	t_eq "man/$a.1 fits 80 columns" \
		"$(awk 'length > 80 { printf "%d:%d ", NR, length }' "$T_TMP/page")" ""
	t_eq "man/$a.1 renders without complaint" "$(cat "$T_TMP/man.err")" ""
done
t_done
