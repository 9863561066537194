#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The PMCG counting path of 'smmustat pmu' on this machine's software PMU: a real
# perf_event_open group (leader + members, enabled and read together), interval deltas and
# rates. Only the discovery of smmuv3_pmcg_* is fixture-driven (tests/cli).
. "$SOCBOX_TESTLIB"

[ -r /sys/bus/event_source/devices/software/type ] || t_fail "this kernel has no software PMU in sysfs"
# cpu-clock (config 0) and task-clock (1) count nanoseconds; context-switches (3) count events.
t_run "software PMU: one group of three, two 0.3 s intervals" 0 "$SOCBOX" smmustat pmu --pmu software \
	-e config=0 -e config=1 -e config=3 --cpu 0 -i 0.3 -c 2 -J
cp "$T_TMP/out" "$T_TMP/p.json"
t_eq "JSON Lines: two lines, one object per interval" "$(wc -l <"$T_TMP/p.json")" 2
t_eq "each line has its interval" "$(grep -c '^{.*"interval_s".*}$' "$T_TMP/p.json")" 2
head -n 1 "$T_TMP/p.json" >"$T_TMP/first.json"
sed -n 2p "$T_TMP/p.json" >"$T_TMP/second.json"
t_json "second interval" "$T_TMP/second.json"
t_json "first interval" "$T_TMP/first.json"
t_jq "three counters in the group" '(.counters | length) == 3' "$T_TMP/first.json"
t_jq "cpu-clock counted about the interval (0.2-0.6 s of ns)" '.counters[0].count > 200000000 and .counters[0].count < 600000000' "$T_TMP/first.json"
t_jq "rate is count per second of the interval" '(.counters[0].rate_per_s - .counters[0].count / .interval_s) | fabs < 1' "$T_TMP/first.json"
t_jq "the group was on the PMU the whole time" '[.counters[].running_pct] | all(. == 100)' "$T_TMP/first.json"
"$SOCBOX_BUILD_DIR/tests/vm/bin/socbox-sigdfl" "$SOCBOX" smmustat pmu --pmu software -e config=0 --cpu 0 -i 60 -v -J \
	>"$T_TMP/cut" 2>"$T_TMP/cut.err" &
pid=$!
if t_wait_line "$T_TMP/cut.err" 'counting, a sample every 60 s'; then t_ok "pmu -i 60 -v says it counts"; else t_fail "pmu -i 60 -v: $(cat "$T_TMP/cut.err")"; fi
kill -TERM $pid
wait $pid
t_eq "pmu -i 60 stopped by SIGTERM exits 0" "$?" 0
t_eq "it printed the interval it was in, one line" "$(wc -l <"$T_TMP/cut")" 1
t_jq "pmu: the cut interval says so, with its real length" \
	'.interval_s < 60 and (.counters | length) == 1 and (.notes | length == 1 and (.[0] | test("^stopped by SIGTERM [0-9]+\\.[0-9]{2} s into a 60 s interval: its counts and rates cover that time$")))' "$T_TMP/cut"
t_run "--stream-id on a PMU without the filter: usage" 2 "$SOCBOX" smmustat pmu --pmu software -e config=0 --stream-id 0x42
t_grep "usage names the missing format" 'software has no StreamID filter' "$T_TMP/err"
t_run "unknown event term: usage" 2 "$SOCBOX" smmustat pmu --pmu software -e nosuchevent
t_run "--span without --stream-id: usage" 2 "$SOCBOX" smmustat pmu --pmu software -e config=0 --span
t_run "unknown PMU: exit 3 naming the module" 3 "$SOCBOX" smmustat pmu --pmu smmuv3_pmcg_dead
t_grep "hint" 'arm_smmuv3_pmu' "$T_TMP/err"
t_run "no PMCG on this host: exit 3" 3 "$SOCBOX" smmustat pmu
t_done
