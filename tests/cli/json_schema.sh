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
