#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each command's descriptor (struct sb_cmd: cmd/applets.def for socbox's own commands, the
# applets' <applet>_cmds[]) is the one source of what the command is: `socbox
# --list-commands` prints them, --help lists the same commands, socbox metrics runs the ones
# marked collector.
. "$SOCBOX_TESTLIB"
AM=$SOCBOX_FIXTURES/am62x
TAB=$(printf '\t')

t_run "--list-commands" 0 "$SOCBOX" --list-commands
cp "$T_TMP/out" "$T_TMP/desc"
t_eq "--list-commands: three tab-separated fields a line" \
	"$(awk -F"$TAB" 'NF != 3' "$T_TMP/desc" | head -3)" ""
t_eq "--list-commands: flags from the known set" \
	"$(cut -f2 "$T_TMP/desc" | tr ',' '\n' | grep -vxE 'view|live|root|checks|streams|collector|default|-' | sort -u | tr '\n' ' ')" ""
t_eq "--list-commands: a command is a view or live, never both or neither" \
	"$(awk -F"$TAB" '{ v = ($2 ~ /(^|,)view(,|$)/); l = ($2 ~ /(^|,)live(,|$)/); if (v == l) print $1 }' "$T_TMP/desc" | tr '\n' ',')" ""
t_eq "--list-commands: a collector is a view" \
	"$(awk -F"$TAB" '$3 != "-" && $2 !~ /(^|,)view(,|$)/ { print $1 }' "$T_TMP/desc" | tr '\n' ',')" ""
t_eq "--list-commands: at most one default per applet, group and socbox" \
	"$(awk -F"$TAB" '$2 ~ /default/ { split($1, w, " "); n = split($1, x, " "); k = (n == 1 ? "socbox" : w[1]); for (i = 2; i < n; i++) k = k " " w[i]; c[k]++ } END { for (k in c) if (c[k] != 1) print k }' "$T_TMP/desc")" ""

# the same commands as the --help of socbox, each applet and each group (rpmsgctl rproc)
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
{
	commands | sed 's/^socbox //'
	for a in $("$SOCBOX" --list); do commands "$a"; done
} | sort >"$T_TMP/help"
cut -f1 "$T_TMP/desc" | sort >"$T_TMP/listed"
t_eq "--help and --list-commands name the same commands" \
	"$(comm -3 "$T_TMP/help" "$T_TMP/listed" | tr '\n\t' ' +')" ""
t_eq "at least 45 commands" "$([ "$(wc -l <"$T_TMP/listed")" -ge 45 ] && echo yes)" yes
# an applet's own --list-commands is its part of socbox's
"$SOCBOX" smmustat --list-commands >"$T_TMP/smmu"
t_eq "smmustat --list-commands is socbox's smmustat lines" \
	"$(cat "$T_TMP/smmu")" "$(grep '^smmustat ' "$T_TMP/desc")"

# socbox metrics runs exactly the collectors, under their labels, in the registry's order
cut -f3 "$T_TMP/desc" | grep -vx -- - >"$T_TMP/labels.want"
"$SOCBOX" metrics --sysroot "$AM" >"$T_TMP/m" 2>/dev/null
sed -n 's/^socbox_metrics_collectors_success{collector="\([^"]*\)"}.*/\1/p' "$T_TMP/m" >"$T_TMP/labels.got"
t_eq "socbox metrics runs the descriptors marked collector, in order" \
	"$(tr '\n' ',' <"$T_TMP/labels.got")" "$(tr '\n' ',' <"$T_TMP/labels.want")"

t_done
