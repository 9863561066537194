#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The JSON schema of every golden view only grows.

From the JSON outputs of tests/expected/<dir>/<fixture>-<view>.json (all fixtures of one
view together) derive every key path and the JSON types seen there, one line each:
    .subsystems[].facts.heaps number
and compare with what is committed in tests/expected/schema/<dir>-<view>.txt. A path that
disappeared, or whose type changed, breaks scripts that read socbox's JSON: that fails.
A new path is fine and is recorded by 'update'. null goes with any type (a value that is
absent on one board), so it is not recorded unless a path was never seen with a value.
Keys are snake_case (HACKING.md); the few that are not and must stay (the schema only
grows) are listed with their reason in tests/expected/schema/exceptions.
A key that had the wrong name or shape stays, deprecated, beside the right one:
tests/expected/schema/deprecated lists it with its replacement ('VIEW PATH REPLACEMENT
# why'); the schema file marks it ('# deprecated: use REPLACEMENT'), the replacement must
be in the outputs, and the applet's manual page must say "KEY (deprecated: use NEW)".

Usage: schema.py check  SCHEMADIR OUTDIR   the outputs in OUTDIR keep every committed path
       schema.py update SCHEMADIR OUTDIR [--allow-break]
                                        record OUTDIR's schema (refused when it breaks the
                                        committed one, unless --allow-break)
