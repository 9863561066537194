#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# static-check: it runs with the static binary under qemu-user too (no applet link needed)
# socbox doctor on board dumps: an Arm SoC with a running M4 and rpmsg, an x86 server with VT-d.
. "$SOCBOX_TESTLIB"
F=$SOCBOX_FIXTURES
ARM=$F/stm32mp157-dk2
X86=$F/x86-vtd

t_run "arm: doctor" 0 "$SOCBOX" doctor --sysroot "$ARM"
t_grep "arm: kernel shown" '^kernel: 6\.6\.48-stm32mp-r2$' "$T_TMP/out"
t_grep "arm: rpmsg ok" '^rpmsg +ok +1 remoteproc \(1 running\), 3 channels, 1 ctrl device, 1 endpoint$' "$T_TMP/out"
t_grep "arm: dmabuf degraded without udmabuf" '^dmabuf +degraded +2 heaps \("linux,cma",system\), udmabuf missing$' "$T_TMP/out"
t_grep "arm: the board named" '^board: STMicroelectronics STM32MP157F-DK2 Discovery Board$' "$T_TMP/out"
t_grep "arm: 32-bit Arm" '^arch: arm$' "$T_TMP/out"
t_grep "arm: no IOMMU is no alert on a board that has none" '^iommu +absent +no IOMMU on this board \(the device tree describes none\)$' "$T_TMP/out"
t_nogrep "arm: no x86 advice" 'intel_iommu|VT-d|AMD-Vi' "$T_TMP/out"
t_grep "arm: netdev needs the live kernel" '^netdev +unknown +needs the live kernel' "$T_TMP/out"

t_run "arm: doctor --json" 0 "$SOCBOX" doctor --sysroot "$ARM" --json
cp "$T_TMP/out" "$T_TMP/arm.json"
t_json "arm: doctor --json" "$T_TMP/arm.json"
t_jq "arm: sysroot recorded" '.sysroot | endswith("stm32mp157-dk2")' "$T_TMP/arm.json"
t_jq "arm: rpmsg facts" '.subsystems[] | select(.subsystem=="rpmsg") | .status=="ok" and .facts.remoteprocs==1 and .facts.channels==3 and .facts.module_rpmsg_char=="loaded"' "$T_TMP/arm.json"
t_jq "arm: heaps" '.subsystems[] | select(.subsystem=="dmabuf") | .facts.heaps==2 and .facts.udmabuf==false' "$T_TMP/arm.json"
t_jq "arm: heap names as a list (a name holds a comma)" '.subsystems[] | select(.subsystem=="dmabuf") | .facts.heap_list == ["linux,cma","system"] and .facts.heap_names == "linux,cma,system"' "$T_TMP/arm.json"

# -q: the causes alone at a console, nothing at all on a healthy board
t_run "arm: doctor -q" 0 "$SOCBOX" doctor --sysroot "$ARM" -q
t_grep "arm: -q prints the causes table" '^dmabuf\.no-udmabuf ' "$T_TMP/out"
t_nogrep "arm: -q leaves out the board and the subsystems" '^(kernel:|SUBSYSTEM|rpmsg +ok|note:)' "$T_TMP/out"
t_run "healthy board: doctor -q" 0 "$SOCBOX" doctor --sysroot "$F/am62x-dmabuf" -q
t_eq "healthy board: doctor -q prints nothing" "$(cat "$T_TMP/out")" ""
t_jq "arm: udmabuf's fix names the config" '.causes[] | select(.code=="dmabuf.no-udmabuf") | .fix | test("module udmabuf is not built for this kernel: enable CONFIG_UDMABUF")' "$T_TMP/arm.json"
t_jq "arm: live null on a sysroot without a netdev capture (no running kernel to look at; not {})" '[.subsystems[] | select(.live_only|not) | .live] | all(. == null)' "$T_TMP/arm.json"
t_jq "arm: live is null where it could not look" '[.subsystems[] | select(.live_only) | .live] == [null]' "$T_TMP/arm.json"
t_jq "arm: netdev live only" '.subsystems[] | select(.subsystem=="netdev") | .live_only and .status=="unknown"' "$T_TMP/arm.json"

