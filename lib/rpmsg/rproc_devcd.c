// SPDX-License-Identifier: GPL-2.0-or-later
/* The core a remote processor's crash left in devcoredump. The remoteproc core makes it
 * while it recovers a crashed processor (remoteproc_core.c rproc_boot_recovery() calls
 * rproc_coredump(), remoteproc_coredump.c, which hands it to dev_coredumpv() or, for
 * "coredump" = inline, dev_coredumpm()); devcoredump.c dev_coredumpm_timeout() names it
 * devcdN and links devcdN/failing_device to the remoteprocN device.
 *
 * Its size is not read here. data is a binary attribute declared with size 0
 * (__BIN_ATTR(data, 0600, ..., 0)), so stat() says 0 bytes whatever it holds, and the only
 * way to learn the size is to read the whole core: megabytes copied out of the remote's
 * memories (inline mode reads them from the device as it goes). Naming it needs none of
 * that; socbox snapshot learns the size as it copies. */
#include <errno.h>
#include <string.h>

#include "socbox/rproc.h"
#include "socbox/rpmsg.h"

int sb_devcd_failing_device(const struct sb_root *r, const char *devcd, char *dev, size_t len)
{
	char link[512];
	const char *base;
	int rc = sb_readlink(r, link, sizeof(link), SB_DEVCD_CLASS "/%s/failing_device", devcd);

	if (rc < 0)
		return rc;
	base = strrchr(link, '/') ? strrchr(link, '/') + 1 : link;
	if (!*base || strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(dev, base, strlen(base) + 1);
	return 0;
}

void sb_rproc_devcd_scan(const struct sb_root *r, struct sb_rproc *p, size_t n)
{
	struct sb_dirlist l = { 0 };
	char dev[64];
	unsigned idx;

	for (size_t j = 0; j < n; j++)
		p[j].devcd[0] = '\0';
	if (!n || sb_dir_list(r, &l, SB_DEVCD_CLASS) < 0)
		return;
	/* the kernel keeps one core per failing device until it is freed
	 * (dev_coredumpm_timeout() drops a new one while one exists): at most one matches */
	for (size_t i = 0; i < l.n; i++) {
		if (sb_rpmsg_index(l.names[i], "devcd", &idx) ||
		    sb_devcd_failing_device(r, l.names[i], dev, sizeof(dev)) < 0)
			continue;
		for (size_t j = 0; j < n; j++)
			if (!strcmp(p[j].id, dev) && strlen(l.names[i]) < sizeof(p[j].devcd))
				memcpy(p[j].devcd, l.names[i], strlen(l.names[i]) + 1);
	}
	sb_dirlist_free(&l);
}
