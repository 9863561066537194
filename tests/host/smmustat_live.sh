#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# smmustat on this machine's live kernel. With no IOMMU the views that need one say so
# with exit 3; with one (most laptops and servers) they must show exactly the instances and
# groups sysfs has. irq --all reads /proc/interrupts either way; events reads /dev/kmsg where
# an IOMMU is, and says there is none (exit 3, as smmustat and groups) where none is.
. "$SOCBOX_TESTLIB"

ninst=0
[ -d /sys/class/iommu ] && ninst=$(find /sys/class/iommu -mindepth 1 -maxdepth 1 | wc -l)
ngroups=0
[ -d /sys/kernel/iommu_groups ] && ngroups=$(find /sys/kernel/iommu_groups -mindepth 1 -maxdepth 1 | wc -l)
if [ "$ninst" -eq 0 ]; then
	t_run "overview without an IOMMU: exit 3, with a hint for this machine" 3 "$SOCBOX" smmustat
	case $(uname -m) in
	x86_64 | i?86)
		t_grep "overview hint: VT-d or AMD-Vi" 'intel_iommu=on|CONFIG_INTEL_IOMMU|CONFIG_AMD_IOMMU' "$T_TMP/err"
		t_nogrep "no Arm advice on x86" 'SMMU' "$T_TMP/err" ;;
	*)
		t_grep "overview hint: the SMMU drivers" 'CONFIG_ARM_SMMU_V3' "$T_TMP/err"
		t_nogrep "no x86 advice on Arm" 'intel_iommu|VT-d|AMD-Vi' "$T_TMP/err" ;;
	esac
	t_run "groups without an IOMMU: exit 3" 3 "$SOCBOX" smmustat groups
else
	t_run "overview of this host's $ninst IOMMU instance(s)" 0 "$SOCBOX" smmustat -J
	t_jq "one row per /sys/class/iommu entry" ".instances | length == $ninst" "$T_TMP/out"
	t_jq "the instance names are sysfs's" \
		"[.instances[].name] | sort == ($(find /sys/class/iommu -mindepth 1 -maxdepth 1 -printf '"%f",' | sed 's/,$//; s/^/[/; s/$/]/') | sort)" "$T_TMP/out"
	t_run "groups of this host" 0 "$SOCBOX" smmustat groups -J
	t_jq "one row per /sys/kernel/iommu_groups entry" ".groups | length == $ngroups" "$T_TMP/out"
fi
t_run "irq --all on the live /proc/interrupts" 0 "$SOCBOX" smmustat irq --all -J
t_json "irq --all" "$T_TMP/out"
t_jq "irq: CPU count matches the kernel" ".cpus == $(head -n1 /proc/interrupts | wc -w)" "$T_TMP/out"
t_run "irq -i 0.2 -c 2: two samples with rates" 0 "$SOCBOX" smmustat irq --all -i 0.2 -c 2 -J
t_eq "two samples, one JSON object per line" "$(wc -l <"$T_TMP/out")" 2
if python3 -c 'import json, sys; [json.loads(l)["interval_s"] for l in open(sys.argv[1])]' "$T_TMP/out" 2>"$T_TMP/jl.err"; then
	t_ok "irq -i -c -J: every line is a JSON object with interval_s (JSON Lines)"
else
	t_fail "irq -i -c -J is not JSON Lines: $(cat "$T_TMP/jl.err")"
fi
# A stop signal ends a live view with 0 and whole lines: sent once the first sample is out
# (or, for --follow, once it says it follows the log), never after a sleep.
# socbox-sigdfl: the shell starts a background job with SIGINT ignored, and socbox keeps that
"$SOCBOX_BUILD_DIR/tests/vm/bin/socbox-sigdfl" "$SOCBOX" smmustat irq --all -i 0.1 -J >"$T_TMP/live" 2>"$T_TMP/live.err" &
pid=$!
if t_wait_line "$T_TMP/live" interval_s; then t_ok "irq -i printed its first sample"; else t_fail "irq -i printed no sample"; fi
kill -INT $pid
wait $pid
t_eq "irq -i stopped by SIGINT exits 0 (it was killed: 130)" "$?" 0
if python3 -c 'import json, sys; [json.loads(l)["interval_s"] for l in open(sys.argv[1])]' "$T_TMP/live" 2>"$T_TMP/jl.err"; then
	t_ok "irq -i stopped by SIGINT: every line it printed is a whole JSON object"
