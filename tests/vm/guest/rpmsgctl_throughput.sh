#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# rpmsgctl throughput against the test remote processor (tests/vm/rproc_remote): virtio
# rpmsg through vrings the remoteproc core set up, echoed by the remote's rpmsg-raw service
# at 0x400 and swallowed by its sink at 0x401, whose counters (sink_messages, sink_bytes)
# say what arrived. The table over sizes and endpoints, every echo checked, what a silent
# service and a stop signal do, endpoints released on every way out; then bench/rpmsg-tput:
# rpmsgctl against a plain C program doing the same (socbox-rpmsg-tput,
# tests/vm/helpers/rpmsg_tput.c), ROUNDS rounds in alternating order, the ratio of the
# times as min/median/max. Timing is printed, never asserted.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/tput
COUNT=${RPMSG_TPUT_COUNT:-4000}
ROUNDS=${RPMSG_TPUT_ROUNDS:-11}
SINK=/sys/devices/platform/socbox_rproc
mkdir -p $T

# shellcheck disable=SC2317 # called through wait_for
more_endpoints_than() { [ "$(endpoint_devices)" -gt "$1" ]; }

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is registered ($rp)"
ok "start it" $R rproc start "$rp"
ok "its rpmsg-raw channel appears" wait_for has_channel
ctrl=$(rproc_ctrl)
like "$ctrl" '^[0-9]+$' "its control device (rpmsg_ctrl$ctrl)"

# --- the table: both modes, four sizes up to the MTU, one and four endpoints ---
ok "throughput, echoed and one-way" sh -c "$R throughput --ctrl $ctrl --echo 0x400 --sink 0x401 -c 300 --runs 2 >$T/table 2>$T/table.err"
sed 's/^/# /' $T/table $T/table.err
is "$(grep -c '^echoed ' $T/table) $(grep -c '^one-way ' $T/table)" "8 8" "a row per size and endpoint count in each mode"
like "$(grep '^echoed ' $T/table | tail -n1)" '^echoed +496B +4 +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+[KMG]?/s +0$' "the largest payload echoed through 4 endpoints, no echo changed"
is "$(awk 'NR > 1 && $1 == "echoed" { n += $NF } END { print n + 0 }' $T/table)" 0 "no echo differs from what was sent"

# --- one way: the remote's own count of what arrived ---
m0=$(cat $SINK/sink_messages)
b0=$(cat $SINK/sink_bytes)
ok "one-way, 3 endpoints x 1000 messages x 2 runs" sh -c "$R throughput --ctrl $ctrl --sink 0x401 --sizes 64 --endpoints 3 -c 1000 --runs 2 -J >$T/oneway.json"
is "$(($(cat $SINK/sink_messages) - m0)) $(($(cat $SINK/sink_bytes) - b0))" "6000 384000" "the remote took every message and byte"
j=$(tr -d ' \n' <$T/oneway.json)
like "$j" '"method":"fd"' "endpoints made by the fd ioctl (this kernel's patch)"
like "$j" '"mode":"one-way","size":64,"endpoints":3,"msgs_s":[0-9.]+' "JSON: mode, size, endpoints, rate"
like "$j" '"runs":2,"messages":3000,"median_us":[0-9.]+' "JSON: runs, messages per run, median time"

# --- endpoints released, legacy path included ---
n0=$(endpoint_devices)
ok "legacy endpoints" sh -c "$R throughput --ctrl $ctrl -m legacy --echo 0x400 --sizes 16 --endpoints 2 -c 100 --runs 1 >/dev/null"
is "$(endpoint_devices)" "$n0" "no /dev/rpmsgN left behind"

# --- a service that never answers: the run ends, saying which endpoint and how far ---
$R throughput --ctrl "$ctrl" -m legacy --echo 0x401 --sizes 16 --endpoints 2 -c 100 -t 300ms >$T/silent 2>$T/silent.err
is "$?" 1 "echoes that never come: exit 1"
sed 's/^/# /' $T/silent.err
like "$(cat $T/silent.err)" '^rpmsgctl: endpoint [01]: wait for echoes: nothing moved for 300 ms \(16 sent, 0 echoed\) \(is the remote.s echo service on this address\?\)$' "one line naming the endpoint, what moved and where to look"
is "$(endpoint_devices)" "$n0" "its endpoints released"

# --- a stop signal: the measurements completed are printed, the endpoints destroyed ---
socbox-sigdfl $R throughput --ctrl "$ctrl" -m legacy --echo 0x400 --sizes 16 --endpoints 1 -c 100000000 --runs 1 >$T/stopped 2>&1 &
pid=$!
ok "the long run has made its endpoint" wait_for more_endpoints_than "$n0"
kill -INT $pid
wait $pid
is "$?" 0 "SIGINT ends it with exit 0"
like "$(cat $T/stopped)" 'stopped by SIGINT' "and says so"
is "$(endpoint_devices)" "$n0" "its endpoint destroyed"

