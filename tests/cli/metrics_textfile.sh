#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox metrics: every subsystem in one exposition, and the textfile for node_exporter
# (written whole through a temporary file and a rename), with its systemd service and timer.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
ARM=$F/stm32mp157-dk2
PY=/usr/bin/python3
CHECK=$(dirname "$0")/metrics_check.py
t_need promtool prometheus || t_done

t_run "metrics on a board dump" 0 "$SOCBOX" metrics --sysroot "$ARM"
cp "$T_TMP/out" "$T_TMP/arm.prom"
t_run "promtool check metrics" 0 promtool check metrics <"$T_TMP/arm.prom"
t_run "openmetrics" 0 "$SOCBOX" metrics --sysroot "$ARM" --format openmetrics
# durations differ from run to run; everything else is the same
grep -v '^socbox_metrics_collectors_duration_seconds{' "$T_TMP/out" >"$T_TMP/arm.om"
grep -v '^socbox_metrics_collectors_duration_seconds{' "$T_TMP/arm.prom" >"$T_TMP/arm.prom.nodur"
if "$PY" "$CHECK" arm "$T_TMP/arm.om" "$T_TMP/arm.prom.nodur" >"$T_TMP/parsed" 2>&1; then
	t_ok "both parsers read it, same samples: $(cat "$T_TMP/parsed")"
else
	t_fail "parsers: $(cat "$T_TMP/parsed")"
fi
t_grep "doctor's status" '^socbox_doctor_subsystems_status\{subsystem="rpmsg",status="ok"\} 1$' "$T_TMP/arm.prom"
t_grep "remoteproc state" '^socbox_rpmsgctl_remoteprocs_state\{id="remoteproc0",name="m4",state="running"\} 1$' "$T_TMP/arm.prom"
t_grep "heaps" '^socbox_dmabufcp_heaps_device\{name="system",kind="heap",device="/dev/dma_heap/system"\} 1$' "$T_TMP/arm.prom"
t_grep "a view that ran" '^socbox_metrics_collectors_success\{collector="rpmsgctl list"\} 1$' "$T_TMP/arm.prom"
t_grep "no IOMMU here is an answer, not a failed collector" '^socbox_metrics_collectors_success\{collector="smmustat"\} 1$' "$T_TMP/arm.prom"
t_grep "and why" '^socbox_metrics_collectors_exit_code\{collector="smmustat"\} 3$' "$T_TMP/arm.prom"
t_eq "each family once" "$(grep '^# TYPE' "$T_TMP/arm.prom" | sort | uniq -d)" ""
t_run "an SMMUv3 server" 0 "$SOCBOX" metrics --sysroot "$F/arm64-server-smmuv3"
t_grep "interrupts" '^socbox_smmustat_irqs_total\{irq="17",kind="evtq",action="arm-smmu-v3-evtq"\} 4$' "$T_TMP/out"
t_run "promtool on the server" 0 promtool check metrics <"$T_TMP/out"

# --textfile: the same text, in DIR/socbox.prom, replaced by rename, readable by node_exporter
mkdir "$T_TMP/tf"
echo "old" >"$T_TMP/tf/socbox.prom"
old_inode=$(stat -c %i "$T_TMP/tf/socbox.prom")
t_run "--textfile" 0 "$SOCBOX" metrics --sysroot "$ARM" --textfile "$T_TMP/tf"
t_eq "nothing on stdout" "$(cat "$T_TMP/out")" ""
t_eq "same metrics as on stdout (durations apart)" \
	"$(grep -v duration_seconds "$T_TMP/tf/socbox.prom")" "$(grep -v duration_seconds "$T_TMP/arm.prom")"
t_eq "mode 0644" "$(stat -c %a "$T_TMP/tf/socbox.prom")" 644
new_inode=$(stat -c %i "$T_TMP/tf/socbox.prom")
t_eq "replaced by a rename, not rewritten in place" "$([ "$new_inode" != "$old_inode" ] && echo renamed)" renamed
t_eq "no temporary file left" "$(ls -A "$T_TMP/tf")" "socbox.prom"
t_run "missing directory" 1 "$SOCBOX" metrics --sysroot "$ARM" --textfile "$T_TMP/none"
t_grep "says which and what to do" "$T_TMP/none: open the textfile directory: No such file or directory \(create it" "$T_TMP/err"
t_run "a file is not a directory" 1 "$SOCBOX" metrics --sysroot "$ARM" --textfile "$T_TMP/tf/socbox.prom"
t_eq "no temporary file after a failure" "$(ls -A "$T_TMP/tf")" "socbox.prom"
t_run "openmetrics is not for the textfile" 2 "$SOCBOX" metrics --textfile "$T_TMP/tf" --format openmetrics
t_run "unknown format" 2 "$SOCBOX" metrics --format json
t_run "no arguments" 2 "$SOCBOX" metrics extra
t_run "empty --textfile" 2 "$SOCBOX" metrics --textfile ""

# the systemd units, as cmake --install makes them: valid for systemd (ExecStart names the
# installed binary; the one built here stands in for it)
t_need systemd-analyze systemd || t_done
DESTDIR=$T_TMP/stage cmake --install "$SOCBOX_BUILD_DIR" --prefix /usr >"$T_TMP/log" 2>&1
units=$T_TMP/stage/usr/lib/systemd/system
t_run "cmake --install puts the service in place" 0 test -f "$units/socbox-metrics.service"
t_run "and the timer" 0 test -f "$units/socbox-metrics.timer"
t_grep "the service runs the installed binary" '^ExecStart=/usr/bin/socbox metrics --quiet --textfile \$\{SOCBOX_TEXTFILE_DIR\}$' "$units/socbox-metrics.service"
mkdir "$T_TMP/units"
sed "s|^ExecStart=/usr/bin/socbox |ExecStart=$SOCBOX |" "$units/socbox-metrics.service" >"$T_TMP/units/socbox-metrics.service"
cp "$units/socbox-metrics.timer" "$T_TMP/units/"
t_run "systemd-analyze verify" 0 systemd-analyze verify --man=no "$T_TMP/units/socbox-metrics.service" "$T_TMP/units/socbox-metrics.timer"
t_done
