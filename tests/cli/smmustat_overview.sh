#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# smmustat overview on board dumps: an arm64 server with two SMMUv3 (6.18, mainline bits),
# an arm64 SoC on a 6.6 vendor kernel with the ECMDQ patch, an x86 server with two VT-d units.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
SRV=$F/arm64-server-smmuv3
SOC=$F/arm64-soc
X86=$F/x86-vtd-server

golden() { # NAME BOARD: raw overview must equal the text on stdin
	cat >"$T_TMP/want"
	# the columns these goldens were written with (BASE and INVALIDATION left the default set
	# so that the overview fits 80 columns)
	"$SOCBOX" smmustat --sysroot "$2" -r -o NAME,KIND,BASE,GROUPS,DEVICES,DOMAIN,INVALIDATION,FEATURES \
		>"$T_TMP/got" 2>"$T_TMP/err"
	if cmp -s "$T_TMP/want" "$T_TMP/got"; then t_ok "$1"; else t_fail "$1: $(diff "$T_TMP/want" "$T_TMP/got" | head -20)"; fi
}

golden "server: golden overview" "$SRV" <<'GOLDEN'
kernel 6.18.2-arm64
invalidation lazy
invalidation_source cmdline
default_domain Translated
groups 6
log_source sysroot
NAME KIND BASE GROUPS DEVICES DOMAIN INVALIDATION FEATURES
smmu3.0x0000100000000000 arm-smmu-v3 0x100000000000 3 3 DMA-FQ lazy 2_LVL_STRTAB,2_LVL_CDTAB,TT_LE,PRI,ATS,MSI,COHERENCY,TRANS_S1,TRANS_S2,HYP,VAX,RANGE_INV,BTM,SVA,E2H,NESTING,HA,HD
smmu3.0x0000200000000000 arm-smmu-v3 0x200000000000 3 3 DMA-FQ lazy 2_LVL_STRTAB,2_LVL_CDTAB,TT_LE,PRI,ATS,MSI,COHERENCY,TRANS_S1,TRANS_S2,HYP,VAX,RANGE_INV,BTM,SVA,E2H,NESTING,HA,HD
GOLDEN
golden "soc: golden overview" "$SOC" <<'GOLDEN'
kernel 6.6.23-vendor-g1a2b3c4
invalidation strict
invalidation_source log
default_domain Translated
groups 4
log_source sysroot
NAME KIND BASE GROUPS DEVICES DOMAIN INVALIDATION FEATURES
smmu3.0x0000000049000000 arm-smmu-v3 0x49000000 4 4 DMA:3,identity:1 strict 2_LVL_STRTAB,TT_LE,MSI,COHERENCY,TRANS_S1,TRANS_S2,STALLS,RANGE_INV,BTM
GOLDEN
golden "x86: golden overview" "$X86" <<'GOLDEN'
kernel 6.12.48+deb13-amd64
invalidation strict
invalidation_source cmdline
default_domain Translated
groups 6
log_source sysroot
NAME KIND BASE GROUPS DEVICES DOMAIN INVALIDATION FEATURES
dmar0 intel-vt-d 0xc5ffc000 3 3 DMA:2,identity:1 strict nd=256,sagaw=48,mgaw=39,plmr,phmr,zlr,sllps=4k/2m/1g,psi,nfr=1,dwd,drd,qi,ir,eim,pt,sc
dmar1 intel-vt-d 0xfbffc000 3 3 DMA strict nd=256,sagaw=48,mgaw=39,plmr,phmr,zlr,sllps=4k/2m/1g,psi,nfr=1,dwd,drd,qi,dt,ir,eim,pt,sc,mhmv=15
GOLDEN

t_run "server: overview --json" 0 "$SOCBOX" smmustat --sysroot "$SRV" -J -o +FEATURES_RAW,UNKNOWN_BITS,FEATURE_TABLE,HWDEV,OAS_BITS,IAS_BITS
cp "$T_TMP/out" "$T_TMP/srv.json"
t_json "server: overview" "$T_TMP/srv.json"
t_jq "server: two SMMUv3" '[.instances[] | select(.kind=="arm-smmu-v3")] | length == 2' "$T_TMP/srv.json"
t_jq "server: base from the name" '.instances[0].base == "0x100000000000"' "$T_TMP/srv.json"
t_jq "server: 6.18 uses the 6.16 table" '[.instances[].feature_table] == ["mainline-6.16","mainline-6.16"]' "$T_TMP/srv.json"
t_jq "server: HA/HD/NESTING decoded" '.instances[0].features | index("HA") and index("HD") and index("NESTING") and index("SVA")' "$T_TMP/srv.json"
t_jq "server: bit 25 left raw, never named" '.instances[1].unknown_bits == "0x02000000" and .instances[0].unknown_bits == null' "$T_TMP/srv.json"
t_jq "server: newer 'oas' form has no ias" '.instances[0].oas_bits == 48 and .instances[0].ias_bits == null' "$T_TMP/srv.json"
t_jq "server: hardware device from the log" '.instances[1].hwdev == "arm-smmu-v3.1.auto"' "$T_TMP/srv.json"
t_jq "server: lazy from the command line" '.invalidation == "lazy" and .invalidation_source == "cmdline"' "$T_TMP/srv.json"
t_jq "server: groups per instance" '[.instances[].groups] == [3,3] and [.instances[].devices] == [3,3]' "$T_TMP/srv.json"

