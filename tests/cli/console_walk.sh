#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The 80x24 walk: every text view of tests/views over every fixture it reads (the boards,
# the broken boards of tests/fixtures/causes, the netlink captures), shown as a person at an
# 80-column serial console sees it: the real binary in a tmux pane of 80x24, a pane per
# fixture running its views one after another. Against each view's golden (what the same
# command prints into a pipe, which never cuts a value):
# - every word of the golden is a word of the pane: nothing is cut or lost on a terminal
#   (cells wrap after a space or a ',', never inside a word);
# - no line is wider than 80 columns, unless a word of 30 characters or more forces it (a
#   long path or name, never cut) or the view is a stream of records that a terminal folds
#   (listed below, each with its reason).
# console80.sh checks the identifiers of the main views against their JSON; this walk
# covers every view. Needs tmux; without it the check is skipped, saying so.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
top=$(cd "$(dirname "$0")/../.." && pwd)
if ! command -v tmux >/dev/null 2>&1; then
	echo "ok - # SKIP tmux is not installed (Debian's tmux): no console walk"
	exit 0
fi
t_need python3 python3 || t_done
SOCK=socbox-walk-$$
trap 'tmux -L "$SOCK" kill-server 2>/dev/null; t_cleanup' EXIT
printf 'set -g history-limit 200000\n' >"$T_TMP/tmux.conf"

# The walk's plan: one line per pane, "FIXTURE<TAB>VIEW-GOLDEN<TAB>ARGS" per view.
python3 - "$top" "$F" "$T_TMP" >"$T_TMP/plan" <<'PY' || t_fail "tests/views could not be read"
import os, sys
top, fixtures, tmp = sys.argv[1:4]
views = []
for line in open(os.path.join(top, "tests", "views")):
    if line.startswith("#") or not line.strip():
        continue
    d, name, src, fmts, _coll, *cmd = line.split()
    if name != "-" and "text" in fmts.split(","):
        views.append((d, name, src, cmd))
def board(p):
    return os.path.isdir(os.path.join(p, "sys")) or os.path.isdir(os.path.join(p, "proc"))
boards = sorted(b for b in os.listdir(fixtures) if board(os.path.join(fixtures, b)))
causes = os.path.join(fixtures, "causes")
cases = sorted(c for c in os.listdir(causes)
               if not c.startswith("_") and os.path.isfile(os.path.join(causes, c, "expect")))
nls = sorted(n[:-3] for n in os.listdir(os.path.join(fixtures, "netlink")) if n.endswith(".nl"))
for d, name, src, cmd in views:
    if src == "sysroot":
        for b in boards:
            print("%s\t%s/%s-%s\t%s --sysroot %s" % (b, d, b, name, " ".join(cmd),
                                                   os.path.join(fixtures, b)))
    elif src == "causes":
        for c in cases:
            args = os.path.join(causes, c, "args")
            extra = open(args).read().strip() if os.path.exists(args) else ""
            print("causes-%s\t%s/%s-%s\t%s --sysroot %s/case-%s %s" % (
                c, d, c, name, " ".join(cmd), tmp, c, extra))
    elif src == "netlink":
        for n in nls:
            print("netlink\t%s/%s-%s\t%s --load-netlink %s" % (
                d, n, name, " ".join(cmd), os.path.join(fixtures, "netlink", n + ".nl")))
PY

# the broken boards, laid out once
for c in "$F"/causes/*/; do
	c=${c%/}
	case ${c##*/} in _*) continue ;; esac
	[ -f "$c/expect" ] || continue
	"$F/causes/compose" "$c" "$T_TMP/case-${c##*/}" >/dev/null 2>&1 ||
		t_fail "causes/${c##*/}: compose failed"
done

