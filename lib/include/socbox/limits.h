/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How much socbox reads from one file, one directory or one nesting before it stops. A
 * running kernel's files are far below these; a snapshot may come from anyone and hold
 * anything, and the tool must neither hang nor run out of memory on it. Past a limit a
 * read fails with -EFBIG ("too large") and the command goes on with the rest.
 * Every limit is chosen here and documented in HACKING.md ("Limits"). */
#ifndef SOCBOX_LIMITS_H
#define SOCBOX_LIMITS_H

/* One-value attributes and small records: uevent, /proc/cmdline, /proc/uptime, fdinfo. */
#define SB_READ_ATTR_MAX (64u << 10)
/* Small multi-line files: reserved_regions, remoteproc attributes and traces. */
#define SB_READ_TEXT_MAX (1u << 20)
/* /proc tables that grow with CPUs, interrupts, devices or mappings: interrupts, stat,
 * softirqs, net/dev, a process's maps. 16 MiB is /proc/interrupts of ~4096 CPUs. */
#define SB_READ_PROC_MAX (16u << 20)
/* Logs and lists: the kernel log (/dev/kmsg of a snapshot), dma-buf bufinfo, modules.*. */
#define SB_READ_LOG_MAX (64u << 20)
/* A netdev netlink capture (a snapshot's or --load-netlink's). */
#define SB_READ_CAPTURE_MAX (256u << 20)
/* Files named on the command line: rpmsgctl send input, smmustat stress baselines. */
#define SB_READ_INPUT_MAX (16u << 20)

/* A kernel log line read in parts (sb_kmsg_each()): a longer one is cut there. */
#define SB_KMSG_LINE_MAX (64u << 10)
/* What doctor keeps of the kernel log however long it is (lib/doctor/doctor_log.c): the
 * distinct records its detectors read, their bytes, and groups of IOMMU events. */
#define SB_DOCTOR_LOG_KEEP 8192u
#define SB_DOCTOR_LOG_KEEP_BYTES (4u << 20)
#define SB_DOCTOR_EVGROUPS_MAX 4096u

/* Entries of one directory (a snapshot's /proc, the IOMMU groups). */
#define SB_DIR_MAX_ENTRIES (1u << 20)
/* Nesting of the JSON documents socbox reads (stress baselines). */
#define SB_PARSE_MAX_DEPTH 32
/* Symbolic links followed in one lookup below a sysroot where openat2 is missing, before
 * ELOOP: the kernel's MAXSYMLINKS. */
#define SB_RESOLVE_MAX_LINKS 40
/* IORT ID mappings followed from a device to its SMMU: the kernel's MAX_NESTED_NODES. */
#define SB_IORT_MAX_HOPS 16
/* Symlinks followed by hand while finding a device's firmware node (stream IDs). */
#define SB_SID_PATH_HOPS 8

/* socbox snapshot: files larger than this are blobs, not attributes, and are left out; at
 * most this many symlinks are followed from a listed path. */
#define SB_SNAPSHOT_FILE_MAX (1u << 20)
#define SB_SNAPSHOT_LINK_HOPS 2
/* socbox snapshot: a devcoredump's core is copied up to this many bytes (a remote
 * processor's memories: its TCMs and DDR carveouts, a few MiB on the boards socbox knows;
 * Wi-Fi and GPU firmware cores are devcoredumps too), and all cores together up to
 * SB_SNAPSHOT_CORES_MAX. A core cut or left out is said in the manifest and on stderr. */
#define SB_SNAPSHOT_CORE_MAX (32u << 20)
#define SB_SNAPSHOT_CORES_MAX (96u << 20)

/* Bytes of one error line: a longer one (a 100 kB argument quoted in it) is cut in the
 * middle, keeping what failed and why. */
#define SB_ERR_LINE_MAX 1024

#endif
