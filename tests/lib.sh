# SPDX-License-Identifier: GPL-2.0-or-later
# Helpers for the cli and host tiers (sourced by tests/<tier>/*.sh; POSIX sh).
# Each script runs with $SOCBOX (the built binary) and $SOCBOX_FIXTURES set by ctest, prints
# one line per check, and exits non-zero when any check failed. Nothing is ever skipped:
# a missing prerequisite is a failure that says what is missing.
set -u
T_PASS=0
T_FAIL=0
T_TMP=$(mktemp -d "${TMPDIR:-/tmp}/socbox-test.XXXXXX")
trap 't_cleanup' EXIT

t_cleanup() {
	rm -rf "$T_TMP"
}

# t_need TOOL PACKAGE: a tool the checks below need; its absence is a failure naming the
# Debian package (scripts/setup installs them all), never a silent pass.
t_need() {
	command -v "$1" >/dev/null 2>&1 && return 0
	t_fail "$1 is missing: install Debian's $2 (scripts/setup installs every package the tests need)"
	return 1
}

t_ok() { T_PASS=$((T_PASS + 1)); echo "ok - $*"; }
t_fail() { T_FAIL=$((T_FAIL + 1)); echo "not ok - $*"; }

# t_run NAME EXPECTED_EXIT CMD...: run, keep stdout in $T_TMP/out and stderr in $T_TMP/err.
t_run() {
	_name=$1 _want=$2
	shift 2
	"$@" >"$T_TMP/out" 2>"$T_TMP/err"
	_got=$?
	if [ "$_got" -eq "$_want" ]; then
		t_ok "$_name (exit $_got)"
	else
		t_fail "$_name: exit $_got, wanted $_want; stderr: $(head -c 400 "$T_TMP/err")"
	fi
}

# t_grep NAME PATTERN FILE: extended regex must match a line of FILE.
t_grep() {
	if grep -Eq -- "$2" "$3"; then t_ok "$1"; else t_fail "$1: /$2/ not in $(basename "$3"): $(head -c 400 "$3")"; fi
}
t_nogrep() {
	if grep -Eq -- "$2" "$3"; then t_fail "$1: /$2/ unexpectedly in $(basename "$3")"; else t_ok "$1"; fi
}

# t_json NAME FILE: FILE must be valid JSON (checked by a real parser).
t_json() {
	t_need python3 python3 || return 0
	if python3 -m json.tool "$2" >/dev/null 2>"$T_TMP/json.err"; then t_ok "$1: valid JSON"
	else t_fail "$1: invalid JSON: $(cat "$T_TMP/json.err")"; fi
}

# t_jq NAME FILTER FILE: jq -e FILTER must yield true.
t_jq() {
	t_need jq jq || return 0
	if jq -e "$2" "$3" >/dev/null 2>&1; then t_ok "$1"; else t_fail "$1: jq '$2' is not true for $(head -c 300 "$3")"; fi
}

# t_eq NAME GOT WANT
t_eq() {
	if [ "$2" = "$3" ]; then t_ok "$1"; else t_fail "$1: got '$2', wanted '$3'"; fi
}

# t_wait CMD...: until CMD succeeds, polling every 50 ms for at most 20 s; 0 when it did.
# Wait for the effect or a readiness line this way, never with a sleep that hopes.
t_wait() {
	_w=0
	until "$@"; do
		_w=$((_w + 1))
		[ $_w -lt 400 ] || return 1
		sleep 0.05
	done
}

# t_wait_line FILE ERE: t_wait until a line of FILE matches
t_wait_line() {
	t_wait grep -Eq -- "$2" "$1"
}

t_done() {
	echo "$T_PASS passed, $T_FAIL failed"
	[ "$T_FAIL" -eq 0 ] && [ "$T_PASS" -gt 0 ]
	exit $?
}
