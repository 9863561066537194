// SPDX-License-Identifier: GPL-2.0-or-later
/* What `socbox snapshot` copies: every file socbox reads, grouped by who reads it. Add the
 * paths of a new view here in the same change: tests/cli/snapshot_covers.sh snapshots each
 * fixture board and fails on a path a view read there that the snapshot lacks. Hooks read
 * the system through sb_snap_root_open() and sb_snap_realpath(), so that test copies a
 * board with them as it copies the live system. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/devgraph.h"
#include "socbox/dmabufinfo.h"
#include "socbox/kmsg.h"
#include "socbox/netdev.h"
#include "socbox/iommu_pmu.h"
#include "socbox/iommu_sid.h"
#include "socbox/limits.h"
#include "socbox/rpmsg.h"
#include "socbox/rproc.h"
#include "socbox/snapshot.h"
#include "socbox/sys.h"
#include "socbox/macro.h"

const struct sb_snap_path sb_snap_paths[] = {
	/* common: kernel identity, boot parameters, module state */
	{ "/proc/sys/kernel/osrelease", 0, 0 },
	{ "/proc/version", 0, 0 },
	{ "/proc/cmdline", 0, 0 },
	/* doctor: the architecture and the firmware description (socbox/platform.h) */
	{ "/proc/sys/kernel/arch", 0, 0 },
	{ "/sys/firmware/devicetree/base/compatible", 0, 0 },
	{ "/sys/firmware/devicetree/base/model", 0, 0 },
	{ "/sys/firmware/acpi/tables/IORT", 0, 0 },
	{ "/sys/firmware/acpi/tables/DMAR", 0, 0 },
	{ "/sys/firmware/acpi/tables/IVRS", 0, 0 },
	/* doctor's causes: deferred probe, CMA areas, the firmware search path (the platform
	 * devices: snap_platform_devices) */
	{ "/sys/kernel/debug/devices_deferred", 0, 0 },
	{ "/sys/kernel/mm/cma", 1, 0 },
	/* the reserved-memory nodes the log names, and which is a CMA pool (socbox/devgraph.h) */
	{ SB_DT_RESERVED_MEMORY, 1, 0 },
	{ "/sys/module/firmware_class/parameters/path", 0, 0 },
	/* doctor: rpmsg */
	{ "/sys/class/remoteproc", 1, SB_SNAP_FOLLOW },
	{ "/sys/bus/rpmsg/devices", 1, SB_SNAP_FOLLOW },
	{ "/sys/class/rpmsg", 1, SB_SNAP_FOLLOW },
	{ "/sys/module/rpmsg_char", 0, 0 },
	{ "/sys/module/rpmsg_ctrl", 0, 0 },
	{ "/sys/module/rpmsg_core", 0, 0 },
	{ "/sys/module/virtio_rpmsg_bus", 0, 0 },
	/* rpmsgctl: list and rproc read the doctor rpmsg paths above (the class/bus links and,
	 * through them, the device attributes), the module lists (hook below) and: */
	{ "/sys/kernel/debug/remoteproc", 1, 0 },
	/* doctor: dma-buf */
	{ "/sys/class/dma_heap", 1, SB_SNAP_FOLLOW },
	{ "/sys/class/misc/udmabuf", 1, SB_SNAP_FOLLOW },
	{ "/sys/module/udmabuf", 1, 0 },
	/* dmabufcp heaps and ls: the doctor dma-buf paths above (udmabuf's parameters and
	 * initstate inside /sys/module/udmabuf) and (processes' fdinfo and maps:
	 * snap_dmabuf_holders) */
	{ "/sys/kernel/debug/dma_buf/bufinfo", 0, 0 },
	/* dmabufcp heaps and doctor: CMA areas (socbox/cma.h; 7.2's ranges/N/bitmap) */
	{ "/sys/kernel/debug/cma", 3, 0 },
	{ "/proc/meminfo", 0, 0 },
	/* doctor: IOMMU */
	{ "/sys/class/iommu", 2, SB_SNAP_FOLLOW },
	{ "/sys/kernel/iommu_groups", 2, SB_SNAP_FOLLOW },
	/* devmemstat: CPU time, NET_RX softirqs and interface counters for top; interface names
	 * (ifindex) for the netlink views, whose state snap_netdev keeps */
	{ "/sys/class/net", 1, SB_SNAP_FOLLOW },
	{ "/proc/stat", 0, 0 },
	{ "/proc/softirqs", 0, 0 },
	{ "/proc/net/dev", 0, 0 },
	{ "/proc/uptime", 0, 0 },
	/* smmustat: instances and groups (with their devices' driver and iommu links) are the
	 * doctor IOMMU paths above; interrupts; the kernel log and the PMCG PMUs come from the
	 * hooks below. */
	{ "/proc/interrupts", 0, 0 },
	{ "/sys/devices/system/cpu/online", 0, 0 },
	{ NULL, 0, 0 },
};

