#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox events on the test remote processor (tests/vm/rproc_remote): a boot, a crash the
# kernel recovers from and a stop, as the remoteproc core and the rpmsg bus log them, in one
# followed stream and in the one-shot timeline; then counted as metrics.
# shellcheck disable=SC2086 # $EV and $R are "$SOCBOX APPLET": split into words on purpose
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

EV="$SOCBOX events"
R="$SOCBOX rpmsgctl"
T=/tmp

# shellcheck disable=SC2317 # called through ok
wait_for() { # FILE ERE: poll until a line of FILE matches (10 s at most)
	_n=0
	while ! grep -Eq -- "$2" "$1" 2>/dev/null; do
		[ "$_n" -ge 100 ] && return 1
		sleep 0.1
		_n=$((_n + 1))
	done
}
# shellcheck disable=SC2317 # called through ok
count() { grep -Ec -- "$2" "$1"; }

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is registered ($rp)"

# only what this script causes (--follow prints the log so far first, as dmesg -w)
start_s=$(cut -d' ' -f1 /proc/uptime)
$EV --follow -J -v -s remoteproc,rpmsg --since "$start_s" >"$T/follow.jsonl" 2>"$T/follow.err" &
follower=$!
ok "events --follow is listening" wait_for "$T/follow.err" 'following the kernel log, rpmsg uevents'

ok "start" $R rproc start "$rp"
ok "up in the timeline" wait_for $T/follow.jsonl "\"kind\":\"up\",\"object\":\"$rp\""
ok "its channel announced (kernel log)" wait_for $T/follow.jsonl '"kind":"channel-add","object":"rpmsg-raw"'
ok "crash (recovery enabled)" $R rproc crash "$rp" --type fatal
ok "the crash in the timeline" wait_for $T/follow.jsonl "\"kind\":\"crash\",\"object\":\"$rp\""
ok "recovered: up again" sh -c "n=0; while [ \$(grep -c '\"kind\":\"up\",\"object\":\"$rp\"' $T/follow.jsonl) -lt 2 ] && [ \$n -lt 100 ]; do sleep 0.1; n=\$((n + 1)); done; [ \$n -lt 100 ]"
ok "stop" $R rproc stop "$rp"
ok "stopped in the timeline" wait_for $T/follow.jsonl "\"kind\":\"stopped\",\"object\":\"$rp\".*socbox-remote"
kill -TERM "$follower"
wait "$follower"
is "$?" 0 "events --follow ends cleanly on SIGTERM"
sed 's/^/# /' $T/follow.jsonl
got=$(sed -n "s/.*\"subsystem\":\"remoteproc\",\"kind\":\"\\([a-z-]*\\)\",\"object\":\"$rp\".*/\\1/p" $T/follow.jsonl | tr '\n' ' ')
diag "remoteproc kinds: $got"
# Since 6.x rproc_report_crash() queues the crash handler before it prints "crash detected"
# (remoteproc_core.c): on another CPU the handler's "handling crash" and "recovering" can
# come first in the log. The rest keeps its order; the crash comes between the two "up"s.
like "$(echo "$got" | sed 's/ crash / /')" '^power-up booting up crash-handled recovery( stopped)? up stopped $' "boot, crash handled, recovery, stop: in the order they happened"
like "$got" '^power-up booting up .*crash .*up stopped $' "the crash is between the boot and the recovered boot"
like "$(grep '"kind":"crash"' $T/follow.jsonl)" "\"detail\":\"socbox-remote, type fatal error\"" "the crash has its type"
like "$(grep '"kind":"crash-handled"' $T/follow.jsonl)" "crash #[0-9]+\"" "the kernel's crash count"
like "$(grep -c '"kind":"endpoint-add"\|"kind":"channel-add"' $T/follow.jsonl)" '^[1-9]' "rpmsg devices came and went with it (uevents)"

ok "one-shot timeline" sh -c "$EV -s remoteproc >$T/once.txt"
sed 's/^/# /' $T/once.txt
like "$(cat $T/once.txt)" "^\\[ *[0-9]+\\.[0-9]{6}\\] remoteproc crash +$rp  socbox-remote, type fatal error\$" "one line per event"
ok "metrics" sh -c "$EV --format prometheus -s remoteproc >$T/ev.prom"
like "$(cat $T/ev.prom)" "^socbox_events_records_total\\{subsystem=\"remoteproc\",kind=\"recovery\",object=\"$rp\"\\} [1-9]" "recoveries counted"
like "$($R rproc status "$rp" --format prometheus)" "^socbox_rpmsgctl_remoteprocs_crashes_total\\{id=\"$rp\",name=\"socbox-remote\"\\} [1-9]" "rpmsgctl counts the kernel's crashes as a counter"
done_testing
