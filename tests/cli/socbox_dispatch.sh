#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The multi-call binary: names, --list, --install, unknown applets, exit codes.
. "$SOCBOX_TESTLIB"

t_run "--version" 0 "$SOCBOX" --version
t_grep "version printed" '^socbox [0-9]+\.[0-9]+\.[0-9]+$' "$T_TMP/out"
t_run "--help" 0 "$SOCBOX" --help
t_grep "help lists doctor" '^  doctor ' "$T_TMP/out"
t_grep "help lists exit codes" 'Exit codes: 0 ok, 1 failed, 2 usage error, 3 not supported here,$' "$T_TMP/out"
t_grep "all five" '^ +4 permission denied\.$' "$T_TMP/out"
t_run "--help fits 80 columns" 0 awk 'length > 80 { exit 1 }' "$T_TMP/out"
t_run "--list" 0 "$SOCBOX" --list
cp "$T_TMP/out" "$T_TMP/applets"
t_nogrep "--list holds only applets" '^(doctor|snapshot)$' "$T_TMP/applets"
t_run "unknown applet" 2 "$SOCBOX" frobnicate
t_grep "unknown applet is one line" "^socbox: unknown applet or command 'frobnicate'" "$T_TMP/err"
t_eq "unknown applet error has one line" "$(wc -l <"$T_TMP/err")" 1
t_run "--install needs a directory" 2 "$SOCBOX" --install

mkdir "$T_TMP/bin"
cp "$SOCBOX" "$T_TMP/bin/socbox"
t_run "--install" 0 "$T_TMP/bin/socbox" --install "$T_TMP/bin"
# shellcheck disable=SC2013 # applet names are single words
for a in $(cat "$T_TMP/applets"); do
	t_eq "link $a" "$(readlink "$T_TMP/bin/$a")" socbox
	t_run "$a runs through its link" 0 "$T_TMP/bin/$a" --version
	t_grep "$a knows its name" "^$a \\(socbox\\) " "$T_TMP/out"
	t_run "socbox $a" 0 "$T_TMP/bin/socbox" "$a" --version
done
t_run "--install again replaces own links" 0 "$T_TMP/bin/socbox" --install "$T_TMP/bin"
first=$(head -n 1 "$T_TMP/applets")
if [ -n "$first" ]; then
	rm "$T_TMP/bin/$first"
	echo "precious" >"$T_TMP/bin/$first"
	t_run "--install refuses to overwrite a file" 1 "$T_TMP/bin/socbox" --install "$T_TMP/bin"
	t_eq "the file survived" "$(cat "$T_TMP/bin/$first")" precious
fi
ln -s socbox "$T_TMP/bin/doctor-not-an-applet"
t_run "unknown name falls back to socbox" 0 "$T_TMP/bin/doctor-not-an-applet" --version
# Every message names the program as it was run: an applet through its link says
# "smmustat:", never "socbox:" (the table renderer used to dlopen libsmartcols and, when that
# failed, print a fixed "socbox:" prefix; a broken copy of the library on the search path
# must not matter now)
mkdir "$T_TMP/badlib"
echo "not a shared object" >"$T_TMP/badlib/libsmartcols.so.1"
LD_LIBRARY_PATH=$T_TMP/badlib "$T_TMP/bin/smmustat" --sysroot "$SOCBOX_FIXTURES/x86-vtd" >"$T_TMP/out" 2>"$T_TMP/err"
t_eq "smmustat prints its table with a broken libsmartcols on the path" "$?" 0
t_grep "the table is there" '^NAME +' "$T_TMP/out"
t_eq "and nothing on stderr" "$(cat "$T_TMP/err")" ""
t_run "an error through the link" 2 "$T_TMP/bin/smmustat" --bogus
t_grep "names the applet" "^smmustat( overview)?: " "$T_TMP/err"
t_nogrep "not socbox" "^socbox" "$T_TMP/err"
t_done
