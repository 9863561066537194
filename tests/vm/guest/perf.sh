#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: any
# perf_event_open on the guest's kernel, through 'smmustat pmu' on the software PMU: the
# one PMU every kernel has (the 32-bit virt machine has no hardware PMU, and no QEMU has a
# PMCG). A group of counters enabled and read together, interval deltas, and a 64-bit
# count past 2^32, which a 32-bit kernel and binary must carry whole.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh

json_field() { # FIELD: the values of "FIELD": in stdin's JSON, one per line
	grep -o "\"$1\":[0-9.e+-]*" | cut -d: -f2
}

ok "the kernel has a software PMU" test -r /sys/bus/event_source/devices/software/type
like "$("$SOCBOX" smmustat pmu --pmu software --list 2>&1)" '^software +-1( |$)' "--list shows it"

# cpu-clock (config 0) and task-clock (1) count nanoseconds; context-switches (3) events.
"$SOCBOX" smmustat pmu --pmu software -e config=0 -e config=1 -e config=3 --cpu 0 \
	-i 0.3 -c 2 -J >/tmp/pmu.json 2>/tmp/pmu.err
is "$?" 0 "a group of three, two 0.3 s intervals: exit 0"
is "$(wc -l </tmp/pmu.json)" 2 "one JSON line per interval"
is "$(head -n1 /tmp/pmu.json | json_field event | wc -l)" 3 "three counters in the group"
is "$(json_field running_pct </tmp/pmu.json | sort -u)" 100 "the group was on the PMU the whole time"
count=$(head -n1 /tmp/pmu.json | json_field count | head -n1)
ok "cpu-clock counted about the interval (0.2-0.6 s of ns): $count" \
	test "$count" -gt 200000000 -a "$count" -lt 600000000

# Past 2^32: 4.5 s of cpu-clock is 4.5e9 ns.
"$SOCBOX" smmustat pmu --pmu software -e config=0 --cpu 0 -i 4.5 -c 1 -J >/tmp/long.json 2>&1
is "$?" 0 "one 4.5 s interval: exit 0"
count=$(json_field count </tmp/long.json)
interval=$(json_field interval_s </tmp/long.json)
ok "the count is past 2^32: $count" awk -v c="$count" 'BEGIN { exit !(c > 4294967296) }'
ok "and is the interval's nanoseconds within 5 %: $count in $interval s" \
	awk -v c="$count" -v i="$interval" 'BEGIN { r = c / (i * 1e9); exit !(r > 0.95 && r < 1.05) }'

"$SOCBOX" smmustat pmu --pmu software -e config=0 --cpu 0 -c 1 -i 0.2 >/tmp/pmu.txt 2>&1
like "$(cat /tmp/pmu.txt)" '^PMU +EVENT +COUNT +RATE_PER_S +RUNNING_PCT$' "text: the table's header"
like "$(cat /tmp/pmu.txt)" '^software +config=0 +[0-9]+ +[0-9.]+ +100\.0$' "text: the counter's row"

"$SOCBOX" smmustat pmu --pmu software -e config=0 --cpu 0 -i 60 -v -J >/tmp/cut.json 2>/tmp/cut.err &
pid=$!
ok "-i 60 -v says it counts" wait_line /tmp/cut.err 'counting, a sample every 60 s'
kill -TERM $pid
wait $pid
is "$?" 0 "stopped by SIGTERM: exit 0"
is "$(wc -l </tmp/cut.json)" 1 "it printed the interval it was in"
like "$(cat /tmp/cut.json)" '"stopped by SIGTERM [0-9]+\.[0-9]{2} s into a 60 s interval' "and says it was cut"

"$SOCBOX" smmustat pmu --pmu smmuv3_pmcg_dead >/dev/null 2>/tmp/dead.err
is "$?" 3 "an unknown PMU: exit 3"
like "$(cat /tmp/dead.err)" 'arm_smmuv3_pmu' "naming the module"
done_testing