"""
import json
import os
import re
import sys

TYPES = ((bool, "boolean"), ((int, float), "number"), (str, "string"),
         (list, "array"), (dict, "object"))
PLAIN_KEY = re.compile(r"^[A-Za-z0-9_]+$")
SNAKE_KEY = re.compile(r"^[a-z][a-z0-9_]*$")
KEY = re.compile(r'\.("(?:[^"\\]|\\.)*"|[^.\[]+)')


def type_name(v):
    if v is None:
        return "null"
    for t, name in TYPES:
        if isinstance(v, t):
            return name
    raise TypeError(type(v))


def walk(v, path, out):
    out.setdefault(path or ".", set()).add(type_name(v))
    if isinstance(v, dict):
        for k, x in v.items():
            walk(x, path + "." + (k if PLAIN_KEY.match(k) else json.dumps(k)), out)
    elif isinstance(v, list):
        for x in v:
            walk(x, path + "[]", out)


def documents(path):
    """One JSON document, or JSON Lines (the live views: one object per line)."""
    text = open(path, encoding="utf-8").read()
    if not text.strip():
        return []
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


def derive(outdir):
    """{schema file name: {path: set of types}} of every view with JSON outputs."""
    views = {}
    for d in sorted(os.listdir(outdir)):
        if d == "schema" or not os.path.isdir(os.path.join(outdir, d)):
            continue
        for f in sorted(os.listdir(os.path.join(outdir, d))):
            if not f.endswith(".json"):
                continue
            m = re.match(r"^(.*)\.json$", f)
            view = view_name(d, m.group(1), outdir)
            paths = views.setdefault(view, {})
            try:
                for doc in documents(os.path.join(outdir, d, f)):
                    walk(doc, "", paths)
            except (json.JSONDecodeError, UnicodeDecodeError) as e:
                sys.exit(f"schema: {d}/{f}: not JSON: {e}")
    return views


CASES = None


def view_name(d, stem, outdir):
    """<dir>-<view> from <fixture>-<view>: the views are the names in tests/views."""
    global CASES
    if CASES is None:
        CASES = {}
        here = os.path.dirname(os.path.abspath(__file__))
        for line in open(os.path.join(here, "..", "views"), encoding="utf-8"):
            w = line.split()
            if w and not w[0].startswith("#"):
                CASES.setdefault(w[0], []).append(w[1])
    for name in sorted(CASES.get(d, []), key=len, reverse=True):
        if stem.endswith("-" + name):
            return f"{d}-{name}.txt"
    sys.exit(f"schema: {d}/{stem}.json: no view of tests/views has this name")


def effective(types):
    typed = types - {"null"}
    return typed or {"null"}


def load(schemadir):
    views = {}
    if not os.path.isdir(schemadir):
        return views
    for f in sorted(os.listdir(schemadir)):
        if not f.endswith(".txt"):
            continue
        paths = views.setdefault(f, {})
        for line in open(os.path.join(schemadir, f), encoding="utf-8"):
            if line.startswith("#") or not line.strip():
                continue
            path, types = line.split("  # ", 1)[0].rstrip().rsplit(" ", 1)
            paths[path] = set(types.split("|"))
    return views


def render(paths, marks=None):
    lines = ["# JSON key paths and types of this view, derived from its golden outputs by",
             "# tests/expected/schema.py (scripts/regen-expected). A path never disappears and",
             "# never changes type; new ones are added."]
    for p in sorted(paths):
        line = f"{p} {'|'.join(sorted(effective(paths[p])))}"
        if marks and p in marks:
            line += f"  # deprecated: use {marks[p]}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def deprecated(schemadir):
    """{view: {path: replacement}} from 'VIEW PATH REPLACEMENT  # why'."""
    marks = {}
    path = os.path.join(schemadir, "deprecated")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            w = line.split("#", 1)[0].split()
            if w:
                marks.setdefault(w[0], {})[w[1]] = w[2]
    return marks


def bad_deprecations(new, marks):
    """A deprecated key needs its replacement printed beside it."""
    problems = []
    for view, paths in sorted(marks.items()):
        for p, repl in sorted(paths.items()):
            if view not in new or p not in new[view]:
                problems.append(f"{view}: deprecated {p} is not in the outputs")
            elif repl not in new[view]:
                problems.append(f"{view}: {p} is deprecated for {repl}, which is not printed")
    return problems


def compare(old, new):
    """The ways new breaks old: lost views, lost paths, changed types."""
    problems = []
    for view, paths in sorted(old.items()):
        if view not in new:
            problems.append(f"{view}: the view has no JSON output any more")
            continue
        for p, types in sorted(paths.items()):
            if p not in new[view]:
                problems.append(f"{view}: {p} ({'|'.join(sorted(types))}) disappeared")
                continue
            was, now = effective(types), effective(new[view][p])
            if was != {"null"} and now != was and now != {"null"}:
                problems.append(f"{view}: {p} was {'|'.join(sorted(was))}, "
                                f"is now {'|'.join(sorted(now))}")
    return problems


def exceptions(schemadir):
    """{(view, path)} of the keys allowed to break snake_case: 'VIEW PATH  # reason'."""
    allowed = set()
    path = os.path.join(schemadir, "exceptions")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            line = line.split("#", 1)[0].split()
            if line:
                allowed.add((line[0], line[1]))
    return allowed


def bad_keys(new, allowed):
    problems = []
    for view, paths in sorted(new.items()):
        for p in sorted(paths):
            last = KEY.findall(p)
            if last and not SNAKE_KEY.match(last[-1]) and (view, p) not in allowed:
                problems.append(f"{view}: {p}: not a snake_case key")
    return problems


def additions(old, new):
    added = []
    for view, paths in sorted(new.items()):
        for p in sorted(paths):
            if p not in old.get(view, {}):
                added.append(f"{view}: {p} {'|'.join(sorted(effective(paths[p])))}")
    return added


def main(argv):
    if len(argv) < 3 or argv[0] not in ("check", "update"):
        sys.exit(__doc__)
    schemadir, outdir = argv[1], argv[2]
    old, new = load(schemadir), derive(outdir)
    marks = deprecated(schemadir)
    problems = (compare(old, new) + bad_keys(new, exceptions(schemadir)) +
                bad_deprecations(new, marks))
    added = additions(old, new)
    for p in problems:
        print(f"schema: {p}")
    if argv[0] == "check":
        for a in added[:20]:
            print(f"new (record it with scripts/regen-expected): {a}")
        if len(added) > 20:
            print(f"... and {len(added) - 20} more new paths")
        print(f"{len(new)} views, {sum(len(p) for p in new.values())} key paths, "
              f"{len(problems)} broken, {len(added)} new")
        return 1 if problems else 0
    if problems and "--allow-break" not in argv[3:]:
        print("schema: not recorded: the outputs break the committed schema (fix the output, "
              "or run again with --allow-break and say why in the commit)", file=sys.stderr)
        return 1
    # a key now null on every board keeps the type it was recorded with
    for view, paths in new.items():
        for p, types in paths.items():
            was = effective(old.get(view, {}).get(p, {"null"}))
            if effective(types) == {"null"} and was != {"null"}:
                paths[p] = was
    os.makedirs(schemadir, exist_ok=True)
    for f in set(old) - set(new):
        os.unlink(os.path.join(schemadir, f))
    for view, paths in new.items():
        with open(os.path.join(schemadir, view), "w", encoding="utf-8") as fp:
            fp.write(render(paths, marks.get(view)))
    for a in added[:20]:
        print(f"schema: recorded {a}")
    if len(added) > 20:
        print(f"schema: ... and {len(added) - 20} more new paths")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
