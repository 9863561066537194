#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Read limits are chosen once (lib/include/socbox/limits.h), documented (HACKING.md,
# "Limits") and used by name: no read of a root or of a named file takes a bare number.
. "$SOCBOX_TESTLIB"
top=$(cd "$(dirname "$0")/../.." && pwd)
limits=$top/lib/include/socbox/limits.h

names=$(sed -n 's/^#define \(SB_[A-Z_]*\) .*/\1/p' "$limits")
[ -n "$names" ] || t_fail "no limit found in $limits"
for n in $names; do
	if grep -q "\`$n\`" "$top/HACKING.md"; then t_ok "$n is documented"; else t_fail "$n is not in HACKING.md's Limits table"; fi
	if grep -rqw "$n" "$top/lib" "$top/cmd" --include=*.c; then t_ok "$n is used"; else t_fail "$n is defined but never used"; fi
done
# the maximum of every sb_read_file()/sb_read_user_file() call is a named limit
grep -rnE 'sb_read_(user_)?file\(' "$top/lib" "$top/cmd" --include=*.c |
	grep -vE '^[^:]*:[0-9]+:(ssize_t|int) sb_read_' |
	grep -vE 'SB_READ_[A-Z]+_MAX' >"$T_TMP/bare" || true
if [ -s "$T_TMP/bare" ]; then
	t_fail "reads without a named limit: $(sed "s|$top/||" "$T_TMP/bare" | head -n 5)"
else
	t_ok "every sb_read_file()/sb_read_user_file() names its limit"
fi
# depths and hop counts of what is followed (links, mappings, nesting) live there too; the
# JSON writer's own nesting (SB_JSON_MAX_DEPTH) bounds what socbox writes, not what it reads
grep -rnE '#define +[A-Z_]*(HOPS|LINKS|DEPTH)\b' "$top/lib" "$top/cmd" |
	grep -v "$limits" | grep -v 'SB_JSON_MAX_DEPTH' >"$T_TMP/depths" || true
if [ -s "$T_TMP/depths" ]; then
	t_fail "depth limits outside limits.h: $(sed "s|$top/||" "$T_TMP/depths" | head -n 5)"
else
	t_ok "every depth and hop limit is in limits.h"
fi
t_done