t_run "x86: doctor --json" 0 "$SOCBOX" doctor --sysroot "$X86" -J
cp "$T_TMP/out" "$T_TMP/x86.json"
t_json "x86: doctor --json" "$T_TMP/x86.json"
t_jq "x86: iommu ok" '.subsystems[] | select(.subsystem=="iommu") | .status=="ok" and .facts.instances==2 and .facts.groups==8' "$T_TMP/x86.json"
t_jq "x86: lazy default domain" '.subsystems[] | select(.subsystem=="iommu") | .facts.default_domain_type=="DMA-FQ" and .facts.groups_DMA_FQ==7 and .facts.groups_unmanaged==1' "$T_TMP/x86.json"
t_jq "x86: boot parameters" '.subsystems[] | select(.subsystem=="iommu") | .facts.cmdline_intel_iommu=="on" and .facts.cmdline_iommu_strict=="0"' "$T_TMP/x86.json"
t_jq "x86: udmabuf available as a module" '(.subsystems[] | select(.subsystem=="dmabuf") | .facts.module_udmabuf=="available") and (.causes[] | select(.code=="dmabuf.no-udmabuf") | .fix | test("modprobe udmabuf"))' "$T_TMP/x86.json"
t_jq "x86: no remote processor is no alert on a server" '.subsystems[] | select(.subsystem=="rpmsg") | .status=="absent" and .hints==[]' "$T_TMP/x86.json"
t_jq "x86: arch and firmware" '.arch=="x86_64" and .firmware=="acpi" and .board==null' "$T_TMP/x86.json"

# --require for factory scripts
t_run "x86: require iommu" 0 "$SOCBOX" doctor --sysroot "$X86" --require iommu -q
t_run "x86: require rpmsg fails" 1 "$SOCBOX" doctor --sysroot "$X86" --require iommu,rpmsg
t_grep "x86: failing requirement named" '^socbox: rpmsg: required subsystem is absent' "$T_TMP/err"
t_run "arm: require rpmsg" 0 "$SOCBOX" doctor --sysroot "$ARM" --require rpmsg
t_run "unknown subsystem is a usage error" 2 "$SOCBOX" doctor --sysroot "$ARM" --require gpu
t_run "bogus option is a usage error" 2 "$SOCBOX" doctor --bogus
t_run "missing sysroot" 2 "$SOCBOX" doctor --sysroot "$T_TMP/none"
t_grep "missing sysroot explained" 'open sysroot' "$T_TMP/err"

# the other output modes
t_run "pairs" 0 "$SOCBOX" doctor --sysroot "$X86" -P
t_grep "pairs rows" '^SUBSYSTEM="iommu" STATUS="ok" SUMMARY="2 instances' "$T_TMP/out"
t_run "raw without headings" 0 "$SOCBOX" doctor --sysroot "$X86" -r -n -o subsystem,status
t_grep "raw rows" '^iommu ok$' "$T_TMP/out"
t_eq "raw -n prints table rows only" "$(wc -l <"$T_TMP/out")" 4
t_run "hints column" 0 "$SOCBOX" doctor --sysroot "$F/imx8mp" -o subsystem,hints -P
t_grep "hints as a list" '^SUBSYSTEM="rpmsg" HINTS="module rpmsg_ctrl is not loaded: modprobe rpmsg_ctrl,module rpmsg_char' "$T_TMP/out"
t_run "unknown column" 2 "$SOCBOX" doctor --sysroot "$X86" -o nope
t_run "list columns" 0 "$SOCBOX" doctor -H
t_grep "columns listed" '^HINTS +array +no' "$T_TMP/out"
t_run "facts with -v" 0 "$SOCBOX" doctor --sysroot "$ARM" -v
t_grep "facts table" '^rpmsg +module_rpmsg_ctrl +loaded +no$' "$T_TMP/out"
t_run "openmetrics" 0 "$SOCBOX" doctor --sysroot "$ARM" --format openmetrics
t_grep "openmetrics ends" '^# EOF$' "$T_TMP/out"

# SOCBOX_SYSROOT works like --sysroot
SOCBOX_SYSROOT=$X86 "$SOCBOX" doctor -J >"$T_TMP/env.json" 2>&1
t_jq "SOCBOX_SYSROOT" '.kernel=="6.1.0-28-amd64"' "$T_TMP/env.json"

# a board with many heaps
rm -rf "$T_TMP/heaps"
cp -a "$SOCBOX_FIXTURES/stm32mp157-dk2" "$T_TMP/heaps"
i=0
while [ $i -lt 20 ]; do
	mkdir -p "$T_TMP/heaps/sys/devices/virtual/dma_heap/cma$i"
	echo "245:$((i + 2))" >"$T_TMP/heaps/sys/devices/virtual/dma_heap/cma$i/dev"
	ln -s "../../devices/virtual/dma_heap/cma$i" "$T_TMP/heaps/sys/class/dma_heap/cma$i"
	i=$((i + 1))
done
t_run "doctor with 22 heaps" 0 "$SOCBOX" doctor -J --sysroot "$T_TMP/heaps"
t_jq "doctor: every heap counted" '.subsystems[] | select(.subsystem == "dmabuf") | .facts.heaps == 22' "$T_TMP/out"