/* modules.builtin and modules.dep of the running kernel (module states offline). */
static int snap_module_lists(struct sb_snap *s)
{
	char release[128], path[256];
	struct sb_root *root;
	int rc;

	if (sb_snap_root_open(s, &root))
		return 0;
	rc = sb_kernel_release(root, release, sizeof(release));
	sb_root_close(root);
	if (rc < 0)
		return 0;
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.builtin", release);
	sb_snap_file(s, path);
	snprintf(path, sizeof(path), "/lib/modules/%s/modules.dep", release);
	return sb_snap_file(s, path);
}

/* A device's device links (its supplier:BUS:NAME and consumer:BUS:NAME entries): the
 * edges of doctor's object graph. */
static int snap_device_links(struct sb_snap *s, struct sb_root *root, const char *real)
{
	struct sb_dirlist dl;
	int rc = 0;

	if (sb_dir_list(root, &dl, "%s", real) < 0)
		return 0;
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char path[PATH_MAX + 300];

		if (strncmp(dl.names[i], "supplier:", 9) && strncmp(dl.names[i], "consumer:", 9))
			continue;
		snprintf(path, sizeof(path), "%s/%s", real, dl.names[i]);
		rc = sb_snap_file(s, path);
	}
	sb_dirlist_free(&dl);
	return rc;
}

/* doctor's causes: of every platform device what tells its role and state: its modalias,
 * and the links to its driver, its IOMMU group and its device-tree node (with the node's
 * iommus and interrupts properties), and what makes the object graph: its device links, its
 * node's phandle, the references it makes and the cells that say what it provides. */
static int snap_platform_devices(struct sb_snap *s)
{
	static const char dir[] = "/sys/bus/platform/devices";
	static const char *const links[] = { "driver", "iommu_group", "of_node" };
	static const char *const props[] = {
		"iommus",	 "interrupts",		"phandle",
		"mboxes",	 "memory-region",	"resets",
		"power-domains", "#mbox-cells",		"#iommu-cells",
		"#reset-cells",	 "#power-domain-cells",
	};
	struct sb_root *root;
	struct sb_dirlist dl;
	int rc = 0;

	if (sb_snap_root_open(s, &root))
		return 0;
	if (sb_dir_list(root, &dl, "%s", dir) < 0) {
		sb_root_close(root);
		return 0;
	}
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char path[PATH_MAX + 32], real[PATH_MAX], node[PATH_MAX];

		snprintf(path, sizeof(path), "%s/%s", dir, dl.names[i]);
		if (sb_snap_realpath(s, path, real, sizeof(real)))
			continue;
		rc = sb_snap_file(s, path); /* the bus link to the device */
		snprintf(path, sizeof(path), "%s/modalias", real);
		if (!rc)
			rc = sb_snap_file(s, path);
		for (size_t k = 0; k < ARRAY_SIZE(links) && !rc; k++) {
			snprintf(path, sizeof(path), "%s/%s", real, links[k]);
			rc = sb_snap_file(s, path);
		}
		snprintf(path, sizeof(path), "%s/of_node", real);
		/* the node's iommus; its interrupts name the SMMU that owns an irq line; its
		 * phandle and references make doctor's object graph (socbox/devgraph.h) */
		if (!rc && !sb_snap_realpath(s, path, node, sizeof(node)))
			for (size_t k = 0; k < ARRAY_SIZE(props) && !rc; k++) {
				snprintf(path, sizeof(path), "%s/%s", node, props[k]);
				rc = sb_snap_file(s, path);
			}
		if (!rc)
			rc = snap_device_links(s, root, real);
	}
	sb_dirlist_free(&dl);
	sb_root_close(root);
	return rc;
}

