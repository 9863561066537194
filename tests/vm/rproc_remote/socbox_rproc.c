// SPDX-License-Identifier: GPL-2.0
/*
 * socbox test-only remote processor: a remoteproc the core drives exactly as it drives a
 * Cortex-M core next to an application processor, with the "remote" played by this module.
 *
 * The firmware is a real ELF (firmware.c) that the remoteproc core loads from /lib/firmware
 * into the remote's RAM (SRP_MEM_SIZE bytes of vmalloc memory at device address
 * SRP_MEM_DA, reached through .da_to_va). Its resource table asks for:
 *  - a trace buffer, which the remote writes its boot line and a heartbeat to;
 *  - an rpmsg virtio device with two vrings, which the core allocates and the virtio rpmsg
 *    bus drives. The remote serves them as firmware would: once the driver is ready it
 *    announces an "rpmsg-raw" channel at SRP_ECHO_ADDR (rpmsg_char binds it, giving
 *    /dev/rpmsgN), and it echoes every message back to its sender, from the address the
 *    message went to. The rpmsg bus also gets an rpmsg_ctrl device for this vdev.
 *    Messages to SRP_SINK_ADDR (not announced: an endpoint made with that dst reaches it)
 *    are taken and answered by nothing, a one-way service for `rpmsgctl throughput
 *    --sink`; the device attributes sink_messages and sink_bytes count what it took.
 *
 * start/stop/kick behave as the core expects, so `state` start/stop, the debugfs `crash`
 * file and recovery (stop, reload the firmware, start) run the kernel's own code paths:
 * after a recovery the vdev, the channel and /dev/rpmsg_ctrlN come back. The remote's RAM
 * is its dump segment: with the debugfs `coredump` file set to "enabled", a recovery
 * leaves the core in devcoredump (rproc_coredump(), /sys/class/devcoredump/devcdN).
 *
 * With the parameter consume off, the remote stops taking what Linux sends: the tx vring's
 * buffers are never returned, so once they are all in flight the virtio rpmsg bus waits
 * for one and gives up after 15 s ("timeout waiting for a tx buffer"), as with firmware
 * that hangs with its interrupt masked.
 *
 * The remote reads what it needs (ident block, trace buffer, vrings) from its resource
 * table in its RAM, the way firmware does; vring buffers are addressed physically.
 */
#include <linux/elf.h>
#include <linux/highmem.h>
#include <linux/io.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/remoteproc.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>
#include <linux/workqueue.h>

#include "fw_layout.h"
#include "remoteproc_internal.h"

#define SRP_RPMSG_NS_ADDR 53
#define SRP_RPMSG_BUF_SIZE 512
#define SRP_HEARTBEAT_MS 500

static char *firmware = "socbox-rproc-a.elf";
module_param(firmware, charp, 0444);
MODULE_PARM_DESC(firmware, "firmware file below /lib/firmware to boot first");

/* Tests turn this off to play firmware that boots but never brings its channel up. */
static bool announce = true;
module_param(announce, bool, 0644);
MODULE_PARM_DESC(announce, "announce the rpmsg-raw channel after boot (read at each boot)");

/* Tests turn this off to play firmware that no longer services its vring. */
static bool consume = true;
module_param(consume, bool, 0644);
MODULE_PARM_DESC(consume,
		 "take the messages Linux sends and give their buffers back (read at each kick)");

/* virtio rpmsg wire format (drivers/rpmsg/virtio_rpmsg_bus.c), native endian here */
struct srp_rpmsg_hdr {
	u32 src;
	u32 dst;
	u32 reserved;
	u16 len;
	u16 flags;
	u8 data[];
} __packed;

struct srp_ns_msg {
	char name[32];
	u32 addr;
	u32 flags;
} __packed;

/* One split vring as the device side sees it. */
struct srp_vring {
	struct vring vr;
	u16 last_avail;
	int notifyid;
};

struct srp {
	struct rproc *rproc;
	void *mem;
	bool running;
	unsigned int boots;
	unsigned int beats;

	spinlock_t trace_lock;
	char *trace;
	size_t trace_len, trace_pos;
	struct delayed_work heartbeat;

	struct work_struct vq_work;
	bool vrings_ready;
	bool announce; /* this boot announces its channel */
	bool announced;
	struct srp_vring rx;	       /* vring 0: remote -> Linux */
	struct srp_vring tx;	       /* vring 1: Linux -> remote */
	u64 sink_messages, sink_bytes; /* written by vq_work alone */
};

static struct platform_device *srp_pdev;
static struct rproc *srp_rproc;

