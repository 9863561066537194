#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Typos are answered with the word meant: applets, commands, options and columns; socbox's
# own option-order mistake is explained as the applets explain theirs.
. "$SOCBOX_TESTLIB"
AM=$SOCBOX_FIXTURES/am62x
DB=$SOCBOX_FIXTURES/am62x-dmabuf
ARM=$SOCBOX_FIXTURES/arm64-server-smmuv3

# NAME WANTED-STDERR COMMAND...: exit 2 and exactly this one line on stderr
t_usage() {
	um_name=$1 um_msg=$2
	shift 2
	t_run "$um_name" 2 "$SOCBOX" "$@"
	t_eq "$um_name: the message" "$(cat "$T_TMP/err")" "$um_msg"
}

t_usage "applet" "socbox: unknown applet or command 'doctr'; did you mean 'doctor'? (see 'socbox --help')" doctr
t_usage "socbox command" "socbox: unknown applet or command 'evnets'; did you mean 'events'? (see 'socbox --help')" evnets
t_usage "far from any: no guess" "socbox: unknown applet or command 'xyzzy' (see 'socbox --help')" xyzzy
t_usage "command" "rpmsgctl: unknown command 'lsit'; did you mean 'list'? (see 'rpmsgctl --help')" rpmsgctl lsit
t_usage "command of a command" "rpmsgctl rproc: unknown command 'strat'; did you mean 'start'? (see 'rpmsgctl rproc --help')" rpmsgctl rproc strat remoteproc0
t_usage "swapped letters" "smmustat: unknown command 'overveiw'; did you mean 'overview'? (see 'smmustat --help')" smmustat overveiw
# dmabufcp's default command takes files: a typo of a command is not one
t_usage "not the default command's argument" "dmabufcp: unknown command 'heap'; did you mean 'heaps'? (see 'dmabufcp --help')" dmabufcp heap
t_usage "... with options after it" "dmabufcp: unknown command 'heap'; did you mean 'heaps'? (see 'dmabufcp --help')" dmabufcp heap -J
# ... but a file of that name is copied as always
mkdir "$T_TMP/d" && : >"$T_TMP/d/heap"
(cd "$T_TMP/d" && "$SOCBOX" dmabufcp heap udmabuf out --sysroot "$AM") >/dev/null 2>"$T_TMP/err"
t_eq "a file named like a typo is the copy's source (needs the live kernel: 3)" "$?" 3
t_usage "long option" "socbox doctor: --jsn: unknown option; did you mean '--json'? (see 'socbox doctor --help')" doctor --jsn
t_usage "long option with a value" "rpmsgctl list: --sysrot=x: unknown option; did you mean '--sysroot'? (see 'rpmsgctl list --help')" rpmsgctl list --sysrot=x
t_usage "format" "smmustat groups: unknown format 'jsno'; did you mean 'json'? (see 'smmustat groups --help')" smmustat groups --format jsno --sysroot "$ARM"
t_usage "format far from any: the list" "smmustat groups: unknown format 'yaml' (table, json, raw, pairs, openmetrics or prometheus) (see 'smmustat groups --help')" smmustat groups --format yaml --sysroot "$ARM"
t_usage "a value of a list" "socbox events: --subsystem: unknown 'iomu'; did you mean 'iommu'? (iommu, remoteproc, rpmsg, netdev, dmabuf) (see 'socbox events --help')" events -s rpmsg,iomu --sysroot "$ARM"
t_usage "... of doctor's" "socbox doctor: --require: unknown subsystem 'dmabfu'; did you mean 'dmabuf'? (rpmsg, dmabuf, iommu, netdev) (see 'socbox doctor --help')" doctor --require dmabfu --sysroot "$AM"
t_usage "a cause code" "socbox doctor: --explain: no such cause 'rpmsg.crahsed'; did you mean 'rpmsg.crashed'? (see 'socbox doctor --list-causes')" doctor --explain rpmsg.crahsed
t_usage "column" "dmabufcp ls: unknown column 'NAEM'; did you mean 'NAME'? (see 'dmabufcp ls -H' for the columns)" dmabufcp ls -o INODE,NAEM --sysroot "$DB"
t_usage "column added to the defaults" "smmustat events: unknown column 'RESON'; did you mean 'REASON'? (see 'smmustat events -H' for the columns)" smmustat events -o +RESON --sysroot "$ARM"
t_usage "unknown column points to -H" "rpmsgctl list: unknown column 'XYZZY' (see 'rpmsgctl list -H' for the columns)" rpmsgctl list -o XYZZY --sysroot "$AM"
# a column of another table of the view is told where it belongs, and what selects it
t_usage "a column of another table" "rpmsgctl list: 'RECOVERY' belongs to the remote processors, which -o does not select here: rpmsgctl rproc status -o +RECOVERY (see 'rpmsgctl list -H' for the columns)" rpmsgctl list -o +RECOVERY --sysroot "$AM"
t_usage "a column no -o selects" "rpmsgctl list: 'DEVNODE' belongs to the control devices, which -o does not select here (see 'rpmsgctl list -H' for the columns)" rpmsgctl list -o DEVICE,DEVNODE --sysroot "$AM"
# -H lists the columns the message points to
t_run "-H lists them" 0 "$SOCBOX" dmabufcp ls -H
t_grep "... NAME among them" '^ *NAME ' "$T_TMP/out"
t_usage "a command's own option before socbox's command" "socbox: 'doctor' is a command: it comes first, before the options ('socbox doctor ...') (see 'socbox --help')" --explain x doctor
t_usage "the applets say it the same way" "devmemstat show: 'queues' is a command: it comes first, before the options ('devmemstat queues ...') (see 'devmemstat show --help')" devmemstat --load-netlink x queues
t_done
