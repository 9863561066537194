#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Run every example of README.md and of the man pages' EXAMPLES sections.

Usage: doc_examples.py TOP SOCBOX WORKDIR

Each example carries a marking the reader does not see (HACKING.md, "Examples that run"):
README.md an HTML comment on the line before its fenced block, a man page a comment line
before the command:

    <!-- example: CLAUSE[; CLAUSE...] -->     (README: one clause per command, or one for all)
    .\\" example: CLAUSE                        (man: the command on the next line)

    CLAUSE := fixture BOARD [exit N] [golden DIR/FILE|none] [with WORD=BOARD]...
            | live-only [BOARD]
            | skip REASON

BOARD is a directory below tests/fixtures (causes/CASE is laid out by its compose) or a
netlink capture (netlink/NAME.nl). The command runs in an empty directory that holds a
`tests` link to the source's tests/, with the applets on PATH, SOCBOX_SYSROOT set to the
board and a `--sysroot` placeholder (any value not below tests/) replaced by it, or for a
capture a `--load-netlink` placeholder (a value the example named before, as
`socbox snapshot board.tar; rpmsgctl --sysroot board.tar`, is its own and stays); COLUMNS=80, LC_ALL=C, TZ=UTC as the goldens. A
fixture example must exit N (0); live-only must exit 3 on the board (default am62x). Output
a README block shows after `$ COMMAND` must be what the command prints (a `...` line stands
for any lines), and with `golden` the command prints that golden file exactly (`golden
none`: a view tests/views gives no golden, as socbox diff's two roots). `with WORD=BOARD`
puts another fixture where the command names WORD (socbox diff's operands; such an
example runs without SOCBOX_SYSROOT, its operands being the roots). Commands run
under bash -e -o pipefail: each command of an example must do what the marking says.
"""
import os
import re
import shutil
import subprocess
import sys

MARK_MD = re.compile(r"^<!-- example: (.*) -->$")
MARK_MAN = re.compile(r'^\.\\" example: (.*)$')
LIVE_DEFAULT = "am62x"

results = {"run": 0, "live-only": 0, "skip": 0, "failed": 0}
problems = []


def fail(where, msg):
    problems.append(f"{where}: {msg}")
    print(f"not ok - {where}: {msg}")


def parse_clause(text):
    words = text.split()
    if not words:
        return None
    kind = words[0]
    if kind == "skip":
        return {"kind": "skip", "reason": " ".join(words[1:])} if len(words) > 1 else None
    if kind == "live-only":
        if len(words) > 2:
            return None
        return {"kind": "live-only", "board": words[1] if len(words) == 2 else LIVE_DEFAULT}
    if kind == "fixture" and len(words) >= 2:
        c = {"kind": "fixture", "board": words[1], "exit": 0, "golden": None, "with": []}
        rest = words[2:]
        while rest:
            if len(rest) < 2 or rest[0] not in ("exit", "golden", "with"):
                return None
            if rest[0] == "with":
                if "=" not in rest[1]:
                    return None
                c["with"].append(rest[1].split("=", 1))
            else:
                c[rest[0]] = int(rest[1]) if rest[0] == "exit" else rest[1]
            rest = rest[2:]
        return c
    return None


def md_examples(path):
    """(where, command, shown output or None, clause text) for README.md."""
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    i = 0
    mark = None
    while i < len(lines):
        line = lines[i]
        m = MARK_MD.match(line)
        if m:
            mark = (i + 1, m.group(1))
            i += 1
            continue
        if line.startswith("```"):
            start = i + 1
            body = []
            i += 1
            while i < len(lines) and lines[i] != "```":
                body.append(lines[i])
                i += 1
            where = f"README.md:{start}"
            cmds = md_commands(body, line != "```sh")
            if mark is None or mark[0] < start - 2:
                fail(where, "a fenced block without an example marking on the line before it")
                results["failed"] += max(len(cmds), 1)
            else:
                clauses = [c.strip() for c in mark[1].split(";")]
                if len(clauses) == 1:
                    clauses *= len(cmds)
                if len(clauses) != len(cmds):
                    fail(where, f"{len(clauses)} clauses for {len(cmds)} commands")
                    results["failed"] += 1
                else:
                    for (n, cmd, shown), clause in zip(cmds, clauses):
                        out.append((f"README.md:{start + n}", cmd, shown, clause))
            mark = None
        i += 1
    return out


def md_commands(body, transcript):
    """Commands of a block: every line of a ```sh block, or the `$ ` lines of a transcript
    (the lines after one, up to the next, its output)."""
    cmds = []
    cont = None
    for n, line in enumerate(body, 1):
        if transcript:
            if line.startswith("$ "):
                cmds.append([n, line[2:], []])
            elif cmds:
                cmds[-1][2].append(line)
            continue
        if cont is not None:
            cont[1] += "\n" + line
            if not line.endswith("\\"):
                cont = None
            continue
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        cmds.append([n, line, None])
        if line.endswith("\\"):
            cont = cmds[-1]
    if transcript and not cmds:
        cmds.append([1, None, body])  # output with no command: refused below
    return [(n, c, s) for n, c, s in cmds]


def man_unescape(s):
    s = s.replace("\\-", "-").replace("\\(aq", "'").replace("\\(dq", '"')
    s = s.replace("\\(ti", "~").replace("\\(ha", "^").replace("\\&", "")
    return s.replace("\\e", "\\")


def man_examples(path):
    name = os.path.basename(path)
    lines = open(path, encoding="utf-8").read().split("\n")
    out = []
    in_ex = in_block = False
    mark = None
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith(".SH"):
            in_ex = line.strip() == ".SH EXAMPLES"
        elif in_ex and line in (".nf", ".EX"):
            in_block = True
        elif in_ex and line in (".fi", ".EE"):
            in_block = False
        elif in_ex and in_block:
            m = MARK_MAN.match(line)
            if m:
                mark = m.group(1)
            elif not line.startswith(".") and line.strip():
                start = i + 1
                cmd = man_unescape(line)
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    cmd += "\n" + man_unescape(lines[i])
                where = f"man/{name}:{start}"
                if mark is None:
                    fail(where, "an example without a `.\\\" example:` line before it")
                    results["failed"] += 1
                else:
                    out.append((where, cmd, None, mark))
                mark = None
        i += 1
    return out


