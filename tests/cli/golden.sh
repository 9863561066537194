#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Golden outputs (util-linux style): every read-only view of tests/views, on every
# fixture board and netlink capture, prints byte for byte what tests/expected/ holds, in
# text and JSON, with the same errors and exit status. A difference is either a bug or a
# change to commit: scripts/regen-expected rewrites them, git diff shows what moved.
. "$SOCBOX_TESTLIB"
EXP=$(dirname "$SOCBOX_TESTLIB")/expected

if ! "$EXP/generate" "$SOCBOX" "$T_TMP/got" 2>"$T_TMP/gen.err"; then
	t_fail "tests/expected/generate failed: $(head -c 400 "$T_TMP/gen.err")"
	t_done
fi

# the same set of files on both sides (the schema is json_schema.sh's)
list() { (cd "$1" && find . -mindepth 2 -type f ! -path './schema/*' | sort); }
list "$EXP" >"$T_TMP/want.list"
list "$T_TMP/got" >"$T_TMP/got.list"
t_grep "the views wrote outputs" 'json$' "$T_TMP/got.list"
missing=$(comm -23 "$T_TMP/want.list" "$T_TMP/got.list" | head -5 | tr '\n' ' ')
extra=$(comm -13 "$T_TMP/want.list" "$T_TMP/got.list" | head -5 | tr '\n' ' ')
t_eq "every golden output is still produced" "$missing" ""
t_eq "every output has a golden file (scripts/regen-expected)" "$extra" ""

# one diff over the whole tree, then a line per output
(cd "$T_TMP/got" && diff -rq . "$EXP" 2>/dev/null) | sed -n 's/^Files \(\.\/[^ ]*\) and .* differ$/\1/p' \
	>"$T_TMP/differ.list"
differ=$(cat "$T_TMP/differ.list")
nl='
'
n=0
while read -r f; do
	[ -f "$EXP/$f" ] || continue
	n=$((n + 1))
	case "$nl$differ$nl" in
	*"$nl$f$nl"*)
		t_fail "${f#./} differs (scripts/regen-expected to accept):
$(diff -u "$EXP/$f" "$T_TMP/got/$f" | head -20)"
		;;
	*) t_ok "${f#./}" ;;
	esac
done <"$T_TMP/got.list"
echo "# $n outputs compared, $(wc -l <"$T_TMP/differ.list") differ"
t_done
