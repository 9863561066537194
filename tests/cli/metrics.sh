#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every view's metrics on every fixture, read by real parsers: --format openmetrics by the
# OpenMetrics parser of python3-prometheus-client, --format prometheus by its Prometheus
# text parser and by 'promtool check metrics' (parse + lint); both formats must carry the
# same samples. Then the conventions on known boards, value by value.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
PY=/usr/bin/python3 # Debian's python3, where python3-prometheus-client is installed
CHECK=$(dirname "$0")/metrics_check.py

t_need promtool prometheus || t_done
if ! "$PY" -c 'import prometheus_client.openmetrics.parser' 2>/dev/null; then
	t_fail "prometheus_client is missing: install Debian's python3-prometheus-client"
	t_done
fi

# One view a line; @NL@ is replaced by --load-netlink of each netdev capture (views that
# read the netdev family), the others run with --sysroot on each board dump.
VIEWS='doctor
events
rpmsgctl list
rpmsgctl rproc status
dmabufcp heaps
dmabufcp ls
smmustat
smmustat groups
smmustat irq
smmustat events
smmustat events --list
smmustat pmu
devmemstat @NL@
devmemstat pools @NL@
devmemstat queues @NL@
devmemstat napi @NL@
devmemstat qstats @NL@
devmemstat bindings @NL@'

n=0
pairs=""
run_view() { # NAME PROMFILE ARGS...
	_name=$1 _all=$2
	shift 2
	n=$((n + 1))
	"$SOCBOX" "$@" --format openmetrics >"$T_TMP/om.$n" 2>"$T_TMP/err"
	_rc=$?
	"$SOCBOX" "$@" --format prometheus >"$T_TMP/prom.$n" 2>>"$T_TMP/err"
	_rc2=$?
	case $_rc in
	0 | 1 | 3) ;;
	*) t_fail "$_name: exit $_rc: $(head -c 300 "$T_TMP/err")" ;;
	esac
	[ "$_rc" -eq "$_rc2" ] || t_fail "$_name: exit $_rc with openmetrics, $_rc2 with prometheus"
	if [ ! -s "$T_TMP/om.$n" ]; then
		# nothing printed is right only when the view could not look (exit 3 names why)
		[ "$_rc" -ne 0 ] || t_fail "$_name: exit 0 and no output"
		return
	fi
	pairs="$pairs $n"
	echo "$_name" >"$T_TMP/name.$n"
	# one file for promtool per board (it takes a quarter second to start): each view's
	# families renamed into a namespace of their own, so two views may share a name
	sed -E "s/^(# (HELP|TYPE) )?socbox_/\\1socbox_v${n}_/" "$T_TMP/prom.$n" >>"$_all"
}

