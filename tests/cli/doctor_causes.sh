#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox doctor names the cause on broken boards (tests/fixtures/causes): every case's
# expected causes and statuses, the cause among the first lines a person reads at 80
# columns, --require failing on it, the metric of it; the catalogue (--list-causes,
# --explain) against the cases and against the man page.
. "$SOCBOX_TESTLIB"
CAUSES=$SOCBOX_FIXTURES/causes
MAN=$(dirname "$SOCBOX_TESTLIB")/../man/socbox.1
# causes only the live kernel can show (a node's mode for this user, a NIC's ethtool state):
# tests/vm/guest/doctor-causes.sh and tests/host/doctor_devmem.sh make them
LIVE_ONLY='dmabuf.heap-denied netdev.devmem-unsupported'

doctor() { # CASE ARGS...: doctor on the laid-out case, with the case's own args
	_case=$1
	shift
	# shellcheck disable=SC2046 # args: words by design
	env COLUMNS=80 "$SOCBOX" doctor --sysroot "$T_TMP/root/$_case" \
		$(cat "$CAUSES/$_case/args" 2>/dev/null) "$@"
}

ncases=0
for d in "$CAUSES"/*/; do
	name=$(basename "$d")
	[ -f "$d/expect" ] || continue
	ncases=$((ncases + 1))
	if ! "$CAUSES/compose" "$d" "$T_TMP/root/$name" 2>"$T_TMP/err"; then
		t_fail "$name: compose: $(cat "$T_TMP/err")"
		continue
	fi
	t_grep "$name: README names the kernel source of its strings" '\.c\b|generated' "$d/README"
	doctor "$name" -J >"$T_TMP/$name.json" 2>"$T_TMP/err"
	rc=$?
	t_eq "$name: doctor -J exits 0" "$rc" 0
	doctor "$name" >"$T_TMP/$name.txt" 2>&1
	first=
	while read -r word a b; do
		case $word in
		'' | '#'*) continue ;;
		status)
			t_jq "$name: $a is $b" ".subsystems[] | select(.subsystem==\"$a\") | .status==\"$b\"" \
				"$T_TMP/$name.json"
			if [ "$b" != ok ]; then
				t_run "$name: --require $a fails" 1 doctor "$name" --require "$a"
				t_grep "$name: --require names why" "^socbox: $a: required subsystem is $b: " "$T_TMP/err"
			fi
			;;
		no)
			# no CODE: a healthy control, doctor must not name it
			t_jq "$name: names no $a" "[.causes[] | select(.code==\"$a\")] | length == 0" \
				"$T_TMP/$name.json"
			;;
		says)
			# says CODE FIELD TEXT: that cause's diagnosis, evidence or fix holds TEXT
			field=${b%% *}
			text=$(printf '%s' "${b#* }" | sed 's/["\\]/\\&/g')
			t_jq "$name: $a's $field says $text" \
				"[.causes[] | select(.code==\"$a\") | .$field | contains(\"$text\")] | any" \
				"$T_TMP/$name.json"
			;;
		*)
			object=${a}${b:+ $b}
			t_jq "$name: names $word $object" \
				"[.causes[] | select(.code==\"$word\" and .object==\"$object\")] | length == 1" \
				"$T_TMP/$name.json"
			t_jq "$name: $word has evidence, diagnosis and fix" \
				".causes[] | select(.code==\"$word\") | (.evidence|length) > 10 and (.diagnosis|length) > 10 and (.fix|length) > 10" \
				"$T_TMP/$name.json"
			[ -n "$first" ] || first=$word
			;;
		esac
	done <"$d/expect"
	# a person at an 80-column console reads the cause before anything else
	[ -n "$first" ] || continue # a healthy control names nothing
	line=$(grep -n "^\(  *\)\{0,1\}\(-> \)\{0,1\}$first " "$T_TMP/$name.txt" | head -n1 | cut -d: -f1)
	if [ -n "$line" ] && [ "$line" -le 14 ]; then
		t_ok "$name: $first on line $line at 80 columns"
	else
		t_fail "$name: $first not among the first 14 lines: $(head -n 16 "$T_TMP/$name.txt")"
	fi
done
t_eq "every case was checked" "$([ "$ncases" -ge 20 ] && echo yes)" yes

# the catalogue: every code has a case (or is live-only), --explain knows each, the man
# page lists exactly these codes
t_run "--list-causes" 0 "$SOCBOX" doctor --list-causes -r -n
cut -d' ' -f1 "$T_TMP/out" | sort >"$T_TMP/codes"
t_eq "the catalogue is not empty" "$([ "$(wc -l <"$T_TMP/codes")" -ge 25 ] && echo yes)" yes
cat "$CAUSES"/*/expect | awk '$1 != "status" && $1 != "says" && $1 != "no" {print $1}' | sort -u >"$T_TMP/covered"
for code in $LIVE_ONLY; do echo "$code"; done >>"$T_TMP/covered"
t_eq "every cause has a fixture case (or is live-only)" \
	"$(sort -u "$T_TMP/covered" | comm -23 "$T_TMP/codes" - | tr '\n' ' ')" ""
