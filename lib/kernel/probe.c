// SPDX-License-Identifier: GPL-2.0-or-later
/* The errnos of a kernel without an interface, and the record of a probe (socbox/probe.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "socbox/probe.h"

bool sb_kernel_lacks(int err)
{
	return err == ENOSYS || err == ENOTTY || err == EOPNOTSUPP || err == EINVAL;
}

void sb_probe_ran(struct sb_probe *p, int path)
{
	memset(p, 0, sizeof(*p));
	p->ran = path;
}

void sb_probe_fell_back(struct sb_probe *p, int preferred, int path, int err, const char *why_fmt,
			...)
{
	va_list ap;

	sb_probe_ran(p, path);
	p->instead_of = preferred;
	p->err = err;
	va_start(ap, why_fmt);
	vsnprintf(p->why, sizeof(p->why), why_fmt, ap);
	va_end(ap);
}

bool sb_probe_is_fallback(const struct sb_probe *p)
{
	return p->instead_of != 0;
}
