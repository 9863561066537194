#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Errors and usage messages on a terminal wrap at its width ($COLUMNS, else the tty's),
# at spaces, continuation lines indented; to a pipe or file they stay one line a message.
. "$SOCBOX_TESTLIB"
t_need script bsdutils || t_done
AM=$SOCBOX_FIXTURES/am62x

# on_tty COLUMNS CMD...: run CMD with stdout and stderr on a pseudo-terminal
on_tty() {
	_cols=$1
	shift
	script -qec "COLUMNS=$_cols $*" /dev/null </dev/null | tr -d '\r'
}

on_tty 40 "$SOCBOX" smmustat --sysroot "$AM" >"$T_TMP/tty"
"$SOCBOX" smmustat --sysroot "$AM" 2>"$T_TMP/pipe"
t_eq "to a file: one line" "$(wc -l <"$T_TMP/pipe" | tr -d ' ')" 1
t_eq "on a 40-column terminal: no line wider" "$(awk 'length > 40' "$T_TMP/tty")" ""
t_eq "... more than one line" "$(awk 'END { print (NR > 2) }' "$T_TMP/tty")" 1
t_eq "... the continuation lines indented" "$(sed -n '2,$p' "$T_TMP/tty" | grep -cv '^  [^ ]')" 0
t_eq "... the same words as the one line" "$(tr -s ' \n' '  ' <"$T_TMP/tty" | sed 's/ $//')" \
	"$(tr -s ' \n' '  ' <"$T_TMP/pipe" | sed 's/ $//')"
on_tty 40 "$SOCBOX" rpmsgctl lsit >"$T_TMP/tty"
t_eq "usage errors wrap too" "$(awk 'length > 40' "$T_TMP/tty")" ""
t_grep "... with the word meant" "^  you mean 'list'\\? \\(see" "$T_TMP/tty"
# a path wider than the terminal is not cut: it runs past the edge on a line of its own
on_tty 20 "$SOCBOX" smmustat --sysroot "$SOCBOX_FIXTURES/../fixtures/arm64-server-smmuv3/nonexistent-dir" >"$T_TMP/tty"
t_grep "a long path stays whole" "^  .*/fixtures/arm64-server-smmuv3/nonexistent-dir:" "$T_TMP/tty"
t_done
