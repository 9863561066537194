#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Small things a new user trips over (issue 37, "Hard to use"): `socbox help`, a mistyped
# option of socbox's own, a --cpus that names CPUs the board lacks.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES

# socbox help is socbox --help; socbox help WORD... is socbox WORD... --help
"$SOCBOX" --help >"$T_TMP/help.want"
t_run "socbox help" 0 "$SOCBOX" help
t_eq "... prints socbox --help" "$(cat "$T_TMP/out")" "$(cat "$T_TMP/help.want")"
t_grep "... and says how to get a command's" "^Run 'socbox help COMMAND' or 'socbox COMMAND --help'" "$T_TMP/out"
"$SOCBOX" rpmsgctl rproc --help >"$T_TMP/rproc.want"
t_run "socbox help rpmsgctl rproc" 0 "$SOCBOX" help rpmsgctl rproc
t_eq "... prints rpmsgctl rproc --help" "$(cat "$T_TMP/out")" "$(cat "$T_TMP/rproc.want")"
"$SOCBOX" events --help >"$T_TMP/events.want"
t_run "socbox help events" 0 "$SOCBOX" help events
t_eq "... prints socbox events --help" "$(cat "$T_TMP/out")" "$(cat "$T_TMP/events.want")"

# a mistyped option of socbox's own is socbox's, not doctor's
t_run "socbox --lst" 2 "$SOCBOX" --lst
t_eq "... named as socbox's, with the one meant" "$(cat "$T_TMP/err")" \
	"socbox: --lst: unknown option; did you mean '--list'? (see 'socbox --help')"
t_run "socbox --verison" 2 "$SOCBOX" --verison
t_grep "... --version meant" "did you mean '--version'" "$T_TMP/err"
# doctor's options still reach doctor, the default command
t_run "socbox --json --sysroot: doctor" 0 "$SOCBOX" --json --sysroot "$F/am62x"
t_jq "... doctor's JSON" 'has("subsystems")' "$T_TMP/out"
t_run "socbox --lits-causes: doctor's typo" 2 "$SOCBOX" --lits-causes
t_grep "... doctor's option meant" "^socbox doctor: --lits-causes: unknown option; did you mean '--list-causes'" "$T_TMP/err"

# devmemstat top --cpus with a CPU the board lacks: said, exit 3 (it printed nothing, exit 0)
Q=$F/qemu-virt-arm64
ncpu=$(grep -c '^cpu[0-9]' "$Q/proc/stat")
t_run "top --cpus $ncpu on a board with $ncpu CPUs" 3 "$SOCBOX" devmemstat top --cpus "$ncpu" --sysroot "$Q"
t_eq "... one line naming the CPU" "$(cat "$T_TMP/err")" \
	"devmemstat: --cpus: find the CPU: no CPU $ncpu ($ncpu online in /proc/stat)"
t_eq "... and no table" "$(cat "$T_TMP/out")" ""
t_run "top --cpus 0" 0 "$SOCBOX" devmemstat top --cpus 0 --sysroot "$Q" -J
t_jq "... the one CPU asked" '[.cpus[].cpu] == [0]' "$T_TMP/out"
t_done
