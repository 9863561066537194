// SPDX-License-Identifier: GPL-2.0-or-later
/* The catalogue of causes: every bring-up failure socbox doctor can name, in rank order.
 * One entry per cause: its stable code, the subsystem whose status it sets (NULL: the
 * subsystem of the device it names), that status, what is read (the kernel's own format
 * string and the source file and function that print it) and the general fix. The
 * detectors (cause_*.c) fill in the object, the evidence and the fix for the board;
 * man/socbox.1 lists the same codes (tests/cli/doctor_causes.sh checks both ways). */
#include <string.h>

#include "socbox/doctor.h"

#define KLOG "kernel log: "

const struct sb_cause_def sb_cause_catalogue[] = {
	/* devices that did not come up: the first thing to know on a broken board */
	{ "probe.failed", NULL, SB_HEALTH_FAILED, "a driver's probe failed",
	  KLOG "\"%s: probe of %s failed with error %d\" (drivers/base/dd.c, "
	       "call_driver_probe(), pr_warn; newer kernels, 7.2: dev_err \"probe with driver %s "
	       "failed with error %d\")",
	  "doctor quotes the driver's own records of the device before that line (its "
	  "dev_printk() prefix or DEVICE=) and, when they name the mailbox, reserved memory, a "
	  "clock, reset, power domain, interrupt or the system firmware, says what to check; "
	  "else the error is an errno (-22 EINVAL: device tree property; -12 ENOMEM; -110 "
	  "ETIMEDOUT: clock or power)",
	  0 },
	{ "probe.deferred", NULL, SB_HEALTH_MISSING, "a device waits in deferred probe",
	  "/sys/kernel/debug/devices_deferred: \"%s\\t%s\" (drivers/base/dd.c, "
	  "deferred_devs_show()), the reason \"DRIVER: msg\" that dev_err_probe() stored "
	  "(drivers/base/core.c); fw_devlink's \"wait for supplier %pfwf\\n\" (6.1: %pfwP) "
	  "and \"supplier %s not ready\\n\" (drivers/base/core.c, "
	  "device_links_check_suppliers(), DRIVER is the bus: \"platform\"); without debugfs " KLOG
	  "\"deferred probe pending\\n\" (6.1 dev_info) or \"deferred probe pending: %s\" "
	  "with that reason (7.2 dev_warn) (drivers/base/dd.c, "
	  "deferred_probe_timeout_work_func(), once the timeout ran), and with no reason the "
	  "suppliers of its device links that have no driver",
	  "bring up what it waits for: the supplier's driver or module, its device-tree node "
	  "(status = \"okay\"), or what the driver's reason names",
	  0 },
	{ "probe.no-driver", NULL, SB_HEALTH_MISSING,
	  "hardware the firmware describes has no driver",
	  "/sys/bus/platform/devices/DEV/modalias (\"of:N%sT%sC%s\", drivers/of/device.c) "
	  "without a driver link",
	  "build the driver the compatible needs (CONFIG_ option, or load its module)", 0 },

	/* rpmsg and remoteproc */
	{ "rpmsg.firmware-missing", "rpmsg", SB_HEALTH_FAILED,
	  "a remote processor's firmware file was not found",
	  KLOG "\"Direct firmware load for %s failed with error %d\" "
	       "(drivers/base/firmware_loader/main.c, _request_firmware(), dev_warn on the "
	       "remoteproc device; Debian kernels first say \"firmware: failed to load %s "
	       "(%d)\") and \"request_firmware failed: %d\" "
	       "(drivers/remoteproc/remoteproc_core.c, rproc_boot())",
	  "install the file in the firmware search path (/lib/firmware/updates/RELEASE, "
	  "/lib/firmware/updates, /lib/firmware/RELEASE, /lib/firmware, and "
	  "firmware_class.path) or set another name: rpmsgctl rproc firmware NAME FILE",
	  0 },
	{ "rpmsg.firmware-rejected", "rpmsg", SB_HEALTH_FAILED,
	  "a remote processor's firmware image was rejected",
	  KLOG "\"Image is too small\", \"Image is corrupted (bad magic)\", \"Unsupported "
	       "class: %d\", \"No loadable segments\"... "
	       "(drivers/remoteproc/remoteproc_elf_loader.c, rproc_elf_sanity_check()), \"bad "
	       "phdr ...\", \"truncated fw: ...\" (rproc_elf_load_segments()), \"Failed to "
	       "load program segments: %d\" (remoteproc_core.c, rproc_start())",
	  "build the firmware as an ELF for this core (class, endianness, machine) and link "
	  "its segments inside the core's memories",
	  0 },
	{ "rpmsg.boot-failed", "rpmsg", SB_HEALTH_FAILED,
	  "a remote processor failed to boot (resources, carveouts, start)",
	  KLOG "\"Failed to process resources: %d\", \"can't prepare rproc %s: %d\", "
	       "\"Failed to allocate associated carveouts: %d\" (remoteproc_core.c, "
	       "rproc_fw_boot()), \"Unable to allocate carveout %s: %d\" "
	       "(rproc_alloc_registered_carveouts()), \"can't start rproc %s: %d\" "
	       "(rproc_start()), \"resource table truncated\"... (remoteproc_elf_loader.c, "
	       "find_table()), \"Boot failed: %d\" (remoteproc_sysfs.c, state_store())",
	  "check the firmware's resource table against the device tree: carveouts and "
	  "memory-region nodes (reserved-memory, no-map), vdev rings and their sizes",
	  0 },
	{ "rpmsg.crashed", "rpmsg", SB_HEALTH_DEGRADED,
	  "a remote processor crashed and stays down (recovery disabled or failed)",
	  "/sys/class/remoteproc/N/state \"crashed\" and recovery \"disabled\" "
	  "(drivers/remoteproc/remoteproc_sysfs.c); " KLOG "\"crash detected in %s: type %s\" "
	  "(remoteproc_core.c, rproc_report_crash()); TI K3 drivers report none: \"K3 rproc %s "
	  "crashed\" (ti_k3_common.c, k3_rproc_mbox_callback()) and no later \"remote "
	  "processor %s is now up\" (rproc_start()); a recovery that failed: \"recovering "
	  "%s\" (rproc_trigger_recovery()) and a boot cause after it, shown as the chain's next; "
	  "the core its recovery kept: /sys/class/devcoredump/devcdN whose failing_device is "
	  "the remoteproc (drivers/base/devcoredump.c, remoteproc_coredump.c rproc_coredump())",
	  "restart it (rpmsgctl rproc stop NAME; rpmsgctl rproc start NAME), read its trace "
	  "and coredump (socbox snapshot keeps a devcoredump core before the kernel frees it, "
	  "5 minutes after the crash); enable recovery to restart it on the next crash",
	  0 },
	{ "rpmsg.crash-loop", "rpmsg", SB_HEALTH_DEGRADED,
	  "a remote processor keeps crashing and being recovered",
	  KLOG "\"crash detected in %s: type %s\" (remoteproc_core.c, rproc_report_crash()) "
	       "and \"recovering %s\" (rproc_trigger_recovery()), counted since boot; the core a "
	       "recovery kept: /sys/class/devcoredump/devcdN whose failing_device is the "
	       "remoteproc (drivers/base/devcoredump.c, remoteproc_coredump.c rproc_coredump())",
	  "the firmware crashes again after each recovery: read its trace "
	  "(rpmsgctl rproc trace NAME) and coredump (socbox snapshot keeps a devcoredump core "
	  "before the kernel frees it, 5 minutes after the crash); disable recovery to keep it "
	  "for a debugger",
	  0 },
	{ "rpmsg.mailbox", "rpmsg", SB_HEALTH_DEGRADED,
	  "the mailbox between Linux and a remote processor fails",
	  KLOG "\"Try increasing MBOX_TX_QUEUE_LEN\" (drivers/mailbox/mailbox.c, "
	       "mbox_send_message(), on the controller), the remoteproc drivers' kick failures: "
	       "\"%s: failed (%d, err:%d)\" (imx_rproc.c imx_rproc_kick()), \"%s: failed (%s, "
	       "err:%d)\" (stm32_rproc.c stm32_rproc_kick()), \"failed to send mailbox message, "
	       "status = %d\" (ti_k3_common.c k3_rproc_kick())",
	  "the remote does not drain the mailbox: check that its firmware runs and services "
	  "its interrupt, and the mailbox node and channel in the device tree",
	  0 },
	{ "rpmsg.no-channel", "rpmsg", SB_HEALTH_DEGRADED,
	  "a running remote processor never announced a channel",
	  "/sys/class/remoteproc/N/state \"running\" with a virtio device (remoteproc_virtio.c) "
	  "but no rpmsg device "
	  "below it (/sys/bus/rpmsg/devices; name service: drivers/rpmsg/rpmsg_ns.c)",
	  "the remote's firmware did not send its name-service announcement: check that it "
	  "runs (rpmsgctl rproc trace NAME), that it creates its endpoint, and its vdev "
	  "resource",
	  0 },
	{ "rpmsg.no-bus", "rpmsg", SB_HEALTH_MISSING, "remote processors but no rpmsg bus",
	  "/sys/class/remoteproc has entries, /sys/bus/rpmsg (drivers/rpmsg/rpmsg_core.c) does "
	  "not exist",
	  "enable CONFIG_RPMSG_VIRTIO (module virtio_rpmsg_bus) or the SoC's rpmsg transport", 0 },
	/* dma-buf */
	/* CMA areas as a board engineer needs them (cause_cma.c): never reserved, fragmented,
	 * or no heap */
	{ "dmabuf.cma-reserve-failed", "dmabuf", SB_HEALTH_DEGRADED,
	  "the CMA area could not be reserved at boot",
	  KLOG
	  "\"Failed to reserve %ld MiB\" with pr_fmt \"cma: \" (mm/cma.c, "
	  "cma_declare_contiguous_nid(), pr_err; 7.2 also \"%lu\" in "
	  "cma_declare_contiguous_multi()), printed at boot for the area of cma= or "
	  "CONFIG_CMA_SIZE_* (kernel/dma/contiguous.c dma_contiguous_reserve_area(), area "
	  "\"reserved\"), or the tree's CMA pool (\"failed to allocate memory for node\"); the "
	  "root of a chain: no CMA heap (dmabuf.cma-no-heap) and the "
	  "contiguous allocations that failed (\"failed to allocate dma memory: len 0x%zx\", "
	  "drivers/remoteproc/remoteproc_core.c rproc_alloc_carveout(), dev_err) follow from it",
	  "lower cma=SIZE (or CONFIG_CMA_SIZE_MBYTES) or move it (cma=SIZE@START) where memory "
	  "is free of other reserved-memory nodes",
	  0 },
	{ "dmabuf.cma-fragmented", "dmabuf", SB_HEALTH_DEGRADED,
	  "a CMA area has the memory free but not in one piece",
	  "debugfs cma/AREA count, used and maxchunk (\"%llu\\n\", mm/cma_debug.c), or the "
	  "longest clear run of its bitmap (debugfs_create_u32_array(); 7.2: ranges/N/bitmap) "
	  "at order_per_bit, against doctor --buffer-size; " KLOG "after \"cma: %s: %s: alloc "
	  "failed, req-size: %lu pages, ret: %d\" the free runs \"number of available pages: "
	  "\" \"%s%lu@%lu\"... \"=> %lu free of %lu total pages\" (mm/cma.c, "
	  "cma_debug_show_areas(), pr_info and pr_cont; 7.2 a \"range %d: \" record per range "
	  "and the total a record of its own): a request the free total covers and no run does",
	  "allocate the large contiguous buffers first (at boot or when the application "
	  "starts) and keep them; free or pool the small ones that split the area (dmabufcp "
	  "ls); or enlarge the area (cma=SIZE, or its reserved-memory node's size)",
	  0 },
	{ "dmabuf.cma-no-heap", "dmabuf", SB_HEALTH_DEGRADED,
	  "no dma-heap allocates from CMA memory",
	  "debugfs cma/AREA (mm/cma_debug.c), /sys/kernel/mm/cma/AREA (mm/cma_sysfs.c) or "
	  "/proc/meminfo CmaTotal (fs/proc/meminfo.c) against /sys/class/dma_heap: no heap "
	  "named after an area (drivers/dma-buf/heaps/cma_heap.c __add_cma_heap(); 6.1: the "
	  "default area only; 7.2 also \"default_cma_region\"); the kernel logs nothing when "
	  "CONFIG_DMABUF_HEAPS_CMA is off; or no area at all after \"cma: Failed to reserve "
	  "%ld MiB\" (mm/cma.c cma_declare_contiguous_nid(), pr_err), and then it follows "
	  "dmabuf.cma-reserve-failed",
	  "enable CONFIG_DMABUF_HEAPS_CMA (7.2: or load cma_heap); with no area, reserve it "
	  "first",
	  0 },
	{ "dmabuf.cma-exhausted", "dmabuf", SB_HEALTH_DEGRADED,
	  "allocations from a CMA area failed",
	  "/sys/kernel/mm/cma/AREA/alloc_pages_fail (mm/cma_sysfs.c); " KLOG "\"cma: %s: %s: "
	  "alloc failed, req-size: %lu pages, ret: %d\" (mm/cma.c, pr_err_ratelimited in "
	  "cma_alloc() in 6.1, __cma_alloc_frozen() in 7.2)",
	  "enlarge the area (cma=SIZE on the command line, or the size of the linux,cma "
	  "reserved-memory node), or allocate less from it",
	  0 },
	{ "dmabuf.heap-denied", "dmabuf", SB_HEALTH_DEGRADED,
	  "a dma-heap or udmabuf node this user cannot open",
	  "the mode and owner of /dev/dma_heap/NAME (drivers/dma-buf/dma-heap.c) and /dev/udmabuf "
	  "(drivers/dma-buf/udmabuf.c), and whether this user may open them (live only)",
	  "run as root or add a udev rule (GROUP=\"video\", MODE=\"0660\")", SB_CAUSE_NEEDS_LIVE },
	{ "dmabuf.udmabuf-limit", "dmabuf", SB_HEALTH_DEGRADED,
	  "udmabuf's size limit is below the buffer the application needs",
	  "/sys/module/udmabuf/parameters/size_limit_mb (drivers/dma-buf/udmabuf.c, default "
	  "64; UDMABUF_CREATE fails with EINVAL above it and logs nothing) against doctor "
	  "--buffer-size",
	  "boot with udmabuf.size_limit_mb=MB (or modprobe udmabuf size_limit_mb=MB)",
	  SB_CAUSE_NEEDS_BUFFER_SIZE },
	{ "dmabuf.hog", "dmabuf", SB_HEALTH_OK,
	  "one process holds far more dma-buf memory than the rest",
	  "/proc/PID/fdinfo of every dma-buf fd (size, exp_name: drivers/dma-buf/dma-buf.c "
	  "dma_buf_show_fdinfo()) and /proc/PID/maps (fs/proc/task_mmu.c) of every process",
	  "check that process for a buffer leak: dmabufcp ls -p PID", 0 },

	/* IOMMU */
	{ "iommu.missing", "iommu", SB_HEALTH_MISSING,
	  "the firmware describes an IOMMU but none registered",
	  "the device tree's IOMMU nodes (arm,smmu-v3, arm,mmu-500...) or the ACPI tables "
	  "IORT, DMAR, IVRS, against /sys/class/iommu (drivers/iommu/iommu-sysfs.c)",
	  "build the IOMMU driver for this architecture and check its probe", 0 },
	{ "iommu.evtq-overflow", "iommu", SB_HEALTH_DEGRADED,
	  "the SMMUv3 event queue overflowed: fault records were lost",
	  KLOG "\"EVTQ overflow detected -- events lost\" "
	       "(drivers/iommu/arm/arm-smmu-v3/arm-smmu-v3.c, arm_smmu_evtq_thread())",
	  "a device is faulting in a storm: find it in smmustat events and fix its DMA "
	  "mapping; the faults that were kept are named there",
	  0 },
	{ "iommu.faults", "iommu", SB_HEALTH_DEGRADED,
	  "an IOMMU fault or error: a master's DMA, a stream ID, the SMMU itself or an "
	  "interrupt",
	  KLOG "the IOMMU drivers' fault reports (arm-smmu-v3.c arm_smmu_dump_event(), "
	       "arm-smmu.c, intel/dmar.c dmar_fault_do_one(), amd/iommu.c), as smmustat events "
	       "reads them",
	  "by the event's class: translation, permission and access faults: the master's "
	  "driver's DMA mapping; bad STE/CD/stream ID (C_BAD_*, F_STE_FETCH, F_CD_FETCH): the "
	  "firmware's stream-ID description (iommus/iommu-map, IORT ID mappings), naming the "
	  "SID; CMD_SYNC timeout and global errors: the SMMU itself (firmware, power, "
	  "clocks); x86 INTR-REMAP: the interrupt remapping table (MSI setup, DMAR device "
	  "scope)",
	  0 },
	{ "iommu.unmapped-master", "iommu", SB_HEALTH_DEGRADED,
	  "a DMA master the device tree puts behind an IOMMU is in no group",
	  "/sys/bus/platform/devices/DEV/of_node/iommus present (drivers/of/kobj.c), "
	  "DEV/iommu_group absent (drivers/iommu/iommu.c iommu_group_add_device())",
	  "check the iommus property (phandle and stream IDs) and that the IOMMU probed "
	  "before the device",
	  0 },
	{ "iommu.passthrough", "iommu", SB_HEALTH_OK,
	  "DMA bypasses the IOMMU (passthrough or identity domains)",
	  "/proc/cmdline iommu.passthrough=1 or iommu=pt; /sys/kernel/iommu_groups/N/type "
	  "\"identity\" (drivers/iommu/iommu.c; at boot it logs \"iommu: Default domain type: "
	  "%s%s\", iommu_subsys_init())",
	  "no isolation or translation for those devices; remove iommu.passthrough=1 / "
	  "iommu=pt, or echo DMA > /sys/kernel/iommu_groups/N/type; when the command line "
	  "asks for passthrough and the groups are DMA anyway (\"Failed to allocate default "
	  "IOMMU domain of type %u for group %s - Falling back to IOMMU_DOMAIN_DMA\", "
	  "iommu.c iommu_group_alloc_default_domain(), pr_warn), the IOMMU driver refused "
	  "identity domains: DMA is translated",
	  0 },
	{ "iommu.ats-off", "iommu", SB_HEALTH_OK, "PCIe ATS is disabled for every device",
	  "/proc/cmdline pci=noats (drivers/pci/ats.c)",
	  "remove pci=noats unless a device needs it: the IOMMU's ATS and PRI stay unused", 0 },

	/* netdev and devmem TCP */
	{ "netdev.pool-stalled", "netdev", SB_HEALTH_DEGRADED,
	  "a page pool cannot finish shutting down: pages are still in flight",
	  KLOG "\"%s() stalled pool shutdown: id %u, %d inflight %d sec\" "
	       "(net/core/page_pool.c, page_pool_release_retry(), pr_warn; 6.1: \"%s() stalled "
	       "pool shutdown %d inflight %d sec\"); the netdev family's page-pool "
	       "detach-time and inflight",
	  "something still holds the pool's pages (a socket's devmem fragments, an skb): "
	  "devmemstat pools; close the holder",
	  0 },
	{ "netdev.binding-leaked", "netdev", SB_HEALTH_DEGRADED,
	  "a devmem binding's pools outlive their device",
	  "the netdev family's page-pool dump (net/core/page_pool_user.c): detach-time set, "
	  "inflight, dmabuf",
	  "a receiver still holds devmem fragments: give them back (SO_DEVMEM_DONTNEED) or "
	  "close it; devmemstat bindings",
	  0 },
	{ "netdev.devmem-unsupported", "netdev", SB_HEALTH_DEGRADED,
	  "the NIC doctor --devmem names lacks what devmem TCP needs",
	  "ethtool netlink rings (ETHTOOL_MSG_RINGS_GET: tcp-data-split, hds-thresh; "
	  "net/ethtool/rings.c), SIOCETHTOOL ETHTOOL_GFLAGS (ETH_FLAG_NTUPLE) and "
	  "ETHTOOL_GCHANNELS (net/ethtool/ioctl.c); live only",
	  "header-data split on with hds-thresh 0, n-tuple filters on and at least two "
	  "channels: ethtool -G IF tcp-data-split on hds-thresh 0; ethtool -K IF ntuple on; "
	  "ethtool -L IF combined 2",
	  SB_CAUSE_NEEDS_LIVE | SB_CAUSE_NEEDS_DEVMEM },
	{ "netdev.no-family", "netdev", SB_HEALTH_MISSING, "no netdev generic netlink family",
	  "CTRL_CMD_GETFAMILY \"netdev\" (net/core/netdev-genl.c)",
	  "the netdev family needs Linux 6.3+ (queues and NAPIs 6.9+, devmem TCP 6.12+)", 0 },
	/* what the kernel said and no cause above explains */
	{ "log.errors", NULL, SB_HEALTH_DEGRADED,
	  "kernel errors of a subsystem's objects that no other cause explains",
	  KLOG
	  "every record at err or worse (/dev/kmsg priority 0-3), tied to its device by "
	  "its DEVICE= dictionary line or dev_printk()'s \"%s %s: \" prefix "
	  "(drivers/base/core.c, dev_printk_emit()), or by the prefix of the code that "
	  "printed it (\"cma: \", \"OF: reserved mem: \", \"iommu: \", \"DMAR: \", "
	  "page_pool), a reserved-memory node's by its user; not: records another cause quotes "
	  "or names the object of, records "
	  "of a remote processor that came up again later (\"remote processor %s is now "
	  "up\", remoteproc_core.c rproc_start()), and known harmless ones "
	  "(lib/doctor/cause_log.c)",
	  "read the records of the object it names; where the message is known its source and "
	  "what to do are given",
	  0 },
	/* what this kernel was built without, or has not loaded: after what broke at run time */
	{ "rpmsg.channel-unbound", "rpmsg", SB_HEALTH_DEGRADED,
	  "an announced rpmsg channel has no driver",
	  "/sys/bus/rpmsg/devices/DEV without a driver link (drivers/rpmsg/rpmsg_core.c)",
	  "load the driver for the channel's name, or bind rpmsg_char to it: echo rpmsg_chrdev "
	  "> /sys/bus/rpmsg/devices/DEV/driver_override, then bind",
	  0 },
	{ "rpmsg.char-missing", "rpmsg", SB_HEALTH_DEGRADED,
	  "no /dev/rpmsg_ctrlN: user space cannot make endpoints",
	  "/sys/class/rpmsg has no rpmsg_ctrlN (drivers/rpmsg/rpmsg_ctrl.c) while channels exist; "
	  "the module lists (modules.builtin, modules.dep, /sys/module)",
	  "enable CONFIG_RPMSG_CTRL and CONFIG_RPMSG_CHAR (5.18+), or load rpmsg_ctrl and "
	  "rpmsg_char",
	  0 },
	{ "dmabuf.no-heap", "dmabuf", SB_HEALTH_DEGRADED, "no dma-heap",
	  "/sys/class/dma_heap is empty or absent (drivers/dma-buf/dma-heap.c)",
	  "enable CONFIG_DMABUF_HEAPS and CONFIG_DMABUF_HEAPS_SYSTEM "
	  "(CONFIG_DMABUF_HEAPS_CMA for contiguous memory)",
	  0 },
	{ "dmabuf.no-udmabuf", "dmabuf", SB_HEALTH_OK, "no udmabuf",
	  "/sys/class/misc/udmabuf absent (drivers/dma-buf/udmabuf.c registers it); the module "
	  "lists",
	  "enable CONFIG_UDMABUF or load udmabuf", 0 },
	{ NULL, NULL, SB_HEALTH_OK, NULL, NULL, NULL, 0 },
};

const struct sb_cause_def *sb_cause_find(const char *code)
{
	for (const struct sb_cause_def *d = sb_cause_catalogue; d->code; d++)
		if (!strcmp(d->code, code))
			return d;
	return NULL;
}
