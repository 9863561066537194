// SPDX-License-Identifier: GPL-2.0
/*
 * socbox test-only dma-buf holder: takes a dma-buf the way a driver does, so a test can
 * see how an interface behaves while a buffer is in use by the kernel.
 *
 * /sys/kernel/debug/socbox_dmabuf_holder/attach: write "FD" (a dma-buf fd of the writing
 * process) to attach the buffer to this module's device and map it for DMA; write "-1" to
 * unmap and detach. /sys/kernel/debug/socbox_dmabuf_holder/vmap: the same with a kernel
 * mapping (dma_buf_vmap). One buffer per file at a time; module unload lets go.
 */
#include <linux/debugfs.h>
#include <linux/dma-buf.h>
#include <linux/dma-mapping.h>
#include <linux/iosys-map.h>
#include <linux/module.h>
#include <linux/platform_device.h>

MODULE_IMPORT_NS("DMA_BUF");

static struct platform_device *holder_pdev;
static struct dentry *holder_dir;
static DEFINE_MUTEX(holder_lock);

static struct dma_buf *attached_buf, *vmapped_buf;
static struct dma_buf_attachment *attachment;
static struct sg_table *sgt;
static struct iosys_map vmap;

static void holder_detach(void)
{
	if (!attached_buf)
		return;
	dma_buf_unmap_attachment_unlocked(attachment, sgt, DMA_BIDIRECTIONAL);
	dma_buf_detach(attached_buf, attachment);
	dma_buf_put(attached_buf);
	attached_buf = NULL;
}

static int holder_attach(int fd)
{
	struct dma_buf *buf = dma_buf_get(fd);
	int ret;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	attachment = dma_buf_attach(buf, &holder_pdev->dev);
	if (IS_ERR(attachment)) {
		ret = PTR_ERR(attachment);
		goto put;
	}
	sgt = dma_buf_map_attachment_unlocked(attachment, DMA_BIDIRECTIONAL);
	if (IS_ERR(sgt)) {
		ret = PTR_ERR(sgt);
		dma_buf_detach(buf, attachment);
		goto put;
	}
	attached_buf = buf;
	return 0;
put:
	dma_buf_put(buf);
	return ret;
}

static void holder_vunmap(void)
{
	if (!vmapped_buf)
		return;
	dma_buf_vunmap_unlocked(vmapped_buf, &vmap);
	dma_buf_put(vmapped_buf);
	vmapped_buf = NULL;
}

static int holder_vmap(int fd)
{
	struct dma_buf *buf = dma_buf_get(fd);
	int ret;

	if (IS_ERR(buf))
		return PTR_ERR(buf);
	ret = dma_buf_vmap_unlocked(buf, &vmap);
	if (ret) {
		dma_buf_put(buf);
		return ret;
	}
	vmapped_buf = buf;
	return 0;
}

static ssize_t holder_write(struct file *file, const char __user *ubuf, size_t len, loff_t *ppos)
{
	bool is_vmap = file->private_data != NULL;
	int fd, ret;

	ret = kstrtoint_from_user(ubuf, len, 0, &fd);
	if (ret)
		return ret;
	mutex_lock(&holder_lock);
	if (fd < 0) {
		if (is_vmap)
			holder_vunmap();
		else
			holder_detach();
	} else if (is_vmap ? vmapped_buf != NULL : attached_buf != NULL) {
		ret = -EBUSY;
	} else {
		ret = is_vmap ? holder_vmap(fd) : holder_attach(fd);
	}
	mutex_unlock(&holder_lock);
	return ret ? ret : len;
}

static const struct file_operations holder_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = holder_write,
};

static int __init holder_init(void)
{
	int ret;

	holder_pdev = platform_device_register_simple("socbox_dmabuf_holder", PLATFORM_DEVID_NONE,
						      NULL, 0);
	if (IS_ERR(holder_pdev))
		return PTR_ERR(holder_pdev);
	ret = dma_coerce_mask_and_coherent(&holder_pdev->dev, DMA_BIT_MASK(64));
	if (ret) {
		platform_device_unregister(holder_pdev);
		return ret;
	}
	holder_dir = debugfs_create_dir("socbox_dmabuf_holder", NULL);
	debugfs_create_file("attach", 0200, holder_dir, NULL, &holder_fops);
	/* any non-NULL private data marks the vmap file */
	debugfs_create_file("vmap", 0200, holder_dir, holder_dir, &holder_fops);
	return 0;
}

static void __exit holder_exit(void)
{
	debugfs_remove_recursive(holder_dir);
	mutex_lock(&holder_lock);
	holder_detach();
	holder_vunmap();
	mutex_unlock(&holder_lock);
	platform_device_unregister(holder_pdev);
}

module_init(holder_init);
module_exit(holder_exit);
MODULE_DESCRIPTION("socbox test-only dma-buf holder (attach / vmap from debugfs)");
MODULE_LICENSE("GPL");
