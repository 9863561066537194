#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# A person's view: the real binary in a tmux pane of 80x24 (an 80-column serial console),
# on the board fixtures. What the pane shows must hold every identifier whole (each one
# compared with its value in the view's JSON) and no line wider than 80 columns unless an
# identifier of 30 characters or more forces it (lsblk does the same). Standard output only:
# error lines are not the output layer's. Needs tmux; without it the check is skipped,
# saying so.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
if ! command -v tmux >/dev/null 2>&1; then
	echo "ok - # SKIP tmux is not installed (Debian's tmux): no console check"
	exit 0
fi
t_need python3 python3 || t_done
SOCK=socbox-console-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; t_cleanup' EXIT

# pane NAME ARGS...: socbox ARGS in a fresh 80x24 pane; its whole text in $T_TMP/NAME.pane,
# wrapped lines joined back (so a line the terminal had to wrap shows its real width)
pane() {
	_n=$1
	shift
	{
		echo 'unset COLUMNS LINES'
		printf "'%s'" "$SOCBOX"
		for _a; do printf " '%s'" "$_a"; done
		echo ' 2>/dev/null'
		printf "tmux -L '%s' wait-for -S '%s'\n" "$SOCK" "$_n"
		echo 'exec sleep 600' # keeps the pane for capture-pane; kill-session ends it
	} >"$T_TMP/$_n.sh"
	tmux -L "$SOCK" -f /dev/null new-session -d -s "$_n" -x 80 -y 24 "sh '$T_TMP/$_n.sh'"
	# the readiness signal: the binary has exited and its output is in the pane
	timeout 20 tmux -L "$SOCK" wait-for "$_n"
	tmux -L "$SOCK" capture-pane -p -J -S - -E - -t "$_n" >"$T_TMP/$_n.pane"
	tmux -L "$SOCK" kill-session -t "$_n"
	"$SOCBOX" "$@" -J >"$T_TMP/$_n.json" 2>/dev/null
}

# check NAME TABLE.KEY...: the identifiers of the view are whole and the lines fit 80
check() {
	_n=$1
	shift
	if python3 - "$T_TMP/$_n.pane" "$T_TMP/$_n.json" "$@" >"$T_TMP/$_n.check" 2>&1 <<'PY'; then
import json, sys
pane, js, fields = sys.argv[1], sys.argv[2], sys.argv[3:]
lines = [l.rstrip() for l in open(pane, encoding="utf-8", errors="replace")]
tokens = {t for l in lines for t in l.split()}
data = json.load(open(js)) if fields else {}
ids, bad = [], []
for f in fields:
    table, key = f.split(".")
    for row in data.get(table, []):
        v = row.get(key)
        if isinstance(v, str) and v and v != "-":
            ids.append(v)
            if v not in tokens:
                bad.append(f"{f} '{v}' is not whole on the console")
if fields and not ids:
    bad.append("no identifier to compare: wrong table or key")
for l in lines:
    if len(l) > 80 and not any(len(v) >= 30 and v in l for v in ids):
        bad.append(f"{len(l)} columns: {l}")
print("\n".join(bad) or f"{len(ids)} identifiers whole, {len(lines)} lines within 80")
sys.exit(1 if bad else 0)
PY
		t_ok "$_n: $(cat "$T_TMP/$_n.check")"
	else
		t_fail "$_n: $(head -c 600 "$T_TMP/$_n.check")"
	fi
}

RPMSG="remoteprocs.id remoteprocs.name remoteprocs.firmware channels.device channels.remoteproc"
RPMSG="$RPMSG control_devices.device control_devices.channel endpoints.device endpoints.parent"
for b in am62x imx8mp stm32mp157-dk2; do
	pane "$b-list" rpmsgctl list --sysroot "$F/$b"
	# shellcheck disable=SC2086 # one word per TABLE.KEY
	check "$b-list" $RPMSG
	pane "$b-rproc" rpmsgctl rproc status --sysroot "$F/$b"
	check "$b-rproc" remoteprocs.id remoteprocs.name remoteprocs.firmware
	pane "$b-doctor" doctor --sysroot "$F/$b"
	check "$b-doctor" subsystems.subsystem
done
pane stm32-heaps dmabufcp heaps --sysroot "$F/stm32mp157-dk2"
check stm32-heaps heaps.name heaps.device
pane am62x-dmabuf-ls dmabufcp ls --sysroot "$F/am62x-dmabuf"
check am62x-dmabuf-ls buffers.exporter processes.comm exporters.exporter

S=$F/arm64-server-smmuv3
pane server-overview smmustat overview --sysroot "$S"
check server-overview instances.name instances.kind
pane server-pmu smmustat pmu --list --sysroot "$S"
check server-pmu pmus.pmu
pane server-groups smmustat groups --sysroot "$S"
check server-groups groups.iommu
pane server-events smmustat events --sysroot "$S"
check server-events event_groups.device event_groups.instance
pane server-doctor doctor --sysroot "$S"
check server-doctor subsystems.subsystem
# the timeline is one line per event, as dmesg; on a terminal long ones wrap
pane server-timeline events --sysroot "$S"
check server-timeline
# every interrupt line of a 2-CPU arm64 guest: the rate of one reading and the chip are
# left to -o and JSON
pane virt-irq smmustat irq --all --sysroot "$F/qemu-virt-arm64"
check virt-irq irqs.instance irqs.action

# kperf's lines (the seed's shape) wrap on a terminal
pane devmem-top devmemstat top --sysroot "$F/devmem-nic"
check devmem-top
for v in show pools qstats queues bindings; do
	pane "devmem-$v" devmemstat "$v" --load-netlink "$F/netlink/devmem-nic.nl"
	check "devmem-$v"
done
t_done
