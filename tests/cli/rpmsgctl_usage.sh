#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# rpmsgctl commands that need the live kernel, run on a snapshot, and their usage errors:
# everything is refused before any device is touched.
. "$SOCBOX_TESTLIB"
AM=$SOCBOX_FIXTURES/am62x

t_run "--help lists every command" 0 "$SOCBOX" rpmsgctl --help
for cmd in list ept dev flow send recv ping rproc bench throughput; do
	t_grep "help names $cmd" "^  $cmd " "$T_TMP/out"
done
t_run "ept create on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl ept create foo --sysroot "$AM"
t_grep "says why" 'needs the live kernel' "$T_TMP/err"
t_run "ept create needs a NAME" 2 "$SOCBOX" rpmsgctl ept create --sysroot "$AM"
t_run "ept create name too long" 2 "$SOCBOX" rpmsgctl ept create 0123456789012345678901234567890123 --sysroot "$AM"
t_run "ept create --method fd: an fd endpoint cannot outlive the process" 2 "$SOCBOX" rpmsgctl ept create foo --method fd --sysroot "$AM"
t_grep "says why" 'destroyed when its last file descriptor closes' "$T_TMP/err"
t_run "ept create -v (auto) on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl ept create foo -v --sysroot "$AM"
t_grep "auto means legacy for ept create" 'auto means legacy for ept create' "$T_TMP/err"
t_run "ept create bad method" 2 "$SOCBOX" rpmsgctl ept create foo --method turbo --sysroot "$AM"
t_run "ept create bad address" 2 "$SOCBOX" rpmsgctl ept create foo --src 0x1ffffffff --sysroot "$AM"
t_run "ept without a sub-command" 2 "$SOCBOX" rpmsgctl ept
t_run "ept destroy needs a device" 2 "$SOCBOX" rpmsgctl ept destroy --sysroot "$AM"
t_run "ept destroy on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl ept destroy rpmsg1 rpmsg2 --sysroot "$AM"
t_eq "said once, not per device" "$(grep -c 'needs the live kernel' "$T_TMP/err")" 1
t_run "flow get on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl flow get rpmsg1 --sysroot "$AM"
t_grep "says why" 'needs the live kernel' "$T_TMP/err"
t_run "flow set on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl flow set rpmsg1 pause --sysroot "$AM"
t_run "dev create on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl dev create rpmsg-raw --dst 14 --sysroot "$AM"
t_run "flow set bad word" 2 "$SOCBOX" rpmsgctl flow set rpmsg1 maybe --sysroot "$AM"
t_run "ping on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl ping --sysroot "$AM"
t_run "bench on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl bench --loops 1 --sysroot "$AM"
t_run "bench bad method" 2 "$SOCBOX" rpmsgctl bench --method auto --sysroot "$AM"
t_run "bench zero loops" 2 "$SOCBOX" rpmsgctl bench --loops 0 --sysroot "$AM"
t_run "throughput on a snapshot: exit 3" 3 "$SOCBOX" rpmsgctl throughput --echo 0x400 --sysroot "$AM"
t_grep "says why" 'needs the live kernel' "$T_TMP/err"
t_run "throughput needs --echo or --sink" 2 "$SOCBOX" rpmsgctl throughput --sysroot "$AM"
t_grep "names both" 'give --echo ADDR, --sink ADDR or both' "$T_TMP/err"
t_run "throughput --echo any: no service there" 2 "$SOCBOX" rpmsgctl throughput --echo any --sysroot "$AM"
for bad in 0 497 16,x 16,,64 -1 1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17; do
	t_run "throughput --sizes $bad" 2 "$SOCBOX" rpmsgctl throughput --echo 0x400 --sizes "$bad" --sysroot "$AM"