# doctor and smmustat read the command line with one parser: the last iommu.strict wins
rm -rf "$T_TMP/vtd"
cp -a "$SOCBOX_FIXTURES/x86-vtd" "$T_TMP/vtd"
echo "ro iommu.strict=0 quiet iommu.strict=1" >"$T_TMP/vtd/proc/cmdline"
t_run "doctor: iommu.strict given twice" 0 "$SOCBOX" doctor -J --sysroot "$T_TMP/vtd"
t_jq "doctor: the last iommu.strict wins" \
	'.subsystems[] | select(.subsystem == "iommu") | .facts.invalidation == "strict" and .facts.cmdline_iommu_strict == "1"' "$T_TMP/out"
t_run "smmustat: iommu.strict given twice" 0 "$SOCBOX" smmustat -J --sysroot "$T_TMP/vtd"
t_jq "smmustat says the same" '.invalidation == "strict" and .invalidation_source == "cmdline"' "$T_TMP/out"
echo "ro intel_iommu=on,strict iommu.strict=0" >"$T_TMP/vtd/proc/cmdline"
t_run "doctor: intel_iommu=strict" 0 "$SOCBOX" doctor -J --sysroot "$T_TMP/vtd"
t_jq "doctor: the driver's strict flag wins over iommu.strict=0" \
	'.subsystems[] | select(.subsystem == "iommu") | .facts.invalidation == "strict"' "$T_TMP/out"
t_jq "doctor: snake_case group type keys" \
	'.subsystems[] | select(.subsystem == "iommu") | .facts.groups_dma_fq == 7 and .facts.groups_DMA_FQ == 7' "$T_TMP/out"

# doctor goes through the output layer like every applet: -o in JSON, one name per field
t_run "doctor -J -o subsystem,status" 0 "$SOCBOX" doctor -J -o subsystem,status --sysroot "$X86"
t_jq "-o keeps only the columns asked for" \
	'[.subsystems[] | keys] == [["status","subsystem"],["status","subsystem"],["status","subsystem"],["status","subsystem"]]' "$T_TMP/out"
t_jq "... and the fields" '(keys == ["arch","board","firmware","kernel","subsystems","sysroot"]) and (.sysroot | endswith("x86-vtd"))' "$T_TMP/out"
t_run "doctor -J -o facts,nope" 2 "$SOCBOX" doctor -J -o facts,nope --sysroot "$X86"
t_grep "an unknown column in JSON mode is a usage error" "unknown column 'nope'" "$T_TMP/err"
t_run "doctor text" 0 "$SOCBOX" doctor --sysroot "$X86"
t_grep "text calls the sysroot field what JSON calls it" "^sysroot: .*x86-vtd\$" "$T_TMP/out"
t_nogrep "no 'source' field" '^source:' "$T_TMP/out"
t_run "doctor -P -o subsystem,facts" 0 "$SOCBOX" doctor -P -o subsystem,facts --sysroot "$X86"
t_grep "facts as key=value in the text modes" \
	'^SUBSYSTEM="iommu" FACTS="instances=2,instance_names=dmar0,dmar1,instance_list=dmar0,dmar1,groups=8,groups_DMA_FQ=7,groups_dma_fq=7,' "$T_TMP/out"
t_run "doctor -H" 0 "$SOCBOX" doctor -H -r -n
t_eq "doctor -H: every column with its JSON type and whether tables show it" \
	"$(cut -d' ' -f1-3 "$T_TMP/out" | tr '\n' ' ')" \
	"SUBSYSTEM string yes STATUS string yes SUMMARY string yes LIVE_ONLY boolean no FACTS object no LIVE object no HINTS array no "
# one module-hint generator: doctor and rpmsgctl list say the same words (rpmsgctl adds what
# the missing module costs), where doctor used to say "load module X: modprobe X"
IMX=$F/imx8mp
t_run "imx8mp: doctor -J" 0 "$SOCBOX" doctor -J --sysroot "$IMX"
t_jq "doctor's hint for a module that is not loaded" \
	'.subsystems[] | select(.subsystem == "rpmsg") | .hints | index("module rpmsg_char is not loaded: modprobe rpmsg_char") != null' "$T_TMP/out"
t_run "imx8mp: rpmsgctl list" 0 "$SOCBOX" rpmsgctl list --sysroot "$IMX"
t_grep "rpmsgctl's hint is the same sentence with the effect" \
	'^note: module rpmsg_char is not loaded, so raw channels have no /dev/rpmsgN: modprobe rpmsg_char' "$T_TMP/out"
t_done
