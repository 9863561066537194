// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socbox/holder.h"
#include "socbox/iommufd.h"
#include "socbox/uapi/iommufd.h"
#include "socbox/uapi/vfio.h"

int sb_iommufd_open(struct sb_iommufd *f, struct sb_err *e)
{
	struct sb_iommu_ioas_alloc a = { .size = sizeof(a) };

	memset(f, 0, sizeof(*f));
	f->devfd = -1;
	f->fd = open("/dev/iommu", O_RDWR | O_CLOEXEC);
	if (f->fd < 0) {
		int err = errno;

		sb_err_set(e, err, "/dev/iommu", "open",
			   err == ENOENT		   ? "enable CONFIG_IOMMUFD (Linux 6.2+)"
			   : err == EACCES || err == EPERM ? "run as root"
							   : NULL);
		if (err == ENOENT)
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -err;
	}
	if (ioctl(f->fd, SB_IOMMU_IOAS_ALLOC, &a) < 0) {
		int err = errno;

		close(f->fd);
		f->fd = -1;
		return sb_err_set(e, err, "/dev/iommu", "IOMMU_IOAS_ALLOC", NULL);
	}
	f->ioas = a.out_ioas_id;
	return 0;
}

static bool short_bdf(const char *s)
{
	return strlen(s) == 7 && s[2] == ':' && s[5] == '.';
}

int sb_vfio_cdev_path(const struct sb_root *r, const char *bdf, char *buf, size_t len,
		      struct sb_err *e)
{
	char full[64], obj[96];
	struct sb_dirlist dl;
	struct stat st;
	int rc;

	snprintf(full, sizeof(full), "%s%.40s", short_bdf(bdf) ? "0000:" : "", bdf);
	snprintf(obj, sizeof(obj), "PCI device %s", full);
	rc = sb_stat(r, &st, "/sys/bus/pci/devices/%s", full);
	if (rc == -ENOENT)
		return sb_err_set(e, ENODEV, obj, "find", "check the address with lspci");
	if (rc < 0)
		return sb_err_set(e, -rc, obj, "find", NULL);
	rc = sb_dir_list(r, &dl, "/sys/bus/pci/devices/%s/vfio-dev", full);
	/* the listing failing otherwise (memory) is not a device without a cdev */
	if (rc < 0 && rc != -ENOENT)
		return sb_err_set(e, -rc, obj, "find VFIO cdev", NULL);
	if (rc < 0 || dl.n == 0) {
		if (rc == 0)
			sb_dirlist_free(&dl);
		sb_err_set(e, ENODEV, obj, "find VFIO cdev",
			   "bind it to vfio-pci (echo vfio-pci > driver_override; echo %s > /sys/bus/pci/drivers_probe) "
			   "in a kernel with CONFIG_VFIO_DEVICE_CDEV",
			   full);
		sb_err_reason(e, "no vfio-dev/ directory");
		return -ENODEV;
	}
	snprintf(buf, len, "/dev/vfio/devices/%.40s", dl.names[0]);
	sb_dirlist_free(&dl);
	return 0;
}

/* VFIO_DEVICE_BIND_IOMMUFD refused with EBUSY or EINVAL: the kernel gives no reason, but
 * a group with a device a kernel driver holds is one it refuses (DMA ownership: the group
 * is the kernel's or user space's, never both). Name those devices when there are;
 * otherwise say that the kernel gave no reason. */
static int bind_refused(const struct sb_root *r, const char *devnode, int err, struct sb_err *e)
{
	char others[256];
	int n = r ? sb_vfio_group_others(r, devnode, others, sizeof(others)) : -ENOENT;

	if (n > 0)
		return sb_err_set(e, err, devnode, "VFIO_DEVICE_BIND_IOMMUFD",
				  "its IOMMU group also holds %s: bind %s to vfio-pci or unbind "
				  "%s",
				  others, n > 1 ? "them" : "it", n > 1 ? "them" : "it");
	sb_err_set(e, err, devnode, "VFIO_DEVICE_BIND_IOMMUFD", NULL);
	sb_err_reason(e, "kernel: %s, with no reason; %s", sb_strerror(err),
		      n == 0 ? "every other device of its IOMMU group is bound to vfio-pci or unbound"
			     : "its IOMMU group could not be read");
	return -err;
}

