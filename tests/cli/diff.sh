#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# socbox diff: fixture boards against themselves, against their broken cases
# (tests/fixtures/causes), tarballs, --ignore, JSON and the exit codes.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
C=$F/causes
export TMPDIR="$T_TMP/tmp"
mkdir -p "$TMPDIR"

for board in am62x am62x-dmabuf arm64-server-smmuv3 arm64-soc imx8mp qemu-virt-arm64 \
	stm32mp157-dk2 x86-vtd x86-vtd-server; do
	t_run "$board against itself" 0 "$SOCBOX" diff "$F/$board" "$F/$board"
	t_eq "$board against itself: no output" "$(wc -c <"$T_TMP/out")" 0
done

"$C/compose" "$C/am62x-k3-crash" "$T_TMP/crash"
"$C/compose" "$C/am62x-firmware-missing" "$T_TMP/fwmissing"

# The M4F crashed and TI's driver left it "running": doctor's cause and running count, the
# state every view shows (crashed: lib/rpmsg reads the driver's crash line), the crash count
# and the recovery attribute say it.
t_run "am62x: a crashed M4F differs" 1 "$SOCBOX" diff "$F/am62x" "$T_TMP/crash"
cat >"$T_TMP/want" <<EOF
--- $F/am62x
+++ $T_TMP/crash
doctor:
  ~ subsystem:rpmsg status: ok -> degraded
  ~ subsystem:rpmsg remoteprocs_running: 2 -> 1
  + cause:rpmsg.crashed:remoteproc0  diagnosis=remoteproc0 (5000000.m4fss) crashed; its driver does not recover it (state still says running)
rpmsg:
  ~ remoteproc:remoteproc0 state: running -> crashed
  ~ remoteproc:remoteproc0 recovery: enabled -> disabled
  ~ remoteproc:remoteproc0 crashes: (none) -> 1
EOF
if diff -u "$T_TMP/want" "$T_TMP/out" >"$T_TMP/d"; then t_ok "am62x crash: exact lines"
else t_fail "am62x crash: $(cat "$T_TMP/d")"; fi
t_nogrep "am62x piped: no value cut" '\.\.\.|…' "$T_TMP/out"
# on an 80-column terminal the same lines fit, broken at spaces, nothing cut
if command -v script >/dev/null 2>&1; then
	script -qec "COLUMNS=80 '$SOCBOX' diff '$F/am62x' '$T_TMP/crash'" /dev/null </dev/null | tr -d '\r' >"$T_TMP/tty"
	t_run "am62x on a terminal: every line fits 80 columns" 0 awk 'length > 80 { exit 1 }' "$T_TMP/tty"
	t_nogrep "... no value cut" '\.\.\.|…' "$T_TMP/tty"
	t_eq "... the whole diagnosis, its words in order" \
		"$(sed -n '/cause:rpmsg.crashed/,/^rpmsg:/p' "$T_TMP/tty" | sed '1d;$d' | tr -s ' \n' '  ' | sed 's/^ //;s/ $//')" \
		"diagnosis=remoteproc0 (5000000.m4fss) crashed; its driver does not recover it (state still says running)"
else
	t_fail "script is missing: install Debian's bsdutils"
fi

# Its firmware missing: the core stays offline, its channels and devices never appear.
t_run "am62x: missing firmware differs" 1 "$SOCBOX" diff "$F/am62x" "$T_TMP/fwmissing"
cp "$T_TMP/out" "$T_TMP/fw.txt"
t_grep "fw: state" '^  ~ remoteproc:remoteproc0 state: running -> offline$' "$T_TMP/fw.txt"
t_grep "fw: the cause" '^  \+ cause:rpmsg\.firmware-missing:remoteproc0  diagnosis=' "$T_TMP/fw.txt"
t_grep "fw: status" '^  ~ subsystem:rpmsg status: ok -> failed$' "$T_TMP/fw.txt"
t_grep "fw: channels fact" '^  ~ subsystem:rpmsg channels: 5 -> 2$' "$T_TMP/fw.txt"
t_grep "fw: a channel gone" '^  - channel:virtio0\.ti\.ipc4\.ping-pong\.-1\.13  name=ti\.ipc4\.ping-pong src=-1 dst=13 announce=no driver=- remoteproc=remoteproc0$' "$T_TMP/fw.txt"
t_grep "fw: a ctrl device gone" '^  - ctrl:rpmsg_ctrl0  channel=virtio0\.rpmsg_ctrl\.0\.0 remoteproc=remoteproc0$' "$T_TMP/fw.txt"
t_grep "fw: an endpoint gone" '^  - endpoint:rpmsg1  name=socbox src=1025 dst=14 parent=rpmsg_ctrl0 remoteproc=remoteproc0$' "$T_TMP/fw.txt"
t_eq "fw: 17 lines" "$(wc -l <"$T_TMP/fw.txt")" 17

