#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# smmustat irq --per-cpu for a person (issue 22, item 8): the per-CPU rows whose count is 0
# are hidden in a table, with a note saying how many and how to list them; scripts (-J, -r,
# -P) get every row.
. "$SOCBOX_TESTLIB"
t_need jq jq || t_done
F=$SOCBOX_FIXTURES

# smmustat irq -p: 24 rows of zeros on the arm64 server, one CPU took interrupts
t_run "irq -p" 0 "$SOCBOX" smmustat irq -p --sysroot "$F/arm64-server-smmuv3"
t_eq "only the rows with a count" "$(sed -n '/^Per CPU:/,$p' "$T_TMP/out" | awk '$1 ~ /^[0-9]+$/ { print $1 "/" $2 "=" $3 }' | tr '\n' ' ')" "17/0=4 "
t_grep "says how many are hidden and how to see them" '^note: 23 idle per-CPU rows \(count 0\) not shown; -r or -J lists every row$' "$T_TMP/out"
t_run "irq -p -r" 0 "$SOCBOX" smmustat irq -p -r --sysroot "$F/arm64-server-smmuv3"
t_eq "-r: every line and CPU" "$(awk 'NF == 4 && $2 ~ /^[0-9]+$/ && $1 ~ /^1[4-9]$/' "$T_TMP/out" | wc -l)" 24
t_run "irq -p -J" 0 "$SOCBOX" smmustat irq -p --sysroot "$F/arm64-server-smmuv3" -J
t_jq "JSON keeps every row" '(.per_cpu | length) == 24' "$T_TMP/out"
t_done
