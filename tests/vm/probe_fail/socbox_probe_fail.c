// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A platform device whose driver's probe fails after saying why, the way a remote
 * processor's driver fails when the mailbox channel it asks for is refused: the driver's
 * own dev_err() first, then its error, which the driver core reports as "probe with driver
 * %s failed with error %d" (drivers/base/dd.c, call_driver_probe()). socbox doctor names
 * the failure (probe.failed) and quotes the driver's record of the same device.
 * The probe runs once, when the module registers the device; rmmod removes both.
 */
#include <linux/err.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#define NAME "socbox-rproc-fail"

static struct platform_device *socbox_fail_dev;

static int socbox_fail_probe(struct platform_device *pdev)
{
	/* -ENODEV and -ENXIO are "rejects match" (dev_dbg): any other error is a failure */
	dev_err(&pdev->dev, "mbox_request_channel failed: %d\n", -EINVAL);
	return -EINVAL;
}

static struct platform_driver socbox_fail_driver = {
	.probe = socbox_fail_probe,
	.driver = { .name = NAME },
};

static int __init socbox_fail_init(void)
{
	int rc = platform_driver_register(&socbox_fail_driver);

	if (rc)
		return rc;
	socbox_fail_dev = platform_device_register_simple(NAME, PLATFORM_DEVID_NONE, NULL, 0);
	if (IS_ERR(socbox_fail_dev)) {
		platform_driver_unregister(&socbox_fail_driver);
		return PTR_ERR(socbox_fail_dev);
	}
	return 0;
}

static void __exit socbox_fail_exit(void)
{
	platform_device_unregister(socbox_fail_dev);
	platform_driver_unregister(&socbox_fail_driver);
}

module_init(socbox_fail_init);
module_exit(socbox_fail_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("socbox test: a platform driver whose probe fails after saying why");
