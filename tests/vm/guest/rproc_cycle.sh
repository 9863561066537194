#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsgctl rproc cycle against the test remote processor: 50 stop/start and 50
# crash/recover cycles, each checked for the remote running, its rpmsg channels and control
# device back and its rpmsg-raw channel answering pings; JSON; the refusals; and a remote
# that comes back without its channel failing at cycle 1, naming the channel.
# shellcheck source=../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/cycle
mkdir -p $T
N=${RPROC_CYCLES:-50}

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is registered ($rp)"

$R rproc cycle "$rp" -c 1 2>$T/off.err
is "$?" 1 "cycle on an offline processor: exit 1"
like "$(cat $T/off.err)" 'it is offline, not running \(start it first' "and says to start it"
ok "start" $R rproc start "$rp"
i=0
until ls /sys/bus/rpmsg/devices/ | grep -q '\.rpmsg-raw\.' || [ $i -ge 500 ]; do usleep 20000; i=$((i + 1)); done
$R rproc cycle "$rp" -c 1 --ping nosuch 2>$T/nosuch.err
is "$?" 1 "--ping of a channel it does not have: exit 1"
like "$(cat $T/nosuch.err)" 'nosuch: find the channel to ping' "and names it"

ok "cycle -c $N (stop/start) --ping rpmsg-raw" sh -c "$R rproc cycle $rp -c $N --ping rpmsg-raw >$T/stop 2>&1"
sed 's/^/# /' $T/stop
like "$(cat $T/stop)" "^cycles_completed: $N" "$N cycles completed"
like "$(cat $T/stop)" "^cycle +$N +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+" "per-cycle min/median/p99/max"
like "$(cat $T/stop)" "^ping +$N " "the channel answered after every cycle"

ok "cycle -c $N --crash --ping rpmsg-raw -J" sh -c "$R rproc cycle $rp -c $N --crash --ping rpmsg-raw -J >$T/crash.json 2>$T/crash.err"
cat $T/crash.err
j=$(tr -d ' \n' <$T/crash.json)
like "$j" "\"mode\":\"crash\",\"cycles_requested\":$N,\"cycles_completed\":$N" "JSON: $N crash cycles completed"
first=$(echo "$j" | sed -n 's/.*"first_crash":\([0-9]*\).*/\1/p')
last=$(echo "$j" | sed -n 's/.*"last_crash":\([0-9]*\).*/\1/p')
is "$((last - first + 1))" "$N" "the kernel handled $N crashes (#$first to #$last)"
like "$j" '"phase":"up","cycles":'"$N" "JSON: recovery times"
like "$j" '"phase":"cycle","cycles":'"$N"',"min_ms":[0-9.]+,"median_ms":[0-9.]+,"p99_ms":[0-9.]+,"max_ms":[0-9.]+' "JSON: per-cycle statistics"
diag "crash cycles: $(grep -A0 '"phase": "cycle"' -A6 $T/crash.json | tr -d ' \n')"
is "$(cat "/sys/class/remoteproc/$rp/state")" running "running after the cycles"

ok "recovery off" $R rproc recovery "$rp" off
$R rproc cycle "$rp" -c 1 --crash 2>$T/norec.err
is "$?" 1 "--crash with recovery disabled: exit 1"
like "$(cat $T/norec.err)" 'recovery is disabled' "and says why"
ok "recovery on" $R rproc recovery "$rp" on

# firmware that boots but never announces its channel: cycle 1 must fail, naming it
echo 0 >/sys/module/socbox_rproc/parameters/announce
$R rproc cycle "$rp" -c 3 --timeout 1500ms >$T/fail.out 2>$T/fail.err
is "$?" 1 "a channel that does not come back: exit 1"
like "$(cat $T/fail.err)" 'cycle 1: rpmsg channel rpmsg-raw did not come back within 1500 ms' "the failure names the cycle and the channel"
like "$(cat $T/fail.out)" '^cycles_completed: 0' "and the output says no cycle completed"
# the same failure as KTAP (tests/cli/ktap.sh reads the format with the kernel's parser),
# from a processor whose channel is up again (the baseline a cycle must get back to)
echo 1 >/sys/module/socbox_rproc/parameters/announce
ok "restart with its channel" sh -c "$R rproc stop $rp && $R rproc start $rp"
ok "the channel is back" wait_for has_channel
echo 0 >/sys/module/socbox_rproc/parameters/announce
$R rproc cycle "$rp" -c 3 --timeout 1500ms --format ktap >$T/fail.ktap 2>/dev/null
is "$?" 1 "--format ktap: exit 1 too"
sed 's/^/# /' $T/fail.ktap
like "$(cat $T/fail.ktap)" '^1\.\.3$' "KTAP plans the 3 cycles asked for"
like "$(cat $T/fail.ktap)" '^not ok 1 cycle_1$' "cycle 1 is a failed test"
like "$(cat $T/fail.ktap)" '^# .*cycle 1: rpmsg channel rpmsg-raw did not come back' "... its failure a # line"
like "$(cat $T/fail.ktap)" '^ok 3 cycle_3 # SKIP not run: an earlier cycle failed$' "the cycles not run are skipped"
echo 1 >/sys/module/socbox_rproc/parameters/announce
ok "restart with its channel" sh -c "$R rproc stop $rp && $R rproc start $rp"
ok "the channel is back" wait_for has_channel
ok "cycle -c 3 --format ktap" sh -c "$R rproc cycle $rp -c 3 --format ktap >$T/ok.ktap 2>&1"
like "$(cat $T/ok.ktap)" '^ok 3 cycle_3$' "three cycles, three passed tests"
like "$(cat $T/ok.ktap)" '^# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0$' "kselftest's totals"
ok "stop" $R rproc stop "$rp"
done_testing
