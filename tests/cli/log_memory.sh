#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The kernel-log readers stream (issue 39): their peak memory does not grow with the log.
# qemu-virt-arm64's snapshot with a log of nothing but events, at 1x and 4x as many: its
# own SMMUv3 fault dump (raw dwords, decoded line, qualifier) and records composed from
# the kernel's format strings as in events.sh (remoteproc crash, recovery and up, rpmsg
# channels, a CMA failure), repeated with new sequence numbers and times. Each view's peak
# RSS (wait4's ru_maxrss, through bench/scale/floor.c's runner: a child of this shell or of
# Python would count their pages too) may grow by less than 2 MiB when the log grows by
# 4 MiB and 36,000 events; holding the events (about 560 bytes each) or the log grew it by
# 10 MiB or more.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
TOP=$(cd "$(dirname "$0")/../.." && pwd -P)

t_need "${CC:-cc}" gcc || t_done
"${CC:-cc}" -O2 -o "$T_TMP/runner" "$TOP/bench/scale/floor.c" 2>"$T_TMP/cc.err" ||
	t_fail "build bench/scale/floor.c: $(cat "$T_TMP/cc.err")"

# the records repeated: the fixture's fault dump (from its header on) and these
sed -n '/: event 0x10 received:$/,$p' "$F/qemu-virt-arm64/dev/kmsg" >"$T_TMP/round"
cat >>"$T_TMP/round" <<'LOG'
3,0,0,-;remoteproc remoteproc0: crash detected in 5000000.m4fss: type watchdog
3,0,0,-;remoteproc remoteproc0: handling crash #1 in 5000000.m4fss
3,0,0,-;remoteproc remoteproc0: recovering 5000000.m4fss
6,0,0,-;remoteproc remoteproc0: remote processor 5000000.m4fss is now up
6,0,0,-;rpmsg_ns virtio0.rpmsg_ns.53.53: creating channel ti.ipc4.ping-pong addr 0xd
6,0,0,-;rpmsg_ns virtio0.rpmsg_ns.53.53: destroying channel ti.ipc4.ping-pong addr 0xd
3,0,0,-;__cma_alloc_frozen: linux,cma: alloc failed, req-size: 2025 pages, ret: -12
LOG
board() { # DIR ROUNDS
	cp -a "$F/qemu-virt-arm64" "$1"
	awk -F, -v rounds="$2" '
		BEGIN { n = 0 }
		FNR == NR { # a record "PRI,SEQ,USEC,FLAGS;TEXT" or its dictionary line
			pri[n] = /^[0-9]/ ? $1 : ""
			text[n++] = /^[0-9]/ ? substr($0, index($0, ";")) : $0
			next
		}
		{ print; if (/^[0-9]/) { seq = $2 + 1; usec = $3 } }
		END {
			for (r = 0; r < rounds; r++)
				for (i = 0; i < n; i++)
					if (pri[i] == "") print text[i]
					else { usec += 7; print pri[i] "," seq++ "," usec ",-" text[i] }
		}' "$T_TMP/round" "$F/qemu-virt-arm64/dev/kmsg" >"$1/dev/kmsg"
}
board "$T_TMP/small" 1500
board "$T_TMP/large" 6000

t_run "events over the large log" 0 "$SOCBOX" events --sysroot "$T_TMP/large"
t_eq "every event of it" "$(wc -l <"$T_TMP/out")" $((6000 * 8 + 1))
t_eq "in log order" "$(sed -n '2,9p' "$T_TMP/out" | awk '{print $4}' | tr '\n' ' ')" \
	"fault crash crash-handled recovery up channel-add channel-remove alloc-failed "

# An older kernel (6.1: arm_smmu_evtq_thread(), dev_info) logs the raw dump alone: the
# record waits for a decoded line that never comes while the events after it are held,
# but never more than a bounded number of them; it still goes at its own time.
cp -a "$F/qemu-virt-arm64" "$T_TMP/raw"
sed -n '/: event 0x10 received:$/,/: event: F_TRANSLATION/p' "$F/qemu-virt-arm64/dev/kmsg" |
	sed '$d' | sed 's/^3,/6,/' >"$T_TMP/rawdump"
awk -F, '
	BEGIN { n = 0 }
	FNR == NR {
		pri[n] = /^[0-9]/ ? $1 : ""
		text[n++] = /^[0-9]/ ? substr($0, index($0, ";")) : $0
		next
	}
	{ print; if (/^[0-9]/) { seq = $2 + 1; usec = $3 } }
	END {
		for (i = 0; i < n; i++)
			if (pri[i] == "") print text[i]
			else print pri[i] "," seq++ "," usec + 500 + i ",-" text[i]
		for (i = 0; i < 3000; i++)
			print "6," seq++ "," usec + 1000 + i ",-;remoteproc remoteproc0: recovering 5000000.m4fss"
	}' "$T_TMP/rawdump" "$F/qemu-virt-arm64/dev/kmsg" >"$T_TMP/raw/dev/kmsg"
t_run "events: a raw dump, then 3000 events" 0 "$SOCBOX" events --sysroot "$T_TMP/raw"
t_eq "each once" "$(wc -l <"$T_TMP/out")" 3002
t_eq "the raw dump's fault at its time" "$(sed -n 2p "$T_TMP/out" | awk '{print $3 "/" $4}')" \
	"iommu/fault"

# each view over both logs: the runner prints "CPU_S PEAK_KIB EXIT"
for view in "events" "events -J" "events --format openmetrics" "smmustat overview" \
	"smmustat check --no-faults"; do
	# shellcheck disable=SC2086 # the view's words
	set -- $view
	small=$("$T_TMP/runner" --run "$SOCBOX" "$@" --sysroot "$T_TMP/small")
	large=$("$T_TMP/runner" --run "$SOCBOX" "$@" --sysroot "$T_TMP/large")
	want=0
	[ "$1" = smmustat ] && [ "$2" = check ] && want=1 # the faults fail the check
	# shellcheck disable=SC2086 # three numbers each
	set -- $small $large
	if [ "$3" -ne "$want" ] || [ "$6" -ne "$want" ]; then
		t_fail "$view: exit $3 and $6, wanted $want"
	elif [ $(($5 - $2)) -lt 2048 ]; then
		t_ok "$view: peak $2 -> $5 KiB for 4 times the log"
	else
		t_fail "$view: peak $2 -> $5 KiB for 4 times the log: it grows with the log"
	fi
done
t_done
