#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# How a legacy create finds the /dev/rpmsgN it made: through inotify on /dev and sysfs
# (devtmpfs /dev, root) with other endpoint devices around, with a number the kernel gives
# out again, with two programs creating endpoints on one control device at once (inotify
# then sees other nodes too and sysfs decides); through sysfs alone where inotify cannot be
# had; and through the uevent wait where sysfs is not mounted.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
R=rpmsgctl
T=/tmp
is "$(endpoint_devices)" 0 "no endpoint device to start with"
for n in one two three; do
	ok "ept create $n" sh -c "$R ept create $n --method legacy -r -n -o DEVICE >$T/$n"
	is "$(cat "/sys/class/rpmsg/$(cat $T/$n)/name")" "$n" "ept create $n names the device it made"
done
two=$(cat $T/two)
ok "ept destroy $two" $R ept destroy "$two"
# the kernel hands out the smallest free number: the new device has two's old name but is
# not the device that was there when the listing before the ioctl was made
ok "ept create four" sh -c "$R ept create four --method legacy -r -n -o DEVICE >$T/four"
is "$(cat $T/four)" "$two" "four has the number two had"
is "$(cat "/sys/class/rpmsg/$(cat $T/four)/name")" four "and it is four's device"

ok "bench with three endpoint devices around" sh -c "$R bench --method legacy --loops 50 -J >$T/bench.json"
like "$(tr -d ' \n' <$T/bench.json)" '"uevent_source":"none","node_lookup":"inotify"' "bench learns the device from inotify"
like "$(tr -d ' \n' <$T/bench.json)" '"lookups_by_inotify":50,"lookups_by_listing":0' "every create alone: the inotify queue names the node"

# no inotify instance to be had: the listing alone
old=$(cat /proc/sys/fs/inotify/max_user_instances)
echo 0 >/proc/sys/fs/inotify/max_user_instances
$R bench --method legacy --loops 50 -J >$T/noino.json 2>$T/noino.err
rc=$?
echo "$old" >/proc/sys/fs/inotify/max_user_instances
is "$rc" 0 "bench without inotify"
sed 's/^/# /' $T/noino.err
like "$(tr -d ' \n' <$T/noino.json)" '"uevent_source":"none","node_lookup":"sysfs"' "it lists the control device's children instead"
like "$(tr -d ' \n' <$T/noino.json)" '"lookups_by_inotify":0,"lookups_by_listing":50' "every create by the listing"

# two programs creating endpoints on rpmsg_ctrl0 at the same time: each must open its own
# device (taking the other's would make the other's open fail with EBUSY)
$R bench --method legacy --loops 300 --name alpha -J >$T/alpha.json 2>$T/alpha.err &
pa=$!
$R bench --method legacy --loops 300 --name beta -J >$T/beta.json 2>$T/beta.err &
pb=$!
wait $pa
ra=$?
wait $pb
rb=$?
sed 's/^/# /' $T/alpha.err $T/beta.err
is "$ra $rb" "0 0" "two benches creating endpoints on one control device at once both succeed"
listed() { tr -d ' \n' <"$1" | sed -n 's/.*"lookups_by_listing":\([0-9]*\).*/\1/p'; }
la=$(listed $T/alpha.json)
lb=$(listed $T/beta.json)
diag "creates the listing decided while the other bench ran: alpha $la, beta $lb (of 300 each)"
ok "seeing the other's nodes in the inotify queue, they fell back to the listing" test "$((la + lb))" -gt 0

# without sysfs the listing is impossible: the uevent wait takes over
unshare -m sh -c "umount -l /sys && $R bench --method legacy --loops 20 -J" >$T/nosys.json 2>$T/nosys.err
is "$?" 0 "bench with /sys unmounted"
sed 's/^/# /' $T/nosys.err
like "$(tr -d ' \n' <$T/nosys.json)" '"uevent_source":"kernel","node_lookup":"uevent"' "it waits for the kernel's uevent instead"

for f in one three four; do
	ok "ept destroy $(cat $T/$f)" $R ept destroy "$(cat $T/$f)"
done
is "$(endpoint_devices)" 0 "no endpoint device left behind"
done_testing
