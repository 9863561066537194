#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Each command's descriptor (struct sb_cmd: cmd/applets.def for socbox's own commands, the
# applets' <applet>_cmds[]) is the one source of what the command is: `socbox
# --list-commands` prints them, --help lists the same commands, socbox metrics runs the ones
# marked collector, and every command marked live answers a sysroot the one way, from the
# framework: one line, exit 3.
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

# The manual pages' SYNOPSIS names every command: a line of its page starts with the applet
# (socbox for socbox's own) and has each word of the command ("rpmsgctl rproc
# [status [NAME]] | start|stop|detach NAME" names rproc status, start, stop and detach).
top=$(cd "$SOCBOX_FIXTURES/../.." && pwd)
if t_need man man-db && t_need col bsdextrautils; then
	for page in socbox $("$SOCBOX" --list); do
		MANWIDTH=1000 man -l "$top/man/$page.1" 2>/dev/null | col -bx |
			awk '/^SYNOPSIS/ { f = 1; next } /^[A-Z]/ { f = 0 } f' | tr '[]|' '   ' >"$T_TMP/syn.$page"
	done
	cut -f1 "$T_TMP/desc" >"$T_TMP/cmds"
	while read -r cmd; do
		case $cmd in *" "*) page=${cmd%% *} words=${cmd#* } ;; *) page=socbox words=$cmd ;; esac
		# shellcheck disable=SC2086 # the command's words
		found=$(awk -v p="$page" -v w="$words" 'BEGIN { n = split(w, want, " ") }
			$1 == p { k = 0; for (i = 1; i <= n; i++) for (j = 2; j <= NF; j++) if ($j == want[i]) { k++; break }
				  if (k == n) { print "yes"; exit } }' "$T_TMP/syn.$page")
		t_eq "man/$page.1 SYNOPSIS names '$cmd'" "$found" yes
	done <"$T_TMP/cmds"
fi

# The live answer. ARGS: a valid command line of each live command (a usage error is still 2
# on a sysroot, so the arguments must be good ones); a live command without a line here fails.
cat >"$T_TMP/args" <<EOF
snapshot $T_TMP/snap.tar
rpmsgctl ept create foo
rpmsgctl ept destroy rpmsg1 rpmsg2
rpmsgctl dev create rpmsg-raw --dst 14
rpmsgctl dev release rpmsg-raw --dst 14
rpmsgctl flow get rpmsg1
rpmsgctl flow set rpmsg1 pause
rpmsgctl send hello
rpmsgctl recv
rpmsgctl ping
rpmsgctl rproc start remoteproc0
rpmsgctl rproc stop remoteproc0
rpmsgctl rproc detach remoteproc0
rpmsgctl rproc crash remoteproc0
rpmsgctl rproc cycle remoteproc0
rpmsgctl bench --loops 1
rpmsgctl throughput --echo 0x400
dmabufcp copy $T_TMP/src udmabuf $T_TMP/dst
dmabufcp bench $T_TMP/src
smmustat stress
devmemstat monitor
devmemstat bind --dev eth0 --queues 0
devmemstat rx --dev eth0 --queues 0
EOF
echo data >"$T_TMP/src"
awk -F"$TAB" '$2 ~ /(^|,)live(,|$)/ { print $1 }' "$T_TMP/desc" >"$T_TMP/live"
while read -r cmd; do
	line=$(awk -v c="$cmd" 'index($0 " ", c " ") == 1' "$T_TMP/args" | head -1)
	if [ -z "$line" ]; then
		t_fail "$cmd is live: give it a valid command line in tests/cli/descriptors.sh"
		continue
	fi
	# socbox snapshot has no --sysroot (it reads the live system): SOCBOX_SYSROOT says it
	# shellcheck disable=SC2086 # the words of the command line
	t_run "$cmd on a sysroot: exit 3" 3 env SOCBOX_SYSROOT="$AM" "$SOCBOX" $line
	case $cmd in *" "*) applet=$cmd ;; *) applet="socbox $cmd" ;; esac
	t_eq "$cmd on a sysroot: the framework's one line" "$(cat "$T_TMP/err")" \
		"$applet: needs the live kernel, not a sysroot (run it on the board)"
done <"$T_TMP/live"
t_eq "at least 20 live commands" "$([ "$(wc -l <"$T_TMP/live")" -ge 20 ] && echo yes)" yes
t_eq "nothing left behind" "$(ls "$T_TMP/snap.tar" "$T_TMP/dst" 2>/dev/null)" ""
# the views among them stay views on a sysroot
t_run "rpmsgctl rproc firmware (a view) on a sysroot" 0 "$SOCBOX" rpmsgctl rproc firmware remoteproc0 --sysroot "$AM"
t_done
