/* SPDX-License-Identifier: GPL-2.0-or-later */
/* socbox snapshot: copy the sysfs/procfs/debugfs files the applets read into a directory
 * (or a .tar), so that --sysroot DIR answers offline as the live system did. Each applet
 * declares what it reads in lib/snapshot/snapshot_paths.c: plain paths with a depth, and hooks for
 * what needs logic (for example only the fdinfo files of dma-buf fds).
 *
 * Generated content lives at paths no kernel has, so it never collides with a copied file:
 * /dev/kmsg (the kernel log, in /dev/kmsg record format) and /sys/kernel/socbox/ (the
 * netdev generic netlink state: netdev.nlmsg, the raw dump replies, and netdev.parts, which
 * parts answered; see SB_ND_SNAP_MSGS in socbox/netdev.h, read by sb_nd_state_from_root). */
#ifndef SOCBOX_SNAPSHOT_H
#define SOCBOX_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>

#include "socbox/error.h"

enum sb_snap_flags {
	/* Symlinks found in the copied tree that point into /sys are followed: their target
	 * directory is copied as well (its files and links, one level deep), so links such as
	 * /sys/class/iommu/dmar0/devices/0000:00:02.0 resolve inside the snapshot. */
	SB_SNAP_FOLLOW = 1 << 0,
};

struct sb_snap_path {
	const char *path; /* absolute live path: file or directory */
	int depth;	  /* directory levels to descend (0: only the files in it) */
	unsigned flags;	  /* enum sb_snap_flags */
};

struct sb_snap;

/* For hooks: copy one live file, or a tree, into the snapshot. Missing sources are not an
 * error (return 0); unreadable ones are skipped and counted. */
int sb_snap_file(struct sb_snap *s, const char *path);
int sb_snap_tree(struct sb_snap *s, const char *path, int depth, unsigned flags);
/* For hooks: store generated content (for example the kernel log, which is no regular
 * file) as the file path of the snapshot. */
int sb_snap_write(struct sb_snap *s, const char *path, const void *buf, size_t len);
/* For hooks: copy one live file's first max bytes (a blob such as a devcoredump core,
 * read a block at a time, never written to). *copied says how many, *cut whether more
 * followed. 0, or -errno when the source could not be read (nothing copied). */
int sb_snap_file_bounded(struct sb_snap *s, const char *path, size_t max, size_t *copied, bool *cut);
/* For hooks: a line for the manifest (socbox-snapshot.txt): what was cut or left out. */
void sb_snap_note(struct sb_snap *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* For hooks: count a devcoredump core copied, cut or left out (struct sb_snap_stats). */
enum sb_snap_core { SB_SNAP_CORE_WHOLE, SB_SNAP_CORE_CUT, SB_SNAP_CORE_LEFT_OUT };
void sb_snap_core(struct sb_snap *s, enum sb_snap_core what, size_t bytes);
size_t sb_snap_core_bytes(const struct sb_snap *s);
typedef int (*sb_snap_hook)(struct sb_snap *s);
/* For hooks: the system being copied as a root (the live one, unless a test copies a fixture
 * tree instead: SOCBOX_TEST_SNAPSHOT_FROM), and a path of it with its links resolved inside
 * it, as realpath(3): 0 or -errno. Hooks read through these, never the host's / directly. */
struct sb_root;
int sb_snap_root_open(const struct sb_snap *s, struct sb_root **root);
int sb_snap_realpath(const struct sb_snap *s, const char *path, char *out, size_t len);

extern const struct sb_snap_path sb_snap_paths[]; /* terminated by { NULL } */
extern const sb_snap_hook sb_snap_hooks[];	  /* terminated by NULL */

struct sb_snap_stats {
	size_t files, links, dirs, skipped;
	unsigned long long bytes;
	/* devcoredump cores: copied whole, cut at SB_SNAPSHOT_CORE_MAX, left out (unreadable,
	 * or past SB_SNAPSHOT_CORES_MAX); core_bytes of them copied */
	size_t cores, cores_cut, cores_left_out;
	unsigned long long core_bytes;
};

/* Write a snapshot of the live system to out: a directory (created; must not exist or be
 * empty) or, when out ends in ".tar", a tar archive. */
int sb_snapshot_write(const char *out, struct sb_snap_stats *st, struct sb_err *e);

#endif
