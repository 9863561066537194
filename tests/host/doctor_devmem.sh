#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# socbox doctor --devmem IF on this machine's kernel: what the loopback device lacks for
# devmem TCP, as ethtool netlink and SIOCETHTOOL report it (no ring parameters, no n-tuple
# filters, one channel at most), named as a cause with the ethtool commands.
. "$SOCBOX_TESTLIB"
t_run "doctor --devmem lo" 0 "$SOCBOX" doctor --devmem lo -J
cp "$T_TMP/out" "$T_TMP/lo.json"
t_jq "lo cannot take devmem TCP" '[.causes[] | select(.code=="netdev.devmem-unsupported" and .object=="lo")] | length == 1' "$T_TMP/lo.json"
t_jq "... no header-data split, no n-tuple filters" '.causes[] | select(.code=="netdev.devmem-unsupported") | (.fix | test("no header-data split")) and (.fix | test("ethtool -K lo ntuple on")) and (.evidence | test("^lo: tcp-data-split unknown"))' "$T_TMP/lo.json"
t_jq "netdev degraded for the NIC asked about" '.subsystems[] | select(.subsystem=="netdev") | .status=="degraded"' "$T_TMP/lo.json"
t_run "an interface that does not exist" 3 "$SOCBOX" doctor --devmem socbox-nosuch0
t_grep "said in one line" "^socbox doctor: --devmem: no network interface 'socbox-nosuch0'" "$T_TMP/err"
t_run "--devmem on a sysroot" 3 "$SOCBOX" doctor --devmem lo --sysroot "$SOCBOX_FIXTURES/am62x"
t_done
