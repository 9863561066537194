#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# A snapshot may come from anyone: a FIFO, socket or device node where a file should be
# must neither block the command (every command used to hang in open()) nor be opened;
# the command says "not a regular file" where it reports errors and goes on with the rest.
. "$SOCBOX_TESTLIB"
fx=$SOCBOX_FIXTURES

# fifo_case NAME FIXTURE FILE WANT_EXIT CMD...: FILE of a copy of FIXTURE becomes a FIFO
fifo_case() {
	_n=$1 _fx=$2 _file=$3 _want=$4
	shift 4
	rm -rf "$T_TMP/root"
	cp -a "$fx/$_fx" "$T_TMP/root"
	rm -f "$T_TMP/root/$_file"
	mkfifo "$T_TMP/root/$_file"
	t_run "$_n: FIFO at $_file does not block" "$_want" timeout 20 "$@" --sysroot "$T_TMP/root"
}

fifo_case "doctor" x86-vtd proc/sys/kernel/osrelease 0 "$SOCBOX" doctor
t_grep "doctor: goes on with the IOMMU" '^iommu +ok' "$T_TMP/out"
fifo_case "smmustat" x86-vtd proc/sys/kernel/osrelease 0 "$SOCBOX" smmustat
fifo_case "smmustat irq" arm64-soc proc/interrupts 1 "$SOCBOX" smmustat irq
t_grep "smmustat irq: says what is wrong" 'proc/interrupts.*not a regular file' "$T_TMP/err"
t_eq "smmustat irq: one line on stderr" "$(wc -l <"$T_TMP/err")" 1
fifo_case "smmustat events" arm64-soc dev/kmsg 1 "$SOCBOX" smmustat events
t_grep "smmustat events: says what is wrong" 'kmsg.*not a regular file' "$T_TMP/err"
fifo_case "rpmsgctl list" am62x \
	"sys/devices/platform/bus@f0000/78000000.r5f/remoteproc/remoteproc1/state" 0 "$SOCBOX" rpmsgctl list
t_grep "rpmsgctl list: other remoteprocs still listed" 'remoteproc0' "$T_TMP/out"
fifo_case "dmabufcp heaps" am62x-dmabuf sys/module/udmabuf/initstate 0 "$SOCBOX" dmabufcp heaps
fifo_case "dmabufcp ls" am62x-dmabuf proc/1022/fdinfo/5 0 "$SOCBOX" dmabufcp ls
fifo_case "devmemstat top" devmem-nic proc/net/dev 1 "$SOCBOX" devmemstat top -c 1
t_grep "devmemstat top: says what is wrong" "proc/net/dev.*not a regular file" "$T_TMP/err"

# a socket and a device node are refused the same way (mknod needs root: the suite runs as root)
rm -rf "$T_TMP/root"
cp -a "$fx/x86-vtd" "$T_TMP/root"
rm -f "$T_TMP/root/proc/sys/kernel/osrelease"
if mknod "$T_TMP/root/proc/sys/kernel/osrelease" c 1 5 2>"$T_TMP/mknod.err"; then
	t_run "doctor: a device node (/dev/zero's numbers) is not opened" 0 \
		timeout 20 "$SOCBOX" doctor -J --sysroot "$T_TMP/root"
	t_jq "doctor: the kernel release is unknown, not read from the device" '.kernel == "unknown"' "$T_TMP/out"
else
	t_fail "mknod: $(cat "$T_TMP/mknod.err") (the cli tier runs as root)"
fi

# control bytes read from a snapshot never reach the terminal: ESC ] 0 ; ... BEL would
# retitle it (doctor's and smmustat's "kernel:" line printed osrelease as it was)
rm -rf "$T_TMP/root"
cp -a "$fx/am62x" "$T_TMP/root"
printf 'm4\033]0;PWNED\007f \377\n' \
	>"$T_TMP/root/sys/devices/platform/bus@f0000/bus@f0000:bus@4000000/5000000.m4fss/remoteproc/remoteproc0/name"
printf '6.6\033[2J\n' >"$T_TMP/root/proc/sys/kernel/osrelease"
no_raw_controls() {
	if tr -d '\n' <"$T_TMP/out" | LC_ALL=C grep -q '[[:cntrl:]]'; then
		t_fail "$1: a control byte reached stdout: $(od -c "$T_TMP/out" | grep -m1 '\\033\|\\a')"
	elif LC_ALL=C grep -q "$(printf '\377')" "$T_TMP/out"; then
		t_fail "$1: a byte that is not UTF-8 reached stdout"
	else
		t_ok "$1: no control byte on stdout"
	fi
}
for mode in "" -r -P; do
	t_run "rpmsgctl list $mode on a hostile name" 0 "$SOCBOX" rpmsgctl list $mode --sysroot "$T_TMP/root"
	no_raw_controls "rpmsgctl list $mode"
	t_grep "rpmsgctl list $mode: shows the bytes as \\xHH" 'm4\\x1b\]0;PWNED\\x07f' "$T_TMP/out"
	t_run "doctor $mode on a hostile osrelease" 0 "$SOCBOX" doctor $mode --sysroot "$T_TMP/root"
	no_raw_controls "doctor $mode"
	t_grep "doctor $mode: the release escaped" '6\.6\\x1b\[2J' "$T_TMP/out"
