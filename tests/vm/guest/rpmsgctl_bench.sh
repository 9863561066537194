#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# bench/rpmsg in the guest: `rpmsgctl bench --method legacy` against a plain C loop of the
# same ioctls (socbox-rpmsg-loop, tests/vm/helpers/rpmsg_loop.c), alone and listening on
# the uevent socket as rpmsgctl does, in ROUNDS rounds, the order rotating. Overhead ratios of the totals
# and of the median iteration (median round each; the iteration median is what other guests
# on a shared host disturb least). Timing is printed, never asserted.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
LOOPS=${RPMSG_BENCH_LOOPS:-1000}
ROUNDS=${RPMSG_BENCH_ROUNDS:-9}

ok "socbox-rpmsg-loop helper is in the guest" test -x /usr/bin/socbox-rpmsg-loop
for f in plain_total plain_iter uev_total uev_iter tool_total tool_iter; do : >/tmp/$f; done
plain_round() { # NAME [uevent]
	line=$(socbox-rpmsg-loop /dev/rpmsg_ctrl0 "$LOOPS" ${2:+"$2"})
	like "$line" '^loops [0-9]+ total_us [0-9]+ median_us [0-9.]+$' "$1 round $i: $line"
	echo "$line" | sed -n 's/.* total_us \([0-9]*\).*/\1/p' >>"/tmp/$1_total"
	echo "$line" | sed -n 's/.* median_us \([0-9.]*\).*/\1/p' >>"/tmp/$1_iter"
}
tool_round() {
	json=$(rpmsgctl bench -q --method legacy --loops "$LOOPS" -J | tr -d ' \n')
	t=$(echo "$json" | sed -n 's/.*"legacy_us":\([0-9]*\).*/\1/p')
	m=$(echo "$json" | sed -n 's/.*"op":"iteration","min_us":[0-9.]*,"median_us":\([0-9.]*\).*/\1/p')
	like "$t $m" '^[0-9]+ [0-9.]+$' "rpmsgctl bench round $i: total_us $t median_us $m"
	echo "$t" >>/tmp/tool_total
	echo "$m" >>/tmp/tool_iter
}
# the order rotates every round, so no variant always runs first or last
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	case $((i % 3)) in
	0) plain_round plain; plain_round uev uevent; tool_round ;;
	1) plain_round uev uevent; tool_round; plain_round plain ;;
	2) tool_round; plain_round plain; plain_round uev uevent ;;
	esac
done
mid=$(((ROUNDS + 1) / 2))
med() { sort -n "/tmp/$1" | sed -n "${mid}p"; }
ratio() { awk -v a="$(med "$1")" -v b="$(med "$2")" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print "n/a" }'; }
diag "bench: $LOOPS loops, $ROUNDS rounds in rotating order, median round of each"
diag "bench: total_us:    plain $(med plain_total), plain+uevent $(med uev_total), rpmsgctl $(med tool_total)"
diag "bench: iteration median_us: plain $(med plain_iter), plain+uevent $(med uev_iter), rpmsgctl $(med tool_iter)"
diag "bench: overhead ratio rpmsgctl/plain: total $(ratio tool_total plain_total), iteration $(ratio tool_iter plain_iter)"
diag "bench: overhead ratio rpmsgctl/plain+uevent: total $(ratio tool_total uev_total), iteration $(ratio tool_iter uev_iter)"
ok "bench table" sh -c "rpmsgctl bench --loops $LOOPS --runs 3 >/tmp/bench.txt 2>&1"
sed 's/^/# /' /tmp/bench.txt
done_testing
