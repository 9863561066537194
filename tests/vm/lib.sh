# SPDX-License-Identifier: GPL-2.0-or-later
# TAP helpers for vm-tier guest tests (busybox sh). Source it: . /tests/lib.sh
#
#   plan N                   announce N tests (or let done_testing print the plan at the end)
#   ok DESC CMD [ARG...]     pass if CMD exits 0; CMD's output is shown as "# " diagnostics
#   not_ok DESC CMD [ARG...] pass if CMD exits non-zero (an expected failure)
#   is GOT WANT DESC         pass if the strings are equal
#   like GOT ERE DESC        pass if any line of GOT matches the extended regular expression
#   diag TEXT...             print a "# " diagnostic line
#   wait_for CMD [ARG...]    until CMD succeeds (every 20 ms, 20 s at most); 0 when it did:
#                            wait for the effect or a readiness line, never sleep and hope
#   wait_line FILE ERE       wait_for a line of FILE that matches
#   genl_sock PID FIELD      column FIELD of PID's generic netlink socket in /proc/net/netlink
#                            (its port id is its pid): 5 bytes queued, 9 notifications dropped
#   genl_drained PID         that socket holds nothing (netlink drops until then after ENOBUFS)
#   endpoint_devices         how many rpmsg endpoint devices (/sys/class/rpmsg/rpmsgN) exist
#   doctor_causes [ARG...]   socbox doctor's causes, "CODE OBJECT" a line (doctor -J ARG...)
#   doctor_cause CODE OBJECT FIELD [ARG...]
#                            that cause's FIELD (diagnosis, evidence, fix, follows) as its
#                            JSON value (a string keeps its quotes and escapes), or nothing
#   bail_out REASON          a test that cannot go on: one "not ok" line, then done_testing
#   done_testing             print the plan if none was given, check the count, exit 1 on failure
#
# There is no skip: in this tier a check that cannot run is a failure.

_tap_n=0
_tap_failed=0
_tap_plan=

plan() {
	_tap_plan=$1
	echo "1..$1"
}

diag() {
	echo "# $*"
}

