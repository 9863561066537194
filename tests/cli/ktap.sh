#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# --format ktap read back by the kernel's own KTAP parser (tools/testing/kunit/kunit_parser.py
# of the pinned linux-source package, which tests/vm/kernel unpacks), and its results
# compared with the same command's JSON: doctor on board fixtures and cause cases,
# smmustat check with passing and failing predicates.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
t_need python3 python3 || t_done
KUNIT=${SOCBOX_KUNIT_DIR:-}
if [ -z "$KUNIT" ]; then
	for d in "${XDG_CACHE_HOME:-$HOME/.cache}"/socbox/src/linux-source-*/tools/testing/kunit; do
		[ -f "$d/kunit_parser.py" ] && KUNIT=$d
	done
fi
if [ -z "$KUNIT" ]; then
	echo "ok - # SKIP no linux-source tree with tools/testing/kunit (tests/vm/kernel test unpacks one)"
	exit 0
fi

# compare KIND KTAP JSON: parse KTAP with kunit_parser and check it against the JSON
compare() {
	python3 - "$KUNIT" "$@" <<'PY'
import json, sys
kunit, kind, ktap, js = sys.argv[1:5]
sys.path.insert(0, kunit)
import kunit_parser, kunit_printer
from kunit_parser import TestStatus

with open(ktap) as f:
    test = kunit_parser.parse_run_tests(f.read().splitlines(), kunit_printer.null_printer)
data = json.load(open(js)) if js != "/dev/null" else {}
bad = []
if test.counts.errors:
    bad.append(f"{test.counts.errors} parse errors: {test.log}")
S, F, K = TestStatus.SUCCESS, TestStatus.FAILURE, TestStatus.SKIPPED
got = {}
for t in test.subtests:
    if t.subtests:
        for s in t.subtests:
            got[(t.name, s.name)] = s.status
        want = F if any(s.status == F for s in t.subtests) else \
            K if all(s.status == K for s in t.subtests) else S
        if t.status != want:
            bad.append(f"suite {t.name}: {t.status}, its tests say {want}")
    else:
        got[(None, t.name)] = t.status
if kind == "doctor":
    failing = {c["code"] for c in data["causes"] if c["severity"] != "notice"}
    failed = {n for (s, n), st in got.items() if st == F and n != "status"}
    if failing != failed:
        bad.append(f"failed cause tests {sorted(failed)}, JSON causes {sorted(failing)}")
    for sub in data["subsystems"]:
        st = got.get((sub["subsystem"], "status"))
        want = S if sub["status"] == "ok" else K if sub["status"] in ("absent", "unknown") else F
        if st != want:
            bad.append(f"{sub['subsystem']} status {sub['status']}: test {st}")
    codes = [n for (s, n) in got if n != "status"]
    if len(codes) != len(set(codes)):
        bad.append("a cause test name is not unique")
elif kind.startswith("expect:"):
    # expect:NAME=STATUS,...: the statuses the parser must find
    want = {(None, kv.split("=")[0]): TestStatus[kv.split("=")[1]] for kv in kind[7:].split(",")}
    if got != want:
        bad.append(f"tests {got}, expected {want}")
elif kind == "check":
    want = {(None, c["check"]): S if c["result"] == "pass" else F for c in data["checks"]}
    if got != want:
        bad.append(f"tests {got}, JSON checks {want}")
print("\n".join(bad) or f"{len(got)} tests, as {'the JSON says' if data else 'expected'}")
sys.exit(1 if bad else 0)
PY
}

# ktap NAME KIND ARGS...: run socbox ARGS as KTAP and as JSON, and compare
ktap() {
	_n=$1 _k=$2
	shift 2
	"$SOCBOX" "$@" --format ktap >"$T_TMP/$_n.ktap" 2>/dev/null
	"$SOCBOX" "$@" -J >"$T_TMP/$_n.json" 2>/dev/null
	if compare "$_k" "$T_TMP/$_n.ktap" "$T_TMP/$_n.json" >"$T_TMP/$_n.cmp" 2>&1; then
		t_ok "$_n: kunit_parser reads it: $(cat "$T_TMP/$_n.cmp")"
	else
		t_fail "$_n: $(head -c 800 "$T_TMP/$_n.cmp")"
	fi
}