# pane FIXTURE: its views in a fresh 80x24 pane, each after a marker line; the whole
# history in $T_TMP/FIXTURE.pane, wrapped lines joined back (a line the terminal had to
# wrap shows its real width)
pane() {
	_f=$1
	{
		echo 'unset COLUMNS LINES'
		awk -F '\t' -v f="$_f" -v sb="$SOCBOX" '$1 == f {
			printf "echo \"@@walk %s\"\n\"%s\" %s 2>/dev/null\n", $2, sb, $3 }' "$T_TMP/plan"
		printf "tmux -L '%s' wait-for -S '%s'\n" "$SOCK" "$_f"
		echo 'exec sleep 600' # keeps the pane for capture-pane; kill-session ends it
	} >"$T_TMP/$_f.sh"
	tmux -L "$SOCK" -f "$T_TMP/tmux.conf" new-session -d -s "$_f" -x 80 -y 24 "sh '$T_TMP/$_f.sh'"
	# the readiness signal: the last view has exited and its output is in the pane
	if ! timeout 120 tmux -L "$SOCK" wait-for "$_f"; then
		t_fail "$_f: the views did not finish within 120 s"
		return
	fi
	tmux -L "$SOCK" capture-pane -p -J -S - -E - -t "$_f" >"$T_TMP/$_f.pane"
	tmux -L "$SOCK" kill-session -t "$_f"
}

cut -f1 "$T_TMP/plan" | sort -u >"$T_TMP/panes"
while read -r f; do
	pane "$f" </dev/null
done <"$T_TMP/panes"

python3 - "$top/tests/expected" "$T_TMP" "$T_TMP/plan" >"$T_TMP/report" 2>&1 <<'PY'
import os, re, sys
expected, tmp, plan = sys.argv[1:4]
# Streams of records a terminal folds, as dmesg's lines are: one record per line, never
# laid out in columns, so a wide record is wider than the console by nature.
FOLDED = {
    "socbox/events": "the kernel-log timeline: one record per line, as dmesg prints it",
    "socbox/metrics": "Prometheus text exposition: one sample per line, for machines",
    "socbox/metrics-om": "OpenMetrics text exposition: one sample per line, for machines",
    "devmemstat/top": "kperf's summary lines, the seed's shape: one line per sample",
    "rpmsgctl/rproc-trace": "the remote's own trace buffer, line by line as it wrote it",
}
def words(text):
    """Wrapping breaks lines after a space or a ',' (out_table.c): the pieces it keeps."""
    return re.findall(r"[^\s,]+,?|,", text)
panes, views, bad = {}, 0, []
for line in open(plan):
    fix, golden, _args = line.rstrip("\n").split("\t")
    panes.setdefault(fix, []).append(golden)
for fix, goldens in panes.items():
    text = open(os.path.join(tmp, fix + ".pane"), encoding="utf-8", errors="replace").read()
    shown, cur = {}, None
    for l in text.split("\n"):
        if l.startswith("@@walk "):
            cur = l[len("@@walk "):].strip()
            shown[cur] = []
        elif cur is not None:
            shown[cur].append(l.rstrip())
    for g in goldens:
        path = os.path.join(expected, g)
        if not os.path.exists(path):
            bad.append("%s: no golden (tests/expected/generate writes it)" % g)
            continue
        views += 1
        want = words(open(path, encoding="utf-8", errors="replace").read())
        lines = shown.get(g)
        if lines is None:
            bad.append("%s: not in the pane" % g)
            continue
        # a cramped wrapped column goes below its row as "HEADING: text" (out_table.c)
        got = set(x for l in lines for w in words(l) for x in (w, w.rstrip(":")))
        # the goldens' placeholders (tests/expected/generate: @FIXTURES@, @CAUSES@, @SECONDS@)
        # stand for what differs from run to run; the words around them are compared
        lost = [w for w in want if w not in got and not re.search(r"@[A-Z_]+@", w)]
        if lost:
            bad.append("%s: %d words of the piped output are not whole on the console: %s"
                       % (g, len(lost), " ".join(sorted(set(lost))[:8])))
        folded = any(g.startswith(k.split("/")[0] + "/") and g.endswith("-" + k.split("/")[1])
                     for k in FOLDED)
        for l in lines:
            if len(l) > 80 and not folded and not any(len(w) >= 30 for w in l.split()):
                bad.append("%s: %d columns: %s" % (g, len(l), l[:120]))
                break
print("%d views on %d panes" % (views, len(panes)))
for b in bad:
    print("BAD " + b)
sys.exit(1 if bad else 0)
PY
rc=$?
if [ $rc -eq 0 ]; then
	t_ok "80x24 walk: $(head -n1 "$T_TMP/report"), every word whole, every line within 80"
else
	t_fail "80x24 walk: $(head -n1 "$T_TMP/report")"
	grep '^BAD ' "$T_TMP/report" | head -n 40 | sed 's/^BAD /#   /'
fi
t_done
