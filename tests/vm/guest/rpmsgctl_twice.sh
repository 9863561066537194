#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# Two at once: two rpmsgctl processes creating endpoints on one control device by the
# legacy path, which does not say which /dev/rpmsgN it made, at the same moment, ROUNDS
# times each. Each names a device that is its own (its name and addresses in sysfs), no
# device is named twice, and no endpoint is left that nobody named; with identical
# endpoints every create succeeds (which of the two each names, the legacy uAPI cannot say). Two dmabufcp copies to one DST at once: both
# succeed and DST is one of them, whole.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp/twice
ROUNDS=${SOCBOX_TWICE_ROUNDS:-40}
mkdir -p $T

creator() { # NAME OUT: ROUNDS creates, one device name per line
	: >"$2"
	k=0
	while [ $k -lt "$ROUNDS" ]; do
		k=$((k + 1))
		$R ept create "$1" --method legacy -r -n -o DEVICE >>"$2" 2>>"$2.err" || echo "failed" >>"$2"
	done
}
cleanup() {
	cat "$@" 2>/dev/null | while read -r d; do
		[ "$d" = failed ] || $R ept destroy "$d" >/dev/null 2>&1
	done
}

n0=$(endpoint_devices)
# distinct endpoints: each process must get its own
creator twice-a $T/a &
pa=$!
creator twice-b $T/b &
pb=$!
wait $pa $pb
sed 's/^/# a: /' $T/a.err | head -5
sed 's/^/# b: /' $T/b.err | head -5
is "$(grep -c '^rpmsg[0-9]' $T/a) $(grep -c '^rpmsg[0-9]' $T/b)" "$ROUNDS $ROUNDS" "both made every endpoint they were asked for"
wrong=0
for who in a b; do
	wrong=$((wrong + $(grep '^rpmsg' $T/$who | while read -r d; do
		[ "$(cat "/sys/class/rpmsg/$d/name")" = "twice-$who" ] || echo x
	done | wc -l)))
done
is "$wrong" 0 "each device named is the process's own endpoint"
is "$(cat $T/a $T/b | grep '^rpmsg' | sort | uniq -d | wc -l)" 0 "no device named twice"
is "$(endpoint_devices)" "$((n0 + 2 * ROUNDS))" "no endpoint nobody named"
cleanup $T/a $T/b
is "$(endpoint_devices)" "$n0" "all destroyed again"

# identical endpoints: the legacy ioctl does not say which node it made, and two identical
# endpoints made at the same moment look the same in sysfs, so a process may name the other's
# (rpmsg_lookup.c says so; the fd ioctl has no such race). What holds: the kernel made every
# endpoint, a create whose pick the other process holds open takes the next one instead of
# failing (EBUSY), and each create exits 0 or says why in one line.
creator twice-same $T/c &
pa=$!
creator twice-same $T/d &
pb=$!
wait $pa $pb
sed 's/^/# c: /' $T/c.err | head -5
sed 's/^/# d: /' $T/d.err | head -5
is "$(grep -c '^rpmsg[0-9]' $T/c) $(grep -c '^rpmsg[0-9]' $T/d)" "$ROUNDS $ROUNDS" "identical: both made every endpoint"
is "$(endpoint_devices)" "$((n0 + 2 * ROUNDS))" "identical: the kernel made every endpoint"
diag "identical: $(cat $T/c $T/d | grep '^rpmsg' | sort | uniq -d | wc -l) device(s) named by both"
for d in /sys/class/rpmsg/rpmsg[0-9]*; do
	[ "$(cat "$d/name" 2>/dev/null)" = twice-same ] && $R ept destroy "${d##*/}" >/dev/null 2>&1
done
is "$(endpoint_devices)" "$n0" "identical: all destroyed again"

# two copies to one DST at once
D="$DATA/twice"
mkdir -p "$D"
head -c $((8 * 1048576)) /dev/urandom >"$D"/one
head -c $((8 * 1048576)) /dev/urandom >"$D"/two
dmabufcp -m read "$D"/one heap:system "$D"/out 2>$T/one.err &
pa=$!
dmabufcp -m read "$D"/two heap:system "$D"/out 2>$T/two.err &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
cat $T/one.err $T/two.err | sed 's/^/# /'
is "$ra $rb" "0 0" "two copies to one DST: both succeed"
# shellcheck disable=SC2317 # called through ok
one_of_them() { cmp -s "$D/one" "$D/out" || cmp -s "$D/two" "$D/out"; }
ok "DST is one of them, whole" one_of_them
# shellcheck disable=SC2010 # the names are ours
is "$(ls -A "$D" | grep -c dmabufcp)" 0 "no temporary left"
rm -rf "$D"
done_testing
