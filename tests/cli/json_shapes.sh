#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# JSON says absent with null, lists with arrays and one key one shape across views:
# "-" (the text modes' spelling of nothing) is never a JSON value; doctor's live facts are
# null on a sysroot (a file holds no running kernel); a binding's count of leaked pools is
# leaked_pools_count, as at the top level where leaked_pools is the array of them; a
# device's stream IDs come as an array. The keys they replace stay (the schema only grows).
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
NL=$F/netlink/devmem-nic.nl
t_need jq jq || t_done

for v in show queues napi pools qstats bindings; do
	rc=0
	[ "$v" = bindings ] && rc=1 # a leaked pool fails the check
	t_run "devmemstat $v -J" $rc "$SOCBOX" devmemstat "$v" -J --load-netlink "$NL"
	t_jq "devmemstat $v: no \"-\" for a value, ifname null when unknown" \
		'[.. | strings | select(. == "-")] == [] and ([.. | objects | select(has("ifname")) | .ifname] | all(. == null or (type == "string" and . != "-")))' "$T_TMP/out"
done
t_run "devmemstat bindings (text)" 1 "$SOCBOX" devmemstat bindings --load-netlink "$NL"
t_grep "... text still says - for no name" '^ +1 +3 - ' "$T_TMP/out"

t_run "devmemstat bindings -J" 1 "$SOCBOX" devmemstat bindings -J --load-netlink "$NL"
t_jq "a binding counts its leaked pools as leaked_pools_count (a number, as at the top level)" \
	'(.bindings | length > 0) and all(.bindings[]; (.leaked_pools_count | type) == "number" and .leaked_pools_count == .leaked_pools) and (.leaked_pools | type) == "array" and (.leaked_pools_count | type) == "number"' "$T_TMP/out"

for b in am62x x86-vtd arm64-server-smmuv3; do
	t_run "doctor -J on $b" 0 "$SOCBOX" doctor -J --sysroot "$F/$b"
	t_jq "$b: live is null on a sysroot, never {}" '[.subsystems[].live] | all(. == null)' "$T_TMP/out"
done

t_run "smmustat groups -d DEV -J" 0 "$SOCBOX" smmustat groups -d 0000:01:00.0 -J --sysroot "$F/arm64-server-smmuv3"
t_jq "the device's stream IDs as an array, the string kept" '.stream_id_list == ["0x100"] and .stream_ids == "0x100"' "$T_TMP/out"
t_run "smmustat groups -d DEV (text)" 0 "$SOCBOX" smmustat groups -d 0000:01:00.0 --sysroot "$F/arm64-server-smmuv3"
t_nogrep "... the text says them once" 'stream_id_list' "$T_TMP/out"
t_done
