#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seed corpus of the fuzz harnesses, made from the fixture trees of tests/fixtures (so it
follows them): tests/fuzz/seeds.py FIXTURES OUT writes OUT/<harness>/<name> for every
harness. The checked-in inputs of tests/fuzz/regressions/<harness>/ are kept apart."""
import fnmatch
import hashlib
import os
import sys

fixtures, out = sys.argv[1], sys.argv[2]
count = {}


def seed(harness, data):
    if isinstance(data, str):
        data = data.encode()
    d = os.path.join(out, harness)
    os.makedirs(d, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)
    count[harness] = count.get(harness, 0) + 1


# every regular file and symlink below fixtures, found without following links (sysfs
# trees have link cycles); patterns are fnmatch patterns on the relative path
ALL_FILES, ALL_LINKS = [], []
for top, dirs, names in os.walk(fixtures):
    for n in dirs + names:
        p = os.path.join(top, n)
        rel = os.path.relpath(p, fixtures)
        if os.path.islink(p):
            ALL_LINKS.append(rel)
        elif os.path.isfile(p):
            ALL_FILES.append(rel)
ALL_FILES.sort()
ALL_LINKS.sort()


def files(pattern):
    return [os.path.join(fixtures, r) for r in ALL_FILES if fnmatch.fnmatchcase(r, pattern)]


def links(pattern):
    return [os.path.join(fixtures, r) for r in ALL_LINKS if fnmatch.fnmatchcase(r, pattern)]


def read(p):
    with open(p, "rb") as f:
        return f.read()


for p in files("*/dev/kmsg"):
    seed("kmsg", read(p))
    seed("events", read(p))
# socbox metrics' view outputs (fuzz_expo.c): NUL between the views
seed("expo", b"# HELP socbox_a_x x\n# TYPE socbox_a_x gauge\nsocbox_a_x 1\n# EOF\n\0"
     b"# HELP socbox_a_x x\n# TYPE socbox_a_x gauge\nsocbox_a_x 2\n# HELP socbox_b_y y\n"
     b"# TYPE socbox_b_y counter\nsocbox_b_y_total{a=\"b\"} 3\n# EOF\n")
seed("expo", b"# HELP socbox_c c\n# TYPE socbox_c gauge\nsocbox_c 1\n\0# EOF\nx\n# EOF\n\0no newline")
for p in files("*/proc/interrupts"):
    seed("interrupts", read(p))
for p in files("*/proc/stat") + files("*/proc/softirqs"):
    seed("cpustat", read(p))
stat = files("*/proc/stat")
soft = files("*/proc/softirqs")
if stat and soft:
    seed("cpustat", read(stat[0]) + read(soft[0]))
for p in (files("*/proc/*/fdinfo/*") + files("*/proc/*/maps") +
          files("*/sys/kernel/debug/dma_buf/bufinfo")):
    seed("dmabufinfo", read(p))
for p in (files("*/sys/kernel/debug/cma/*/bitmap") + files("*/sys/kernel/debug/cma/*/ranges/*/bitmap")
          + files("*/proc/meminfo")):
    seed("cma", read(p))
seed("cma", b"4294967295 0 15\n")
seed("cma", b"1 2")
for p in files("*/sys/kernel/iommu_groups/*/reserved_regions"):
    seed("resv", read(p))
for p in files("*/proc/cmdline"):
    seed("cmdline", read(p))
for p in files("*/proc/net/dev"):
    seed("procnetdev", read(p))
for p in files("stress/*.json"):
    seed("baseline", read(p))
for p in files("netlink/*.nl"):
    seed("netdev", read(p))
    # a snapshot's capture: netdev.parts, "%%", netdev.nlmsg (see fuzz_netdev_snapshot.c)
    seed("netdev_snapshot", b"# socbox snapshot\nfamily_version=1\nboottime_s=5000\nhave=0x7f\n"
         b"unsupported=0x0\n\n%%\n" + read(p))
    seed("netdev_snapshot", b"family_version=1\nboottime_s=5000\nhave=0x1f\nunsupported=0x60\n"
         b"unsupported.5=95 Operation not supported\nunsupported.6=22 Invalid argument\n%%\n" + read(p))

# names and link targets of remoteproc and rpmsg devices
for p in (links("*/sys/bus/rpmsg/devices/*") + links("*/sys/class/rpmsg/*") +
          links("*/sys/class/remoteproc/*")):
    seed("rpmsg_names", os.path.basename(p))
    if os.path.islink(p):
        seed("rpmsg_names", os.readlink(p))

# option values: what the README, the man pages and the tests give as examples
for v in ["4M", "64KiB", "1G", "0x1000", "0", "0-3,8", "1,2,5-7", "0x42", "-1", "yes", "off",
          "NAME,KIND", "+FEATURES", "+FEATURES_RAW,UNKNOWN_BITS", "rpmsg,dmabuf", "remoteproc0",
          "18446744073709551615", "1e9", "3-1"]:
    seed("args", v)

# PMU format/ and events/ files (see fuzz_pmu.c for the line format)
for pmu in sorted({os.path.dirname(os.path.dirname(f)) for f in files("*/format/*")}):
    lines = []
    for f in files(os.path.relpath(pmu, fixtures) + "/format/*"):
        lines.append("F %s %s" % (os.path.basename(f), read(f).decode().strip()))
    for f in files(os.path.relpath(pmu, fixtures) + "/events/*"):
        lines.append("E %s %s" % (os.path.basename(f), read(f).decode().strip()))
        lines.append("T %s" % os.path.basename(f))
    for f in files(os.path.relpath(pmu, fixtures) + "/cpumask"):
        lines.append("C %s" % read(f).decode().strip())
    lines.append("T event=0x1,filter_enable=1,filter_stream_id=0x42,filter_span=0")
    lines.append("T config=0x5,config1=0x1")
    seed("pmu", "\n".join(lines) + "\n")

# cells for the renderers: attribute values of the fixtures, NUL-separated
values = [read(p).strip() for p in files("*/remoteproc/remoteproc*/name") +
          files("*/rpmsg/*/name") + files("*/proc/sys/kernel/osrelease")]
for i in range(0, len(values), 6):
    seed("output", b"\0".join(values[i:i + 6]))
seed("output", b"m4\x1b]0;PWNED\x07f \xff\nname\0a,b,c\0\xc2\x9b\0\"$`\\ x\n")

# whole sysfs trees (see fuzz_sysfs.c for the parts)
for board in sorted(os.listdir(fixtures)):
    root = os.path.join(fixtures, board)
    procs = links(board + "/sys/class/remoteproc/*")
    chans = links(board + "/sys/bus/rpmsg/devices/*")
    if not procs:
        continue
    rel = read(os.path.join(root, "proc/sys/kernel/osrelease")).decode().strip()

    def attr(path):
        return read(path) if os.path.isfile(path) else b""

    rp = os.path.realpath(procs[0])
    parts = [b"6.6.0\n",
             attr(os.path.join(root, "lib/modules", rel, "modules.builtin")),
             attr(os.path.join(root, "lib/modules", rel, "modules.dep")),
             attr(os.path.join(root, "sys/module/udmabuf/initstate"))]
    parts += [attr(os.path.join(rp, a)) for a in ("name", "state", "firmware", "recovery", "coredump")]
    parts.append(b"")
    ch = os.path.realpath(chans[-1]) if chans else ""
    parts += [attr(os.path.join(ch, a)) for a in ("name", "src", "dst", "announce")]
    parts.append(b"")
    ept = links(board + "/sys/class/rpmsg/rpmsg[0-9]*")
    ed = os.path.realpath(ept[0]) if ept else ""
    parts += [attr(os.path.join(ed, a)) for a in ("name", "src", "dst", "uevent")]
    seed("sysfs", b"\0".join(parts))
    seed("sysfs", b"\0".join(parts[:9] + [b"../../../canary"] + parts[10:]))

# firmware tables and device tree properties
for p in files("*/sys/firmware/acpi/tables/IORT"):
    seed("iort", read(p))
for p in (files("*/devicetree/base/*/iommus") + files("*/devicetree/base/*/iommu-map*") +
          files("*/devicetree/base/*/#iommu-cells") + files("*/devicetree/base/*/phandle")):
    seed("dt", read(p))

# the object graph (see fuzz_devgraph.c): a consumer's link entry, the supplier node's
# phandle and the consumer node's mboxes of the fixtures that have device links
for p in links("causes/*/root/sys/devices/platform/*/supplier:*"):
    dt = os.path.join(os.path.dirname(p), "of_node")
    mboxes = os.path.join(os.path.realpath(dt), "mboxes")
    sup = os.path.basename(p).split(":", 2)[2]
    ph = [f for f in files("causes/*/root/sys/firmware/devicetree/base/*/*/*@%s/phandle" %
                           sup.split(".")[0])]
    if ph and os.path.isfile(mboxes):
        seed("devgraph", os.path.basename(p).encode() + b"\0" + read(ph[0]) + read(mboxes))
seed("devgraph", b"supplier:platform:sup\0\0\0\0\x2a\0\0\0\x2a\0\0\0\x01")
seed("devgraph", b"supplier::\0\0\0")

# path walks (see fuzz_resolve.c): the link shapes of the fixture trees
seed("resolve", "D sys\nD sys/devices\nD sys/devices/platform\nD sys/devices/platform/x\n"
     "F sys/devices/platform/x/name\nD sys/class\nD sys/class/r\n"
     "L sys/class/r/r0 ../../devices/platform/x\nQ /sys/class/r/r0/name\nQ sys/class/r/r0/../x\n")
seed("resolve", "D a\nL a/up ../../../../..\nL a/abs /a\nL loop loop\nL l1 l2\nL l2 l1\n"
     "Q a/up/a/abs/up\nQ loop\nQ l1/x\nQ a/../../a\nQ /\n")
seed("resolve", "D d\nF d/f\nL d/dot .\nL d/self d\nL canary ../canary\nQ d/dot/dot/f\n"
     "Q canary\nQ d/self\nQ d/f/\nQ d/f/..\n")

for h in sorted(count):
    print("%s: %d seeds" % (h, count[h]))
