#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# bench/rpmsg in the guest: `rpmsgctl bench --method legacy` against plain C loops of the
# same ioctls (socbox-rpmsg-loop, tests/vm/helpers/rpmsg_loop.c): the seed thread's loop
# (opens /dev/rpmsg0 without asking), the plain loop (learns the node once from sysfs), the
# plain loop listing the control device's sysfs directory after every create (rpmsgctl's
# fallback), the plain loop asking sysfs only about the node it expects (fstatat + fstat, the
# cheapest check of a guess), the plain loop reading an inotify watch on /dev (rpmsgctl's
# lookup where the kernel has inotify) and the plain loop listening on the uevent socket
# (its former lookup). ROUNDS rounds, the order rotating, so load
# from outside hits every variant alike. Per round the ratio rpmsgctl/reference, of the
# totals and of the median iteration (which other guests on a shared host disturb least);
# printed as min/median/max over the rounds. Timing is printed, never asserted.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
LOOPS=${RPMSG_BENCH_LOOPS:-1000}
ROUNDS=${RPMSG_BENCH_ROUNDS:-9}
VARIANTS="seed plain lsys lstat lino uev tool"

ok "socbox-rpmsg-loop helper is in the guest" test -x /usr/bin/socbox-rpmsg-loop
for v in $VARIANTS; do : >"/tmp/${v}_total"; : >"/tmp/${v}_iter"; done
loop_round() { # NAME [uevent|seed|sysfs]
	line=$(socbox-rpmsg-loop /dev/rpmsg_ctrl0 "$LOOPS" ${2:+"$2"})
	like "$line" '^loops [0-9]+ total_us [0-9]+ median_us [0-9.]+$' "$1 round $i: $line"
	echo "$line" | sed -n 's/.* total_us \([0-9]*\).*/\1/p' >>"/tmp/$1_total"
	echo "$line" | sed -n 's/.* median_us \([0-9.]*\).*/\1/p' >>"/tmp/$1_iter"
}
tool_round() {
	json=$(rpmsgctl bench -q --method legacy --loops "$LOOPS" -J | tr -d ' \n')
	t=$(echo "$json" | sed -n 's/.*"legacy_us":\([0-9]*\).*/\1/p')
	m=$(echo "$json" | sed -n 's/.*"op":"iteration","min_us":[0-9.]*,"median_us":\([0-9.]*\).*/\1/p')
	lookup=$(echo "$json" | sed -n 's/.*"node_lookup":"\([a-z]*\)".*/\1/p')
	like "$t $m $lookup" '^[0-9]+ [0-9.]+ (inotify|sysfs)$' "rpmsgctl bench round $i: total_us $t median_us $m node_lookup $lookup"
	echo "$t" >>/tmp/tool_total
	echo "$m" >>/tmp/tool_iter
	echo "$lookup" >/tmp/tool_lookup
}
run_variant() {
	case $1 in
	seed) loop_round seed seed ;;
	plain) loop_round plain ;;
	lsys) loop_round lsys sysfs ;;
	lstat) loop_round lstat stat ;;
	lino) loop_round lino inotify ;;
	uev) loop_round uev uevent ;;
	tool) tool_round ;;
	esac
}
# the order rotates every round, so no variant always runs first or last
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	# shellcheck disable=SC2086 # word splitting of the list is meant
	set -- $VARIANTS
	k=0
	while [ $k -lt $((i % 7)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for v in "$@"; do run_variant "$v"; done
done
# min/median/max over the rounds of the per-round ratio A/B
spread() { # A B
	paste -d' ' "/tmp/$1" "/tmp/$2" |
		awk '$2 > 0 { printf "%.3f\n", $1 / $2 }' | sort -n |
		awk '{ v[NR] = $1 } END { if (NR) printf "min %s median %s max %s", v[1], v[int((NR + 1) / 2)], v[NR]; else print "n/a" }'
}
med() { sort -n "/tmp/$1" | sed -n "$(((ROUNDS + 1) / 2))p"; }
diag "bench: $LOOPS loops, $ROUNDS rounds in rotating order; node lookup: $(cat /tmp/tool_lookup); guest load $(cut -d' ' -f1-3 /proc/loadavg)"
diag "bench: median total_us:     seed $(med seed_total), plain $(med plain_total), plain+sysfs $(med lsys_total), plain+uevent $(med uev_total), rpmsgctl $(med tool_total)"
diag "bench: median iteration_us: seed $(med seed_iter), plain $(med plain_iter), plain+sysfs $(med lsys_iter), plain+uevent $(med uev_iter), rpmsgctl $(med tool_iter)"
diag "bench: ratio rpmsgctl/seed total:          $(spread tool_total seed_total)"
diag "bench: ratio rpmsgctl/seed iteration:      $(spread tool_iter seed_iter)"
diag "bench: ratio rpmsgctl/plain total:         $(spread tool_total plain_total)"
diag "bench: ratio rpmsgctl/plain+uevent total:  $(spread tool_total uev_total)"
diag "bench: ratio rpmsgctl/plain+sysfs total:   $(spread tool_total lsys_total)"
diag "bench: ratio plain+sysfs/seed iteration:   $(spread lsys_iter seed_iter)"
diag "bench: ratio plain+uevent/seed iteration:  $(spread uev_iter seed_iter)"
diag "bench: ratio plain+stat/seed iteration:    $(spread lstat_iter seed_iter)"
diag "bench: ratio plain+stat/seed total:        $(spread lstat_total seed_total)"
diag "bench: ratio plain+inotify/seed iteration: $(spread lino_iter seed_iter)"
diag "bench: ratio plain+inotify/seed total:     $(spread lino_total seed_total)"
ok "bench table" sh -c "rpmsgctl bench --loops $LOOPS --runs 3 >/tmp/bench.txt 2>&1"
sed 's/^/# /' /tmp/bench.txt
done_testing
