#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""One truth per object: every board fixture and every broken board of tests/fixtures/causes
is read by each view that names its objects (-J), and each object's name and state must be
the same in all of them: a remote processor's state and crash count in `rpmsgctl rproc
status`, `rpmsgctl list`, doctor's facts and causes and `socbox events`; an IOMMU
instance's name in `smmustat`, `smmustat events`, `socbox events` and doctor; the heaps in
`dmabufcp heaps` and doctor; and the same names and states as `socbox metrics` labels.

Usage: cross_view.py SOCBOX FIXTURES WORKDIR   (TAP on stdout; exit 1 on a disagreement)
"""
import json
import os
import re
import subprocess
import sys

SOCBOX, FIXTURES, WORK = sys.argv[1:4]
failures = []
checks = 0

# A remote processor counts as running for doctor's "N running" when it runs its firmware,
# whether Linux booted it or attached to it.
RUNNING_STATES = {"running", "attached"}
# doctor's causes that say a remote processor crashed (its views must show a crash)
CRASH_CAUSES = {"rpmsg.crashed", "rpmsg.crash-loop", "rpmsg.recovery-failed"}


def view(board, *words):
    """The view's JSON (a list of records for a stream such as socbox events), or None
    when it exits 3 (not on this board)."""
    p = subprocess.run([SOCBOX, *words, "-J", "--sysroot", board], capture_output=True,
                       text=True, check=False)
    if p.returncode == 3:
        return None
    if p.returncode not in (0, 1):
        fail(board, f"{' '.join(words)} -J exited {p.returncode}: {p.stderr.strip()}")
        return None
    text = p.stdout.strip()
    if not text:
        return []
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def fail(board, msg):
    failures.append(f"{os.path.basename(board)}: {msg}")


def same(board, what, a, b):
    global checks
    checks += 1
    if a != b:
        fail(board, f"{what}: {a!r} != {b!r}")


def check_rproc(board, doctor, events):
    status = view(board, "rpmsgctl", "rproc", "status")
    listed = view(board, "rpmsgctl", "list")
    procs = (status or {}).get("remoteprocs", []) if isinstance(status, dict) else []
    lprocs = (listed or {}).get("remoteprocs", []) if isinstance(listed, dict) else []
    by_id = {p["id"]: p for p in procs}
    for p in lprocs:
        same(board, f"{p['id']}: rpmsgctl list vs rproc status", p, by_id.get(p["id"]))
    facts = subsystem(doctor, "rpmsg").get("facts", {})
    if "remoteprocs" in facts:
        same(board, "doctor's remoteprocs vs rproc status", facts["remoteprocs"], len(procs))
        running = sum(1 for p in procs if p["state"] in RUNNING_STATES)
        same(board, "doctor's remoteprocs_running vs rproc status's running and attached",
             facts.get("remoteprocs_running"), running)
    crashes = [e for e in events if e.get("subsystem") == "remoteproc" and e.get("kind") == "crash"]
    for c in doctor.get("causes", []):
        rp = c.get("object", "")
        if c.get("code") not in CRASH_CAUSES or rp not in by_id:
            continue
        crashed = by_id[rp]["state"] == "crashed" or (by_id[rp]["crashes"] or 0) > 0
        same(board, f"{rp}: doctor's {c['code']} vs rproc status (crashed or a crash counted)",
             True, crashed)
        same(board, f"{rp}: doctor's {c['code']} vs socbox events (a crash event)", True,
             any(e.get("object") == rp for e in crashes))


def subsystem(doctor, name):
    for s in doctor.get("subsystems", []):
        if s.get("subsystem") == name:
            return s
    return {}


def check_iommu(board, doctor, events):
    overview = view(board, "smmustat", "overview")
    facts = subsystem(doctor, "iommu").get("facts", {})
    names = sorted(i["name"] for i in overview.get("instances", [])) if isinstance(overview, dict) else []
    if "instance_list" in facts:
        same(board, "doctor's instance_list vs smmustat's instances", sorted(facts["instance_list"]), names)
    if isinstance(overview, dict) and "groups" in facts:
        same(board, "doctor's groups vs smmustat's", facts["groups"], overview.get("groups"))
    smev = view(board, "smmustat", "events")
    if isinstance(smev, dict):
        for g in smev.get("event_groups", []):
            if g.get("instance") is not None:
                same(board, f"smmustat events' instance {g['instance']} is smmustat's", True,
                     g["instance"] in names)
    for e in events:
        if e.get("subsystem") == "iommu" and e.get("instance") is not None:
            same(board, f"socbox events' instance {e['instance']} is smmustat's", True,
                 e["instance"] in names)
    for c in doctor.get("causes", []):
        obj = c.get("object", "")
        if c.get("subsystem") == "iommu" and obj.startswith(("smmu", "dmar", "amd-iommu")):
            same(board, f"doctor's {c['code']} names instance {obj} as smmustat does", True, obj in names)


def check_heaps(board, doctor):
    heaps = view(board, "dmabufcp", "heaps")
    facts = subsystem(doctor, "dmabuf").get("facts", {})
    if not isinstance(heaps, dict) or "heap_list" not in facts:
        return
    rows = heaps.get("heaps", [])
    same(board, "doctor's heap_list vs dmabufcp heaps", sorted(facts["heap_list"]),
         sorted(h["name"] for h in rows if h.get("kind") == "heap"))
    same(board, "doctor's udmabuf vs dmabufcp heaps", facts.get("udmabuf"),
         any(h.get("kind") == "udmabuf" for h in rows))


LABEL = re.compile(r'(\w+)="((?:[^"\\]|\\.)*)"')


def metrics(board):
    """socbox metrics' samples as (name, {label: value}, value)."""
    p = subprocess.run([SOCBOX, "metrics", "--sysroot", board], capture_output=True, text=True,
                       check=False)
    out = []
    for line in p.stdout.splitlines():
        if line.startswith("#") or " " not in line:
            continue
        series, value = line.rsplit(" ", 1)
        name, _, labels = series.partition("{")
        out.append((name, dict(LABEL.findall(labels)), value))
    return out


def check_metrics(board):
    samples = metrics(board)
    status = view(board, "rpmsgctl", "rproc", "status")
    procs = status.get("remoteprocs", []) if isinstance(status, dict) else []
    for p in procs:
        states = [lb["state"] for name, lb, v in samples
                  if name == "socbox_rpmsgctl_remoteprocs_state" and lb.get("id") == p["id"] and v == "1"]
        same(board, f"{p['id']}: metrics' state vs rproc status", states, [p["state"]])
    overview = view(board, "smmustat", "overview")
    names = {i["name"] for i in overview.get("instances", [])} if isinstance(overview, dict) else set()
    for name, lb, _ in samples:
        inst = lb.get("instance")
        if inst not in (None, "", "-") and not name.startswith("socbox_doctor"):
            same(board, f"metric {name}'s instance {inst} is smmustat's", True, inst in names)


def boards():
    for name in sorted(os.listdir(FIXTURES)):
        d = os.path.join(FIXTURES, name)
        if os.path.isdir(os.path.join(d, "sys")) or os.path.isdir(os.path.join(d, "proc")):
            yield d
    causes = os.path.join(FIXTURES, "causes")
    for name in sorted(os.listdir(causes)):
        case = os.path.join(causes, name)
        if not os.path.isfile(os.path.join(case, "base")):
            continue
        dest = os.path.join(WORK, name)
        os.makedirs(dest, exist_ok=True)
        subprocess.run([os.path.join(causes, "compose"), case, dest], check=True)
        yield dest


def main():
    n = 0
    for board in boards():
        n += 1
        doctor = view(board, "doctor") or {}
        events = view(board, "events") or []
        if isinstance(events, dict):
            events = [events]
        check_rproc(board, doctor, events)
        check_iommu(board, doctor, events)
        check_heaps(board, doctor)
        check_metrics(board)
    for f in failures:
        print(f"not ok - {f}")
    print(f"# {n} boards, {checks} comparisons, {len(failures)} disagreements")
    return 1 if failures or checks == 0 else 0


sys.exit(main())