t_run "soc: overview --json" 0 "$SOCBOX" smmustat --sysroot "$SOC" -J -o NAME,FEATURES,FEATURES_RAW,UNKNOWN_BITS,FEATURE_TABLE,ECMDQ,IAS_BITS,OAS_BITS,DOMAIN
cp "$T_TMP/out" "$T_TMP/soc.json"
t_json "soc: overview" "$T_TMP/soc.json"
t_jq "soc: ECMDQ lines select the vendor table" '.instances[0].feature_table == "ecmdq-v3" and (.instances[0].ecmdq | startswith("suppress ecmdq"))' "$T_TMP/soc.json"
t_jq "soc: older 'ias, oas' form" '.instances[0].ias_bits == 48 and .instances[0].oas_bits == 44' "$T_TMP/soc.json"
t_jq "soc: bit 20 unknown before 6.16, shown raw" '.instances[0].unknown_bits == "0x00100000" and (.instances[0].features | index("ATTR_TYPES_OVR") | not)' "$T_TMP/soc.json"
t_jq "soc: mixed domain types" '.instances[0].domain == "DMA:3,identity:1"' "$T_TMP/soc.json"
t_run "soc: --feature-table mainline-6.16 overrides" 0 "$SOCBOX" smmustat --sysroot "$SOC" -J -o NAME,FEATURES,UNKNOWN_BITS --feature-table mainline-6.16
t_jq "soc: override names bit 20" '.instances[0].features | index("ATTR_TYPES_OVR")' "$T_TMP/out"
t_run "soc: unknown feature table" 2 "$SOCBOX" smmustat --sysroot "$SOC" --feature-table bogus
t_grep "soc: usage error names it" "unknown feature table 'bogus'" "$T_TMP/err"

t_run "x86: overview --json" 0 "$SOCBOX" smmustat --sysroot "$X86" -J -o +FEATURES_RAW,VERSION
cp "$T_TMP/out" "$T_TMP/x86.json"
t_json "x86: overview" "$T_TMP/x86.json"
t_jq "x86: cap/ecap raw" '.instances[0].features_raw == "cap=0xd2008c40660462,ecap=0xf050da"' "$T_TMP/x86.json"
t_jq "x86: ecap bits decoded" '.instances[1].features | index("qi") and index("dt") and index("pt")' "$T_TMP/x86.json"
t_jq "x86: base from intel-iommu/address" '.instances[1].base == "0xfbffc000" and .instances[0].version == "1:0"' "$T_TMP/x86.json"

t_run "-P pairs" 0 "$SOCBOX" smmustat --sysroot "$X86" -P -o NAME,KIND
t_grep "pairs are shell-evaluable" '^NAME="dmar0" KIND="intel-vt-d"$' "$T_TMP/out"
t_run "openmetrics" 0 "$SOCBOX" smmustat --sysroot "$SRV" --format openmetrics
t_grep "openmetrics has the groups gauge" '^socbox_.*groups.*name="smmu3.0x0000100000000000".* 3$' "$T_TMP/out"
t_run "-H lists the columns" 0 "$SOCBOX" smmustat -H -r -n
t_grep "-H includes FEATURE_TABLE" '^FEATURE_TABLE ' "$T_TMP/out"
t_run "bad column" 2 "$SOCBOX" smmustat --sysroot "$X86" -o NAME,NOPE
t_run "no IOMMU: exit 3 with a hint" 3 "$SOCBOX" smmustat --sysroot "$T_TMP"
t_grep "no IOMMU hint" 'no IOMMU instance registered \(build the IOMMU driver of this platform' "$T_TMP/err"
t_run "no IOMMU on an AM62x: exit 3" 3 "$SOCBOX" smmustat --sysroot "$SOCBOX_FIXTURES/am62x"
t_grep "Arm advice on an Arm board" 'no IOMMU instance registered \(where the SoC has an SMMU, build CONFIG_ARM_SMMU_V3' "$T_TMP/err"
t_nogrep "no x86 advice on an Arm board" 'intel_iommu|VT-d|AMD-Vi' "$T_TMP/err"
t_run "unknown command" 2 "$SOCBOX" smmustat frobnicate
# An 80-column serial console: FEATURES wraps between features (a feature is never split,
# as 2_LVL_ST/RTAB was), so its pieces put back together are the list. (The other columns
# alone take 87 here: the line is still wider than 80.)
COLUMNS=80 "$SOCBOX" smmustat --sysroot "$SRV" >"$T_TMP/w.txt"
t_eq "80 columns: FEATURES wraps between features" \
	"$(awk '!c && /^NAME .* FEATURES$/ { c = index($0, "FEATURES"); next } c { s = substr($0, c); sub(/ +$/, "", s); if (s ~ /^2_LVL_STRTAB/ && n++) printf "\n"; printf "%s", s }' "$T_TMP/w.txt" | sort -u)" \
	"2_LVL_STRTAB,2_LVL_CDTAB,TT_LE,PRI,ATS,MSI,COHERENCY,TRANS_S1,TRANS_S2,HYP,VAX,RANGE_INV,BTM,SVA,E2H,NESTING,HA,HD"
t_done