class Runner:
    def __init__(self, top, socbox, work):
        self.top = top
        self.fixtures = os.path.realpath(os.path.join(top, "tests", "fixtures"))
        os.makedirs(work)
        self.work = os.path.realpath(work)
        self.bindir = os.path.join(self.work, "bin")
        os.makedirs(self.bindir)
        subprocess.run([socbox, "--install", self.bindir], check=True, stdout=subprocess.DEVNULL)
        os.symlink(os.path.abspath(socbox), os.path.join(self.bindir, "socbox"))
        self.boards = {}
        self.n = 0

    def board(self, name):
        """The board's directory, and how the goldens name it (as generate runs it)."""
        if name not in self.boards:
            src = os.path.join(self.fixtures, name)
            if name.startswith("causes/"):
                dest = os.path.join(self.work, "causes", name[len("causes/"):])
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                os.makedirs(dest)
                subprocess.run([os.path.join(self.fixtures, "causes", "compose"), src, dest],
                               check=True)
                self.boards[name] = (dest, "@CAUSES@/" + name[len("causes/"):])
            elif os.path.isdir(src) or name.endswith(".nl") and os.path.isfile(src):
                self.boards[name] = (src, name)
            else:
                self.boards[name] = (None, None)
        return self.boards[name]

    def run(self, cmd, board_dir, extra=()):
        self.n += 1
        cwd = os.path.join(self.work, f"ex{self.n}")
        os.makedirs(cwd)
        os.symlink(os.path.join(self.top, "tests"), os.path.join(cwd, "tests"))
        placeholder = None

        def subst(m):
            nonlocal placeholder
            made = re.search(r"(^|[\s;])" + re.escape(m.group(2).rstrip("/")) + r"/?(\s|$)",
                             cmd[:m.start()])
            if m.group(2).startswith("tests/") or made:
                return m.group(0)
            placeholder = m.group(2)
            return m.group(1) + board_dir

        netlink = board_dir.endswith(".nl")
        option = "--load-netlink" if netlink else "--sysroot"
        cmd = re.sub("(" + option + r"[= ])([^ ;|&)]+)", subst, cmd)
        for word, path in extra:
            cmd = re.sub(r"(?<![\w/.-])" + re.escape(word) + r"(?![\w.-])", path, cmd)
        env = {"PATH": self.bindir + ":/usr/bin:/bin", "HOME": cwd, "TMPDIR": cwd,
               "COLUMNS": "80", "LC_ALL": "C", "TZ": "UTC"}
        if not netlink and not extra:
            env["SOCBOX_SYSROOT"] = board_dir
        try:
            p = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", cmd], cwd=cwd, env=env,
                               stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            return None, "", "timed out after 30 s", placeholder
        return (p.returncode, p.stdout.decode("utf-8", "replace"),
                p.stderr.decode("utf-8", "replace"), placeholder)


