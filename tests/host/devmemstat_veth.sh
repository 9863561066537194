#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# devmemstat on this machine's kernel: two network namespaces joined by a veth pair with
# GRO on (which gives each veth a NAPI), bounded TCP traffic between them (a few seconds,
# only inside the namespaces), then queues/napi/top/monitor/bind. Everything is removed
# by the trap.
. "$SOCBOX_TESTLIB"

NA=sbdm-a-$$
NB=sbdm-b-$$
cleanup() {
	# shellcheck disable=SC2086 # two pids, split on purpose
	[ -n "${TRAFFIC_PIDS:-}" ] && kill $TRAFFIC_PIDS 2>/dev/null
	ip netns del "$NA" 2>/dev/null
	ip netns del "$NB" 2>/dev/null
	t_cleanup
}
trap cleanup EXIT INT TERM

for tool in ip ethtool python3 jq; do
	case $tool in ip) pkg=iproute2 ;; *) pkg=$tool ;; esac
	t_need "$tool" "$pkg" || t_done
done
if ! ip netns add "$NA" || ! ip netns add "$NB"; then
	t_fail "cannot create network namespaces (needs root)"
	t_done
fi
ip link add sbdm0 netns "$NA" type veth peer name sbdm1 netns "$NB"
ip -n "$NA" addr add 10.203.0.1/24 dev sbdm0
ip -n "$NB" addr add 10.203.0.2/24 dev sbdm1
ip -n "$NA" link set sbdm0 up
ip -n "$NB" link set sbdm1 up
ip netns exec "$NA" ethtool -K sbdm0 gro on
ip netns exec "$NB" ethtool -K sbdm1 gro on
IFA=$(ip netns exec "$NA" cat /sys/class/net/sbdm0/ifindex)

# queues and NAPIs with the right ifindex
t_run "queues --json" 0 "$SOCBOX" devmemstat queues --netns "$NA" -J
t_json "queues" "$T_TMP/out"
cp "$T_TMP/out" "$T_TMP/queues.json"
t_jq "veth rx queue 0 listed with its ifindex" \
	"[.queues[] | select(.ifname == \"sbdm0\" and .type == \"rx\" and .queue == 0 and .ifindex == $IFA)] | length == 1" "$T_TMP/queues.json"
t_jq "veth tx queue listed" "[.queues[] | select(.ifindex == $IFA and .type == \"tx\")] | length >= 1" "$T_TMP/queues.json"
t_run "napi --json" 0 "$SOCBOX" devmemstat napi --netns "$NA" -J
t_json "napi" "$T_TMP/out"
t_jq "GRO gives the veth a NAPI with its ifindex" "[.napis[] | select(.ifindex == $IFA and .napi_id > 0)] | length >= 1" "$T_TMP/out"
t_run "napi --dev filters" 0 "$SOCBOX" devmemstat napi --netns "$NA" --dev sbdm0 -J
t_jq "only the veth" "[.napis[] | select(.ifindex != $IFA)] | length == 0" "$T_TMP/out"
t_run "overview" 0 "$SOCBOX" devmemstat --netns "$NA"
t_grep "overview lists the veth" '^ *[0-9]+ +sbdm0 +1 +1 ' "$T_TMP/out"
t_run "overview --json" 0 "$SOCBOX" devmemstat show --netns "$NA" -J
t_jq "overview: one rx queue and a NAPI id" ".devices[] | select(.ifname == \"sbdm0\") | .rx_queues == 1 and (.napi_ids | length) == 1" "$T_TMP/out"
t_run "qstats (veth has none)" 0 "$SOCBOX" devmemstat qstats --netns "$NA"
t_grep "qstats says why it is empty" 'no driver in this namespace reports qstats' "$T_TMP/out"
t_run "openmetrics" 0 "$SOCBOX" devmemstat --netns "$NA" --format openmetrics
t_grep "openmetrics gauge for rx queues" '^socbox_devmemstat_devices_rx_queues\{ifindex="'"$IFA"'",ifname="sbdm0"\} 1$' "$T_TMP/out"
t_grep "openmetrics ends with EOF" '^# EOF$' "$T_TMP/out"
t_run "pools" 0 "$SOCBOX" devmemstat pools --netns "$NA" -J
t_jq "veth registers no page pools" '.pools | length == 0' "$T_TMP/out"
t_run "bindings" 0 "$SOCBOX" devmemstat bindings --netns "$NA" -J
t_jq "no bindings, no leaks" '(.bindings | length == 0) and .leaked_pools_count == 0' "$T_TMP/out"
# a capture answers as the kernel did (names aside: a capture has none)
t_run "napi with --save-netlink" 0 "$SOCBOX" devmemstat napi --netns "$NA" --save-netlink "$T_TMP/napi.nl" -J
jq -c '[.napis[] | del(.ifname)]' "$T_TMP/out" >"$T_TMP/live.napi"
t_run "napi from the capture" 0 "$SOCBOX" devmemstat napi --load-netlink "$T_TMP/napi.nl" -J
jq -c '[.napis[] | del(.ifname)]' "$T_TMP/out" >"$T_TMP/cap.napi"
t_eq "capture answers as the kernel did" "$(cat "$T_TMP/cap.napi")" "$(cat "$T_TMP/live.napi")"
t_run "unknown netns: absent, as an unknown --dev" 3 "$SOCBOX" devmemstat --netns sbdm-none-$$
t_grep "unknown netns named" "sbdm-none-$$" "$T_TMP/err"
t_run "unknown --dev" 3 "$SOCBOX" devmemstat queues --netns "$NA" --dev nosuchif0

