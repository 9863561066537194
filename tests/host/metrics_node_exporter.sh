#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox metrics --textfile read by the real node_exporter (Debian's prometheus-node-exporter):
# it listens on 127.0.0.1 on a free port with only the textfile collector, we wait until it
# answers, scrape it with curl and find every socbox family with the type, help and values
# socbox wrote; then it is stopped (also when the test fails). Bounded: 20 s at most.
. "$SOCBOX_TESTLIB"
PY=/usr/bin/python3
CHECK=$(dirname "$0")/metrics_scrape_check.py
NE=prometheus-node-exporter
t_need $NE prometheus-node-exporter || t_done
t_need curl curl || t_done
"$PY" -c 'import prometheus_client' 2>/dev/null || { t_fail "install Debian's python3-prometheus-client"; t_done; }

ne_pid=
stop_exporter() {
	if [ -n "$ne_pid" ]; then
		kill "$ne_pid" 2>/dev/null
		wait "$ne_pid" 2>/dev/null
		ne_pid=
	fi
}
trap 'stop_exporter; t_cleanup' EXIT
trap 'exit 1' INT TERM HUP

mkdir "$T_TMP/textfile"
t_run "socbox metrics --textfile (live kernel)" 0 "$SOCBOX" metrics --textfile "$T_TMP/textfile"
t_run "the textfile lints" 0 promtool check metrics <"$T_TMP/textfile/socbox.prom"

port=$("$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$NE" --web.listen-address="127.0.0.1:$port" --collector.disable-defaults --collector.textfile \
	--collector.textfile.directory="$T_TMP/textfile" >"$T_TMP/ne.log" 2>&1 &
ne_pid=$!
# poll until it answers (or dies, or 20 s pass)
deadline=$(($(date +%s) + 20))
until curl -sf -o "$T_TMP/scrape" "http://127.0.0.1:$port/metrics"; do
	if ! kill -0 "$ne_pid" 2>/dev/null; then
		t_fail "node_exporter died: $(tail -3 "$T_TMP/ne.log")"
		ne_pid=
		t_done
	fi
	if [ "$(date +%s)" -ge "$deadline" ]; then
		t_fail "node_exporter did not answer on 127.0.0.1:$port within 20 s: $(tail -3 "$T_TMP/ne.log")"
		t_done
	fi
	sleep 0.1
done
t_ok "node_exporter answers on 127.0.0.1:$port"
t_grep "it read the file without error" '^node_textfile_scrape_error 0$' "$T_TMP/scrape"
t_grep "and says so" "^node_textfile_mtime_seconds\\{file=\"$T_TMP/textfile/socbox.prom\"\\} " "$T_TMP/scrape"
if "$PY" "$CHECK" "$T_TMP/textfile/socbox.prom" "$T_TMP/scrape" >"$T_TMP/cmp" 2>&1; then
	t_ok "every socbox family served as written: $(cat "$T_TMP/cmp")"
else
	t_fail "served differently: $(head -c 800 "$T_TMP/cmp")"
fi
t_grep "doctor's status served" '^socbox_doctor_subsystems_status\{status="ok",subsystem="netdev"\} 1$' "$T_TMP/scrape"
t_grep "a view's exit status served" '^socbox_metrics_collectors_exit_code\{collector="doctor"\} 0$' "$T_TMP/scrape"

# the file replaced under the running exporter, from an SMMUv3 server's dump this time (with
# counters: interrupts and faults); the next scrape serves the new file
t_run "socbox metrics --textfile (SMMUv3 server dump)" 0 "$SOCBOX" metrics --textfile "$T_TMP/textfile" \
	--sysroot "$SOCBOX_FIXTURES/arm64-server-smmuv3"
t_run "scrape again" 0 curl -sf -o "$T_TMP/scrape" "http://127.0.0.1:$port/metrics"
if "$PY" "$CHECK" "$T_TMP/textfile/socbox.prom" "$T_TMP/scrape" >"$T_TMP/cmp" 2>&1; then
	t_ok "the new file served as written: $(cat "$T_TMP/cmp")"
else
	t_fail "served differently: $(head -c 800 "$T_TMP/cmp")"
fi
t_grep "counters served as counters" '^# TYPE socbox_smmustat_irqs_total counter$' "$T_TMP/scrape"
t_grep "interrupt count" '^socbox_smmustat_irqs_total\{action="arm-smmu-v3-evtq",irq="17",kind="evtq"\} 4$' "$T_TMP/scrape"
pid=$ne_pid
stop_exporter
t_run "node_exporter stopped" 1 kill -0 "$pid"
t_done
