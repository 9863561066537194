#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# The kernel says no: every command that creates or holds a kernel object runs with its Nth
# fault point failed (/proc/thread-self/fail-nth through libsocbox-failnth.so: slab and page
# allocations of its main thread, counted from main's libraries being loaded), for N = 1,
# 2, 3, ... until a run in which nothing was left to fail succeeds. At every step:
#   - exit 0 (the failure was absorbed: the result is then checked as usual), or exit 1, 3
#     or 4 with one stderr line that starts with the applet's name; never a hang, a signal
#     or another code;
#   - nothing left behind, checked from the kernel's side: endpoint devices, dma-bufs
#     (debugfs bufinfo), channels, the remote processor's state, the copy's destination
#     (absent or whole) and its temporaries;
# and per command: no WARN, BUG or refcount splat in the kernel log; at the end kmemleak
# finds nothing new. Needs kmemleak=on on the kernel command line (vm/test-faults).
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
D=$DATA/faults # the copies' files: ext4, so O_DIRECT is real
W=/tmp/faults  # the walk's own files
rm -rf "$D" $W
mkdir -p "$D" $W
DBG=/sys/kernel/debug
LIB=/usr/bin/libsocbox-failnth.so
BIG=1000000000 # larger than any command's count of fault points
# Every fault point up to WALK_FULL (400), then WALK_SPACED (100) more spread over the rest,
# then every point the spacing skipped just before the end (the command's teardown: a
# binding's unbind, a device's release): the long walks are a loop's points again and again
# (rproc cycle's waits for its devices) or runs that take a second each (dma_map_benchmark's
# shortest). Walks whose points are mostly one loop again take fewer (their own WALK_FULL
# and WALK_SPACED below), to keep this boot within CI's hour. A boot with
# socbox.faults_full on its command line walks every point of every command.
ALL=0
grep -qw socbox.faults_full /proc/cmdline && ALL=1
# a command's own check failing: ping's lost echoes (the kernel dropped one it could not
# queue), bench's and cycle's verdicts
REPORTED='^(LOST|CORRUPT|LATE)="[1-9]|lost [1-9]'
SPLAT='WARNING:|BUG:|refcount_t:|Oops|list_(add|del) corruption|kmemleak: [0-9]+ new'
# WARNs the kernel gives on its own teardown when an allocation there fails, which no caller
# can avoid: listed as the kernel's findings, not failed. __iommu_release_dma_ownership:
# re-attaching the default domain when VFIO's close releases the device (intel-iommu
# allocates for it), WARN_ON(-ENOMEM) in drivers/iommu/iommu.c. __netif_mp_close_rxq: the
# queue restart when a devmem binding is unbound (the socket's close) fails, WARN_ON(err)
# in net/core/netdev_rx_queue.c, and the queue keeps the binding's pool until it restarts.
KNOWN='WARNING: .* at (__iommu_release_dma_ownership|__netif_mp_close_rxq)\+'

ok "kmemleak is on (kmemleak=on)" test -w $DBG/kmemleak
ok "fail-nth exists (CONFIG_FAULT_INJECTION)" test -w /proc/self/fail-nth
# fail-nth counts only the calls these filters let through: sleeping allocations and
# single pages are what the commands make, so let every one count; no stack dumps
for a in failslab fail_page_alloc; do
	echo N >$DBG/$a/ignore-gfp-wait
	echo 0 >$DBG/$a/verbose