# --- usage ---
$R throughput --ctrl "$ctrl" 2>$T/usage.err
is "$?" 2 "no --echo or --sink: usage error"
$R throughput --ctrl "$ctrl" --echo 0x400 --sizes 497 2>$T/usage.err
is "$?" 2 "a size over the MTU: usage error"
like "$(cat $T/usage.err)" '1 to 496 bytes' "naming the range"

# --- bench/rpmsg-tput: rpmsgctl against the plain C program, same guest, same work ---
ok "socbox-rpmsg-tput helper is in the guest" test -x /usr/bin/socbox-rpmsg-tput
CONFIGS="echoed:16:1 echoed:496:1 echoed:496:4 one-way:16:1 one-way:496:1 one-way:496:4"
ref_round() { # MODE ADDR SIZE EPTS FILE
	line=$(socbox-rpmsg-tput "/dev/rpmsg_ctrl$ctrl" "$1" "$2" "$3" "$4" "$COUNT" 16)
	like "$line" "^msgs $(($4 * COUNT)) bytes [0-9]+ elapsed_ns [0-9]+ corrupt 0$" "reference $1 $3 B x $4, round $i: $line"
	echo "$line" | sed -n 's/.* elapsed_ns \([0-9]*\) .*/\1/p' >>"$5"
}
tool_round() { # MODE ADDR SIZE EPTS FILE
	if [ "$1" = echoed ]; then a="--echo $2"; else a="--sink $2"; fi
	# shellcheck disable=SC2086 # --ctrl "$ctrl" and $a are option lists
	j=$($R throughput --ctrl "$ctrl" $a --sizes "$3" --endpoints "$4" -c "$COUNT" --window 16 --runs 1 -q -J | tr -d ' \n')
	us=$(echo "$j" | sed -n 's/.*"median_us":\([0-9.]*\).*/\1/p')
	like "$us $j" "^[0-9.]+ .*\"corrupt\":0,\"runs\":1,\"messages\":$(($4 * COUNT))," "rpmsgctl $1 $3 B x $4, round $i: $us us"
	echo "$us" | awk '{ printf "%.0f\n", $1 * 1000 }' >>"$5"
}
for cfg in $CONFIGS; do : >"$T/ref.$cfg"; : >"$T/tool.$cfg"; done
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	for cfg in $CONFIGS; do
		mode=${cfg%%:*}
		rest=${cfg#*:}
		size=${rest%%:*}
		epts=${rest#*:}
		addr=0x400
		[ "$mode" = one-way ] && addr=0x401
		# the order alternates, so neither side always runs first
		if [ $((i % 2)) = 1 ]; then
			ref_round "$mode" $addr "$size" "$epts" "$T/ref.$cfg"
			tool_round "$mode" $addr "$size" "$epts" "$T/tool.$cfg"
		else
			tool_round "$mode" $addr "$size" "$epts" "$T/tool.$cfg"
			ref_round "$mode" $addr "$size" "$epts" "$T/ref.$cfg"
		fi
	done
done
# per config: messages/s and MB/s of each side (median round), the ratio of the times
# rpmsgctl/reference per round as min/median/max
diag "tput: $COUNT messages per endpoint, window 16, $ROUNDS rounds alternating; guest load $(cut -d' ' -f1-3 /proc/loadavg)"
diag "tput: $(printf '%-8s %4s %4s %10s %10s %8s %8s  %s' MODE SIZE EPTS TOOL_MSG/S REF_MSG/S TOOL_MB/S REF_MB/S 'RATIO min/median/max')"
for cfg in $CONFIGS; do
	mode=${cfg%%:*}
	rest=${cfg#*:}
	size=${rest%%:*}
	epts=${rest#*:}
	msgs=$((epts * COUNT))
	mt=$(sort -n "$T/tool.$cfg" | sed -n "$(((ROUNDS + 1) / 2))p")
	mr=$(sort -n "$T/ref.$cfg" | sed -n "$(((ROUNDS + 1) / 2))p")
	ratio=$(paste -d' ' "$T/tool.$cfg" "$T/ref.$cfg" | awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "%s/%s/%s", v[1], v[int((NR + 1) / 2)], v[NR]; else print "n/a" }')
	diag "tput: $(awk -v m="$mode" -v s="$size" -v e="$epts" -v n="$msgs" -v t="$mt" -v r="$mr" -v q="$ratio" \
		'BEGIN { printf "%-8s %4d %4d %10.0f %10.0f %8.2f %8.2f  %s", m, s, e, n * 1e9 / t, n * 1e9 / r, n * s * 1e3 / t, n * s * 1e3 / r, q }')"
done

ok "stop the remote again" $R rproc stop "$rp"
done_testing
