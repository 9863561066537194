#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Docs follow the binary: every applet has a manual page that formats cleanly and a bash
# completion that parses; socbox's own page and completion too.
. "$SOCBOX_TESTLIB"
top=$(cd "$SOCBOX_FIXTURES/../.." && pwd)

for name in socbox $("$SOCBOX" --list); do
	page=$top/man/$name.1
	if [ -f "$page" ]; then
		if groff -man -ww -z -Tutf8 "$page" >"$T_TMP/groff" 2>&1 && [ ! -s "$T_TMP/groff" ]; then
			t_ok "man/$name.1 formats without warnings"
		else
			t_fail "man/$name.1: $(head -5 "$T_TMP/groff")"
		fi
		t_grep "man/$name.1 documents exit status 3" '^\.B 3$|^3 ' "$page"
	else
		t_fail "man/$name.1 is missing"
	fi
	comp=$top/completions/bash/$name
	if [ -f "$comp" ] && bash -n "$comp" 2>"$T_TMP/bash"; then
		t_ok "completions/bash/$name parses"
	else
		t_fail "completions/bash/$name missing or broken: $(cat "$T_TMP/bash" 2>/dev/null)"
	fi
	if [ "$name" != socbox ]; then
		t_grep "README has a section for $name" "^## $name" "$top/README.md"
		# the summary's one source is cmd/applets.def; --help and the man page show it
		summary=$(sed -n "s/^SB_APPLET($name, \"\(.*\)\")\$/\1/p" "$top/cmd/applets.def")
		t_eq "$name --help shows the applets.def summary" "$("$SOCBOX" "$name" --help | sed -n 2p)" "$summary"
		t_eq "man/$name.1 NAME is the applets.def summary" \
			"$(sed -n '/^\.SH NAME/{n;s/^[^ ]* \\- //;p;}' "$page")" "$summary"
	fi
done

# socbox(1)'s SEE ALSO names every applet's page, and no other applet
t_eq "socbox(1) SEE ALSO names the applets of socbox --list" \
	"$(sed -n '/^\.SH SEE ALSO/,/^\.SH/s/^\.BR \([a-z]*\) (1).*/\1/p' "$top/man/socbox.1" | sort | tr '\n' ' ')" \
	"$("$SOCBOX" --list | tr ' ' '\n' | sort | tr '\n' ' ')"

# HACKING's layout names socbox's own commands (the Commands of socbox --help) by file.
for cmd in $("$SOCBOX" --help | sed -n '/^Commands:/,/^$/s/^  \([a-z][a-z-]*\) .*/\1/p'); do
	t_grep "HACKING names cmd/$cmd.c among socbox's own commands" "\`cmd/$cmd\.c\`" "$top/HACKING.md"
done
t_done