# top during bounded traffic: 12 s of TCP from A to B
ip netns exec "$NB" python3 -c '
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.203.0.2", 5299)); s.listen(1); s.settimeout(15)
c, _ = s.accept(); c.settimeout(15)
while c.recv(1 << 20): pass
' &
SERVER=$!
listening() { ip netns exec "$NB" ss -Hltn 'sport = :5299' | grep -q LISTEN; }
if t_wait listening; then t_ok "the traffic sink listens"; else t_fail "the traffic sink never listened"; fi
ip netns exec "$NA" python3 -c '
import socket, time
c = socket.create_connection(("10.203.0.2", 5299), timeout=5)
buf = b"x" * (1 << 20); end = time.time() + 12
while time.time() < end: c.sendall(buf)
c.close()
' &
CLIENT=$!
TRAFFIC_PIDS="$SERVER $CLIENT"
# The CPUs are shared: wait (at most 5 s) until the data flows before sampling.
tx_bytes() { ip netns exec "$NA" cat /sys/class/net/sbdm0/statistics/tx_bytes; }
start=$(tx_bytes)
for _ in 1 2 3 4 5 6 7 8 9 10; do
	[ $(($(tx_bytes) - start)) -gt 10000000 ] && break
	sleep 0.5
done
t_run "top -J during traffic" 0 "$SOCBOX" devmemstat top --netns "$NA" -i 0.5 -c 2 -J
cp "$T_TMP/out" "$T_TMP/top.jsonl"
t_eq "top printed one JSON line per interval" "$(wc -l <"$T_TMP/top.jsonl" | tr -d ' ')" 2
head -1 "$T_TMP/top.jsonl" >"$T_TMP/top1.json"
t_json "top line 1" "$T_TMP/top1.json"
t_jq "veth Tx is nonzero Gbps" "[inputs, . | .devices[] | select(.ifname == \"sbdm0\") | .tx_gbps] | max > 0" "$T_TMP/top.jsonl"
t_jq "veth rate comes from interface counters" "[inputs, . | .devices[] | select(.ifname == \"sbdm0\") | .source] | all(. == \"netdev\")" "$T_TMP/top.jsonl"
t_jq "top says where the rates come from" '.notes | any(test("interface counters"))' "$T_TMP/top1.json"
t_jq "per-CPU usage present" '(.cpus | length) >= 1 and (.cpus[0] | has("sirq") and has("net_rx_per_s"))' "$T_TMP/top1.json"
t_run "top text (kperf layout)" 0 "$SOCBOX" devmemstat top --netns "$NB" -i 0.5 -c 1 --cpus 0
cp "$T_TMP/out" "$T_TMP/top.txt"
t_grep "kperf Rx line with bytes received" '^sbdm1: Rx *[0-9]+\.[0-9]{3} Gbps \([1-9][0-9]* bytes in [0-9]+ usec\)' "$T_TMP/top.txt"
t_grep "kperf CPU line" '^CPU 0: usr: *[0-9.]+% sys: *[0-9.]+% idle: *[0-9.]+% iow: *[0-9.]+% irq: *[0-9.]+% sirq: *[0-9.]+%' "$T_TMP/top.txt"
t_nogrep "--cpus 0 hides CPU 1" '^CPU 1:' "$T_TMP/top.txt"
t_grep "text says the rates are interface counters" 'interface counters' "$T_TMP/top.txt"
echo "# top sample (veth, during traffic):"
sed 's/^/#   /' "$T_TMP/top.txt"
wait $CLIENT 2>/dev/null
wait $SERVER 2>/dev/null
TRAFFIC_PIDS=

