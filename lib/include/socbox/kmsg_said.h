/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef SOCBOX_KMSG_SAID_H
#define SOCBOX_KMSG_SAID_H
/* What the kernel logged about an object while an operation ran (lib/kernel/kmsg_said.c).
 * A driver that refuses with a bare errno often printed its reason just before: that
 * record, not a guess, is what the user is shown. Mark the log's end before the operation,
 * take after it: take gives the records at warning or worse (at most SB_KMSG_SAID_MOST,
 * quoted and joined by "; " into buf) that name one of names (a device as dev_printk prints
 * it: "DRIVER DEVICE: ...", or a name followed by a space), counts all of them and ends the
 * mark; drop ends it unread. Without access to /dev/kmsg (not root, dmesg_restrict) both
 * give nothing: not an error of the operation the caller reports. */
#include <stdbool.h>
#include <stddef.h>

#include "socbox/kmsg.h"

#define SB_KMSG_SAID_PRIO 4 /* KERN_WARNING */
#define SB_KMSG_SAID_MOST 3

struct sb_kmsg_said {
	struct sb_kmsg_follow f;
	bool open;
};

void sb_kmsg_said_mark(struct sb_kmsg_said *s);
unsigned sb_kmsg_said_take(struct sb_kmsg_said *s, const char *const *names, size_t nnames,
			   char *buf, size_t len);
void sb_kmsg_said_drop(struct sb_kmsg_said *s);
/* The refused operation's reason into e (its errno err): "kernel: ERR; its log: QUOTES"
 * when the log named one of names meanwhile; else, when about is given, "kernel: ERR, with
 * no reason (nothing in its log about ABOUT)". Nothing when the log could not be read.
 * Ends the mark. */
struct sb_err;
void sb_kmsg_said_reason(struct sb_kmsg_said *s, const char *const *names, size_t nnames, int err,
			 const char *about, struct sb_err *e);
/* Whether a record's text names one of names (NULL entries are skipped). */
bool sb_kmsg_said_names(const char *text, const char *const *names, size_t nnames);

#endif
