#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Read views' --format openmetrics and --format prometheus output with the real parsers of
# Debian's python3-prometheus-client and check that both say the same:
#   metrics_check.py NAME OPENMETRICS_FILE PROMETHEUS_FILE [NAME OM PROM]...
# Prints "ok NAME: families N samples M" or "not ok NAME: problem" per view (one process
# for all: the import costs more than a parse). promtool runs separately (tests/cli/metrics.sh).
import math
import sys

from prometheus_client.openmetrics.parser import text_string_to_metric_families as om_parse
from prometheus_client.parser import text_string_to_metric_families as prom_parse


def samples(families, problems, flavour):
    out = {}
    names = set()
    for fam in families:
        if fam.name in names:
            problems.append(f"{flavour}: family {fam.name} twice")
        names.add(fam.name)
        if not fam.name.startswith("socbox_"):
            problems.append(f"{flavour}: {fam.name} is not in the socbox_ namespace")
        if not fam.documentation:
            problems.append(f"{flavour}: {fam.name} has no HELP")
        if fam.type not in ("gauge", "counter"):
            problems.append(f"{flavour}: {fam.name} has type {fam.type}")
        for s in fam.samples:
            if fam.type == "counter" and not s.name.endswith("_total"):
                problems.append(f"{flavour}: counter sample {s.name} lacks _total")
            if fam.type == "gauge" and s.name.endswith("_total"):
                problems.append(f"{flavour}: gauge sample {s.name} ends in _total")
            key = (s.name, tuple(sorted(s.labels.items())))
            if key in out:
                problems.append(f"{flavour}: sample {key} twice")
            out[key] = s.value
    return out, names


def check(om_path, prom_path):
    om_text = open(om_path, encoding="utf-8").read()
    prom_text = open(prom_path, encoding="utf-8").read()
    problems = []
    if not om_text.endswith("# EOF\n"):
        problems.append("openmetrics: does not end with '# EOF'")
    if "# EOF" in prom_text:
        problems.append("prometheus: has '# EOF'")
    try:
        om, om_names = samples(om_parse(om_text), problems, "openmetrics")
        prom, _ = samples(prom_parse(prom_text), problems, "prometheus")
    except Exception as e:  # the parsers raise ValueError and friends on bad input
        return [f"parser refused the output: {type(e).__name__}: {e}"], 0, 0
    if set(om) != set(prom):
        problems.append(f"samples differ: only openmetrics {sorted(set(om) - set(prom))[:3]}, "
                        f"only prometheus {sorted(set(prom) - set(om))[:3]}")
    for key in set(om) & set(prom):
        a, b = om[key], prom[key]
        if not (a == b or (math.isnan(a) and math.isnan(b))):
            problems.append(f"{key}: {a} in openmetrics, {b} in prometheus")
    return problems, len(om_names), len(om)


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        print("usage: metrics_check.py NAME OPENMETRICS_FILE PROMETHEUS_FILE...", file=sys.stderr)
        return 2
    bad = 0
    for i in range(0, len(args), 3):
        problems, nfam, nsamples = check(args[i + 1], args[i + 2])
        if problems:
            bad += 1
            print(f"not ok {args[i]}: {'; '.join(problems)[:600]}")
        else:
            print(f"ok {args[i]}: families {nfam} samples {nsamples}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