# monitor: device add/delete events of a veth created and deleted in namespace A. Each
# step waits for the one before: monitor says it listens (-v), the dev-add is out before the
# delete, and SIGTERM ends it once the dev-delete is out (-t 30 only bounds a failure).
"$SOCBOX" devmemstat monitor --netns "$NA" -t 30 -v -J >"$T_TMP/mon" 2>"$T_TMP/mon.err" &
MON=$!
if t_wait grep -q 'listening for netdev events' "$T_TMP/mon.err"; then t_ok "monitor listens"; else t_fail "monitor never said it listens"; fi
ip -n "$NA" link add sbdm8 type veth peer name sbdm9
if t_wait grep -q '"event":"dev-add","ifindex":[0-9]*,"ifname":"sbdm8"' "$T_TMP/mon"; then
	t_ok "monitor: dev-add of the new veth"
else
	t_fail "monitor: no dev-add of sbdm8: $(cat "$T_TMP/mon")"
fi
ip -n "$NA" link del sbdm8
if t_wait grep -q '"event":"dev-delete","ifindex":[0-9]*,"ifname":"sbdm8"' "$T_TMP/mon"; then
	t_ok "monitor: dev-delete names the deleted veth"
else
	t_fail "monitor: no dev-delete of sbdm8: $(cat "$T_TMP/mon")"
fi
kill -TERM $MON
wait $MON
t_eq "monitor stopped by SIGTERM exits 0" "$?" 0
# veth implements the rx timestamp, hash and VLAN tag metadata hooks: 7
t_jq "monitor: dev-add carries the device's XDP attributes" \
	'[., inputs | .events[0] | select(.event == "dev-add" and .ifname == "sbdm8")] | length == 1 and .[0].xdp_rx_metadata_features == 7 and (.[0].xdp_features | type == "number") and (.[0].xsk_features | type == "number") and (.[0].xdp_zc_max_segs | type == "number")' "$T_TMP/mon"
t_run "show -J: the same XDP attributes as a device row" 0 "$SOCBOX" devmemstat show --netns "$NA" -J
t_jq "show: veth's XDP features and the other device attributes" \
	'.devices[] | select(.ifname == "sbdm0") | (.xdp_features > 0) and has("xdp_rx_metadata_features") and has("xsk_features") and has("xdp_zc_max_segs")' "$T_TMP/out"
if python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$T_TMP/mon"; then
	t_ok "monitor output is JSON Lines"
else
	t_fail "monitor output is not JSON Lines"
fi

# bind: veth has no queue management ops, the kernel refuses: a requirement unmet, exit 3
t_run "bind on veth fails" 3 "$SOCBOX" devmemstat bind --netns "$NA" --dev sbdm0 --queues 0 --size 1M --duration 1
t_grep "bind error carries the kernel's answer" '^devmemstat: sbdm0: bind-rx: kernel: ' "$T_TMP/err"
t_grep "bind error hints at driver support" 'netmem queue API' "$T_TMP/err"
t_run "bind without --queues" 2 "$SOCBOX" devmemstat bind --netns "$NA" --dev sbdm0
t_run "bind with a bad size" 2 "$SOCBOX" devmemstat bind --netns "$NA" --dev sbdm0 --queues 0 --size 12Q

# unprivileged: the views work, bind-rx is refused with exit 4
if command -v setpriv >/dev/null 2>&1; then
	t_run "views as nobody" 0 setpriv --reuid=65534 --regid=65534 --clear-groups "$SOCBOX" devmemstat queues -J
	t_run "bind as nobody: permission denied" 4 setpriv --reuid=65534 --regid=65534 --clear-groups \
		"$SOCBOX" devmemstat bind --dev lo --queues 0 --size 1M
	t_grep "bind as nobody names the capability" 'CAP_NET_ADMIN' "$T_TMP/err"
else
	t_fail "needs setpriv (util-linux) for the permission checks"
fi

ip netns del "$NA"
ip netns del "$NB"
if ip netns list | grep -q "sbdm-.-$$"; then t_fail "namespaces left behind"; else t_ok "namespaces removed"; fi
t_done
