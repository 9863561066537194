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
t_done
