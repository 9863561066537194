// SPDX-License-Identifier: GPL-2.0
/*
 * socbox test-only rpmsg loopback: stands in for a remote processor in the vm tier.
 *
 * It registers, under /sys/devices/socbox_rpmsg_loopback:
 *  - an rpmsg device bound to rpmsg_ctrl, so /dev/rpmsg_ctrlN appears and
 *    RPMSG_CREATE_EPT_IOCTL works on it;
 *  - one announced channel "socbox-loopback" (src 0x400, dst 0x400) that no driver
 *    claims, so the rpmsg bus is never empty;
 *  - with raw_channel=1, also an "rpmsg-raw" channel (src 0x401, dst 0x401) that
 *    rpmsg_char binds, giving a /dev/rpmsgN backed by a channel's default endpoint.
 *
 * Every endpoint echoes each message back to itself from a workqueue, as a remote would:
 * write() then read() on /dev/rpmsgN returns the same bytes. Payloads are limited to
 * LB_MTU (496 bytes, the virtio rpmsg buffer minus its header); larger sends fail with
 * -EMSGSIZE. Endpoints created with src RPMSG_ADDR_ANY get addresses from 0x402 up.
 * Flow-control requests are reflected back to the sender's flow callback.
 */
#include <linux/idr.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "rpmsg_internal.h"

#define LB_MTU 496
#define LB_FIRST_ADDR 1024		/* addresses below are reserved, as on virtio */
#define LB_DYN_ADDR (LB_FIRST_ADDR + 2) /* after the two channel addresses */

static bool raw_channel;
module_param(raw_channel, bool, 0444);
MODULE_PARM_DESC(raw_channel, "also register an rpmsg-raw channel bound by rpmsg_char");

struct lb_msg {
	struct work_struct work;
	struct rpmsg_endpoint *ept;
	u32 src;
	int len;
	u8 data[];
};

static struct device *lb_root;
static struct workqueue_struct *lb_wq;
static DEFINE_IDR(lb_addrs);
static DEFINE_MUTEX(lb_addrs_lock);
static struct rpmsg_device *lb_devs[3];

static void lb_ept_release(struct kref *kref)
{
	kfree(container_of(kref, struct rpmsg_endpoint, refcount));
}

static void lb_deliver(struct work_struct *work)
{
	struct lb_msg *msg = container_of(work, struct lb_msg, work);
	struct rpmsg_endpoint *ept = msg->ept;

	mutex_lock(&ept->cb_lock);
	if (ept->cb)
		ept->cb(ept->rpdev, msg->data, msg->len, ept->priv, msg->src);
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, lb_ept_release);
	kfree(msg);
}