# The other direction swaps + and -.
t_run "am62x: reversed" 1 "$SOCBOX" diff "$T_TMP/fwmissing" "$F/am62x"
t_grep "reversed: channel added" '^  \+ channel:virtio0\.ti\.ipc4\.ping-pong\.-1\.13 ' "$T_TMP/out"
t_grep "reversed: state" '^  ~ remoteproc:remoteproc0 state: offline -> running$' "$T_TMP/out"

# --ignore: globs on SUBSYSTEM/OBJECT/ATTRIBUTE; '*' crosses '/'.
t_run "ignore all of it" 0 "$SOCBOX" diff -I 'doctor/*' -I 'rpmsg/*' "$F/am62x" "$T_TMP/crash"
t_eq "ignore: the count is said" "$(cat "$T_TMP/out")" "(6 differences ignored by --ignore)"
t_run "ignore one attribute" 1 "$SOCBOX" diff --ignore '*/recovery' "$F/am62x" "$T_TMP/crash"
t_nogrep "ignore: recovery left out" 'recovery' "$T_TMP/out"
t_grep "ignore: the rest stays" '^  ~ subsystem:rpmsg status: ok -> degraded$' "$T_TMP/out"
t_run "ignore a whole object" 1 "$SOCBOX" diff -I 'rpmsg/channel:*' -I 'rpmsg/ctrl:*' \
	-I 'rpmsg/endpoint:*' "$F/am62x" "$T_TMP/fwmissing"
t_nogrep "ignore: no channel" '^  [-+] (channel|ctrl|endpoint):' "$T_TMP/out"
t_grep "ignore: state still differs" 'remoteproc:remoteproc0 state: running -> offline' "$T_TMP/out"
t_run "-q: the exit code alone" 1 "$SOCBOX" diff -q "$F/am62x" "$T_TMP/crash"
t_eq "-q: nothing printed" "$(wc -c <"$T_TMP/out")" 0

# Tarballs as socbox snapshot writes them (tar -C DIR -cf OUT .), unpacked and removed.
tar -C "$T_TMP/crash" -cf "$T_TMP/crash.tar" .
tar -C "$F/am62x" -cf "$T_TMP/am62x.tar" .
t_run "tarball against its directory" 0 "$SOCBOX" diff "$T_TMP/crash.tar" "$T_TMP/crash"
t_run "tarball against tarball" 1 "$SOCBOX" diff "$T_TMP/am62x.tar" "$T_TMP/crash.tar"
t_grep "tarballs: the recovery change" '^  ~ remoteproc:remoteproc0 recovery: enabled -> disabled$' "$T_TMP/out"
t_eq "tarballs: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""

# netdev: the devmem NIC with a good capture against the one with a leaked binding.
"$C/compose" "$C/devmem-nic-leaked-binding" "$T_TMP/leaked"
cp -a "$T_TMP/leaked" "$T_TMP/nicgood"
cp "$F/netlink/devmem-nic.nl" "$T_TMP/nicgood/sys/kernel/socbox/netdev.nlmsg"
t_run "devmem NIC: a binding leaked" 1 "$SOCBOX" diff "$T_TMP/nicgood" "$T_TMP/leaked"
t_grep "netdev: the detached pool's binding" '^  ~ pool:-:0 devmem: no -> yes$' "$T_TMP/out"
t_grep "netdev: doctor's cause" '^  \+ cause:netdev\.binding-leaked:binding 1  ' "$T_TMP/out"
t_run "devmem NIC: netdev ignored" 1 "$SOCBOX" diff -I 'netdev/*' "$T_TMP/nicgood" "$T_TMP/leaked"
t_nogrep "netdev ignored: no pool" 'pool:' "$T_TMP/out"

# JSON, read back by a real parser.
t_run "fw: -J" 1 "$SOCBOX" diff -J -I '*/remoteprocs_running' "$F/am62x" "$T_TMP/fwmissing"
cp "$T_TMP/out" "$T_TMP/fw.json"
t_json "fw: -J" "$T_TMP/fw.json"
t_need python3 python3 && cat >"$T_TMP/check.py" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["equal"] is False, d["equal"]
assert d["ignored_count"] == 1, d["ignored_count"]
diffs = d["differences"]
def one(**kw):
    hits = [x for x in diffs if all(x[k] == v for k, v in kw.items())]
    assert len(hits) == 1, (kw, hits)
    return hits[0]