t_eq "every case names a cause of the catalogue" \
	"$(sort -u "$T_TMP/covered" | comm -13 "$T_TMP/codes" - | tr '\n' ' ')" ""
sed -n '/^\.SH CAUSES/,/^\.SH [^C]/p' "$MAN" | sed -n 's/^\.B \([a-z]*\.[a-z\\-]*\)$/\1/p' |
	sed 's/\\-/-/g' | sort >"$T_TMP/man"
t_eq "socbox(1) lists every cause" "$(comm -23 "$T_TMP/codes" "$T_TMP/man" | tr '\n' ' ')" ""
t_eq "socbox(1) lists no other cause" "$(comm -13 "$T_TMP/codes" "$T_TMP/man" | tr '\n' ' ')" ""
while read -r code; do
	if "$SOCBOX" doctor --explain "$code" -J >"$T_TMP/out" 2>"$T_TMP/err"; then
		t_jq "--explain $code" ".code==\"$code\" and (.evidence|test(\"\\\\.c\")) and (.fix|length) > 10" "$T_TMP/out"
	else
		t_fail "--explain $code: $(cat "$T_TMP/err")"
	fi
done <"$T_TMP/codes"
t_run "--explain an unknown code" 2 "$SOCBOX" doctor --explain rpmsg.firmware
t_grep "did you mean" "no such cause 'rpmsg\\.firmware'; did you mean 'rpmsg\\.firmware-missing'\\?" "$T_TMP/err"

# what fleets and factories read
t_run "metrics name the cause" 0 doctor am62x-firmware-missing --format openmetrics
t_grep "socbox_doctor_cause" '^socbox_doctor_cause\{code="rpmsg\.firmware-missing",subsystem="rpmsg",object="remoteproc0"\} 1$' "$T_TMP/out"
t_grep "the failed status as a state" '^socbox_doctor_subsystems_status\{subsystem="rpmsg",status="failed"\} 1$' "$T_TMP/out"
t_run "-o subsystem,status prints the subsystems alone" 0 doctor am62x-firmware-missing -r -n -o subsystem,status
t_eq "four subsystem rows" "$(wc -l <"$T_TMP/out")" 4
t_run "--buffer-size takes sizes only" 2 "$SOCBOX" doctor --sysroot "$SOCBOX_FIXTURES/am62x" --buffer-size lots
t_grep "... naming the option and the value" "socbox doctor: --buffer-size: 'lots' is not a size" "$T_TMP/err"
t_run "--buffer-size 0 is no buffer" 2 "$SOCBOX" doctor --sysroot "$SOCBOX_FIXTURES/am62x" --buffer-size 0
t_grep "... saying the bound" "--buffer-size: '0' is out of range \(at least 1\)" "$T_TMP/err"
t_run "--buffer-size=8M is taken" 0 "$SOCBOX" doctor --sysroot "$SOCBOX_FIXTURES/am62x" -q --buffer-size=8M
t_done