/* dmabufcp ls: of each process only what shows dma-bufs: comm, the fdinfo of its dma-buf
 * fds and its maps when they map a dma-buf. The fd links say which fds are dma-bufs and are
 * not copied, so ls reads every fdinfo it finds; in a tree without them (a copy of a board)
 * each fdinfo says it by its exp_name. */
static bool maps_dmabuf(struct sb_root *r, const char *pid)
{
	char *text;
	bool found;

	if (sb_read_file(r, &text, SB_READ_PROC_MAX, "/proc/%s/maps", pid) < 0)
		return false;
	found = strstr(text, "/dmabuf:") || strstr(text, "anon_inode:dmabuf");
	free(text);
	return found;
}

static bool fd_is_dmabuf(struct sb_root *r, const char *pid, const char *fd, bool links)
{
	struct sb_dmabuf_fdinfo fi;
	char link[256], *text;

	if (links)
		return sb_readlink(r, link, sizeof(link), "/proc/%s/fd/%s", pid, fd) > 0 &&
		       strstr(link, "dmabuf");
	if (sb_read_file(r, &text, SB_READ_ATTR_MAX, "/proc/%s/fdinfo/%s", pid, fd) < 0)
		return false;
	fi.is_dmabuf = sb_dmabuf_parse_fdinfo(text, &fi) == 0 && fi.is_dmabuf;
	free(text);
	return fi.is_dmabuf;
}

static int snap_dmabuf_holders(struct sb_snap *s)
{
	struct sb_dirlist procs;
	struct sb_root *root;

	if (sb_snap_root_open(s, &root))
		return 0;
	if (sb_dir_list(root, &procs, "/proc") < 0) {
		sb_root_close(root);
		return 0;
	}
	for (size_t i = 0; i < procs.n; i++) {
		const char *pid = procs.names[i];
		struct sb_dirlist fds;
		char path[640];
		bool links, any = false;

		if (pid[0] < '1' || pid[0] > '9')
			continue;
		links = sb_dir_list(root, &fds, "/proc/%s/fd", pid) >= 0;
		if (!links)
			sb_dir_list(root, &fds, "/proc/%s/fdinfo", pid);
		for (size_t k = 0; k < fds.n; k++) {
			if (!fd_is_dmabuf(root, pid, fds.names[k], links))
				continue;
			snprintf(path, sizeof(path), "/proc/%s/fdinfo/%s", pid, fds.names[k]);
			sb_snap_file(s, path);
			any = true;
		}
		sb_dirlist_free(&fds);
		if (maps_dmabuf(root, pid)) {
			snprintf(path, sizeof(path), "/proc/%s/maps", pid);
			sb_snap_file(s, path);
			any = true;
		}
		if (any) {
			snprintf(path, sizeof(path), "/proc/%s/comm", pid);
			sb_snap_file(s, path);
		}
	}
	sb_dirlist_free(&procs);
	sb_root_close(root);
	return 0;
}

/* devmemstat views and doctor's netdev: the netdev family's dump replies of every part and
 * which parts the kernel lacked (SB_ND_SNAP_MSGS, SB_ND_SNAP_PARTS). A kernel without the
 * family gives SB_ND_SNAP_ABSENT; a dump the kernel refuses gives no capture: the views then
 * say so offline. */
