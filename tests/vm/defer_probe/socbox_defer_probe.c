// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A platform device whose driver defers its probe for ever, the way a remote processor's
 * driver does while the mailbox channel it needs never comes: dev_err_probe() with
 * -EPROBE_DEFER stores the reason that /sys/kernel/debug/devices_deferred shows, and the
 * driver core retries it on every later probe. socbox doctor names it (probe.deferred).
 * With ready set (echo 1 > /sys/module/socbox_defer_probe/parameters/ready) the next probe
 * succeeds, as when the channel comes: a deferral that later probed, which is no cause.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define NAME "socbox-rproc-defer"

static struct platform_device *socbox_defer_dev;

static bool ready;
module_param(ready, bool, 0644);
MODULE_PARM_DESC(ready, "the mailbox channel is there: the next probe succeeds");

static int socbox_defer_probe(struct platform_device *pdev)
{
	if (READ_ONCE(ready))
		return 0;
	return dev_err_probe(&pdev->dev, -EPROBE_DEFER, "mailbox channel tx not available\n");
}

static struct platform_driver socbox_defer_driver = {
	.probe = socbox_defer_probe,
	.driver = { .name = NAME },
};

static int __init socbox_defer_init(void)
{
	int rc = platform_driver_register(&socbox_defer_driver);

	if (rc)
		return rc;
	socbox_defer_dev = platform_device_register_simple(NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(socbox_defer_dev)) {
		platform_driver_unregister(&socbox_defer_driver);
		return PTR_ERR(socbox_defer_dev);
	}
	return 0;
}

static void __exit socbox_defer_exit(void)
{
	platform_device_unregister(socbox_defer_dev);
	platform_driver_unregister(&socbox_defer_driver);
}

module_init(socbox_defer_init);
module_exit(socbox_defer_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("socbox test: a platform driver that defers its probe until told not to");
