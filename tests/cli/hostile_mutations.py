#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Whole sysroots made hostile: copies of the fixture trees with files replaced by FIFOs,
symlink loops, huge sparse files, directories, garbage numbers, control bytes, invalid
UTF-8, empty or cut files and links that point out of the root. Every read-only view of
tests/views runs on each, bounded in time, and must: end (no hang), exit 0-4, print no
sanitizer report, say why in one stderr line when it exits non-zero, print valid JSON with
-J, and never show the canary that lies outside the root.

Run by tests/cli/hostile_mutations.sh. SOCBOX_MUTATION_SEED and SOCBOX_MUTATION_TREES
(mutants per fixture) make longer runs by hand; a failure names the seed, the mutant's
changes and the command, so it can be replayed. With --list instead of a directory it
prints the commands it runs."""
import json
import os
import random
import shutil
import stat
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

SOCBOX = os.environ["SOCBOX"]
FIXTURES = os.environ["SOCBOX_FIXTURES"]
TMP = sys.argv[1]
SEED = int(os.environ.get("SOCBOX_MUTATION_SEED", "16"))
TREES = int(os.environ.get("SOCBOX_MUTATION_TREES", "2"))
CHANGES = 8          # files changed in one mutant
TIMEOUT = 20         # seconds one command may take
CANARY = "SOCBOX-CANARY-OUTSIDE-THE-ROOT"

VIEWS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "views")


def read_views():
    """The read-only views of tests/views, each with whether it prints JSON too: the views of
    one root (sysroot and netlink ones, whose boards hold a snapshot's netdev state) and
    those that compare two (run on the mutant against its board). The broken boards of
    causes are left to the golden outputs: their command is a view of the boards too."""
    views = []
    with open(VIEWS_FILE, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#") or w[2] not in ("sysroot", "netlink", "two"):
                continue
            views.append((w[5:], "json" in w[3].split(","), w[2] == "two"))
    return views


# Files every tree is likely to have that the views read: changed more often than others.
HOT = ["proc/interrupts", "dev/kmsg", "proc/cmdline", "proc/sys/kernel/osrelease", "proc/stat",
       "proc/softirqs", "proc/net/dev", "proc/uptime", "sys/kernel/socbox/netdev.nlmsg",
       "sys/kernel/socbox/netdev.parts", "sys/kernel/debug/dma_buf/bufinfo"]
HOT_NAMES = ["reserved_regions", "type", "name", "state", "firmware", "initstate", "fdinfo",
             "maps", "ifindex", "uevent", "cap", "ecap", "features", "cpumask", "format", "events"]

GARBAGE = [b"18446744073709551616\n", b"-1\n", b"0x\n", b"nan\n", b"99999999999999999999999999\n",
           b"\n", b"1e9999\n", b"0x8000000000000000\n", b"   \n", b"+-0\n"]
CONTROL = b"\x1b]0;PWNED\x07\x1b[2J\r\b\x9b31m\x00after-nul\n"
BAD_UTF8 = b"\xff\xfe\xc0\x80\xed\xa0\x80\xf4\x90\x80\x80\xc3\n"


def mutate(rng, root, rel, how, canary):
    path = os.path.join(root, rel)
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)
    if how == "fifo":
        os.mkfifo(path)
    elif how == "socket":
        import socket
        s = socket.socket(socket.AF_UNIX)
        try:
            s.bind(path)
        except OSError:
            os.mkfifo(path)  # path too long for a socket address
        s.close()
    elif how == "loop":
        os.symlink(os.path.basename(path), path)
    elif how == "loop2":
        os.symlink(os.path.basename(path) + ".b", path)
        if not os.path.lexists(path + ".b"):
            os.symlink(os.path.basename(path), path + ".b")
    elif how == "dirloop":
        os.symlink(".", path)
    elif how == "huge":
        with open(path, "wb") as f:
            f.truncate(1 << 31)  # sparse, beyond every read limit
    elif how == "dir":
        os.mkdir(path)
    elif how == "garbage":
        with open(path, "wb") as f:
            f.write(rng.choice(GARBAGE))
    elif how == "control":
        with open(path, "wb") as f:
            f.write(CONTROL)
    elif how == "utf8":
        with open(path, "wb") as f:
            f.write(BAD_UTF8)
    elif how == "empty":
        open(path, "wb").close()
    elif how == "escape-abs":
        os.symlink(canary, path)
    elif how == "escape-rel":
        os.symlink("../" * (rel.count("/") + 4) + os.path.relpath(canary, "/"), path)
    elif how == "long":
        with open(path, "wb") as f:
            f.write((b"x" * 5000 + b" 1 2 3\n") * 300)


KINDS = ["fifo", "socket", "loop", "loop2", "dirloop", "huge", "dir", "garbage", "control", "utf8",
         "empty", "escape-abs", "escape-rel", "long"]


def candidates(root):
    out = []
    for top, dirs, names in os.walk(root):
        for n in dirs + names:
            p = os.path.join(top, n)
            if os.path.islink(p) or os.path.isfile(p):
                out.append(os.path.relpath(p, root))
    return sorted(out)


def make_mutant(rng, fixture, dest, canary):
    shutil.copytree(os.path.join(FIXTURES, fixture), dest, symlinks=True)
    files = candidates(dest)
    hot = [f for f in files if f in HOT or os.path.basename(f) in HOT_NAMES
           or "/fdinfo/" in f or "/events/" in f or "/format/" in f]
    changes = []
    for _ in range(CHANGES):
        pool = hot if hot and rng.random() < 0.7 else files
        rel = rng.choice(pool)
        if not os.path.lexists(os.path.join(dest, rel)) or any(rel.startswith(c + "/") or rel == c for c, _ in changes):
            continue
        how = rng.choice(KINDS)
        mutate(rng, dest, rel, how, canary)
        changes.append((rel, how))
    return changes


def valid_json(text):
    try:
        json.loads(text)
        return True
    except ValueError:
        pass
    lines = [ln for ln in text.splitlines() if ln.strip()]
    try:
        for ln in lines:  # JSON Lines (live views)
            json.loads(ln)
        return bool(lines)
    except ValueError:
        return False


APPLETS = None


def applet(view):
    """The name an error line starts with: the applet (socbox --list), or socbox for its own
    commands."""
    global APPLETS
    if APPLETS is None:
        APPLETS = subprocess.run([SOCBOX, "--list"], capture_output=True, text=True, check=True).stdout.split()
    return view[0] if view[0] in APPLETS else "socbox"


def run(root, view, js, two):
    argv = [SOCBOX] + view + (["-J"] if js else []) + ["--sysroot", root]
    if two:  # the mutant against its fixture (the directory "FIXTURE.K")
        argv = argv[:-2] + [os.path.join(FIXTURES, os.path.basename(root).rsplit(".", 1)[0]), root]
    try:
        p = subprocess.run(argv, stdin=subprocess.DEVNULL, capture_output=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return ["hangs (no end after %d s)" % TIMEOUT]
    out, err = p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    bad = []
    if p.returncode < 0 or p.returncode > 4:
        bad.append("exit %d" % p.returncode)
    if "Sanitizer" in err or "runtime error" in err:
        bad.append("sanitizer report: " + err[:600])
    lines = err.splitlines()
    # a check that failed says so in a line per failed predicate; diff's exit 1 is "differs"
    if p.returncode == 1 and view[1:2] == ["check"]:
        expected = len(lines) >= 1
    else:
        expected = len(lines) == 1 or (two and p.returncode == 1 and not lines)
    if p.returncode and not expected:
        bad.append("exit %d with %d stderr lines: %r" % (p.returncode, len(lines), err[:300]))
    if p.returncode and any(not ln.startswith(applet(view)) for ln in lines):
        bad.append("an error line does not name the applet: %r" % err[:200])
    if CANARY in out or CANARY in err:
        bad.append("read the canary outside the root")
    if js and p.returncode in (0, 1) and out.strip() and not valid_json(out):
        bad.append("invalid JSON: %r" % out[:300])
    if not js and any(c in p.stdout for c in (b"\x1b", b"\x07", b"\x9b", b"\x08")):
        bad.append("a control byte on stdout")
    return bad


def main():
    if TMP == "--list":  # what runs here, for tests/cli/views.sh
        for view, _, _ in read_views():
            print(" ".join(view))
        return 0
    canary = os.path.join(TMP, "canary")
    with open(canary, "w") as f:
        f.write(CANARY + "\n")
    rng = random.Random(SEED)
    fixtures = sorted(d for d in os.listdir(FIXTURES)
                      if os.path.isdir(os.path.join(FIXTURES, d, "sys")) or os.path.isdir(os.path.join(FIXTURES, d, "proc")))
    views = read_views()
    jobs = []
    for fx in fixtures:
        for k in range(TREES):
            dest = os.path.join(TMP, "%s.%d" % (fx, k))
            changes = make_mutant(rng, fx, dest, canary)
            for view, has_json, two in views:
                for js in (False, True) if has_json else (False,):
                    jobs.append((fx, k, changes, dest, view, js, two))
    failed = runs = 0
    broken = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        results = pool.map(lambda j: (j, run(*j[3:])), jobs)
        for (fx, k, changes, dest, view, js, _), bad in results:
            runs += 1
            if bad:
                failed += 1
                broken["%s.%d" % (fx, k)] = changes
                print("not ok - %s.%d: %s: %s" % (fx, k, " ".join(view + (["-J"] if js else [])), "; ".join(bad)))
    for name, changes in sorted(broken.items()):
        print("mutant %s (seed %d): %s" % (name, SEED, ", ".join("%s %s" % c for c in changes)))
    print("%d mutants of %d fixtures, %d command runs, %d failed" % (len(fixtures) * TREES, len(fixtures), runs, failed))
    return 1 if failed else 0


sys.exit(main())
