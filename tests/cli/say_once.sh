#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Say it once: one line per problem. A subsystem that is not there is one error line, not
# empty tables, a note and the error repeating it; a bench that cannot allocate fails
# before its first row; a failure the table shows on a terminal is not said again on
# stderr (piped, scripts still get the stderr line).
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
t_need script bsdutils || t_done

# on_tty ARGS...: socbox ARGS with stdout and stderr on one terminal, as a person sees it
on_tty() {
	_cmd="'$SOCBOX'"
	for _a; do _cmd="$_cmd '$_a'"; done
	script -qec "$_cmd; echo \"[exit \$?]\"" /dev/null </dev/null | tr -d '\r'
}

for b in x86-vtd arm64-soc; do
	for v in "" "-J" "-r"; do
		# shellcheck disable=SC2086 # $v: one option or none
		t_run "rpmsgctl $v on $b (no rpmsg)" 3 "$SOCBOX" rpmsgctl $v --sysroot "$F/$b"
		t_eq "... prints no table" "$(wc -c <"$T_TMP/out")" 0
		t_eq "... one error line" "$(wc -l <"$T_TMP/err")" 1
	done
	t_grep "... which says so" '^rpmsgctl: rpmsg: list: no remote processors and no rpmsg bus in this kernel \(' "$T_TMP/err"
	t_run "rpmsgctl rproc status on $b" 3 "$SOCBOX" rpmsgctl rproc status --sysroot "$F/$b"
	t_eq "... prints no table" "$(wc -c <"$T_TMP/out")" 0
	t_eq "... one error line" "$(wc -l <"$T_TMP/err")" 1
done

# a buffer kind that cannot allocate anywhere: fails before the first row, one line
head -c 65536 /dev/zero >"$T_TMP/f"
t_run "dmabufcp bench with no allocator" 3 "$SOCBOX" dmabufcp bench --buffer heap:socbox-no-such-heap "$T_TMP/f"
t_eq "... prints no row" "$(wc -c <"$T_TMP/out")" 0
t_eq "... one line for the one buffer kind" "$(wc -l <"$T_TMP/err")" 1
t_grep "... naming the heap" '^dmabufcp: /dev/dma_heap/socbox-no-such-heap: open heap: ' "$T_TMP/err"
if [ ! -e /dev/dma_heap/system ] && [ ! -e /dev/udmabuf ]; then
	t_run "dmabufcp bench FILE here (neither the system heap nor udmabuf)" 3 "$SOCBOX" dmabufcp bench "$T_TMP/f"
	t_eq "... prints no row" "$(wc -c <"$T_TMP/out")" 0
	t_eq "... one line per buffer kind" "$(wc -l <"$T_TMP/err")" 2
fi

# smmustat check on a terminal: each failure once (the table's DETAIL)
on_tty smmustat check --expect-instances=1 --expect-type=DMA --no-faults --sysroot "$F/arm64-server-smmuv3" >"$T_TMP/tty"
t_grep "smmustat check on a terminal: exit 1" '^\[exit 1\]$' "$T_TMP/tty"
t_eq "... each failure said once" "$(grep -c '6 of 6 groups differ' "$T_TMP/tty")" 1
t_eq "... the three of them" "$(grep -c ' fail ' "$T_TMP/tty")" 3
t_run "smmustat check piped" 1 "$SOCBOX" smmustat check --expect-type=DMA --sysroot "$F/arm64-server-smmuv3"
t_grep "... stderr names the failure for scripts" '^smmustat check: expect-type=DMA: 6 of 6 groups differ' "$T_TMP/err"

# devmemstat bindings on a terminal: the leaked pool is the problem line alone
on_tty devmemstat bindings --load-netlink "$F/netlink/devmem-nic.nl" >"$T_TMP/tty"
t_grep "devmemstat bindings on a terminal: exit 1" '^\[exit 1\]$' "$T_TMP/tty"
t_eq "... the leak said once" "$(grep -c 'still hold memory' "$T_TMP/tty")" 1
t_run "devmemstat bindings piped" 1 "$SOCBOX" devmemstat bindings --load-netlink "$F/netlink/devmem-nic.nl"
t_grep "... stderr says it for scripts" 'still hold memory' "$T_TMP/err"
t_done
