#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# bench/rpmsg in the guest: `rpmsgctl bench --method legacy` against a plain C loop of the
# same ioctls (socbox-rpmsg-loop, tests/vm/helpers/rpmsg_loop.c), alternated ROUNDS times,
# and the overhead ratio of the medians and of the best rounds. Timing is printed, never asserted.
# shellcheck source=../lib.sh
. /tests/lib.sh
LOOPS=${RPMSG_BENCH_LOOPS:-1000}
ROUNDS=${RPMSG_BENCH_ROUNDS:-7}

ok "socbox-rpmsg-loop helper is in the guest" test -x /usr/bin/socbox-rpmsg-loop
: >/tmp/plain
: >/tmp/tool
i=0
while [ $i -lt "$ROUNDS" ]; do
	i=$((i + 1))
	p=$(socbox-rpmsg-loop /dev/rpmsg_ctrl0 "$LOOPS" | sed -n 's/^loops [0-9]* total_us \([0-9]*\)$/\1/p')
	like "$p" '^[0-9]+$' "plain loop round $i: $p us"
	t=$(rpmsgctl bench --method legacy --loops "$LOOPS" -J | tr -d ' \n' | sed -n 's/.*"legacy_us":\([0-9]*\).*/\1/p')
	like "$t" '^[0-9]+$' "rpmsgctl bench round $i: $t us"
	echo "${p:-0}" >>/tmp/plain
	echo "${t:-0}" >>/tmp/tool
done
mid=$(((ROUNDS + 1) / 2))
plain=$(sort -n /tmp/plain | sed -n "${mid}p")
tool=$(sort -n /tmp/tool | sed -n "${mid}p")
pmin=$(sort -n /tmp/plain | head -n1)
tmin=$(sort -n /tmp/tool | head -n1)
diag "bench: $LOOPS loops, $ROUNDS rounds alternated"
diag "bench: plain C loop total_us per round: $(tr '\n' ' ' </tmp/plain)"
diag "bench: rpmsgctl bench total_us per round: $(tr '\n' ' ' </tmp/tool)"
if [ "${plain:-0}" -gt 0 ] && [ "${pmin:-0}" -gt 0 ]; then
	diag "bench: overhead ratio rpmsgctl/plain: median $(awk -v a="$tool" -v b="$plain" 'BEGIN { printf "%.3f", a / b }') ($tool / $plain us), best $(awk -v a="$tmin" -v b="$pmin" 'BEGIN { printf "%.3f", a / b }') ($tmin / $pmin us)"
fi
ok "bench table" sh -c "rpmsgctl bench --loops $LOOPS --runs 3 >/tmp/bench.txt 2>&1"
sed 's/^/# /' /tmp/bench.txt
done_testing