static int snap_netdev(struct sb_snap *s)
{
	struct sb_nd_capture cap;
	struct sb_root *root;
	struct sb_err e;
	bool live;
	int rc;

	if (sb_snap_root_open(s, &root))
		return 0;
	live = sb_root_is_live(root);
	sb_root_close(root);
	if (!live) { /* a copy of a board: its capture, as it is */
		rc = sb_snap_file(s, SB_ND_SNAP_MSGS);
		return rc ? rc : sb_snap_file(s, SB_ND_SNAP_PARTS);
	}
	sb_err_clear(&e);
	rc = sb_nd_capture_live(&cap, &e);
	if (rc == -ENOENT) { /* said, so that the snapshot is not read as "not captured" */
		static const char absent[] =
			"# socbox snapshot: this kernel has no netdev generic netlink family\n" SB_ND_SNAP_ABSENT
			"\n";

		return sb_snap_write(s, SB_ND_SNAP_PARTS, absent, sizeof(absent) - 1);
	}
	if (rc)
		return 0;
	rc = sb_snap_write(s, SB_ND_SNAP_MSGS, cap.msgs ? cap.msgs : "", cap.msgs_len);
	if (!rc)
		rc = sb_snap_write(s, SB_ND_SNAP_PARTS, cap.parts, cap.parts_len);
	sb_nd_capture_free(&cap);
	return rc;
}

/* smmustat: the kernel log (SMMUv3 probe lines with the feature bits, IOMMU faults), kept as
 * the snapshot's /dev/kmsg byte for byte as the kernel gave it: /dev/kmsg records (escapes
 * and dictionary lines included), or klogctl()'s text when /dev/kmsg cannot be read. */
static int snap_kernel_log(struct sb_snap *s)
{
	struct sb_root *root;
	const char *source;
	char *text;
	size_t len;
	int rc;

	if (sb_snap_root_open(s, &root))
		return 0;
	rc = sb_kmsg_read_raw(root, &text, &len, &source, NULL);
	sb_root_close(root);
	if (rc)
		return 0; /* not root: the snapshot has no log, smmustat says so */
	rc = sb_snap_write(s, "/dev/kmsg", text, len);
	free(text);
	return rc;
}

/* smmustat groups and events: what the firmware says about stream IDs (device tree nodes of
 * the SMMUs and of the devices behind them, the IORT, ACPI paths), exactly the files and
 * links that gave an answer (lib/iommu/iommu_sid.c). */
static void snap_visit(void *ctx, const char *path)
{
	sb_snap_file(ctx, path);
}

static int snap_stream_ids(struct sb_snap *s)
{
	struct sb_sid_fw *fw = NULL;
	struct sb_iommu *inst;
	struct sb_root *root;
	size_t n;

	if (sb_snap_root_open(s, &root))
		return 0;
	if (!sb_iommu_list(root, &inst, &n, NULL)) {
		if (!sb_sid_fw_open(root, inst, n, snap_visit, s, &fw))
			sb_sid_visit_all(fw);
		sb_sid_fw_close(fw);
		free(inst);
	}
	sb_root_close(root);
	return 0;
}

/* smmustat pmu: each smmuv3_pmcg_* PMU (type, cpumask, identifier, events/, format/). */
static int snap_pmcg(struct sb_snap *s)
{
	static const char dir[] = "/sys/bus/event_source/devices";
	struct sb_root *root;
	struct sb_dirlist dl;
	int rc = 0;

	if (sb_snap_root_open(s, &root))
		return 0;
	if (sb_pmu_list(root, "smmuv3_pmcg_", &dl) < 0) {
		sb_root_close(root);
		return 0;
	}
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char link[512], real[PATH_MAX];

		snprintf(link, sizeof(link), "%s/%s", dir, dl.names[i]);
		if (sb_snap_realpath(s, link, real, sizeof(real)))
			continue;
		rc = sb_snap_tree(s, real, 1, 0);
		if (!rc)
			rc = sb_snap_file(s, link);
	}
	sb_dirlist_free(&dl);
	sb_root_close(root);
	return rc;
}