for dir in "$F"/*/; do
	board=$(basename "$dir")
	[ -d "$dir/sys" ] || [ -d "$dir/proc" ] || continue
	: >"$T_TMP/all.$board"
	echo "$VIEWS" | grep -v @NL@ >"$T_TMP/views"
	while IFS= read -r v; do
		# shellcheck disable=SC2086
		run_view "$board: $v" "$T_TMP/all.$board" $v --sysroot "$dir"
	done <"$T_TMP/views"
	if promtool check metrics <"$T_TMP/all.$board" >"$T_TMP/lint" 2>&1; then
		t_ok "$board: promtool check metrics on every view"
	else
		t_fail "$board: promtool check metrics: $(head -c 600 "$T_TMP/lint")"
	fi
done
for nl in "$F"/netlink/*.nl; do
	cap=$(basename "$nl" .nl)
	: >"$T_TMP/all.$cap"
	echo "$VIEWS" | grep @NL@ | sed 's/ @NL@//' >"$T_TMP/nlviews"
	while IFS= read -r v; do
		# shellcheck disable=SC2086
		run_view "$cap: $v" "$T_TMP/all.$cap" $v --load-netlink "$nl"
	done <"$T_TMP/nlviews"
	if promtool check metrics <"$T_TMP/all.$cap" >"$T_TMP/lint" 2>&1; then
		t_ok "$cap: promtool check metrics on every view"
	else
		t_fail "$cap: promtool check metrics: $(head -c 600 "$T_TMP/lint")"
	fi
done

set --
for i in $pairs; do
	set -- "$@" "$(cat "$T_TMP/name.$i")" "$T_TMP/om.$i" "$T_TMP/prom.$i"
done
t_eq "at least 80 views printed metrics to parse" "$([ $(($# / 3)) -ge 80 ] && echo yes)" yes
"$PY" "$CHECK" "$@" >"$T_TMP/parsed" 2>&1
while IFS= read -r line; do
	case $line in
	"ok "*) t_ok "${line#ok }" ;;
	*) t_fail "${line#not ok }" ;;
	esac
done <"$T_TMP/parsed"

# The conventions, value by value
ARM=$F/stm32mp157-dk2
SRV=$F/arm64-server-smmuv3
t_run "doctor openmetrics" 0 "$SOCBOX" doctor --sysroot "$ARM" --format openmetrics
t_grep "doctor: rpmsg ok as a state set" '^socbox_doctor_subsystems_status\{subsystem="rpmsg",status="ok"\} 1$' "$T_TMP/out"
t_grep "doctor: every state of a subsystem" '^socbox_doctor_subsystems_status\{subsystem="iommu",status="ok"\} 0$' "$T_TMP/out"
t_grep "doctor: numeric facts" '^socbox_doctor_facts_value\{subsystem="rpmsg",key="channels"\} 3$' "$T_TMP/out"
t_grep "doctor: yes/no facts as 1/0" '^socbox_doctor_facts_value\{subsystem="dmabuf",key="udmabuf"\} 0$' "$T_TMP/out"
t_run "smmustat irq prometheus" 0 "$SOCBOX" smmustat irq --sysroot "$SRV" --format prometheus
t_grep "irq counter: TYPE names the sample" '^# TYPE socbox_smmustat_irqs_total counter$' "$T_TMP/out"
t_grep "irq counter sample" '^socbox_smmustat_irqs_total\{irq="17",kind="evtq",action="arm-smmu-v3-evtq"\} 4$' "$T_TMP/out"
t_nogrep "no _total_total" '_total_total' "$T_TMP/out"
t_run "smmustat irq openmetrics" 0 "$SOCBOX" smmustat irq --sysroot "$SRV" --format openmetrics
t_grep "openmetrics counter family without _total" '^# TYPE socbox_smmustat_irqs counter$' "$T_TMP/out"
t_run "rpmsgctl openmetrics" 0 "$SOCBOX" rpmsgctl --sysroot "$ARM" --format openmetrics
t_grep "remoteproc state set" '^socbox_rpmsgctl_remoteprocs_state\{id="remoteproc0",name="m4",state="running"\} 1$' "$T_TMP/out"
t_grep "remoteproc other states 0" '^socbox_rpmsgctl_remoteprocs_state\{id="remoteproc0",name="m4",state="crashed"\} 0$' "$T_TMP/out"
t_grep "endpoint devices" '^socbox_rpmsgctl_endpoints_devnode\{device="rpmsg0",name="sensor-ept",remoteproc="remoteproc0",devnode="/dev/rpmsg0"\} 1$' "$T_TMP/out"
t_run "dmabufcp ls openmetrics" 0 "$SOCBOX" dmabufcp ls --sysroot "$F/am62x-dmabuf" --format openmetrics
t_grep "per exporter" '^socbox_dmabufcp_exporters_size_bytes\{exporter="linux,cma"\} 16588800$' "$T_TMP/out"
t_grep "per process" '^socbox_dmabufcp_processes_total_bytes\{pid="612",comm="weston"\} 16719872$' "$T_TMP/out"
t_grep "unit line" '^# UNIT socbox_dmabufcp_exporters_size_bytes bytes$' "$T_TMP/out"
t_run "devmemstat pools openmetrics" 0 "$SOCBOX" devmemstat pools --load-netlink "$F/netlink/devmem-nic.nl" --format openmetrics
t_grep "seconds in base units" '^# UNIT socbox_devmemstat_pools_detached_seconds seconds$' "$T_TMP/out"
t_run "dmabufcp heaps udmabuf limit" 0 "$SOCBOX" dmabufcp heaps --sysroot "$F/am62x-dmabuf" --format prometheus
t_grep "udmabuf size limit" '^socbox_dmabufcp_heaps_size_limit_bytes\{name="udmabuf",kind="udmabuf"\} [0-9]+$' "$T_TMP/out"

# hostile text in a label: escaped as every text output is, and still parseable
rm -rf "$T_TMP/evil"
cp -a "$ARM" "$T_TMP/evil"
printf 'm4"\\\033]0;x\007\n' >"$T_TMP/evil/sys/class/remoteproc/remoteproc0/name"
"$SOCBOX" rpmsgctl --sysroot "$T_TMP/evil" --format openmetrics >"$T_TMP/evil.om" 2>/dev/null
"$SOCBOX" rpmsgctl --sysroot "$T_TMP/evil" --format prometheus >"$T_TMP/evil.prom" 2>/dev/null
t_grep "label escaped" 'name="m4\\"\\\\\\\\x1b\]0;x\\\\x07"' "$T_TMP/evil.om"
if "$PY" "$CHECK" evil "$T_TMP/evil.om" "$T_TMP/evil.prom" >"$T_TMP/parsed" 2>&1; then
	t_ok "hostile label parses"
else
	t_fail "hostile label: $(cat "$T_TMP/parsed")"
fi
t_done
