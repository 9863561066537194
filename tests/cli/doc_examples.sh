#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Documentation that runs: every example of README.md and of the man pages' EXAMPLES, as
# its marking says (HACKING.md, "Examples that run"): on a fixture board with the exit
# status and output it shows (the goldens'), or live-only and exit 3 on a sysroot. An
# example without a marking fails, so none is added untested.
. "$SOCBOX_TESTLIB"
t_need python3 python3 || t_done
top=$(cd "$SOCBOX_FIXTURES/../.." && pwd)
python3 "$(dirname "$0")/doc_examples.py" "$top" "$SOCBOX" "$T_TMP/work" >"$T_TMP/log" 2>&1
rc=$?
grep '^not ok' "$T_TMP/log" | cut -c1-2000
if [ "$rc" -eq 0 ]; then
	t_ok "documentation examples: $(tail -n1 "$T_TMP/log" | sed 's/^# //')"
else
	tail -n3 "$T_TMP/log" | grep -v '^not ok'
	t_fail "documentation examples: $(tail -n1 "$T_TMP/log" | sed 's/^# //')"
fi
t_done
