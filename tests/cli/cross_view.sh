#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# One truth per object (tests/cli/cross_view.py): every board fixture and every broken board
# of tests/fixtures/causes through each view that names its objects, from -J; a remote
# processor, an IOMMU instance or a heap must have the same name and state in all of them.
. "$SOCBOX_TESTLIB"
t_need python3 python3 || t_done
mkdir -p "$T_TMP/work"
python3 "$(dirname "$0")/cross_view.py" "$SOCBOX" "$SOCBOX_FIXTURES" "$T_TMP/work" >"$T_TMP/log" 2>&1
rc=$?
grep '^not ok' "$T_TMP/log" | cut -c1-400
if [ "$rc" -eq 0 ]; then
	t_ok "one name and state per object across views: $(tail -n1 "$T_TMP/log" | sed 's/^# //')"
else
	tail -n3 "$T_TMP/log" | grep -v '^not ok'
	t_fail "one name and state per object across views: $(tail -n1 "$T_TMP/log" | sed 's/^# //')"
fi
t_done