int sb_iommufd_attach(struct sb_iommufd *f, const struct sb_root *r, const char *devnode,
		      struct sb_err *e)
{
	struct sb_vfio_device_bind_iommufd bind = { .argsz = sizeof(bind), .iommufd = f->fd };
	struct sb_vfio_device_attach_iommufd_pt at = { .argsz = sizeof(at), .pt_id = f->ioas };

	snprintf(f->devnode, sizeof(f->devnode), "%s", devnode);
	f->devfd = open(devnode, O_RDWR | O_CLOEXEC);
	if (f->devfd < 0)
		return sb_err_set(e, errno, devnode, "open",
				  errno == ENOENT ? "the device must be bound to vfio-pci"
				  : errno == EACCES || errno == EPERM ? "run as root"
								      : NULL);
	if (ioctl(f->devfd, SB_VFIO_DEVICE_BIND_IOMMUFD, &bind) < 0) {
		int err = errno;
		struct sb_holder h;

		/* the cdev path binds a device once: EINVAL when it already is */
		if (err == EINVAL && sb_holder_other(f->devfd, &h) == 1)
			return sb_holder_err(e, &h, devnode, "VFIO_DEVICE_BIND_IOMMUFD",
					     "a VFIO device cdev is bound once at a time: wait for "
					     "that process or stop it");
		if (err == EBUSY || err == EINVAL)
			return bind_refused(r, devnode, err, e);
		return sb_err_set(
			e, err, devnode, "VFIO_DEVICE_BIND_IOMMUFD",
			err == EPERM
				? "iommufd refuses devices without interrupt remapping: enable it "
				  "(intel-iommu intremap, GICv3 ITS) or, on a test system, write 1 to "
				  "/sys/module/iommufd/parameters/allow_unsafe_interrupts"
				: NULL);
	}
	f->devid = bind.out_devid;
	if (ioctl(f->devfd, SB_VFIO_DEVICE_ATTACH_IOMMUFD_PT, &at) < 0)
		return sb_err_set(e, errno, devnode, "VFIO_DEVICE_ATTACH_IOMMUFD_PT", NULL);
	f->hwpt = at.pt_id;
	return 0;
}

int sb_iommufd_map(const struct sb_iommufd *f, void *va, uint64_t len, uint64_t *iova,
		   struct sb_err *e)
{
	struct sb_iommu_ioas_map m = {
		.size = sizeof(m),
		.flags = SB_IOMMU_IOAS_MAP_READABLE | SB_IOMMU_IOAS_MAP_WRITEABLE,
		.ioas_id = f->ioas,
		.user_va = (uintptr_t)va,
		.length = len,
	};

	if (ioctl(f->fd, SB_IOMMU_IOAS_MAP, &m) < 0)
		return sb_err_set(e, errno, "/dev/iommu", "IOMMU_IOAS_MAP",
				  errno == ENOMEM ? "raise RLIMIT_MEMLOCK (ulimit -l)" : NULL);
	*iova = m.iova;
	return 0;
}

int sb_iommufd_unmap(const struct sb_iommufd *f, uint64_t iova, uint64_t len, struct sb_err *e)
{
	struct sb_iommu_ioas_unmap u = {
		.size = sizeof(u), .ioas_id = f->ioas, .iova = iova, .length = len
	};

	if (ioctl(f->fd, SB_IOMMU_IOAS_UNMAP, &u) < 0)
		return sb_err_set(e, errno, "/dev/iommu", "IOMMU_IOAS_UNMAP", NULL);
	return 0;
}

int sb_iommufd_huge_pages(const struct sb_iommufd *f, bool on, struct sb_err *e)
{
	struct sb_iommu_option o = {
		.size = sizeof(o),
		.option_id = SB_IOMMU_OPTION_HUGE_PAGES,
		.op = SB_IOMMU_OPTION_OP_SET,
		.object_id = f->ioas,
		.val64 = on,
	};

	if (ioctl(f->fd, SB_IOMMU_OPTION, &o) < 0)
		return sb_err_set(e, errno, "/dev/iommu", "IOMMU_OPTION_HUGE_PAGES", NULL);
	return 0;
}

void sb_iommufd_close(struct sb_iommufd *f)
{
	if (f->devfd >= 0) {
		struct sb_vfio_device_detach_iommufd_pt d = { .argsz = sizeof(d) };

		if (f->hwpt)
			ioctl(f->devfd, SB_VFIO_DEVICE_DETACH_IOMMUFD_PT, &d);
		close(f->devfd);
	}
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	f->devfd = -1;
}