_tap_result() { # STATUS DESC
	_tap_n=$((_tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $_tap_n - $2"
	else
		_tap_failed=$((_tap_failed + 1))
		echo "not ok $_tap_n - $2"
	fi
}

_tap_run() { # CMD... with its output turned into diagnostics; returns CMD's status
	_tap_out=$("$@" 2>&1)
	_tap_rc=$?
	[ -z "$_tap_out" ] || printf '%s\n' "$_tap_out" | sed 's/^/# /'
	return $_tap_rc
}

ok() {
	_tap_desc=$1
	shift
	_tap_run "$@"
	_tap_result $? "$_tap_desc"
}

not_ok() {
	_tap_desc=$1
	shift
	if _tap_run "$@"; then _tap_result 1 "$_tap_desc"; else _tap_result 0 "$_tap_desc"; fi
}

is() {
	if [ "$1" = "$2" ]; then
		_tap_result 0 "$3"
	else
		_tap_result 1 "$3"
		diag "got:  '$1'"
		diag "want: '$2'"
	fi
}

like() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		_tap_result 0 "$3"
	else
		_tap_result 1 "$3"
		diag "got:  '$1'"
		diag "want match for: $2"
	fi
}

unlike() {
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		_tap_result 1 "$3"
		diag "got:  '$1'"
		diag "want no match for: $2"
	else
		_tap_result 0 "$3"
	fi
}

wait_for() {
	_w=0
	until "$@"; do
		_w=$((_w + 1))
		[ $_w -lt 1000 ] || return 1
		usleep 20000
	done
}

genl_sock() {
	awk -v p="$1" -v f="$2" '$2 == 16 && $3 == p { print $f }' /proc/net/netlink
}

genl_drained() {
	[ "$(genl_sock "$1" 5)" = 0 ]
}

wait_line() {
	wait_for grep -Eq -- "$2" "$1"
}

# QEMU's edu device (1234:11e8), the guests' spare PCI function: its BDF, or nothing
edu_device() {
	e=$(grep -l '^0x11e8$' /sys/bus/pci/devices/*/device 2>/dev/null | head -n1)
	e=${e%/device}
	echo "${e##*/}"
}
# BDF's PCI requester ID (bus << 8 | device << 3 | function), in decimal
requester_id() {
	b=$((0x$(echo "$1" | cut -d: -f2)))
	s=$((0x$(echo "$1" | cut -d: -f3 | cut -d. -f1)))
	echo $((b << 8 | s << 3 | ${1##*.}))
}

endpoint_devices() { # how many /sys/class/rpmsg/rpmsgN exist
	n=0
	for d in /sys/class/rpmsg/rpmsg[0-9]*; do
		[ -e "$d" ] && n=$((n + 1))
	done
	echo $n
}

# The test remote processor (tests/vm/rproc_remote, test kernel): test_remote prints its
# remoteprocN; with rp set to it, state_is STATE, rproc_ctrl (the index of the rpmsg control
# device below it) and has_channel (its rpmsg-raw channel is on the bus).
test_remote() { rpmsgctl rproc status -r -n -o ID,NAME | awk '$2 == "socbox-remote" { print $1 }'; }
# shellcheck disable=SC2317,SC2154 # called through ok and wait_for; rp is the caller's
state_is() { [ "$(cat "/sys/class/remoteproc/$rp/state")" = "$1" ]; }
# shellcheck disable=SC2317 # called through ok and wait_for
has_channel() { ls /sys/bus/rpmsg/devices/ | grep -q "\.rpmsg-raw\."; }
# shellcheck disable=SC2154 # rp is the caller's
rproc_ctrl() {
	for c in /sys/class/rpmsg/rpmsg_ctrl*; do
		case $(readlink -f "$c") in */$rp/*) echo "${c##*rpmsg_ctrl}"; return 0 ;; esac
	done
	return 1
}

# socbox doctor -J prints one key a line: a cause's code and object come before its other
# fields (lib/doctor's output order), so one pass finds them.
_doctor_json_causes() { # CODE OBJECT FIELD (or "" "" "" for every cause's code and object)
	awk -v want_code="$1" -v want_obj="$2" -v field="$3" '
		function val(line) { sub(/^ *"[a-z_]*": /, "", line); sub(/,$/, "", line); return line }
		/^  "causes": \[/ { in_causes = 1; next }
		/^  []"]/ { in_causes = 0 }
		!in_causes { next }
		/^      "code": / { code = val($0); gsub(/"/, "", code); next }
		/^      "object": / {
			obj = val($0); gsub(/"/, "", obj)
			if (field == "") print code, obj
			next
		}
		field != "" && code == want_code && obj == want_obj && $0 ~ "^      \"" field "\": " { print val($0) }
	'
}
# shellcheck disable=SC2120 # the arguments are doctor's, and optional
doctor_causes() { "$SOCBOX" doctor -J "$@" | _doctor_json_causes "" "" ""; }
doctor_cause() { # CODE OBJECT FIELD [ARG...]
	_dc_code=$1 _dc_obj=$2 _dc_field=$3
	shift 3
	"$SOCBOX" doctor -J "$@" | _doctor_json_causes "$_dc_code" "$_dc_obj" "$_dc_field"
}

bail_out() {
	_tap_result 1 "$*"
	done_testing
}

done_testing() {
	if [ -z "$_tap_plan" ]; then
		echo "1..$_tap_n"
	elif [ "$_tap_plan" -ne "$_tap_n" ]; then
		_tap_result 1 "planned $_tap_plan tests but ran $_tap_n"
	fi
	[ "$_tap_failed" -eq 0 ] && [ "$_tap_n" -gt 0 ]
	exit $?
}
