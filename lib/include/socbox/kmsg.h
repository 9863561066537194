/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel log. Live: /dev/kmsg read without blocking (records "PRI,SEQ,USEC,FLAGS;text"),
 * falling back to klogctl() when /dev/kmsg cannot be opened. On a sysroot: the file /dev/kmsg
 * of the snapshot, in any of the formats below. Parsed lines keep the message text and the
 * timestamp; the formats recognised per line are /dev/kmsg records, "<6>[   1.5] text"
 * (klogctl/syslog), "[   1.5] text" (dmesg) and plain text. */
#ifndef SOCBOX_KMSG_H
#define SOCBOX_KMSG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "socbox/error.h"
#include "socbox/limits.h"
#include "socbox/sys.h"

struct sb_kmsg_line {
	const char *text; /* message, NUL-terminated, points into the log's buffer */
	uint64_t ts_us;	  /* microseconds since boot */
	bool has_ts;
	int prio;     /* syslog priority 0..7, -1 unknown */
	uint64_t seq; /* /dev/kmsg records: the kernel's sequence number */
	bool has_seq;
	/* the record's DEVICE= dictionary value as dev_printk() gives it ("+platform:NAME",
	 * "c240:0", "n2"), pointing into the log's buffer; NULL when it has none (set by
	 * sb_kmsg_parse() on every line of the record) */
	const char *device;
};

struct sb_kmsg {
	char *buf;
	struct sb_kmsg_line *lines;
	size_t n;
	const char *source; /* "/dev/kmsg", "klogctl" or "sysroot" */
	uint64_t lost;	    /* records missing between two that were read (sequence numbers that
			* were skipped: overwritten while the log was read) */
};

/* Parse a log text (modified: lines are split in place; kept by k, freed by sb_kmsg_free). */
int sb_kmsg_parse(char *text, struct sb_kmsg *k);
/* Parse one line into out (text points into line). The text of a /dev/kmsg record is
 * unescaped in place (the kernel writes bytes below 0x20, above 0x7e and '\\' as \xNN;
 * \x00 stays as it is), so it reads as dmesg shows it; a text holding newlines is split
 * into several lines by sb_kmsg_parse(). Returns false for /dev/kmsg dictionary
 * continuation lines (" KEY=VALUE") and empty lines. */
bool sb_kmsg_parse_line(char *line, struct sb_kmsg_line *out);
/* Undo /dev/kmsg's \xNN escapes in place, except \x00; returns the new length. */
size_t sb_kmsg_unescape(char *s);
int sb_kmsg_read(const struct sb_root *r, struct sb_kmsg *k, struct sb_err *e);
/* The log text as the kernel gave it, unparsed (NUL-terminated, malloc'ed): /dev/kmsg
 * records with their dictionary lines, klogctl()'s "<6>[  1.5] text" lines when /dev/kmsg
 * cannot be opened, or a sysroot's /dev/kmsg file. source as in struct sb_kmsg. */
int sb_kmsg_read_raw(const struct sb_root *r, char **buf, size_t *len, const char **source,
		     struct sb_err *e);
void sb_kmsg_free(struct sb_kmsg *k);

/* The log a line at a time, in log order, without holding it: what sb_kmsg_read() would
 * give as lines, handed to fn one by one (a record's lines once its DEVICE= dictionary line
 * has been seen). The line and the strings it points to are valid during the call only.
 * fn returns 0 to go on, anything else to stop (sb_kmsg_each() then returns it). Memory
 * stays bounded whatever the log's size: a sysroot's file is read in blocks (up to
 * SB_READ_LOG_MAX, -EFBIG beyond), /dev/kmsg a record at a time; a line longer than
 * SB_KMSG_LINE_MAX is cut there. */
struct sb_kmsg_info {
	const char *source;  /* as in struct sb_kmsg */
	uint64_t lost;	     /* as in struct sb_kmsg */
	uint64_t lines;	     /* lines handed to fn */
	uint64_t last_ts_us; /* the newest time of a line, 0 when none had one */
};
typedef int (*sb_kmsg_fn)(void *arg, const struct sb_kmsg_line *l);
int sb_kmsg_each(const struct sb_root *r, sb_kmsg_fn fn, void *arg, struct sb_kmsg_info *info,
		 struct sb_err *e);
/* The device name of a line's DEVICE= value "+SUBSYSTEM:NAME" (a struct device without a
 * device number, which is every platform, virtio or remoteproc device), NULL for none and
 * for devices named by number ("c240:0", "b8:0", "n2": the line's dev_printk prefix names
 * them). */
const char *sb_kmsg_device_name(const struct sb_kmsg_line *l);
/* A line as dev_printk() writes it, "DRIVER DEVICE: MSG": DEVICE into dev (len bytes) and
 * MSG returned when text starts with driver, else NULL. */
const char *sb_kmsg_dev_msg(const char *text, const char *driver, char *dev, size_t len);

/* Follow new records of the live log: open positioned at the end, then wait up to
 * timeout_ms (< 0: forever) for the next line; 0 on a line, -ETIMEDOUT, -EINTR. A record
 * whose text holds newlines gives one line per call. When the log overflows faster than it
 * is read, the kernel skips to the oldest record it still has (EPIPE): the records skipped
 * are counted in lost, by their sequence numbers, and reading goes on from there. */
struct sb_kmsg_follow {
	int fd;
	uint64_t lost;	   /* records the kernel overwrote before they were read (EPIPE) */
	uint64_t next_seq; /* of the record after the last one read, when have_seq */
	bool have_seq;
	char buf[8192];		  /* one record (the kernel's limit for a /dev/kmsg read) */
	char *more;		  /* the rest of a multi-line record, NULL when none */
	struct sb_kmsg_line last; /* the record's prio and time for that rest */
};
int sb_kmsg_follow_open(struct sb_kmsg_follow *f, struct sb_err *e);
int sb_kmsg_follow_next(struct sb_kmsg_follow *f, struct sb_kmsg_line *out, int timeout_ms);
void sb_kmsg_follow_close(struct sb_kmsg_follow *f);

#endif