/* doctor and rpmsgctl: devcoredump, the cores crashed devices left (lib/rpmsg/rproc_devcd.c):
 * each devcdN's class link, its failing_device link and its data, bounded. data is read,
 * never written (a write frees the core). The kernel frees a core 5 minutes after the crash:
 * a snapshot is how it is kept. */
static int snap_devcoredump(struct sb_snap *s)
{
	struct sb_root *root;
	struct sb_dirlist dl;
	int rc = 0;

	if (sb_snap_root_open(s, &root))
		return 0;
	if (sb_dir_list(root, &dl, SB_DEVCD_CLASS) < 0) {
		sb_root_close(root);
		return 0;
	}
	sb_snap_file(s, SB_DEVCD_CLASS "/disabled");
	for (size_t i = 0; i < dl.n && !rc; i++) {
		char path[PATH_MAX + 32], real[PATH_MAX], dev[64] = "?";
		size_t room = SB_SNAPSHOT_CORES_MAX - sb_snap_core_bytes(s), copied;
		unsigned idx;
		bool cut;
		int err;

		if (sb_rpmsg_index(dl.names[i], "devcd", &idx))
			continue;
		snprintf(path, sizeof(path), SB_DEVCD_CLASS "/%s", dl.names[i]);
		if (sb_snap_realpath(s, path, real, sizeof(real)))
			continue; /* freed while we looked */
		rc = sb_snap_file(s, path);
		snprintf(path, sizeof(path), "%s/failing_device", real);
		if (!rc)
			rc = sb_snap_file(s, path);
		sb_devcd_failing_device(root, dl.names[i], dev, sizeof(dev));
		if (rc)
			break;
		snprintf(path, sizeof(path), "%s/data", real);
		if (!room) {
			sb_snap_core(s, SB_SNAP_CORE_LEFT_OUT, 0);
			sb_snap_note(s,
				     "devcoredump.%s=left out: %s's core, the cores before it "
				     "filled the %u MiB for all cores",
				     dl.names[i], dev, SB_SNAPSHOT_CORES_MAX >> 20);
			continue;
		}
		if (room > SB_SNAPSHOT_CORE_MAX)
			room = SB_SNAPSHOT_CORE_MAX;
		err = sb_snap_file_bounded(s, path, room, &copied, &cut);
		if (err == -ENAMETOOLONG || err == -ENOSPC || err == -EDQUOT || err == -EROFS) {
			rc = err; /* the snapshot's side: the snapshot fails */
		} else if (err) {
			sb_snap_core(s, SB_SNAP_CORE_LEFT_OUT, 0);
			sb_snap_note(s, "devcoredump.%s=left out: %s's core: %s%s", dl.names[i],
				     dev, strerror(-err),
				     err == -EACCES || err == -EPERM ? " (data is root's only)"
								     : "");
		} else if (cut) {
			sb_snap_core(s, SB_SNAP_CORE_CUT, copied);
			sb_snap_note(s,
				     "devcoredump.%s=cut: %s's core, its first %zu bytes of more",
				     dl.names[i], dev, copied);
		} else {
			sb_snap_core(s, SB_SNAP_CORE_WHOLE, copied);
			sb_snap_note(s, "devcoredump.%s=whole: %s's core, %zu bytes", dl.names[i],
				     dev, copied);
		}
	}
	sb_dirlist_free(&dl);
	sb_root_close(root);
	return rc;
}

const sb_snap_hook sb_snap_hooks[] = {
	snap_module_lists,
	snap_platform_devices,
	snap_dmabuf_holders,
	snap_kernel_log,
	snap_pmcg,
	snap_stream_ids,
	snap_netdev,
	snap_devcoredump,
	NULL,
};