one(subsystem="rpmsg", change="changed", object="remoteproc:remoteproc0", attribute="state",
    old="running", new="offline", ignored=False)
one(subsystem="doctor", object="subsystem:rpmsg", attribute="remoteprocs_running", ignored=True)
gone = one(subsystem="rpmsg", change="removed", object="endpoint:rpmsg1")
assert gone["attribute"] is None and gone["new"] is None, gone
assert gone["old"] == "name=socbox src=1025 dst=14 parent=rpmsg_ctrl0 remoteproc=remoteproc0", gone
assert sorted({x["change"] for x in diffs}) == ["added", "changed", "removed"]
assert len(diffs) == 13, len(diffs)
print("ok")
EOF
t_eq "fw: JSON records" "$(python3 "$T_TMP/check.py" "$T_TMP/fw.json" 2>&1)" ok
t_run "equal: -J" 0 "$SOCBOX" diff -J "$F/x86-vtd" "$F/x86-vtd"
t_eq "equal: JSON" "$(python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(d["equal"], d["differences"])' "$T_TMP/out")" "True []"

# Usage and unreadable operands.
t_run "no operand" 2 "$SOCBOX" diff
t_run "three operands" 2 "$SOCBOX" diff "$F/am62x" "$F/am62x" "$F/am62x"
t_run "--sysroot does not apply" 2 "$SOCBOX" diff --sysroot "$F/am62x" "$F/am62x" "$F/am62x"
t_run "metrics format refused" 2 "$SOCBOX" diff --format prometheus "$F/am62x" "$F/am62x"
t_run "missing snapshot" 1 "$SOCBOX" diff "$T_TMP/nothing" "$F/am62x"
t_grep "missing: one error line" "^socbox: $T_TMP/nothing: open snapshot: No such file or directory" "$T_TMP/err"
mkdir "$T_TMP/empty"
t_run "not a snapshot" 1 "$SOCBOX" diff "$T_TMP/empty" "$F/am62x"
t_grep "not a snapshot: said" 'no sys/ or proc/ in it' "$T_TMP/err"
echo garbage >"$T_TMP/bad.tar"
t_run "not a tarball" 1 "$SOCBOX" diff "$T_TMP/bad.tar" "$F/am62x"
t_grep "not a tarball: said" 'bad\.tar: unpack snapshot' "$T_TMP/err"
t_eq "not a tarball: nothing left in TMPDIR" "$(ls -A "$TMPDIR")" ""

# bash completion: the command, its options (every long option --help lists), columns from
# its own -H, subsystems for --ignore; bash-completion's helpers replaced by stand-ins.
mkdir -p "$T_TMP/bin" && ln -s "$SOCBOX" "$T_TMP/bin/socbox"
complete_words() { # WORDS...: print the candidates for the last word
	PATH="$T_TMP/bin:$PATH" bash -c '
		_init_completion() { words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD; cur=${words[cword]}; prev=${words[cword-1]}; }
		_filedir() { COMPREPLY=(FILES); }
		compopt() { :; }
		. "$0"
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		_socbox
		printf "%s\n" "${COMPREPLY[@]}"' "$(dirname "$SOCBOX_TESTLIB")/../completions/bash/socbox" "$@"
}
t_eq "completion: the command" "$(complete_words socbox di)" diff
t_eq "completion: operands are files" "$(complete_words socbox diff '')" FILES
t_eq "completion: -I subsystems" "$(complete_words socbox diff -I '' | tr '\n' ' ')" "doctor/ rpmsg/ dmabuf/ iommu/ netdev/ "
t_eq "completion: -o columns" "$(complete_words socbox diff -o '' | tr '\n' ' ')" "SUBSYSTEM CHANGE OBJECT ATTRIBUTE OLD NEW IGNORED "
"$SOCBOX" diff --help | grep -oE -- '--[a-z-]+' | grep -v -- '--sysroot' | sort -u >"$T_TMP/help-opts"
complete_words socbox diff - | sort -u >"$T_TMP/comp-opts"
t_eq "completion: every option of --help" "$(comm -23 "$T_TMP/help-opts" "$T_TMP/comp-opts" | tr '\n' ' ')" ""
t_done