def shown_matches(shown, got):
    """The shown lines, in order, each equal to a line printed; `...` any run of lines."""
    want = list(shown)
    while want and not want[-1].strip():
        want.pop()
    got = got.split("\n")
    if got and got[-1] == "":
        got.pop()

    def match(w, g):
        if not w:
            return not g
        if w[0].strip() == "...":
            return any(match(w[1:], g[k:]) for k in range(len(g) + 1))
        return bool(g) and w[0].rstrip() == g[0].rstrip() and match(w[1:], g[1:])

    return match(want, got)


def check(r, where, cmd, shown, text):
    clause = parse_clause(text)
    if clause is None:
        fail(where, f"marking not understood: '{text}'")
        results["failed"] += 1
        return
    if cmd is None:
        fail(where, "output shown without the `$ COMMAND` that prints it")
        results["failed"] += 1
        return
    if clause["kind"] == "skip":
        results["skip"] += 1
        print(f"ok - {where}: skipped ({clause['reason']}): {cmd.splitlines()[0]}")
        return
    if re.search(r"(>|<>)\s*/", cmd):
        fail(where, f"{cmd}: writes outside its directory (mark it skip, with the reason)")
        results["failed"] += 1
        return
    board_dir, golden_name = r.board(clause["board"])
    if board_dir is None:
        fail(where, f"no fixture tests/fixtures/{clause['board']}")
        results["failed"] += 1
        return
    extra = []
    for word, name in clause.get("with", []):
        path = r.board(name)[0]
        if path is None:
            fail(where, f"no fixture tests/fixtures/{name}")
            results["failed"] += 1
            return
        extra.append((word, path))
    rc, out, err, placeholder = r.run(cmd, board_dir, extra)
    want = 3 if clause["kind"] == "live-only" else clause["exit"]
    what = f"{cmd.splitlines()[0]} [{clause['kind']} {clause['board']}]"
    if rc != want:
        fail(where, f"{what}: exit {rc}, wanted {want}; stderr: {err.strip()[:300]}")
        results["failed"] += 1
        return
    bad = None
    if shown is not None:
        seen = out.replace(board_dir, placeholder) if placeholder else out
        for word, path in extra:
            seen = seen.replace(path, word)
        if not shown_matches(shown, seen):
            bad = "the output shown is not what it prints:\n" + seen[:1500]
    if bad is None and clause["kind"] == "fixture" and clause["golden"] not in (None, "none"):
        path = os.path.join(r.top, "tests", "expected", clause["golden"])
        if not os.path.isfile(path):
            bad = f"no golden tests/expected/{clause['golden']}"
        else:
            gold = open(path, encoding="utf-8").read()
            ref = golden_name if golden_name.startswith("@") else "@FIXTURES@/" + golden_name
            if placeholder:
                gold = gold.replace(ref, placeholder)
                out = out.replace(board_dir, placeholder)
            out = out.replace(board_dir, ref).replace(r.fixtures, "@FIXTURES@")
            # as tests/expected/generate: the time a collector took is not socbox's to fix
            out = re.sub(r"^(socbox_metrics_collectors_duration_seconds\{[^}]*\}) .*$",
                         r"\1 @SECONDS@", out, flags=re.M)
            if gold != out:
                bad = f"prints other than tests/expected/{clause['golden']}"
    elif bad is None and shown is not None and clause["kind"] == "fixture" and not clause["golden"]:
        bad = "shows output but names no golden it comes from"
    if bad:
        fail(where, f"{what}: {bad}")
        results["failed"] += 1
        return
    results["run" if clause["kind"] == "fixture" else "live-only"] += 1
    print(f"ok - {where}: {what} exit {rc}")


def main():
    top, socbox, work = sys.argv[1:4]
    examples = md_examples(os.path.join(top, "README.md"))
    mandir = os.path.join(top, "man")
    for page in sorted(os.listdir(mandir)):
        if re.search(r"\.[1-9]$", page):
            examples += man_examples(os.path.join(mandir, page))
    r = Runner(top, socbox, work)
    for ex in examples:
        check(r, *ex)
    total = sum(results.values())
    print(f"# {total} examples: {results['run']} run, {results['live-only']} live-only, "
          f"{results['skip']} skipped, {results['failed']} failed")
    sys.exit(1 if results["failed"] or total == 0 else 0)


if __name__ == "__main__":
    main()