for b in am62x imx8mp stm32mp157-dk2 arm64-server-smmuv3 x86-vtd qemu-virt-arm64; do
	ktap "doctor-$b" doctor doctor --sysroot "$F/$b"
done
# cause cases: a found cause is a failed test of the same name on every board
for c in imx8mp-crash-loop am62x-firmware-missing arm64-soc-unmapped-master; do
	"$F/causes/compose" "$F/causes/$c" "$T_TMP/root/$c" 2>/dev/null || t_fail "$c: compose"
	ktap "cause-$c" doctor doctor --sysroot "$T_TMP/root/$c"
done
"$SOCBOX" doctor --sysroot "$T_TMP/root/imx8mp-crash-loop" --format ktap >"$T_TMP/crash.ktap"
t_grep "the crash loop is a failed test named by its code" '^    not ok [0-9]+ rpmsg\.crash-loop$' "$T_TMP/crash.ktap"
t_grep "... with its diagnosis as a # line before it" '^    # remoteproc' "$T_TMP/crash.ktap"
t_grep "a cause it cannot look for here is skipped, saying why" '^    ok [0-9]+ dmabuf\.udmabuf-limit # SKIP needs --buffer-size SIZE$' "$T_TMP/crash.ktap"
t_grep "kselftest's totals line" '^# Totals: pass:[0-9]+ fail:[1-9][0-9]* xfail:0 xpass:0 skip:[0-9]+ error:0$' "$T_TMP/crash.ktap"
t_run "doctor --require rpmsg --format ktap: exit 1 on the crash loop" 1 \
	"$SOCBOX" doctor --sysroot "$T_TMP/root/imx8mp-crash-loop" --require rpmsg --format ktap
t_grep "... its status test says it was required" '^    # required, ' "$T_TMP/out"

S=$F/arm64-server-smmuv3
ktap "check-pass" check smmustat check --sysroot "$S" --expect-instances 2 --require-feature ATS
ktap "check-fail" check smmustat check --sysroot "$S" --expect-instances 1 --no-faults
# dmabufcp copy: a test per step; a source that cannot be read fails to_buffer whatever
# this machine has (udmabuf or not), and the steps it did not reach are skipped
"$SOCBOX" dmabufcp copy "$T_TMP/nonexistent" udmabuf "$T_TMP/copy.out" --verify --format ktap \
	>"$T_TMP/copy.ktap" 2>"$T_TMP/copy.err"
t_eq "dmabufcp copy of a missing file: exit 1" "$?" 1
if compare "expect:allocate=SKIPPED,to_buffer=FAILURE,from_buffer=SKIPPED,verify=SKIPPED" \
	"$T_TMP/copy.ktap" /dev/null >"$T_TMP/copy.cmp" 2>&1; then
	t_ok "dmabufcp copy: kunit_parser reads the steps: $(cat "$T_TMP/copy.cmp")"
else
	t_fail "dmabufcp copy: $(head -c 800 "$T_TMP/copy.cmp")"
fi
t_run "DST - with ktap is a usage error, with no KTAP" 2 "$SOCBOX" dmabufcp copy /dev/null udmabuf - --format ktap
t_eq "... nothing on stdout" "$(cat "$T_TMP/out")" ""
t_run "doctor -H --format ktap" 0 "$SOCBOX" doctor -H --format ktap
t_grep "... lists the columns as a table (KTAP has no form for them)" '^SUBSYSTEM +string' "$T_TMP/out"
t_run "a view without checks refuses ktap" 2 "$SOCBOX" smmustat --sysroot "$S" --format ktap
t_grep "... saying which commands have them" 'runs no checks' "$T_TMP/err"
t_done
