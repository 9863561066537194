// SPDX-License-Identifier: GPL-2.0-or-later
/* What the kernel's log said about an object while an operation ran (socbox/kmsg_said.h). */
#include <stdio.h>
#include <string.h>

#include "socbox/error.h"
#include "socbox/kmsg_said.h"

void sb_kmsg_said_mark(struct sb_kmsg_said *s)
{
	s->open = sb_kmsg_follow_open(&s->f, NULL) == 0;
}

/* A name as dev_printk prints a device ("DRIVER DEVICE: ...", netdev_err()'s "DRIVER PARENT
 * IFNAME: ...") or followed by a space, starting a word. */
bool sb_kmsg_said_names(const char *text, const char *const *names, size_t nnames)
{
	for (size_t i = 0; i < nnames; i++) {
		size_t n = names[i] ? strlen(names[i]) : 0;

		for (const char *p = text; n && (p = strstr(p, names[i])); p += n) {
			bool starts = p == text || p[-1] == ' ';

			if (starts && (p[n] == ':' || p[n] == ' '))
				return true;
		}
	}
	return false;
}

unsigned sb_kmsg_said_take(struct sb_kmsg_said *s, const char *const *names, size_t nnames,
			   char *buf, size_t len)
{
	struct sb_kmsg_line l;
	unsigned n = 0;
	size_t used = 0;

	if (len)
		buf[0] = '\0';
	if (!s->open)
		return 0;
	/* timeout 0: what the kernel printed by now; the operation has returned */
	while (sb_kmsg_follow_next(&s->f, &l, 0) == 0) {
		int w;

		if (l.prio > SB_KMSG_SAID_PRIO || !sb_kmsg_said_names(l.text, names, nnames))
			continue;
		if (n++ >= SB_KMSG_SAID_MOST)
			continue;
		w = snprintf(buf + used, len - used, "%s\"%s\"", used ? "; " : "", l.text);
		if (w < 0 || (size_t)w >= len - used) { /* a cut quote says it was cut */
			if (len > 4)
				memcpy(buf + len - 4, "...", 4);
			used = len - 1;
			continue;
		}
		used += (size_t)w;
	}
	sb_kmsg_follow_close(&s->f);
	s->open = false;
	return n;
}

void sb_kmsg_said_drop(struct sb_kmsg_said *s)
{
	if (s->open)
		sb_kmsg_follow_close(&s->f);
	s->open = false;
}

void sb_kmsg_said_reason(struct sb_kmsg_said *s, const char *const *names, size_t nnames, int err,
			 const char *about, struct sb_err *e)
{
	char quote[sizeof(e->reason) - 64];

	if (!s->open)
		return;
	if (sb_kmsg_said_take(s, names, nnames, quote, sizeof(quote)))
		sb_err_reason(e, "kernel: %s; its log: %s", sb_strerror(err), quote);
	else if (about)
		sb_err_reason(e, "kernel: %s, with no reason (nothing in its log about %s)",
			      sb_strerror(err), about);
}
