#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every fixture directory says where it came from: a README that says captured (from what)
# or modelled (on which kernel source), or what generated it.
. "$SOCBOX_TESTLIB"
for d in "$SOCBOX_FIXTURES"/*/; do
	name=$(basename "$d")
	if [ -s "$d/README" ]; then
		t_ok "$name has a README"
		t_grep "$name: README says captured, modelled or generated" 'captured|modelled|generat|writes' "$d/README"
	else
		t_fail "$name has no README saying where it came from"
	fi
done

# The netdev family came in Linux 6.3 (queues and NAPIs 6.9, qstats 6.10): the kernel the
# captures name must be one that has what they hold.
readme="$SOCBOX_FIXTURES/netlink/README"
v=$(grep -oE 'captured on Linux [0-9]+\.[0-9]+' "$readme" | head -n 1 | cut -d' ' -f4)
major=${v%%.*} minor=${v#*.}
if [ -z "$v" ]; then
	t_fail "netlink: README does not say 'captured on Linux X.Y'"
elif [ "$major" -gt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -ge 10 ]; }; then
	t_ok "netlink: captured on Linux $v, which has qstats"
else
	t_fail "netlink: captured on Linux $v, older than the qstats the captures hold"
fi
t_nogrep "netlink: README names no kernel without the netdev family" "(^|[^0-9.])6\.[0-2]([^0-9]|$)" "$readme"
t_done
