#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
# Did node_exporter serve socbox's textfile as written?  metrics_scrape_check.py TEXTFILE SCRAPE
# Every family of TEXTFILE with samples must be in SCRAPE (the exporter's /metrics) with the
# same TYPE, HELP and samples, value by value (node_exporter drops families without samples).
# Prints "families N (counters C) samples M" or the differences.
import math
import sys

from prometheus_client.parser import text_string_to_metric_families as parse


def load(path):
    with open(path, encoding="utf-8") as f:
        return {fam.name: fam for fam in parse(f.read())}


def main():
    wrote, served = load(sys.argv[1]), load(sys.argv[2])
    problems, nsamples, nfam, ncounters = [], 0, 0, 0
    for name, fam in wrote.items():
        if not fam.samples:
            continue
        nfam += 1
        ncounters += fam.type == "counter"
        got = served.get(name)
        if got is None:
            problems.append(f"{name}: not served")
            continue
        if (got.type, got.documentation) != (fam.type, fam.documentation):
            problems.append(f"{name}: served as {got.type} '{got.documentation}', "
                            f"written as {fam.type} '{fam.documentation}'")
        have = {(s.name, tuple(sorted(s.labels.items()))): s.value for s in got.samples}
        for s in fam.samples:
            key = (s.name, tuple(sorted(s.labels.items())))
            v = have.get(key)
            nsamples += 1
            if v is None or not (v == s.value or (math.isnan(v) and math.isnan(s.value))):
                problems.append(f"{key}: written {s.value}, served {v}")
    for p in problems[:20]:
        print(p)
    if problems or not nfam:
        print(f"{len(problems)} differences" if nfam else "the textfile has no samples")
        return 1
    print(f"families {nfam} (counters {ncounters}) samples {nsamples}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