static int lb_sendto(struct rpmsg_endpoint *ept, const void *data, int len, u32 dst)
{
	struct lb_msg *msg;

	if (len < 0 || len > LB_MTU)
		return -EMSGSIZE;
	msg = kmalloc(struct_size(msg, data, len), GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	INIT_WORK(&msg->work, lb_deliver);
	msg->ept = ept;
	msg->src = dst; /* the echo comes from the address the message went to */
	msg->len = len;
	memcpy(msg->data, data, len);
	kref_get(&ept->refcount);
	queue_work(lb_wq, &msg->work);
	return 0;
}

static int lb_send(struct rpmsg_endpoint *ept, const void *data, int len)
{
	return lb_sendto(ept, data, len, ept->rpdev->dst);
}

static __poll_t lb_poll(struct rpmsg_endpoint *ept, struct file *filp, poll_table *wait)
{
	return EPOLLOUT | EPOLLWRNORM; /* sending never has to wait */
}

static int lb_set_flow_control(struct rpmsg_endpoint *ept, bool pause, u32 dst)
{
	if (ept->flow_cb)
		ept->flow_cb(ept->rpdev, ept->priv, pause);
	return 0;
}

static ssize_t lb_get_mtu(struct rpmsg_endpoint *ept)
{
	return LB_MTU;
}

static void lb_destroy_ept(struct rpmsg_endpoint *ept)
{
	mutex_lock(&lb_addrs_lock);
	idr_remove(&lb_addrs, ept->addr);
	mutex_unlock(&lb_addrs_lock);
	mutex_lock(&ept->cb_lock);
	ept->cb = NULL;
	mutex_unlock(&ept->cb_lock);
	kref_put(&ept->refcount, lb_ept_release);
}

static const struct rpmsg_endpoint_ops lb_ept_ops = {
	.destroy_ept = lb_destroy_ept,
	.send = lb_send,
	.sendto = lb_sendto,
	.trysend = lb_send,
	.trysendto = lb_sendto,
	.poll = lb_poll,
	.set_flow_control = lb_set_flow_control,
	.get_mtu = lb_get_mtu,
};

static struct rpmsg_endpoint *lb_create_ept(
	struct rpmsg_device *rpdev, rpmsg_rx_cb_t cb, void *priv, struct rpmsg_channel_info chinfo)
{
	struct rpmsg_endpoint *ept;
	int start = LB_DYN_ADDR, end = 0, id;

	ept = kzalloc(sizeof(*ept), GFP_KERNEL);
	if (!ept)
		return NULL;
	kref_init(&ept->refcount);
	mutex_init(&ept->cb_lock);
	ept->rpdev = rpdev;
	ept->cb = cb;
	ept->priv = priv;
	ept->ops = &lb_ept_ops;

	if (chinfo.src != RPMSG_ADDR_ANY) {
		start = chinfo.src;
		end = start + 1;
	}
	mutex_lock(&lb_addrs_lock);
	id = idr_alloc(&lb_addrs, ept, start, end, GFP_KERNEL);
	mutex_unlock(&lb_addrs_lock);
	if (id < 0) {
		kfree(ept);
		return NULL;
	}
	ept->addr = id;
	return ept;
}

static const struct rpmsg_device_ops lb_dev_ops = {
	.create_ept = lb_create_ept,
};

static void lb_dev_release(struct device *dev)
{
	kfree(to_rpmsg_device(dev));
}

static struct rpmsg_device *lb_add(const char *name, u32 addr, bool ctrl)
{
	struct rpmsg_device *rpdev;
	int ret;

	rpdev = kzalloc(sizeof(*rpdev), GFP_KERNEL);
	if (!rpdev)
		return ERR_PTR(-ENOMEM);
	strscpy(rpdev->id.name, name, RPMSG_NAME_SIZE);
	rpdev->src = addr;
	rpdev->dst = addr;
	rpdev->announce = !ctrl;
	rpdev->little_endian = true;
	rpdev->ops = &lb_dev_ops;
	rpdev->dev.parent = lb_root;
	rpdev->dev.release = lb_dev_release;
	/* on failure the core has dropped the device and lb_dev_release freed it */
	ret = ctrl ? rpmsg_ctrldev_register_device(rpdev) : rpmsg_register_device(rpdev);
	return ret ? ERR_PTR(ret) : rpdev;
}

static void lb_remove_all(void)
{
	int i;

	for (i = ARRAY_SIZE(lb_devs) - 1; i >= 0; i--) {
		if (lb_devs[i])
			device_unregister(&lb_devs[i]->dev);
		lb_devs[i] = NULL;
	}
	if (lb_wq)
		destroy_workqueue(lb_wq); /* drains echoes still queued */
	lb_wq = NULL;
	if (!IS_ERR_OR_NULL(lb_root))
		root_device_unregister(lb_root);
	lb_root = NULL;
}

static int __init lb_init(void)
{
	struct rpmsg_device *rpdev;
	int i = 0;

	lb_wq = alloc_workqueue("socbox_rpmsg_lb", WQ_UNBOUND, 0);
	if (!lb_wq)
		return -ENOMEM;
	lb_root = root_device_register("socbox_rpmsg_loopback");
	if (IS_ERR(lb_root)) {
		int ret = PTR_ERR(lb_root);

		lb_remove_all();
		return ret;
	}
	rpdev = lb_add("rpmsg_ctrl", RPMSG_ADDR_ANY, true);
	if (!IS_ERR(rpdev)) {
		lb_devs[i++] = rpdev;
		rpdev = lb_add("socbox-loopback", LB_FIRST_ADDR, false);
	}
	if (!IS_ERR(rpdev) && raw_channel) {
		lb_devs[i++] = rpdev;
		rpdev = lb_add("rpmsg-raw", LB_FIRST_ADDR + 1, false);
	}
	if (IS_ERR(rpdev)) {
		lb_remove_all();
		return PTR_ERR(rpdev);
	}
	lb_devs[i] = rpdev;
	return 0;
}

static void __exit lb_exit(void)
{
	lb_remove_all();
	idr_destroy(&lb_addrs);
}

module_init(lb_init);
module_exit(lb_exit);
MODULE_DESCRIPTION("socbox test-only rpmsg loopback remote");
MODULE_LICENSE("GPL");