static void *srp_da_to_va(struct rproc *rproc, u64 da, size_t len, bool *is_iomem)
{
	struct srp *srp = rproc->priv;

	if (da < SRP_MEM_DA || len > SRP_MEM_SIZE || da - SRP_MEM_DA > SRP_MEM_SIZE - len)
		return NULL;
	return srp->mem + (da - SRP_MEM_DA);
}

static __printf(2, 3) void srp_trace(struct srp *srp, const char *fmt, ...)
{
	unsigned long flags;
	va_list ap;

	spin_lock_irqsave(&srp->trace_lock, flags);
	/* the last byte stays NUL: the core reads the buffer as a C string */
	if (srp->trace && srp->trace_pos + 1 < srp->trace_len) {
		va_start(ap, fmt);
		srp->trace_pos += vscnprintf(srp->trace + srp->trace_pos,
					     srp->trace_len - srp->trace_pos - 1, fmt, ap);
		va_end(ap);
	}
	spin_unlock_irqrestore(&srp->trace_lock, flags);
}

/* The resource entries of the loaded table (the core points table_ptr at it in RAM). */
static void *srp_find_rsc(struct srp *srp, u32 type)
{
	struct resource_table *table = srp->rproc->table_ptr;
	int i;

	if (!table)
		return NULL;
	for (i = 0; i < table->num; i++) {
		struct fw_rsc_hdr *hdr = (void *)table + table->offset[i];

		if (hdr->type == type)
			return hdr + 1;
	}
	return NULL;
}

static void srp_heartbeat(struct work_struct *work)
{
	struct srp *srp = container_of(to_delayed_work(work), struct srp, heartbeat);

	srp_trace(srp, "heartbeat %u\n", ++srp->beats);
	/* stop once the buffer is nearly full: a trace is a log, not a ring */
	if (srp->trace_pos + 64 < srp->trace_len)
		schedule_delayed_work(&srp->heartbeat, msecs_to_jiffies(SRP_HEARTBEAT_MS));
}

/* --- the device side of the rpmsg vrings --- */

static bool srp_vring_setup(struct srp *srp, struct srp_vring *v, struct fw_rsc_vdev_vring *r)
{
	void *va = rproc_da_to_va(srp->rproc, r->da, vring_size(r->num, r->align), NULL);

	if (!va)
		return false;
	vring_init(&v->vr, r->num, va, r->align);
	v->last_avail = 0;
	v->notifyid = r->notifyid;
	return true;
}

/* The vrings exist once the driver said DRIVER_OK (the core has filled in their da). */
static bool srp_vrings_ready(struct srp *srp)
{
	struct fw_rsc_vdev *vdev;

	if (srp->vrings_ready)
		return true;
	vdev = srp_find_rsc(srp, RSC_VDEV);
	if (!vdev || !(READ_ONCE(vdev->status) & VIRTIO_CONFIG_S_DRIVER_OK) ||
	    vdev->num_of_vrings < 2)
		return false;
	if (!srp_vring_setup(srp, &srp->rx, &vdev->vring[0]) ||
	    !srp_vring_setup(srp, &srp->tx, &vdev->vring[1]))
		return false;
	srp->vrings_ready = true;
	return true;
}

/*
 * Next buffer the driver made available, or -1; the buffer is mapped for the caller, who
 * ends with srp_buf_unmap (in reverse order when two are held). Descriptors carry physical
 * addresses, and on 32-bit Arm the driver's coherent buffers can be highmem, outside the
 * linear map, so each buffer is mapped on its own; none crosses a page.
 */
static int srp_vring_pop(struct srp_vring *v, void **buf, u32 *len)
{
	u16 head;
	struct vring_desc *d;

	if (v->last_avail == READ_ONCE(v->vr.avail->idx))
		return -1;
	virt_rmb(); /* read the ring entry after the index that published it */
	head = v->vr.avail->ring[v->last_avail % v->vr.num];
	v->last_avail++;
	if (head >= v->vr.num)
		return -1;
	d = &v->vr.desc[head];
	if (!pfn_valid(PHYS_PFN(d->addr)) || offset_in_page(d->addr) + d->len > PAGE_SIZE)
		return -1;
	*buf = kmap_local_page(pfn_to_page(PHYS_PFN(d->addr))) + offset_in_page(d->addr);
	*len = d->len;
	return head;
}

static void srp_buf_unmap(void *buf)
{
	kunmap_local(buf);
}

static void srp_vring_push(struct srp_vring *v, int head, u32 len)
{
	u16 idx = v->vr.used->idx;

	v->vr.used->ring[idx % v->vr.num].id = head;
	v->vr.used->ring[idx % v->vr.num].len = len;
	virt_wmb(); /* the entry before the index that publishes it */
	WRITE_ONCE(v->vr.used->idx, idx + 1);
}

