#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# completions/bash/rpmsgctl: every command, sub-command and option is offered, and -o
# completes column names from the binary's own -H output. bash-completion's helpers are
# replaced by minimal stand-ins so the test needs bash only.
. "$SOCBOX_TESTLIB"
COMP=$(dirname "$SOCBOX_TESTLIB")/../completions/bash/rpmsgctl
mkdir -p "$T_TMP/bin" && ln -s "$SOCBOX" "$T_TMP/bin/rpmsgctl"

complete_words() { # WORDS...: print the candidates for the last word
	PATH="$T_TMP/bin:$PATH" bash -c '
		_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${words[cword]}; prev=${words[cword-1]}; }
		_filedir() { :; }
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_rpmsgctl
		printf "%s\n" "${COMPREPLY[@]}"' "$COMP" "$@"
}

t_eq "commands" "$(complete_words rpmsgctl '' | grep -v '^-' | tr '\n' ' ')" "list ept dev flow send recv ping rproc bench throughput "
t_eq "ept sub-commands" "$(complete_words rpmsgctl ept '' | tr '\n' ' ')" "create destroy "
t_eq "dev sub-commands" "$(complete_words rpmsgctl dev '' | tr '\n' ' ')" "create release "
t_eq "flow sub-commands" "$(complete_words rpmsgctl flow '' | tr '\n' ' ')" "get set "
t_eq "rproc sub-commands" "$(complete_words rpmsgctl rproc '' | tr '\n' ' ')" "status start stop detach firmware recovery trace crash cycle "
t_eq "ept create methods (no fd: it would not outlive rpmsgctl)" "$(complete_words rpmsgctl ept create x --method '' | tr '\n' ' ')" "auto legacy "
t_eq "ping methods" "$(complete_words rpmsgctl ping --method '' | tr '\n' ' ')" "auto legacy fd "
t_eq "bench methods" "$(complete_words rpmsgctl bench --method '' | tr '\n' ' ')" "legacy fd both "
t_eq "flow set words" "$(complete_words rpmsgctl flow set rpmsg0 '' | tr '\n' ' ')" "pause resume "
t_eq "recovery words" "$(complete_words rpmsgctl rproc recovery remoteproc0 '' | tr '\n' ' ')" "on off "
t_eq "crash types" "$(complete_words rpmsgctl rproc crash remoteproc0 --type '' | tr '\n' ' ')" "mmufault watchdog fatal "
complete_words rpmsgctl rproc cycle remoteproc0 -- >"$T_TMP/c"
for o in --count --crash --crash-type --ping --ping-count --size --timeout --json; do
	t_grep "rproc cycle $o" "^$o\$" "$T_TMP/c"
done
t_eq "a duration offers units (a bare number is seconds)" "$(complete_words rpmsgctl recv -t '' | tr '\n' ' ')" "250ms 1s 5s 30s 1m "
complete_words rpmsgctl ping --s >"$T_TMP/c"
t_grep "ping --size" '^--size$' "$T_TMP/c"
t_grep "ping --src" '^--src$' "$T_TMP/c"
t_grep "ping --sysroot" '^--sysroot$' "$T_TMP/c"
complete_words rpmsgctl send -- >"$T_TMP/c"
for o in --file --split --mtu --dev --fd --ctrl --name --src --dst --method --wait; do
	t_grep "send $o" "^$o\$" "$T_TMP/c"
done
complete_words rpmsgctl bench -- >"$T_TMP/c"
for o in --loops --runs --method --require-fd --json; do
	t_grep "bench $o" "^$o\$" "$T_TMP/c"
done
complete_words rpmsgctl recv -- >"$T_TMP/c"
for o in --timeout --hex --binary --count --json --raw --pairs --output --format; do
	t_grep "recv $o" "^$o\$" "$T_TMP/c"
done
t_grep "list --load-modules" '^--load-modules$' "$(complete_words rpmsgctl list -- >"$T_TMP/l"; echo "$T_TMP/l")"
t_eq "-o completes channel columns" "$(complete_words rpmsgctl list -o D | tr '\n' ' ')" "DEVICE DST DRIVER "
t_eq "-o after a comma" "$(complete_words rpmsgctl list -o NAME,RE | tr '\n' ' ')" "NAME,REMOTEPROC "
t_eq "-o of ping" "$(complete_words rpmsgctl ping -o P | tr '\n' ' ')" "P99_US "
t_eq "-o of recv" "$(complete_words rpmsgctl recv -o D | tr '\n' ' ')" "DATA_HEX "
t_done
