#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# The JSON schema only grows: the JSON every golden view prints now still has every key
# path, with the same type, that tests/expected/schema/ recorded (tests/expected/schema.py);
# keys are snake_case. The check is shown to fail on a lost key and on a changed type.
. "$SOCBOX_TESTLIB"
EXP=$(dirname "$SOCBOX_TESTLIB")/expected
t_need python3 python3 || t_done

if ! "$EXP/generate" "$SOCBOX" "$T_TMP/got" json 2>"$T_TMP/gen.err"; then
	t_fail "tests/expected/generate failed: $(head -c 400 "$T_TMP/gen.err")"
	t_done
fi
t_run "the outputs keep the committed schema" 0 python3 "$EXP/schema.py" check "$EXP/schema" "$T_TMP/got"
t_grep "every view was checked" '^[1-9][0-9]* views, [1-9][0-9]* key paths' "$T_TMP/out"
grep '^schema:' "$T_TMP/out" | head -20

# a deprecated key is marked in the schema, and its manual page names it with the key to
# read instead: "KEY (deprecated: use NEW)"
top=$(cd "$EXP/../.." && pwd)
grep -v '^#' "$EXP/schema/deprecated" | while read -r view path repl _; do
	[ -n "$view" ] || continue
	page=$top/man/${view%%-*}.1
	key=${path##*.} new=${repl##*.}
	if awk -v p="$path" -v r="$repl" 'index($0, p " ") == 1 && index($0, "  # deprecated: use " r) { f = 1 }
		END { exit !f }' "$EXP/schema/$view"; then
		echo "ok - $view: $path marked deprecated for $repl"
	else
		echo "not ok - $view: $path is not marked '# deprecated: use $repl' in the schema"
	fi
	if MANWIDTH=200 man -l "$page" 2>/dev/null | col -bx | tr -s ' \n' '  ' |
		grep -Eq -- "${key}[^(]*\(deprecated: use [^)]*\b$new\b"; then
		echo "ok - man/${page##*/} says $key is deprecated for $new"
	else
		echo "not ok - man/${page##*/}: no '$key (deprecated: use $new)'"
	fi
done >"$T_TMP/dep"
cat "$T_TMP/dep"
t_eq "every deprecated key is marked and documented" "$(grep -c '^not ok' "$T_TMP/dep")" 0
t_grep "... and there are some" '^ok - devmemstat-bindings.txt: .bindings\[\].leaked_pools marked' "$T_TMP/dep"

# the check fails when a committed path is gone or has another type
cp -r "$EXP/schema" "$T_TMP/lost"
echo '.devices[].no_such_key number' >>"$T_TMP/lost/devmemstat-show.txt"
t_run "a lost key fails" 1 python3 "$EXP/schema.py" check "$T_TMP/lost" "$T_TMP/got"
t_grep "names the lost key" 'devmemstat-show.txt: \.devices\[\]\.no_such_key \(number\) disappeared' "$T_TMP/out"
cp -r "$EXP/schema" "$T_TMP/changed"
sed -i 's/^\.devices\[\]\.ifindex number$/.devices[].ifindex string/' "$T_TMP/changed/devmemstat-show.txt"
t_run "a changed type fails" 1 python3 "$EXP/schema.py" check "$T_TMP/changed" "$T_TMP/got"
t_grep "names the changed type" 'devmemstat-show.txt: \.devices\[\]\.ifindex was string, is now number' "$T_TMP/out"
# ... and update refuses to record such a break
t_run "update refuses a break" 1 python3 "$EXP/schema.py" update "$T_TMP/changed" "$T_TMP/got"
t_grep "the break stays unrecorded" '^\.devices\[\]\.ifindex string$' "$T_TMP/changed/devmemstat-show.txt"
t_done