else
	t_fail "irq -i stopped by SIGINT left a broken line: $(cat "$T_TMP/jl.err")"
fi
# A signal inside a long interval: that interval is printed, cut short, with the note that
# says so (the readiness line comes after the signals are caught).
"$SOCBOX_BUILD_DIR/tests/vm/bin/socbox-sigdfl" "$SOCBOX" smmustat irq --all -i 60 -v -J >"$T_TMP/cut" 2>"$T_TMP/cut.err" &
pid=$!
if t_wait_line "$T_TMP/cut.err" 'sampling /proc/interrupts every 60 s'; then t_ok "irq -i 60 -v says it samples"; else t_fail "irq -i 60 -v: $(cat "$T_TMP/cut.err")"; fi
kill -INT $pid
wait $pid
t_eq "irq -i 60 stopped by SIGINT exits 0" "$?" 0
t_eq "it printed the interval it was in, one line" "$(wc -l <"$T_TMP/cut")" 1
t_jq "irq: the cut interval says so, with its real length" \
	'.interval_s < 60 and (.notes | length == 1 and (.[0] | test("^stopped by SIGINT [0-9]+\\.[0-9]{2} s into a 60 s interval: its counts and rates cover that time$")))' "$T_TMP/cut"
"$SOCBOX" smmustat events --follow -v -J >"$T_TMP/follow" 2>"$T_TMP/follow.err" &
pid=$!
if t_wait_line "$T_TMP/follow.err" 'following /dev/kmsg'; then t_ok "events --follow says it follows the log"; else t_fail "events --follow: $(cat "$T_TMP/follow.err")"; fi
kill -TERM $pid
wait $pid
t_eq "events --follow stopped by SIGTERM exits 0 (it was killed: 143)" "$?" 0
t_eq "and says nothing else on stderr" "$(grep -v 'following /dev/kmsg' "$T_TMP/follow.err")" ""
if [ "$ninst" -eq 0 ]; then
	t_run "events without an IOMMU: absent, as smmustat" 3 "$SOCBOX" smmustat events -J
	t_grep "events says why" 'no IOMMU instance registered' "$T_TMP/err"
else
	t_run "events reads the live log" 0 "$SOCBOX" smmustat events -J
	t_json "events" "$T_TMP/out"
	t_jq "events: from /dev/kmsg or klogctl" '.log_source == "/dev/kmsg" or .log_source == "klogctl"' "$T_TMP/out"
fi
t_run "check --no-faults on a clean log" 0 "$SOCBOX" smmustat check --no-faults
t_run "check --expect-instances $ninst holds" 0 "$SOCBOX" smmustat check --expect-instances "$ninst"
t_run "check --expect-instances $((ninst + 1)) fails" 1 "$SOCBOX" smmustat check --expect-instances $((ninst + 1))
t_grep "names the predicate" "^smmustat check: expect-instances=$((ninst + 1)): $ninst IOMMU instances found" "$T_TMP/err"
if [ ! -e /dev/iommu ]; then
	t_run "stress without /dev/iommu: exit 3" 3 "$SOCBOX" smmustat stress --duration 0.1
	t_grep "stress names the config option" 'CONFIG_IOMMUFD' "$T_TMP/err"
fi
t_run "socbox snapshot keeps the kernel log" 0 "$SOCBOX" snapshot "$T_TMP/snap"
t_grep "snapshot log is in /dev/kmsg record form" '^[0-7],[0-9]+,[0-9]+,-;' "$T_TMP/snap/dev/kmsg"
if [ "$ninst" -eq 0 ]; then
	t_run "events on the snapshot without an IOMMU" 3 "$SOCBOX" smmustat events --sysroot "$T_TMP/snap"
else
	t_run "events on the snapshot" 0 "$SOCBOX" smmustat events --sysroot "$T_TMP/snap" -J
	t_jq "events read the snapshot's log" '.log_source == "sysroot" and .records == 0' "$T_TMP/out"
fi
t_run "irq on the snapshot" 0 "$SOCBOX" smmustat irq --all --sysroot "$T_TMP/snap" -J
t_jq "irq read the snapshot's /proc/interrupts" ".cpus == $(head -n1 /proc/interrupts | wc -w)" "$T_TMP/out"
t_done
