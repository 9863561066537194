#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# bench/rpmsg in the guest: `rpmsgctl bench --method legacy` against a plain C loop of the
# same ioctls (socbox-rpmsg-loop, tests/vm/helpers/rpmsg_loop.c), alternated three times
# each, and the overhead ratio. Timing is printed, never asserted.
# shellcheck source=../lib.sh
. /tests/lib.sh
LOOPS=${RPMSG_BENCH_LOOPS:-1000}

ok "socbox-rpmsg-loop helper is in the guest" test -x /usr/bin/socbox-rpmsg-loop
plain=0
tool=0
for i in 1 2 3; do
	p=$(socbox-rpmsg-loop /dev/rpmsg_ctrl0 "$LOOPS" | sed -n 's/^loops [0-9]* total_us \([0-9]*\)$/\1/p')
	like "$p" '^[0-9]+$' "plain loop run $i ($p us)"
	t=$(rpmsgctl bench --method legacy --loops "$LOOPS" -r -n -o LEGACY_US)
	like "$t" '^[0-9]+$' "rpmsgctl bench run $i ($t us)"
	plain=$((plain + ${p:-0}))
	tool=$((tool + ${t:-0}))
done
diag "bench: loops $LOOPS x 3, plain C loop total_us $plain, rpmsgctl bench total_us $tool"
[ "$plain" -gt 0 ] && diag "bench: overhead ratio rpmsgctl/plain = $(awk -v a="$tool" -v b="$plain" 'BEGIN { printf "%.3f", a / b }')"
ok "bench table" sh -c "rpmsgctl bench --loops $LOOPS --runs 3 >/tmp/bench.txt 2>&1"
sed 's/^/# /' /tmp/bench.txt
done_testing