static bool srp_vring_wants_irq(struct srp_vring *v)
{
	return !(READ_ONCE(v->vr.avail->flags) & VRING_AVAIL_F_NO_INTERRUPT);
}

/* Send one message to Linux through the rx vring. False when no buffer is free. */
static bool srp_send(struct srp *srp, u32 src, u32 dst, const void *data, u16 len)
{
	struct srp_rpmsg_hdr *hdr;
	void *buf;
	u32 size;
	int head;

	head = srp_vring_pop(&srp->rx, &buf, &size);
	if (head < 0)
		return false;
	if (size < sizeof(*hdr) + len) {
		srp_buf_unmap(buf);
		srp_vring_push(&srp->rx, head, 0);
		return true;
	}
	hdr = buf;
	hdr->src = src;
	hdr->dst = dst;
	hdr->reserved = 0;
	hdr->len = len;
	hdr->flags = 0;
	memcpy(hdr->data, data, len);
	srp_buf_unmap(buf);
	srp_vring_push(&srp->rx, head, sizeof(*hdr) + len);
	return true;
}

static void srp_vq_work(struct work_struct *work)
{
	struct srp *srp = container_of(work, struct srp, vq_work);
	bool sent = false, consumed = false;

	if (!READ_ONCE(srp->running) || !srp_vrings_ready(srp))
		return;

	if (srp->announce && !srp->announced) {
		struct srp_ns_msg ns = { .name = "rpmsg-raw", .addr = SRP_ECHO_ADDR };

		if (!srp_send(srp, SRP_ECHO_ADDR, SRP_RPMSG_NS_ADDR, &ns, sizeof(ns)))
			return; /* no rx buffer yet: the driver kicks when it adds them */
		srp->announced = true;
		sent = true;
		srp_trace(srp, "announced rpmsg-raw at 0x%x\n", SRP_ECHO_ADDR);
	}

	/* Echo what Linux sent, as long as there is room to answer (and it listens at all). */
	while (READ_ONCE(consume)) {
		u16 avail = srp->tx.last_avail;
		struct srp_rpmsg_hdr *hdr;
		void *buf;
		u32 size;
		int head = srp_vring_pop(&srp->tx, &buf, &size);

		if (head < 0)
			break;
		hdr = buf;
		if (size >= sizeof(*hdr) && hdr->len <= size - sizeof(*hdr) &&
		    hdr->dst == SRP_SINK_ADDR) {
			WRITE_ONCE(srp->sink_messages, srp->sink_messages + 1);
			WRITE_ONCE(srp->sink_bytes, srp->sink_bytes + hdr->len);
		} else if (size >= sizeof(*hdr) && hdr->len <= size - sizeof(*hdr) &&
			   hdr->dst != SRP_RPMSG_NS_ADDR) {
			if (!srp_send(srp, hdr->dst, hdr->src, hdr->data, hdr->len)) {
				srp_buf_unmap(buf);
				srp->tx.last_avail = avail; /* retry on the next rx kick */
				break;
			}
			sent = true;
		}
		srp_buf_unmap(buf);
		srp_vring_push(&srp->tx, head, 0);
		consumed = true;
	}

	if (sent && srp_vring_wants_irq(&srp->rx))
		rproc_vq_interrupt(srp->rproc, srp->rx.notifyid);
	if (consumed && srp_vring_wants_irq(&srp->tx))
		rproc_vq_interrupt(srp->rproc, srp->tx.notifyid);
}

/* --- rproc_ops --- */

static int srp_start(struct rproc *rproc)
{
	struct srp *srp = rproc->priv;
	const struct srp_ident *id = srp->mem;
	struct fw_rsc_trace *tr;
	char name[sizeof(id->name) + 1];

	if (memcmp(id->magic, SRP_MAGIC, sizeof(id->magic)))
		strscpy(name, "(no ident block)");
	else
		strscpy(name, id->name);

	tr = srp_find_rsc(srp, RSC_TRACE);
	spin_lock_irq(&srp->trace_lock);
	srp->trace = tr ? srp_da_to_va(rproc, tr->da, tr->len, NULL) : NULL;
	srp->trace_len = srp->trace ? tr->len : 0;
	srp->trace_pos = 0;
	spin_unlock_irq(&srp->trace_lock);

	/* What a crash's core holds (rproc_coredump() at recovery): the remote's RAM. Once:
	 * a recovery starts the remote again without the resource cleanup that empties the
	 * list (rproc_resource_cleanup() at shutdown). */
	if (list_empty(&rproc->dump_segments)) {
		int ret = rproc_coredump_add_segment(rproc, SRP_MEM_DA, SRP_MEM_SIZE);

		if (ret)
			return ret;
	}

	srp->boots++;
	srp->beats = 0;
	srp->vrings_ready = false;
	srp->announced = false;
	srp->announce = READ_ONCE(announce);
	WRITE_ONCE(srp->running, true);
	srp_trace(srp, "socbox test remote: boot %u, firmware %s\n", srp->boots, name);
	schedule_delayed_work(&srp->heartbeat, msecs_to_jiffies(SRP_HEARTBEAT_MS));
	/* the driver may have kicked before we ran (it adds rx buffers first) */
	schedule_work(&srp->vq_work);
	return 0;
}

