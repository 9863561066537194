#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# The followers held for a while under churn: socbox events --follow and devmemstat monitor
# run for SOAK_SECONDS (120 in CI; by hand, a boot of its own with SOAK_SECONDS=3600
# SOAK_SAMPLE=60 on the kernel command line) while the test remote processor stops and
# starts, netdevsim devices come and go, socbox metrics --textfile rewrites its file over
# and over, and the kernel log takes SOAK_RATE (1000) records a second, one in a hundred a
# numbered record events knows. Every SOAK_SAMPLE seconds each follower's memory (VmRSS)
# and open descriptors are sampled; the series is printed and must stay flat. No marker
# may be missing unless a lost event counts at least as many records; the monitor's lost
# rows add up to what the kernel dropped at its socket; metrics leaves only its file.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
T=/tmp/soak
DURATION=${SOAK_SECONDS:-120}
SAMPLE=${SOAK_SAMPLE:-10}
RATE=${SOAK_RATE:-1000}
mkdir -p $T $T/prom
devkmsg=$(cat /proc/sys/kernel/printk_devkmsg)
echo on >/proc/sys/kernel/printk_devkmsg # no rate limit for writers of /dev/kmsg
diag "soak: $DURATION s, a sample every $SAMPLE s, $RATE log records a second"

rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is registered ($rp)"
ok "start it" rpmsgctl rproc start "$rp"

socbox-sigdfl "$SOCBOX" events --follow -J -v >$T/ev 2>$T/ev.err &
ev=$!
socbox-sigdfl "$SOCBOX" devmemstat monitor -J -v -t $((DURATION * 2 + 120)) >$T/mon 2>$T/mon.err &
mon=$!
ok "events follows" wait_line $T/ev.err 'events: following the kernel log'
ok "monitor listens" wait_line $T/mon.err 'listening for netdev events'

# The churn, each loop until the flag file goes.
touch $T/run
(
	n=0
	while [ -e $T/run ]; do
		echo stop >"/sys/class/remoteproc/$rp/state" && echo start >"/sys/class/remoteproc/$rp/state" &&
			n=$((n + 1))
		usleep 500000
	done
	echo "$n" >$T/rproc.n
) &
churn=$!
(
	n=0
	while [ -e $T/run ]; do
		id=$((300 + n % 50))
		echo "$id 2" >/sys/bus/netdevsim/new_device && n=$((n + 1))
		for d in "/sys/bus/netdevsim/devices/netdevsim$id/net/"*; do
			[ -e "$d" ] && ip link set "${d##*/}" up
		done
		echo "$id" >/sys/bus/netdevsim/del_device
		usleep 200000
	done
	echo "$n" >$T/nsim.n
) &
churn="$churn $!"
(
	n=0 bad=0
	while [ -e $T/run ]; do
		"$SOCBOX" metrics --textfile $T/prom >/dev/null 2>>$T/metrics.err || bad=$((bad + 1))
		n=$((n + 1))
	done
	echo "$n $bad" >$T/metrics.n
) &
churn="$churn $!"
socbox-kmsg-flood $((DURATION * RATE)) "$RATE" 100 >$T/flood &
flood=$!

# Samples: VmRSS in kB, and open descriptors (the least of three looks, so a descriptor
# open for one read does not count).
fds() {
	a=$(ls /proc/"$1"/fd | wc -l) b=$(ls /proc/"$1"/fd | wc -l) c=$(ls /proc/"$1"/fd | wc -l)
	printf '%s\n' "$a" "$b" "$c" | sort -n | head -n1
}
rss() { awk '/^VmRSS/ { print $2 }' /proc/"$1"/status; }
elapsed=0
while [ "$elapsed" -lt "$DURATION" ]; do
	sleep "$SAMPLE" # the sampling period itself, not a wait for readiness
	elapsed=$((elapsed + SAMPLE))
	echo "$elapsed $(rss $ev) $(fds $ev) $(rss $mon) $(fds $mon)" >>$T/samples
done
wait $flood
rm $T/run
# shellcheck disable=SC2086 # the churn loops' pids; the followers go on
wait $churn
echo "$devkmsg" >/proc/sys/kernel/printk_devkmsg

diag "t/s  events: rss/kB fds  monitor: rss/kB fds"
sed 's/^/# /' $T/samples
diag "churn: $(cat $T/rproc.n) stop/starts, $(cat $T/nsim.n) netdevsim devices, metrics runs/failed: $(cat $T/metrics.n)"
diag "log: $(cat $T/flood)"

# Flat: after the first sample (start-up done), no sample above it by more than 512 kB
# (a leak of 200 bytes a record would be 2 MB here, 700 MB in an hour); descriptors the same.
# shellcheck disable=SC2317 # called through ok
flat() { # COLUMN SLACK: the column of the samples never exceeds its first value + SLACK
	awk -v c="$1" -v s="$2" 'NR == 1 { f = $c } $c > f + s { bad = 1 } END { exit bad || NR < 2 }' "$T"/samples
}
ok "events: memory flat (first sample +512 kB)" flat 2 512
ok "events: descriptors flat" flat 3 0
ok "monitor: memory flat (first sample +512 kB)" flat 4 512
ok "monitor: descriptors flat" flat 5 0

# Nothing lost silently: each missing marker is covered by a lost event's count.
ok "events still follows: a marker after the churn comes through" sh -c \
	'echo "<6>remoteproc remoteproc9: stopped remote processor socbox-soak-end" >/dev/kmsg'
ok "it arrives" wait_line $T/ev 'socbox-soak-end'
written=$(sed -n 's/.* markers \([0-9]*\)$/\1/p' $T/flood)
seen=$(grep -o 'socbox-soak-[0-9][0-9]*' $T/ev | sort -u | wc -l)
lost=$(sed -n 's/.*"kind":"lost","object":"kernel log","detail":"\([0-9]*\) records.*/\1/p' $T/ev |
	awk '{ n += $1 } END { print n + 0 }')
diag "markers: $written written, $seen seen; kernel log records lost (said by events): $lost"
ok "no marker is seen that was not written" test "$seen" -le "$written"
ok "every missing marker is counted lost ($((written - seen)) missing, $lost lost)" test $((written - seen)) -le "$lost"

drops=$(genl_sock $mon 9)
# shellcheck disable=SC2317 # called through wait_for
lost_add_up() {
	[ "$(sed -n 's/.*"event":"lost".*"lost":\([0-9]*\).*/\1/p' "$T"/mon |
		awk '{ n += $1 } END { print n + 0 }')" = "$drops" ]
}
ok "monitor's lost rows add up to the kernel's drop count ($drops)" wait_for lost_add_up
adds=$(grep -c '"event":"dev-add"' $T/mon)
ports=$(($(cat $T/nsim.n) * 2))
diag "monitor: $adds dev-add rows for $ports netdevsim ports, $drops notifications dropped"
ok "monitor saw every port come, or counted it lost" test $((adds + drops)) -ge "$ports"

kill -TERM $ev $mon
wait $ev
is "$?" 0 "events: SIGTERM ends it with exit 0"
wait $mon
is "$?" 0 "monitor: SIGTERM ends it with exit 0"

read -r runs failed <$T/metrics.n
ok "metrics --textfile ran ($runs times)" test "$runs" -gt 0
is "$failed" 0 "no run failed"
is "$(ls -A $T/prom)" socbox.prom "only socbox.prom is left in the directory"
ok "and it holds samples" grep -q '^socbox_' $T/prom/socbox.prom
done_testing
