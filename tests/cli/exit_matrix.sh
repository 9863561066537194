#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One exit code per situation, the same in every applet (HACKING.md, "Exit codes"): each
# line below is a situation, an applet or command, and the code a script may branch on.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
AM=$F/am62x
DB=$F/am62x-dmabuf
ARM=$F/arm64-server-smmuv3
X86=$F/x86-vtd
NL=$F/netlink/devmem-nic.nl
OUT=$T_TMP/out.d
# a board without an IOMMU whose /proc/interrupts has lines, none of them an IOMMU's
NOIOMMU=$T_TMP/noiommu
mkdir -p "$NOIOMMU/proc"
printf '           CPU0       CPU1\n 11:       1200        300     GICv3  27 Level     arch_timer\n' \
	>"$NOIOMMU/proc/interrupts"

# WANT SITUATION COMMAND... (COMMAND follows the socbox binary; no word has a space)
matrix() {
	cat <<LINES
0 ok doctor --sysroot $AM
0 ok events --sysroot $ARM
0 ok rpmsgctl --sysroot $AM
0 ok dmabufcp heaps --sysroot $DB
0 ok smmustat --sysroot $ARM
0 ok devmemstat show --load-netlink $NL
1 failed doctor --require iommu --sysroot $AM
1 failed smmustat check --expect-instances=1 --sysroot $ARM
1 failed devmemstat bindings --load-netlink $NL
3 live rpmsgctl rproc start remoteproc0 --sysroot $AM
2 usage doctor --bogus
2 usage doctr
2 usage --lst
0 ok help
0 ok help rpmsgctl rproc
2 usage events --since yesterday --sysroot $ARM
2 usage metrics --format json
2 usage snapshot
2 usage rpmsgctl lsit
2 usage rpmsgctl rproc status a b --sysroot $AM
2 usage dmabufcp heap
2 usage dmabufcp ls -o NAEM --sysroot $DB
2 usage smmustat overveiw
2 usage smmustat irq -i 0 --sysroot $ARM
2 usage devmemstat qeues
2 usage devmemstat rx --queues 0
2 usage devmemstat --sysroot /nonexistent
3 absent rpmsgctl --sysroot $X86
3 absent dmabufcp heaps --sysroot $X86
3 absent smmustat --sysroot $AM
3 absent smmustat groups --sysroot $AM
3 absent devmemstat --sysroot $AM
3 live events --follow --sysroot $AM
3 live doctor --devmem lo --sysroot $AM
3 live rpmsgctl ping --sysroot $AM
3 live rpmsgctl list --load-modules --sysroot $AM
3 live rpmsgctl ept create x --sysroot $AM
3 live dmabufcp bench /dev/null --sysroot $AM
3 live dmabufcp /dev/null udmabuf $OUT --sysroot $AM
3 live smmustat irq -i 1 --sysroot $ARM
3 live smmustat events --follow --sysroot $ARM
3 live smmustat stress --sysroot $ARM
3 live devmemstat monitor --sysroot $AM
3 live devmemstat rx --dev eth0 --queues 0 --sysroot $AM
3 live devmemstat queues --netns x --sysroot $AM
3 notfound doctor --devmem socbox-nosuch0
3 notfound rpmsgctl rproc status remoteproc9 --sysroot $AM
3 notfound rpmsgctl rproc trace remoteproc9 --sysroot $AM
3 notfound dmabufcp ls --pid 999999 --sysroot $DB
3 notfound smmustat groups -d bogus --sysroot $ARM
3 notfound smmustat groups -g 999 --sysroot $ARM
3 notfound smmustat pmu --pmu bogus --sysroot $ARM
3 notfound devmemstat -d eth9 --sysroot $F/qemu-virt-arm64
3 notfound devmemstat -d 99 --load-netlink $NL
3 notfound devmemstat top --cpus 99 --sysroot $F/qemu-virt-arm64
3 notfound devmemstat --netns socbox-nosuch0
3 notfound devmemstat queues --netns socbox-nosuch0
3 notfound dmabufcp 999999:3 $OUT
3 absent smmustat irq --sysroot $NOIOMMU
0 ok smmustat irq --all --sysroot $NOIOMMU
3 absent smmustat events --sysroot $AM
3 absent smmustat irq --sysroot $AM
3 live smmustat pmu -e cycles -i 1 --sysroot $ARM
0 ok smmustat pmu -e cycles --sysroot $ARM
3 live smmustat pmu -c 2 --sysroot $ARM
2 usage smmustat pmu -e bogus -i 1 --sysroot $ARM
0 ok smmustat pmu --sysroot $ARM
0 ok smmustat irq --sysroot $ARM
0 ok smmustat events --sysroot $ARM
0 ok devmemstat -d 3 --load-netlink $NL
LINES
}

matrix >"$T_TMP/matrix"
while read -r want situation cmd; do
	# shellcheck disable=SC2086 # the words of the command
	t_run "$situation: $cmd" "$want" "$SOCBOX" $cmd
done <"$T_TMP/matrix"

# a snapshot is taken from the live system, however the sysroot was given
t_run "live: snapshot with SOCBOX_SYSROOT" 3 env SOCBOX_SYSROOT="$AM" "$SOCBOX" snapshot "$OUT"
# permission, as another user: another user's dma-buf (pidfd_getfd needs ptrace rights over
# PID 1); a command whose descriptor says it needs root, which the framework answers before
# it touches anything (one line, exit 4), on the live system
asuser=
[ "$(id -u)" -ne 0 ] || { t_need setpriv util-linux && asuser="setpriv --reuid=65534 --regid=65534 --clear-groups"; }
if [ "$(id -u)" -ne 0 ] || [ -n "$asuser" ]; then
	# shellcheck disable=SC2086 # setpriv and its words, or nothing
	t_run "permission: dmabufcp PID:FD" 4 $asuser "$SOCBOX" dmabufcp 1:0 "$OUT"
	for cmd in "rpmsgctl rproc start remoteproc0" "rpmsgctl rproc cycle remoteproc0" \
		"smmustat stress" "devmemstat bind --dev lo --queues 0"; do
		# shellcheck disable=SC2086 # setpriv's words, the command's words
		t_run "permission: $cmd needs root" 4 $asuser "$SOCBOX" $cmd
		t_grep "permission: $cmd says so" "^${cmd%% *} [a-z ]*: needs (root|CAP_[A-Z_]+ \(root has it\)): " "$T_TMP/err"
		t_eq "permission: $cmd in one line" "$(wc -l <"$T_TMP/err")" 1
	done
fi
t_done