static int srp_stop(struct rproc *rproc)
{
	struct srp *srp = rproc->priv;

	WRITE_ONCE(srp->running, false);
	cancel_work_sync(&srp->vq_work);
	cancel_delayed_work_sync(&srp->heartbeat);
	spin_lock_irq(&srp->trace_lock);
	srp->trace = NULL;
	spin_unlock_irq(&srp->trace_lock);
	return 0;
}

static void srp_kick(struct rproc *rproc, int vqid)
{
	struct srp *srp = rproc->priv;

	if (READ_ONCE(srp->running))
		schedule_work(&srp->vq_work);
}

static ssize_t sink_messages_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct srp *srp = srp_rproc->priv;

	return sysfs_emit(buf, "%llu\n", READ_ONCE(srp->sink_messages));
}
static DEVICE_ATTR_RO(sink_messages);

static ssize_t sink_bytes_show(struct device *dev, struct device_attribute *attr, char *buf)
{
	struct srp *srp = srp_rproc->priv;

	return sysfs_emit(buf, "%llu\n", READ_ONCE(srp->sink_bytes));
}
static DEVICE_ATTR_RO(sink_bytes);

static struct attribute *srp_attrs[] = {
	&dev_attr_sink_messages.attr,
	&dev_attr_sink_bytes.attr,
	NULL,
};
static const struct attribute_group srp_group = { .attrs = srp_attrs };

static const struct rproc_ops srp_ops = {
	.start = srp_start,
	.stop = srp_stop,
	.kick = srp_kick,
	.da_to_va = srp_da_to_va,
	/* no .load: the core's ELF loader reads the image, sanity checks and all */
};

static int __init srp_init(void)
{
	struct srp *srp;
	int ret;

	srp_pdev = platform_device_register_simple("socbox_rproc", PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(srp_pdev))
		return PTR_ERR(srp_pdev);
	/* vrings and rpmsg buffers are DMA allocations for this device */
	ret = dma_coerce_mask_and_coherent(&srp_pdev->dev, DMA_BIT_MASK(32));
	if (ret)
		goto unregister;

	srp_rproc = rproc_alloc(&srp_pdev->dev, "socbox-remote", &srp_ops, firmware, sizeof(*srp));
	if (!srp_rproc) {
		ret = -ENOMEM;
		goto unregister;
	}
	srp_rproc->auto_boot = false;
	/* the core is an ELF of this machine's kind, as the firmware is (built with the
	 * kernel's compiler) */
	ret = rproc_coredump_set_elf_info(srp_rproc, ELF_CLASS, ELF_ARCH);
	if (ret)
		goto free;
	srp = srp_rproc->priv;
	srp->rproc = srp_rproc;
	spin_lock_init(&srp->trace_lock);
	INIT_DELAYED_WORK(&srp->heartbeat, srp_heartbeat);
	INIT_WORK(&srp->vq_work, srp_vq_work);
	srp->mem = vzalloc(SRP_MEM_SIZE);
	if (!srp->mem) {
		ret = -ENOMEM;
		goto free;
	}
	ret = rproc_add(srp_rproc);
	if (ret)
		goto free_mem;
	ret = sysfs_create_group(&srp_pdev->dev.kobj, &srp_group);
	if (ret)
		goto del;
	return 0;

del:
	rproc_del(srp_rproc);
free_mem:
	vfree(srp->mem);
free:
	rproc_free(srp_rproc);
unregister:
	platform_device_unregister(srp_pdev);
	return ret;
}

static void __exit srp_exit(void)
{
	struct srp *srp = srp_rproc->priv;
	void *mem = srp->mem;

	sysfs_remove_group(&srp_pdev->dev.kobj, &srp_group);
	rproc_del(srp_rproc); /* shuts the remote down if it runs */
	rproc_free(srp_rproc);
	vfree(mem);
	platform_device_unregister(srp_pdev);
}

module_init(srp_init);
module_exit(srp_exit);
MODULE_DESCRIPTION("socbox test-only remote processor");
MODULE_LICENSE("GPL");