done
t_grep "names the range" '1 to 496 bytes, or max' "$T_TMP/err"
t_run "throughput --endpoints 65" 2 "$SOCBOX" rpmsgctl throughput --sink 0x401 --endpoints 65 --sysroot "$AM"
t_run "throughput --window 0" 2 "$SOCBOX" rpmsgctl throughput --echo 0x400 --window 0 --sysroot "$AM"
t_run "throughput --runs 0" 2 "$SOCBOX" rpmsgctl throughput --echo 0x400 --runs 0 --sysroot "$AM"
t_run "bench --loops 0" 2 "$SOCBOX" rpmsgctl bench --loops 0 --sysroot "$AM"
t_grep "... names the bounds" "bench: --loops: '0' is out of range \(1 to [0-9]+\)" "$T_TMP/err"
t_run "bench --ctrl -1" 2 "$SOCBOX" rpmsgctl bench --ctrl -1 --sysroot "$AM"
t_grep "... names the value and the bounds" "--ctrl: '-1' is not a whole number \(0 to [0-9]+\)" "$T_TMP/err"
t_run "bench -vm fdd (clustered)" 2 "$SOCBOX" rpmsgctl bench -vm fdd --sysroot "$AM"
t_grep "... names the methods" "--method: 'fdd' is not one of legacy, fd or both; did you mean 'fd'\?" "$T_TMP/err"
t_run "bench -l 0x10 is a number (live only: exit 3)" 3 "$SOCBOX" rpmsgctl bench -l 0x10 --sysroot "$AM"
t_run "rproc crash --type wd" 2 "$SOCBOX" rpmsgctl rproc crash remoteproc0 --type wd --sysroot "$AM"
t_grep "... names the types" "--type: 'wd' is not one of mmufault, watchdog or fatal" "$T_TMP/err"
t_run "rproc crash --type fatal: accepted, then needs the live kernel" 3 "$SOCBOX" rpmsgctl rproc crash remoteproc0 --type fatal --sysroot "$AM"
t_run "rproc trace --index -1" 2 "$SOCBOX" rpmsgctl rproc trace remoteproc0 --index -1 --sysroot "$AM"
t_grep "... names the bounds" "--index: '-1' is not a whole number \(0 to [0-9]+\)" "$T_TMP/err"
t_run "rproc cycle -s 497" 2 "$SOCBOX" rpmsgctl rproc cycle remoteproc0 -s 497 --sysroot "$AM"
t_grep "... names the bounds" "--size: '497' is out of range \(1 to 496\)" "$T_TMP/err"
t_run "rproc cycle -c 0" 2 "$SOCBOX" rpmsgctl rproc cycle remoteproc0 -c 0 --sysroot "$AM"
t_grep "... names the option" "--count: '0' is out of range" "$T_TMP/err"
t_run "rproc cycle --crash --crash-type wd" 2 "$SOCBOX" rpmsgctl rproc cycle remoteproc0 --crash --crash-type wd --sysroot "$AM"
t_grep "... names the types" "--crash-type: 'wd' is not one of mmufault, watchdog or fatal" "$T_TMP/err"
t_run "rproc cycle --crash-type without --crash" 2 "$SOCBOX" rpmsgctl rproc cycle remoteproc0 --crash-type fatal --sysroot "$AM"
t_run "rproc cycle --crash --crash-type fatal: accepted, then needs the live kernel" 3 "$SOCBOX" rpmsgctl rproc cycle remoteproc0 --crash --crash-type fatal --sysroot "$AM"
t_run "send --mtu 0" 2 "$SOCBOX" rpmsgctl send hi --mtu 0 --sysroot "$AM"
t_grep "... names the bounds" "--mtu: '0' is out of range \(1 to [0-9]+\)" "$T_TMP/err"
t_run "send --help" 0 "$SOCBOX" rpmsgctl send --help
tr -s ' \n' '  ' <"$T_TMP/out" >"$T_TMP/flat" # popt wraps the help at 79 columns
t_grep "... the virtio MTU as the default" "largest payload per message, virtio's \(default 496\)" "$T_TMP/flat"
t_run "rproc crash --help" 0 "$SOCBOX" rpmsgctl rproc crash --help
t_grep "... the types and the default" 'mmufault, watchdog or fatal \(default watchdog\)' "$T_TMP/out"
t_run "bench --help" 0 "$SOCBOX" rpmsgctl bench --help
tr -s ' \n' '  ' <"$T_TMP/out" >"$T_TMP/flat" # popt wraps the help at 79 columns
t_grep "... the defaults" 'and run \(default 1000\).*legacy, fd or both \(default both\).*rpmsg_ctrlN \(default 0\)' "$T_TMP/flat"
t_run "throughput --method turbo" 2 "$SOCBOX" rpmsgctl throughput --echo 0x400 --method turbo --sysroot "$AM"

