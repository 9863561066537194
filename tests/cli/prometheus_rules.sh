#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The alerting rules of dist/prometheus: promtool checks them and runs their unit tests
# (tests/prometheus/socbox.rules.test.yml), and every metric and label they and their test
# series use is one `socbox metrics` exports on the fixture boards and broken cases, so a
# renamed metric fails here instead of leaving a rule that never fires.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
SRC=$(cd "$F/../.." && pwd -P)
RULES=$SRC/dist/prometheus/socbox.rules.yml
TESTS=$SRC/tests/prometheus/socbox.rules.test.yml

t_need promtool prometheus || t_done
t_need python3 python3 || t_done

if promtool check rules "$RULES" >"$T_TMP/check" 2>&1; then t_ok "promtool check rules"
else t_fail "promtool check rules: $(cat "$T_TMP/check")"; fi
if promtool test rules "$TESTS" >"$T_TMP/test" 2>&1; then t_ok "promtool test rules"
else t_fail "promtool test rules: $(cat "$T_TMP/test")"; fi

# What socbox exports where each rule should fire: crashed and crash-looping cores, a
# failed subsystem, IOMMU faults, a leaked devmem binding.
: >"$T_TMP/exported"
for c in stm32mp157-crashed imx8mp-crash-loop am62x-firmware-missing arm64-server-faults \
	devmem-nic-leaked-binding; do
	"$F/causes/compose" "$F/causes/$c" "$T_TMP/$c"
	"$SOCBOX" metrics --sysroot "$T_TMP/$c" >>"$T_TMP/exported" 2>/dev/null
done
t_grep "exported: a crashed core" '^socbox_rpmsgctl_remoteprocs_state\{id="remoteproc0",name="m4",state="crashed"\} 1$' "$T_TMP/exported"
t_grep "exported: a leaked binding" '^socbox_devmemstat_bindings_leaked_pools\{binding_id="1",ifindex="3"\} 1$' "$T_TMP/exported"

cat >"$T_TMP/names.py" <<'PY'
import re, sys
exported, rules, tests = (open(p).read() for p in sys.argv[1:4])
samples = {}  # name -> list of label dicts
for line in exported.splitlines():
    m = re.match(r'^(socbox_[a-z_]+)(?:\{(.*)\})? ', line)
    if m:
        samples.setdefault(m.group(1), []).append(dict(re.findall(r'([a-z_]+)="([^"]*)"', m.group(2) or "")))
bad = []
# every selector in the rules: its name exported, its = matchers met by a sample, its =~
# labels carried
for name, body in re.findall(r'(socbox_[a-z_]+)(?:\{([^}]*)\})?', re.sub(r'#.*', '', rules)):
    if name not in samples:
        bad.append("rule uses %s, which socbox does not export" % name)
        continue
    for label, op, value in re.findall(r'([a-z_]+)\s*(=~|=)\s*"([^"]*)"', body):
        if op == "=" and not any(s.get(label) == value for s in samples[name]):
            bad.append('rule matches %s{%s="%s"}: no such sample' % (name, label, value))
        if op == "=~" and not any(label in s for s in samples[name]):
            bad.append("rule matches %s on %s: no such label" % (name, label))
# every test series: the label names socbox gives that metric (plus what a scrape adds);
# ifname is there only where the interface has a name (the fixtures' captures name none)
for name, body in re.findall(r"series: '(socbox_[a-z_]+)\{([^}]*)\}'", tests):
    labels = set(re.findall(r'([a-z_]+)="', body)) - {"instance", "job"}
    if "ifindex" in labels:
        labels.discard("ifname")
    if name not in samples:
        bad.append("test series %s is not exported" % name)
    elif not any(set(s) == labels for s in samples[name]):
        bad.append("test series %s has labels %s; socbox exports %s" % (name, sorted(labels), sorted(set(samples[name][0]))))
print("\n".join(bad) or "ok")
PY
t_eq "rules and tests use what socbox exports" \
	"$(python3 "$T_TMP/names.py" "$T_TMP/exported" "$RULES" "$TESTS" 2>&1)" ok
t_done
