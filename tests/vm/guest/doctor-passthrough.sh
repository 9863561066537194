#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# vm-kernel: test
# socbox doctor and iommu.passthrough=1: booted with it (vm/test-passthrough), every
# default domain is identity and doctor names the passthrough as a notice (the status stays
# ok: a choice, not a failure); booted without it, no such cause.
# shellcheck source=SCRIPTDIR/../lib.sh
. /tests/lib.sh
causes=$("$SOCBOX" doctor -P | grep '^CODE=')
if grep -qw 'iommu.passthrough=1' /proc/cmdline; then
	like "$(cat /sys/kernel/iommu_groups/*/type | sort -u)" '^identity$' "every group is identity"
	like "$causes" '^CODE="iommu\.passthrough" DIAGNOSIS="iommu\.passthrough=1 on the command line: ([0-9]+) of \1 groups bypass the IOMMU"' \
		"doctor: passthrough named, with the groups it covers"
	is "$("$SOCBOX" doctor -r -n -o subsystem,status | sed -n 's/^iommu //p')" ok "iommu still ok: a notice"
	ok "--require iommu passes on a notice" "$SOCBOX" doctor -q --require iommu
else
	unlike "$causes" 'iommu\.passthrough' "without iommu.passthrough=1 no such cause"
fi
done_testing