done
echo N >$DBG/fail_page_alloc/ignore-gfp-highmem
echo 0 >$DBG/fail_page_alloc/min-order
# Not inside ACPICA (the AML interpreter): a failed allocation there, while VFIO's close
# disables the PCI device and evaluates _PRT, oopses in acpi_ut_update_object_reference
# (upstream, found by this test; see tests/vm/README.md). Its functions are linked
# together: from the first of its prefixes to the first symbol that is not acpi_ (nor the
# inlined copies of _kzalloc_noprof among them).
range=$(awk '$2 ~ /^[tT]$/' /proc/kallsyms | sort | awk '
	start == "" && $3 ~ /^acpi_(ds|ex|ps|ut|ns|rs|tb|ev|hw)_/ { start = $1 }
	start != "" && $3 !~ /^(acpi_|_kzalloc_noprof)/ { print start, $1, n; exit }
	start != "" { n++ }')
first=${range%% *}
end=${range#* }
end=${end%% *}
like "$first-$end" '^[0-9a-f]{16}-[0-9a-f]{16}$' "ACPICA's text range from /proc/kallsyms"
diag "ACPICA at $first-$end: ${range##* } functions"
for a in failslab fail_page_alloc; do
	echo "0x$first" >$DBG/$a/reject-start
	echo "0x$end" >$DBG/$a/reject-end
done
# what was unreferenced before this test is not this test's
echo scan >$DBG/kmemleak
echo clear >$DBG/kmemleak

# The walk runs hundreds of steps per command under TCG: the bookkeeping between two runs
# uses the shell's builtins only, so that a step costs one fork and exec, the command's.
dmabufs() { # the dma-bufs the kernel has (debugfs bufinfo's "Total N objects, ...")
	while read -r w1 w2 w3 _; do
		[ "$w1" = Total ] && [ "${w3%,}" = objects ] && echo "$w2"
	done <$DBG/dma_buf/bufinfo
}
splats() { dmesg | grep -E "$SPLAT" | grep -cvE "$KNOWN"; }
known() { dmesg | grep -cE "$KNOWN"; }
uptime_cs() {
	read -r up _ </proc/uptime
	echo $((${up%.*} * 100 + 1${up#*.} - 100))
}

# armed N CMD...: CMD with its Nth fault point failed; $W/left gets the points still to
# come at its exit (0: injected; empty: it died without exiting); a hang ends after 20 s
# (libsocbox-failnth.so's alarm)
armed() {
	nth=$1
	shift
	: >$W/left
	printf '%16384s' '' 1<>$W/out
	printf '%16384s' '' 1<>$W/err
	SOCBOX_FAIL_NTH=$nth SOCBOX_FAIL_NTH_OUT=$W/left LD_PRELOAD=$LIB "$@" 1<>$W/out 2<>$W/err
}
# Standard output and error are files whose pages the kernel already has (16 KiB of spaces,
# overwritten in place, never truncated), so that writing a message is not itself a fault
# point: a message lost there would be the test's doing, not the command's.

# fault_step N CMD...: one step of fault_walk (its variables): CMD with its Nth point
# failed, judged and checked; returns 0 when that was the end (nothing left to fail and it
# succeeded), 1 otherwise
fault_step() {
	step=$1
	shift
	runs=$((runs + 1))
	t0=$(uptime_cs)
	armed "$step" "$@"
	rc=$?
	t=$(($(uptime_cs) - t0))
	nleft=
	read -r nleft <$W/left
	l1='' l2=''
	{
		read -r l1
		read -r l2
	} <$W/err
	[ $t -lt 300 ] || diag "$name: step $step took $((t / 100)).$((t % 100 / 10)) s (exit $rc): $l1"
	# the end: nothing was left to fail and it succeeded (checked like every step)
	if [ "$rc" = "$want" ] && [ -n "$nleft" ] && [ "$nleft" != 0 ]; then
		"$check" "$rc" >$W/check 2>&1 || {
			left=$((left + 1))
			diag "$name: the last run: $(cat $W/check)"
		}
		return 0
	fi
	case $rc:$l1 in
	0:*) absorbed=$((absorbed + 1)) ;;
	[134]:"$applet: "* | [134]:"$applet "[a-z]*": "*)
		if [ -z "$l2" ]; then
			failed=$((failed + 1))
			echo "$l1" >>$W/errors
		else
			bad=$((bad + 1))
			diag "$name: step $step: exit $rc, more than one line: $l1 | $l2"
		fi
		;;
	1:)
		# a check that failed says so on standard output, as ping(8) does
		if grep -Eq "$REPORTED" $W/out; then
			reported=$((reported + 1))
		else
			bad=$((bad + 1))
			diag "$name: step $step: exit 1, nothing on stderr; stdout: $(head -n 4 $W/out | tr -s ' ' | tr '\n' '|')"
		fi
		;;
	*)
		bad=$((bad + 1))
		diag "$name: step $step: exit $rc: $l1 | $l2"
		;;
	esac
	if ! "$check" "$rc" >$W/check 2>&1; then
		left=$((left + 1))
		diag "$name: step $step (exit $rc: $l1): $(cat $W/check)"
	fi
	return 1
}

# [WANT=RC] fault_walk NAME CHECK CMD...: the walk described above; WANT is how the command
# ends when nothing fails (0 unless the kernel refuses it anyway). CHECK RC is called after every
# step (and once before, with RC 0 for an unarmed run) and returns non-zero, saying why, when
# the kernel holds something the step should not have left, or a success's result is wrong;
# it puts things back for the next step.
fault_walk() {
	name=$1 check=$2
	shift 2
	applet=${1##*/}
	armed $BIG "$@"
	rc=$?
	read -r nleft <$W/left
	points=$((BIG - nleft))
	want=${WANT:-0}
	is "$rc" "$want" "$name: exits $want when nothing fails ($points fault points)"
	[ "$rc" = "$want" ] || diag "$name: $(head -n 2 $W/err | tr -s ' ')"
	"$check" 0 >$W/check 2>&1 || diag "$name: unarmed run: $(cat $W/check)"
	s0=$(splats) k0=$(known)
	w0=$(uptime_cs)
	step=0 runs=0 failed=0 absorbed=0 reported=0 bad=0 left=0
	: >$W/errors
	: >$W/kernel
	full=${WALK_FULL:-400} spaced=${WALK_SPACED:-100}
	[ "$ALL" = 1 ] && full=1000000000
	stride=1
	while [ "$step" -lt $((2 * points + 200)) ]; do
		# past FULL steps, SPACED points spread over the rest (the points of a loop repeat)
		[ "$step" -ge "$full" ] && [ "$stride" = 1 ] && stride=$(((points - full) / spaced + 1))
		fault_step $((step + stride)) "$@" && break
	done
	# The points the stride skipped just before the end are the command's teardown (a
	# binding's unbind, a device's release at close): every one of them is visited.
	if [ "$stride" != 1 ] && [ "$rc" = "$want" ] && [ -n "$nleft" ] && [ "$nleft" != 0 ]; then
		end=$step end_rc=$rc end_nleft=$nleft
		for n in $(seq $((end - stride + 1)) $((end - 1))); do
			fault_step "$n" "$@" && break
		done
		step=$end rc=$end_rc nleft=$end_nleft
	fi
	w=$(($(uptime_cs) - w0))
	[ "$stride" = 1 ] || diag "$name: every point up to $full, then every ${stride}th, and every one of the last $((stride - 1)) before the end"
	diag "$name: $runs runs (fail-nth up to $step) in $((w / 100)) s: $failed failed with one line, $reported failed a check (stdout), $absorbed absorbed, $bad wrong"
	# the distinct messages, numbers left out
	sed 's/[0-9][0-9]*/N/g' $W/errors | sort | uniq -c | sort -rn | head -n 8 |
		while read -r line; do diag "  $line"; done
	if [ -s $W/kernel ]; then
		diag "$name: what the kernel did that the command could only report:"
		sort $W/kernel | uniq -c | while read -r line; do diag "  $line"; done
	fi
	if [ "$rc" != "$want" ] || [ "$nleft" = 0 ]; then
		# a loop whose length is time's (a wait that polls) can outgrow any bound when a
		# failure makes it wait longer: then one more run in which nothing fails
		diag "$name: fail-nth $step still failed something; one run more without failures"
		armed $BIG "$@"
		rc=$?
		[ "$rc" = "$want" ] || diag "$name: $(head -n 2 $W/err | tr -s ' ')"
	fi
	is "$rc" "$want" "$name: after the walk it succeeds again"
	is "$bad" 0 "$name: every failed step exits 1, 3 or 4 with one line"
	is "$left" 0 "$name: nothing left behind at any step"
	s1=$(splats) k1=$(known)
	[ "$k1" = "$k0" ] || diag "$name: the kernel's own: $((k1 - k0)) x $(dmesg | grep -oE "$KNOWN" | head -n1)"
	[ "$s1" = "$s0" ] || dmesg | grep -E -A 12 "$SPLAT" | tail -n 40 | sed 's/^/# /'
	is "$s1" "$s0" "$name: no WARN, BUG or refcount splat in the kernel log"
}

# --- rpmsg: the loopback (rpmsg_ctrl0, echoes at 1024) ---
R=rpmsgctl
# shellcheck disable=SC2317 # the checks are called through fault_walk
no_endpoint() {
	n=$(endpoint_devices)
	[ "$n" = 0 ] || { echo "$n endpoint devices left"; ls /sys/class/rpmsg; }
}
# shellcheck disable=SC2317
created_one() { # ept create: one endpoint on success (destroyed here), none on failure
	expect=0
	[ "$1" = 0 ] && expect=1
	got=$(endpoint_devices)
	for e in /sys/class/rpmsg/rpmsg[0-9]*; do
		[ "$1" = 0 ] && [ -e "$e" ] && $R ept destroy "${e##*/}" >/dev/null 2>&1
	done
	[ "$got" = "$expect" ] || echo "$got endpoint devices after exit $1"
	[ "$got" = "$expect" ]
}
fault_walk "ept create (legacy)" created_one $R ept create probe --method legacy
fault_walk "send (legacy)" no_endpoint $R send --method legacy --dst 1024 hello
fault_walk "send (fd)" no_endpoint $R send --method fd --dst 1024 hello
# recv on an endpoint of the test's with one message waiting (the loopback's echo of one
# sent): held open on fd 3, since an endpoint device drops its queue when nobody has it
# open; the temporary endpoint recv can make is send's and ping's path
held=$($R ept create faults-recv --method legacy --dst 1024 -r -n -o DEVICE)
like "$held" '^rpmsg[0-9]+$' "an endpoint for recv"
exec 3<>"/dev/$held"
# shellcheck disable=SC2317
one_waiting() { # a success printed the message; the queue emptied and one put in again
	if [ "$1" = 0 ] && ! grep -qx hello $W/out; then
		echo "exit 0 without the message"
		return 1
	fi
	$R recv --fd 3 -t 1ms >/dev/null 2>&1
	$R send --fd 3 hello
}
one_waiting 1
fault_walk "recv" one_waiting $R recv --fd 3 -c 1 --timeout 2s
exec 3>&-
$R ept destroy "$held"
is "$(endpoint_devices)" 0 "recv's endpoint destroyed"
fault_walk "ping (legacy)" no_endpoint $R ping --method legacy --dst 1024 -c 2 -P
fault_walk "ping (fd)" no_endpoint $R ping --method fd --dst 1024 -c 2 -P
fault_walk "bench" no_endpoint $R bench --loops 2

# --- rpmsg: the test remote processor (virtio rpmsg, a channel device can be created) ---
rp=$(test_remote)
like "$rp" '^remoteproc[0-9]+$' "the test remote processor is there"
state_is running || $R rproc start "$rp" >/dev/null
ok "it runs" wait_for state_is running
ok "its rpmsg-raw channel is up" wait_for has_channel
ctrl=$(rproc_ctrl)
# shellcheck disable=SC2317
channels() { ls /sys/bus/rpmsg/devices | grep -c 'socbox-new'; }
# shellcheck disable=SC2317
dev_created() { # one channel on success (released here), none on failure
	expect=0
	[ "$1" = 0 ] && expect=1
	got=$(channels)
	[ "$1" = 0 ] && $R dev release socbox-new --ctrl "$ctrl" --dst 0x500
	[ "$got" = "$expect" ] || echo "$got socbox-new channels after exit $1"
	[ "$got" = "$expect" ] && [ "$(channels)" = 0 ]
}
fault_walk "dev create" dev_created $R dev create socbox-new --ctrl "$ctrl" --dst 0x500
# shellcheck disable=SC2317
remote_whole() { has_channel && rproc_ctrl >/dev/null; }
# shellcheck disable=SC2317
remote_back() { # a failed cycle may leave it stopped: it must start again, and nothing else
	if ! state_is running; then
		$R rproc start "$rp" >/dev/null 2>&1
		wait_for state_is running || { echo "$rp: $(cat /sys/class/remoteproc/"$rp"/state) and will not start"; return 1; }
	fi
	# A probe that fails inside the start (the rproc-virtio device's, rpmsg_ctrl's) does
	# not fail the start: the kernel's, not the command's; rpmsgctl said what did not come
	# back. A stop and a start bring the remote back whole.
	if ! wait_for remote_whole; then
		echo "$rp running without its rpmsg-raw channel or control device: $(dmesg | grep -E 'rproc-virtio|remoteproc|rpmsg' | tail -n 2 | tr '\n' '|')" >>"$W/kernel"
		$R rproc stop "$rp" >/dev/null 2>&1
		$R rproc start "$rp" >/dev/null 2>&1
		wait_for remote_whole || { echo "$rp: not whole after a stop and a start"; return 1; }
	fi
	no_endpoint
}
WALK_FULL=100 WALK_SPACED=60 fault_walk "rproc cycle" remote_back $R rproc cycle "$rp" -c 1 -t 5s --ping rpmsg-raw --ping-count 1

# --- dma-bufs: copies by every method, into the system heap and udmabuf ---
head -c 20000 /dev/urandom >"$D/src"
bufs0=$(dmabufs)
# shellcheck disable=SC2317
copy_whole() { # no dma-buf left; the destination absent or the source's bytes; no temporary
	b=$(dmabufs)
	[ "$b" = "$bufs0" ] || echo "$((b - bufs0)) dma-bufs left"
	if [ -e "$D/dst" ]; then
		# whole: also after a failure past the rename (the directory's sync), which says so
		cmp -s "$D/src" "$D/dst" || { echo "the destination is partial after exit $1"; return 1; }
		rm -f "$D/dst"
	elif [ "$1" = 0 ]; then
		echo "exit 0 without a destination"
		return 1
	fi
	t=$(ls -A "$D" | grep -c dmabufcp)
	[ "$t" = 0 ] || { echo "$t temporaries left: $(ls -A "$D")"; return 1; }
	[ "$b" = "$bufs0" ]
}
# the methods each kind of buffer takes (the others exit 3: dmabufcp_copy.sh, and
# copy-range is in no kernel: stock_unsupported.sh). read, every point; the other methods
# share its setup and teardown, so past their first 100 points (the copy loop's, again and
# again) 50 spread over the rest.
copy_walk() { # KIND METHOD BUFFER
	if [ "$2" = read ]; then
		fault_walk "dmabufcp $1 $2" copy_whole dmabufcp copy -m "$2" "$D/src" "$3" "$D/dst"
	else
		WALK_FULL=100 WALK_SPACED=50 fault_walk "dmabufcp $1 $2" copy_whole dmabufcp copy -m "$2" "$D/src" "$3" "$D/dst"
	fi
}
for m in read direct rw-file rw-file-direct; do copy_walk heap $m heap:system; done
for m in read direct sendfile splice; do copy_walk udmabuf $m udmabuf; done

# --- devmemstat bind ---
# shellcheck disable=SC2317
bufs_back() { [ "$(dmabufs)" = "$bufs0" ]; }
# shellcheck disable=SC2317
no_dmabuf() { # the udmabuf gone (the kernel lets go of a binding's from a work item)
	wait_for bufs_back || { echo "$(($(dmabufs) - bufs0)) dma-bufs left"; return 1; }
	devmemstat bindings -r -n >"$W/bindings" 2>&1 || { cat "$W/bindings"; return 1; }
	[ ! -s "$W/bindings" ] || { echo "bindings: $(cat "$W/bindings")"; return 1; }
}
# A real binding on a netdevsim queue (patch 0004). When the walk fails an allocation of
# the queue restart at unbind, the kernel WARNs (KNOWN above) and the queue keeps the
# binding's pool, with its dma-buf, until the queue restarts: the check restarts it (the
# link down and up, as a user would), says so, and then wants everything gone.
echo "21 1 1" >/sys/bus/netdevsim/new_device
ok "netdevsim21 for devmemstat bind" wait_for test -d /sys/bus/netdevsim/devices/netdevsim21/net
nsim=$(ls /sys/bus/netdevsim/devices/netdevsim21/net)
ip link set "$nsim" up
ok "header-data split on $nsim" socbox-ethtool-hds "$nsim" on
# shellcheck disable=SC2317
binding_gone() { # nothing of the binding left, and its queue free again
	no_dmabuf || return 1
	devmemstat queues --dev "$nsim" -r -n -o DMABUF >"$W/queues" 2>&1 || { cat "$W/queues"; return 1; }
	! grep -q '[0-9]' "$W/queues" || { echo "queue still bound: $(cat "$W/queues")"; return 1; }
}
unbind_warns=$(known)
# shellcheck disable=SC2317
no_binding() {
	k=$(known)
	if [ "$k" != "$unbind_warns" ]; then
		unbind_warns=$k
		echo "the queue restart at unbind failed (WARN in __netif_mp_close_rxq); link down/up freed the pool" >>"$W/kernel"
		ip link set "$nsim" down
		ip link set "$nsim" up
	fi
	binding_gone
}
WALK_FULL=200 WALK_SPACED=60 fault_walk "devmemstat bind" no_binding devmemstat bind --dev "$nsim" --queues 0 --size 1M --duration 0.01
echo 21 >/sys/bus/netdevsim/del_device
# virtio-net refuses the binding (exit 3, the kernel's message): the udmabuf made and gone
WANT=3 WALK_FULL=100 WALK_SPACED=60 fault_walk "devmemstat bind (refused)" no_dmabuf devmemstat bind --dev eth0 --queues 0 --size 1M --duration 1

# --- smmustat stress: iommufd + VFIO, and the kernel's dma_map_benchmark ---
edu=$(edu_device)
echo vfio-pci >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
echo 1 >/sys/module/iommufd/parameters/allow_unsafe_interrupts
# shellcheck disable=SC2317
device_free() { # the device is still vfio-pci's and nobody holds it open
	drv=$(basename "$(readlink "/sys/bus/pci/devices/$edu/driver")")
	[ "$drv" = "$1" ] || { echo "$edu is bound to $drv"; return 1; }
}
# shellcheck disable=SC2317
vfio_free() { device_free vfio-pci; }
fault_walk "smmustat stress (iommufd)" vfio_free smmustat stress --device "$edu" --duration 0.05 --cpus 0
echo "$edu" >/sys/bus/pci/drivers/vfio-pci/unbind
echo 0 >/sys/module/iommufd/parameters/allow_unsafe_interrupts
echo dma_map_benchmark >"/sys/bus/pci/devices/$edu/driver_override"
echo "$edu" >/sys/bus/pci/drivers_probe
# shellcheck disable=SC2317
bench_free() { device_free dma_map_benchmark; }
WALK_FULL=0 WALK_SPACED=60 fault_walk "smmustat stress (map-benchmark)" bench_free smmustat stress --method map-benchmark --duration 0.05 --cpus 0
echo "$edu" >/sys/bus/pci/drivers/dma_map_benchmark/unbind
echo >"/sys/bus/pci/devices/$edu/driver_override"

# --- kmemleak: objects unreferenced for 5 s and more are reported (its minimum age) ---
sleep 6
echo scan >$DBG/kmemleak
leaks=$(cat $DBG/kmemleak)
[ -z "$leaks" ] || printf '%s\n' "$leaks" | head -n 60 | sed 's/^/# /'
is "$(printf '%s' "$leaks" | grep -c '^unreferenced object')" 0 "kmemleak: nothing unreferenced after the walks"
done_testing