done
rm -rf "$T_TMP/root"
cp -a "$fx/x86-vtd" "$T_TMP/root"
printf '6.6\033[2J\n' >"$T_TMP/root/proc/sys/kernel/osrelease"
t_run "smmustat on a hostile osrelease" 0 "$SOCBOX" smmustat --sysroot "$T_TMP/root"
no_raw_controls "smmustat"

# error paths free what they hold (the ASan+UBSan run of this script has leak detection on)
rm -rf "$T_TMP/root"
cp -a "$fx/x86-vtd" "$T_TMP/root"
rm -rf "$T_TMP/root/sys/kernel/iommu_groups"
echo x >"$T_TMP/root/sys/kernel/iommu_groups"
t_run "smmustat: iommu_groups not a directory fails without a leak" 1 "$SOCBOX" smmustat --sysroot "$T_TMP/root"
t_grep "smmustat: says which" 'iommu_groups' "$T_TMP/err"
# ASan exits 1 on a leak too: the report is what tells it from the error
t_eq "smmustat: one line on stderr, no leak report" "$(wc -l <"$T_TMP/err")" 1
rm -rf "$T_TMP/root"
cp -a "$fx/am62x-dmabuf" "$T_TMP/root"
rm -rf "$T_TMP/root/proc"
echo x >"$T_TMP/root/proc"
t_run "dmabufcp ls: /proc not a directory fails without a leak" 1 "$SOCBOX" dmabufcp ls --sysroot "$T_TMP/root"
t_grep "dmabufcp ls: says which" '/proc: list processes' "$T_TMP/err"
t_eq "dmabufcp ls: one line on stderr, no leak report" "$(wc -l <"$T_TMP/err")" 1
rm -rf "$T_TMP/root"
cp -a "$fx/am62x-dmabuf" "$T_TMP/root"
bi=$T_TMP/root/sys/kernel/debug/dma_buf/bufinfo
# shellcheck disable=SC2094 # sed prints lines 3-7 only; what it appends comes after them
sed -n '3,7p' "$bi" >>"$bi"
t_run "dmabufcp ls: bufinfo listing an inode twice, no leak" 0 "$SOCBOX" dmabufcp ls -J --sysroot "$T_TMP/root"
t_jq "dmabufcp ls: the inode once" '[.buffers[] | select(.inode == 31)] | length == 1' "$T_TMP/out"

# a 2 GiB sparse file is refused by its size, unread: it used to be read to the 64 MiB
# limit first, many times over (doctor timed out under ASan on a huge modules.builtin)
rm -rf "$T_TMP/root"
cp -a "$fx/arm64-soc" "$T_TMP/root"
rm -f "$T_TMP/root/dev/kmsg"
truncate -s 2G "$T_TMP/root/dev/kmsg"
if t_need python3 python3; then
	# the peak memory of the command (ru_maxrss), not its time
	python3 -c '
import resource, subprocess, sys
p = subprocess.run(sys.argv[2:], stdout=subprocess.DEVNULL, stderr=open(sys.argv[1], "w"))
print(p.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' \
		"$T_TMP/err" "$SOCBOX" smmustat events --sysroot "$T_TMP/root" >"$T_TMP/rss"
	t_eq "smmustat events on a 2 GiB kmsg: exit 1" "$(cut -d' ' -f1 "$T_TMP/rss")" 1
	t_grep "smmustat events on a 2 GiB kmsg: too large" 'dev/kmsg.*File too large' "$T_TMP/err"
	t_eq "smmustat events on a 2 GiB kmsg: under 40 MiB of memory, not the 64 MiB limit read" \
		"$(awk '{ print ($2 < 40) ? "yes" : $2 " MiB" }' "$T_TMP/rss")" yes
fi

# files named on the command line: a directory is an error, a pipe is read
t_run "devmemstat --load-netlink DIR fails" 1 "$SOCBOX" devmemstat --load-netlink "$T_TMP"
t_grep "--load-netlink DIR: says so" 'read netlink capture: Is a directory' "$T_TMP/err"
mkfifo "$T_TMP/capture"
(cat "$fx/netlink/devmem-nic.nl" >"$T_TMP/capture") &
writer=$!
t_run "devmemstat --load-netlink FIFO with a writer is read" 0 \
	timeout 20 "$SOCBOX" devmemstat -J --load-netlink "$T_TMP/capture"
# a socbox that never opened the FIFO leaves the writer blocked in open(): end it
kill "$writer" 2>/dev/null
wait
t_jq "--load-netlink FIFO: the capture's devices" '.devices | length > 0' "$T_TMP/out"
t_done
