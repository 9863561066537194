#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsgctl stopped by a signal (man rpmsgctl, SIGNALS): a temporary endpoint is destroyed on
# SIGINT, SIGTERM, SIGHUP and SIGPIPE, what arrived is still printed, and the exit status is
# the documented one. The endpoints are made by the legacy path, whose /dev/rpmsgN outlives
# the process unless destroyed (an fd endpoint dies with its fd). Every signal is sent after a readiness line (-v) or the effect it
# waits for has been seen, never after a sleep.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/rpmsgctl_signal
mkdir -p $T
is "$(endpoint_devices)" 0 "no endpoint device at the start"

# --- a SIGINT ignored on entry (a script's background job) stays ignored ---
$R recv --method legacy -v >$T/ign.out 2>$T/ign.err &
pid=$!
ok "recv started with SIGINT ignored said its endpoint is ready" wait_line $T/ign.err 'endpoint created'
kill -INT $pid
kill -TERM $pid
wait $pid
is "$?" 0 "it ran on after SIGINT and SIGTERM ended it with 0"
like "$(cat $T/ign.err)" 'stopped by SIGTERM' "SIGTERM, not SIGINT, stopped it"
is "$(endpoint_devices)" 0 "no endpoint device left behind"

# --- recv on a temporary endpoint, one run per stop signal ---
# (socbox-sigdfl: a background job starts with SIGINT ignored, and rpmsgctl keeps that)
for sig in INT TERM HUP; do
	socbox-sigdfl $R recv --method legacy -v -J >$T/recv.$sig 2>$T/recv.$sig.err &
	pid=$!
	ok "SIG$sig: recv said its endpoint is ready" wait_line $T/recv.$sig.err 'endpoint created by the legacy path: /dev/rpmsg[0-9]+'
	dev=$(sed -n 's|.*endpoint created by the legacy path: \(/dev/rpmsg[0-9]*\).*|\1|p' $T/recv.$sig.err)
	ok "SIG$sig: $dev exists while recv runs" test -c "$dev"
	kill -"$sig" $pid
	wait $pid
	is "$?" 0 "SIG$sig: recv exits 0"
	cat $T/recv.$sig.err | sed 's/^/# /'
	not_ok "SIG$sig: $dev is gone" test -e "$dev"
	is "$(endpoint_devices)" 0 "SIG$sig: no endpoint device left behind"
	like "$(tr -d ' \n' <$T/recv.$sig)" '^\{"received":0,"messages":\[\],"notes":\["stoppedbySIG'"$sig"'after0message\(s\)"\]\}$' \
		"SIG$sig: -J still prints the (empty) messages table, the count and why it stopped"
done

# --- SIGPIPE: the reader went away; the endpoint goes too, status 1 without a message ---
$R recv --method legacy -v >$T/pipe.out 2>$T/pipe.err &
pid=$!
ok "SIGPIPE: recv said its endpoint is ready" wait_line $T/pipe.err 'endpoint created'
kill -PIPE $pid
wait $pid
is "$?" 1 "SIGPIPE: recv exits 1"
is "$(endpoint_devices)" 0 "SIGPIPE: no endpoint device left behind"
is "$(grep -v '^rpmsgctl: endpoint created\|^rpmsgctl: stopped by' $T/pipe.err)" "" "SIGPIPE: no error message"

# --- the messages that arrived before the signal are printed (-J) ---
ok "ept create held" sh -c "$R ept create held -r -n -o DEVNODE >$T/held"
node=$(cat $T/held)
exec 3<>"$node"
ok "send one" $R send --fd 3 one
ok "send two" $R send --fd 3 two
socbox-sigdfl $R recv --fd 3 -v -J >$T/two.json 2>$T/two.err &
pid=$!
ok "recv reported the second message" wait_line $T/two.err 'message 2: 3 bytes'
kill -INT $pid
wait $pid
is "$?" 0 "recv --fd stopped by SIGINT exits 0"
# the loopback echoes from an unbound workqueue: the two may come back in either order
like "$(tr -d ' \n' <$T/two.json)" '"data_hex":"6f6e65"' "the first message is in the JSON"
like "$(tr -d ' \n' <$T/two.json)" '"data_hex":"74776f"' "the second message is in the JSON"
like "$(tr -d ' \n' <$T/two.json)" '"received":2,' "received says 2"

# --- recv | head -1: a real broken pipe ---
# the exit status of recv is written by the subshell: head's is the pipeline's. Messages go
# in until recv has exited, as a remote would keep sending: the write after head has gone
# is the one that meets the broken pipe.
( $R recv --fd 3 --timeout 10s; echo $? >$T/pipe.rc ) | head -1 >$T/pipe.first &
i=0
while [ ! -s $T/pipe.rc ] && [ $i -lt 500 ]; do
	$R send --fd 3 "m$i" || diag "send m$i failed"
	i=$((i + 1))
	usleep 20000
done
wait
is "$(wc -l <$T/pipe.first | tr -d ' ')" 1 "head got one message"
is "$(cat $T/pipe.rc)" 1 "recv | head -1: recv exits 1 after SIGPIPE (not killed by it: 141)"
exec 3>&-
ok "ept destroy held" $R ept destroy "$node"
is "$(endpoint_devices)" 0 "no endpoint device after destroy"

# --- ping prints the statistics so far ---
socbox-sigdfl $R ping --method legacy -c 1000000 -v -J >$T/ping.json 2>$T/ping.err &
pid=$!
ok "ping said its endpoint is ready" wait_line $T/ping.err 'endpoint created'
kill -INT $pid
wait $pid
is "$?" 0 "ping stopped by SIGINT exits 0"
is "$(endpoint_devices)" 0 "ping left no endpoint device"
sent=$(tr -d ' \n' <$T/ping.json | sed -n 's/.*"sent":\([0-9]*\),.*/\1/p')
received=$(tr -d ' \n' <$T/ping.json | sed -n 's/.*"received":\([0-9]*\),.*/\1/p')
like "$sent" '^[0-9]+$' "ping -J has the requests sent ($sent)"
is "$received" "$sent" "every request sent was answered"
like "$(tr -d ' \n' <$T/ping.json)" '"lost":0,"corrupt":0' "none lost or corrupt"
like "$(tr -d ' \n' <$T/ping.json)" 'stoppedbySIGINTafter[0-9]+request' "the note says it was stopped"

# --- bench: stopped between iterations, leaves nothing ---
$R bench --method legacy --loops 1000000 -v -J >$T/bench.json 2>$T/bench.err &
pid=$!
ok "bench said it started measuring" wait_line $T/bench.err 'measuring'
kill -TERM $pid
wait $pid
is "$?" 0 "bench stopped by SIGTERM exits 0"
cat $T/bench.err | sed 's/^/# /'
is "$(endpoint_devices)" 0 "bench left no endpoint device"
like "$(tr -d ' \n' <$T/bench.json)" '"method":"legacy","op":"create"' "bench prints the iterations it measured"
like "$(tr -d ' \n' <$T/bench.json)" 'stoppedbySIGTERMduringrun1' "and says it was stopped"

done_testing
