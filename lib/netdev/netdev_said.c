// SPDX-License-Identifier: GPL-2.0-or-later
/* What the kernel's log said about a network device while an operation ran. A driver that
 * refuses with a bare errno (no extended ack) often printed its reason just before: that
 * record, not a guess, is what the user is shown. */
#include <stdio.h>
#include <string.h>

#include "socbox/kmsg.h"
#include "socbox/macro.h"
#include "socbox/netdev.h"

void sb_nd_said_mark(struct sb_nd_said *s)
{
	/* Without /dev/kmsg (not root, dmesg_restrict) there is nothing to quote: not an error
	 * of the operation the caller reports. */
	s->open = sb_kmsg_follow_open(&s->f, NULL) == 0;
}

/* Whether a record's text is about the device: "DRIVER PARENT IFNAME: ..." as netdev_err()
 * prints it, or dev_err() on its parent ("DRIVER PARENT: ..."). */
bool sb_nd_said_names(const char *text, const char *ifname, const char *parent)
{
	const char *names[] = { ifname, parent };

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t n = names[i] ? strlen(names[i]) : 0;

		for (const char *p = text; n && (p = strstr(p, names[i])); p += n) {
			bool starts = p == text || p[-1] == ' ';

			if (starts && (p[n] == ':' || p[n] == ' '))
				return true;
		}
	}
	return false;
}

unsigned sb_nd_said_take(struct sb_nd_said *s, const char *ifname, const char *parent, char *buf,
			 size_t len)
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

		if (l.prio > SB_ND_SAID_PRIO || !sb_nd_said_names(l.text, ifname, parent))
			continue;
		if (n++ >= SB_ND_SAID_MOST)
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

void sb_nd_said_drop(struct sb_nd_said *s)
{
	if (s->open)
		sb_kmsg_follow_close(&s->f);
	s->open = false;
}