# payload limits are checked before any endpoint is opened
t_run "send 497 bytes: refused" 1 "$SOCBOX" rpmsgctl send "$(printf '%497s' x)" --sysroot "$AM"
t_grep "names the MTU" 'send: 497 bytes is over the endpoint MTU of 496 bytes \(split it \(--split\)' "$T_TMP/err"
head -c 1000 /dev/zero >"$T_TMP/big"
t_run "send --file over the MTU: refused" 1 "$SOCBOX" rpmsgctl send --file "$T_TMP/big" --sysroot "$AM"
t_run "send from stdin over --mtu: refused" 1 sh -c "printf 'abcdef' | '$SOCBOX' rpmsgctl send --mtu 4 --sysroot '$AM'"
t_run "send --split goes on to the endpoint (snapshot: exit 3)" 3 "$SOCBOX" rpmsgctl send --split --file "$T_TMP/big" --sysroot "$AM"
t_run "send TEXT and --file" 2 "$SOCBOX" rpmsgctl send hi --file "$T_TMP/big" --sysroot "$AM"
t_run "send missing file" 1 "$SOCBOX" rpmsgctl send --file "$T_TMP/nope" --sysroot "$AM"
t_run "ping 497 bytes: refused" 1 "$SOCBOX" rpmsgctl ping --size 497 --sysroot "$AM"
t_grep "ping names the MTU" '497 bytes does not fit one message' "$T_TMP/err"
t_run "ping --size 0" 2 "$SOCBOX" rpmsgctl ping --size 0 --sysroot "$AM"
t_run "ping -H" 0 "$SOCBOX" rpmsgctl ping -H -r -n
t_eq "ping columns" "$(cut -d' ' -f1 "$T_TMP/out" | tr '\n' ' ')" "COUNT MIN_US MEDIAN_US P99_US MAX_US MEAN_US STDDEV_US "
t_run "bench -H" 0 "$SOCBOX" rpmsgctl bench -H -r -n
t_eq "bench columns" "$(cut -d' ' -f1 "$T_TMP/out" | tr '\n' ' ')" "RUN LOOPS LEGACY_US FD_US RATIO FD_PATH "
t_run "ept create -H" 0 "$SOCBOX" rpmsgctl ept create -H -r -n
t_grep "METHOD column" '^METHOD ' "$T_TMP/out"
t_run "recv --hex and --binary" 2 "$SOCBOX" rpmsgctl recv --hex --binary --sysroot "$AM"
t_run "recv --hex and --json" 2 "$SOCBOX" rpmsgctl recv --hex -J --sysroot "$AM"
t_run "recv --binary and -r" 2 "$SOCBOX" rpmsgctl recv --binary -r --sysroot "$AM"
t_grep "says what each prints" 'binary prints the message bytes; -J, -r, -P' "$T_TMP/err"
t_run "recv -P is an output mode like everywhere (snapshot: exit 3)" 3 "$SOCBOX" rpmsgctl recv -P --sysroot "$AM"
t_run "recv --format json (snapshot: exit 3)" 3 "$SOCBOX" rpmsgctl recv --format json --sysroot "$AM"
t_run "recv -J and -r exclude each other" 2 "$SOCBOX" rpmsgctl recv -J -r --sysroot "$AM"
t_run "recv -o with an unknown column" 2 "$SOCBOX" rpmsgctl recv -o NOPE --sysroot "$AM"
t_run "recv -H" 0 "$SOCBOX" rpmsgctl recv -H -r -n
t_eq "recv columns" "$(cut -d' ' -f1 "$T_TMP/out" | tr '\n' ' ')" "LENGTH_BYTES DATA_HEX "
t_done
