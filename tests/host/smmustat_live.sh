#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# smmustat on this machine's live kernel, which has no IOMMU: the views that need one say so
# with exit 3, the ones that do not (irq, events) read /proc/interrupts and /dev/kmsg.
. "$SOCBOX_TESTLIB"

[ -e /sys/class/iommu ] && [ -n "$(ls /sys/class/iommu)" ] && t_fail "this host has an IOMMU; the expectations below assume none"
t_run "overview: exit 3, hint names the kernel option" 3 "$SOCBOX" smmustat
t_grep "overview hint" 'CONFIG_ARM_SMMU_V3' "$T_TMP/err"
t_run "groups: exit 3" 3 "$SOCBOX" smmustat groups
t_run "irq --all on the live /proc/interrupts" 0 "$SOCBOX" smmustat irq --all -J
t_json "irq --all" "$T_TMP/out"
t_jq "irq: CPU count matches the kernel" ".cpus == $(head -n1 /proc/interrupts | wc -w)" "$T_TMP/out"
t_run "irq -i 0.2 -c 2: two samples with rates" 0 "$SOCBOX" smmustat irq --all -i 0.2 -c 2 -J
t_eq "two samples" "$(grep -c '"interval_s"' "$T_TMP/out")" 2
t_run "events reads the live log" 0 "$SOCBOX" smmustat events -J
t_json "events" "$T_TMP/out"
t_jq "events: from /dev/kmsg or klogctl" '.log_source == "/dev/kmsg" or .log_source == "klogctl"' "$T_TMP/out"
t_run "check --no-faults on a clean log" 0 "$SOCBOX" smmustat check --no-faults
t_run "check --expect-instances 1 fails" 1 "$SOCBOX" smmustat check --expect-instances 1
t_grep "names the predicate" '^smmustat check: expect-instances=1: 0 IOMMU instances found' "$T_TMP/err"
t_run "stress without /dev/iommu: exit 3" 3 "$SOCBOX" smmustat stress --duration 0.1
t_grep "stress names the config option" 'CONFIG_IOMMUFD' "$T_TMP/err"
t_run "socbox snapshot keeps the kernel log" 0 "$SOCBOX" snapshot "$T_TMP/snap"
t_grep "snapshot log is in /dev/kmsg record form" '^[0-7],[0-9]+,[0-9]+,-;' "$T_TMP/snap/dev/kmsg"
t_run "events on the snapshot" 0 "$SOCBOX" smmustat events --sysroot "$T_TMP/snap" -J
t_jq "events read the snapshot's log" '.log_source == "sysroot" and .records == 0' "$T_TMP/out"
t_run "irq on the snapshot" 0 "$SOCBOX" smmustat irq --all --sysroot "$T_TMP/snap" -J
t_jq "irq read the snapshot's /proc/interrupts" ".cpus == $(head -n1 /proc/interrupts | wc -w)" "$T_TMP/out"
t_done
