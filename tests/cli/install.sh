#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# cmake --install puts the binary, one symlink per applet, the manual pages and the bash
# completions and the Prometheus alerting rules in place, also when staged with DESTDIR.
. "$SOCBOX_TESTLIB"

t_run "cmake --install" 0 cmake --install "$SOCBOX_BUILD_DIR" --prefix "$T_TMP/p"
t_run "installed socbox runs" 0 "$T_TMP/p/bin/socbox" --version
t_run "man page socbox(1)" 0 test -f "$T_TMP/p/share/man/man1/socbox.1"
t_run "completion for socbox" 0 test -f "$T_TMP/p/share/bash-completion/completions/socbox"
t_run "alerting rules" 0 cmp "$T_TMP/p/share/socbox/prometheus/socbox.rules.yml" \
	"$SOCBOX_FIXTURES/../../dist/prometheus/socbox.rules.yml"
for a in $("$SOCBOX" --list); do
	t_eq "link $a" "$(readlink "$T_TMP/p/bin/$a")" socbox
	t_run "$a runs from the install" 0 "$T_TMP/p/bin/$a" --version
	t_run "man page $a(1)" 0 test -f "$T_TMP/p/share/man/man1/$a.1"
	t_run "completion for $a" 0 test -f "$T_TMP/p/share/bash-completion/completions/$a"
done
DESTDIR=$T_TMP/stage cmake --install "$SOCBOX_BUILD_DIR" --prefix /usr >"$T_TMP/log" 2>&1
t_eq "DESTDIR staging" "$?" 0
t_run "staged binary" 0 test -x "$T_TMP/stage/usr/bin/socbox"
t_done
