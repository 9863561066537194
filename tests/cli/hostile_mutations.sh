#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Hostile copies of every fixture tree, every read-only view on each: see
# hostile_mutations.py (no hang, exit 0-4, no sanitizer report, one stderr line on error,
# valid JSON, nothing from outside the root).
. "$SOCBOX_TESTLIB"
t_need python3 python3 || t_done
if python3 "$(dirname "$0")/hostile_mutations.py" "$T_TMP" >"$T_TMP/log" 2>&1; then
	t_ok "hostile sysroots: $(tail -n1 "$T_TMP/log")"
else
	grep -E '^(not ok|mutant) ' "$T_TMP/log" | cut -c1-400 | head -n 60
	t_fail "hostile sysroots: $(tail -n1 "$T_TMP/log")"
fi
t_done
