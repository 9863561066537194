/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Probe, don't version-check: the newer kernel interface is tried first and an older path
 * takes over where the kernel lacks it. The one list of the errnos that mean "this kernel
 * lacks it", and the one record of what a probe ended with, so that every prober says the
 * same way which path ran and why the preferred one did not. */
#ifndef SOCBOX_PROBE_H
#define SOCBOX_PROBE_H

#include <stdbool.h>

/* Whether err (a positive errno from a newer interface) means this kernel does not have it:
 * ENOSYS (no such system call), ENOTTY (no such ioctl), EOPNOTSUPP (no such operation or
 * netlink command) or EINVAL (a command, flag or attribute the kernel does not know).
 * EINVAL is also how a known call refuses its arguments: where both can be meant, ask
 * twice (rpmsg's fd ioctl) or know the interface is there (netdev's dev-get). */
bool sb_kernel_lacks(int err);

/* What a probe ended with. Paths are values of the prober's method enum, whose 0 means
 * none ("auto"). */
struct sb_probe {
	int ran;	/* the path that ran; 0: none yet */
	int instead_of; /* the preferred path when ran is not it, else 0 */
	int err;	/* the errno that ruled instead_of out; 0 when none did */
	char why[128];	/* why instead_of was not used, in words */
};

/* path ran, the preferred one. */
void sb_probe_ran(struct sb_probe *p, int path);
/* path ran instead of preferred, because of err (0: no errno) and why (printf). */
void sb_probe_fell_back(struct sb_probe *p, int preferred, int path, int err, const char *why_fmt,
			...) __attribute__((format(printf, 5, 6)));
/* Whether the path that ran is not the preferred one. */
bool sb_probe_is_fallback(const struct sb_probe *p);

#endif
