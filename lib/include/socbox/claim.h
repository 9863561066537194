/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Temporary names that a killed process leaves behind and the next run removes. A claim is a
 * file that is locked (flock) before it has its name and stays locked for as long as its
 * process works on what the claim names; a claim nobody holds locked is a leftover of a
 * process that died (SIGKILL, a power cut), whatever its age, and another process's claim is
 * never taken for one. Output written under a temporary name (dmabufcp's DST, a snapshot)
 * claims that name, and sweeps its destination's leftovers before it starts. */
#ifndef SOCBOX_CLAIM_H
#define SOCBOX_CLAIM_H

#include <stddef.h>
#include <sys/types.h>

#include "socbox/error.h"

#define SB_CLAIM_PATH_MAX 4096

struct sb_claim {
	int fd;			      /* the claimed file, open O_RDWR and locked; -1 when none */
	char path[SB_CLAIM_PATH_MAX]; /* DIR/PREFIX and 6 random characters */
};

/* Create DIR/PREFIXxxxxxx with mode (less the umask), locked before it appears: an unnamed
 * O_TMPFILE linked in where the file system has them; elsewhere a file made under another
 * name (PREFIXnew-xxxxxx), locked, then renamed. 0 or -errno with e set (object: what). */
int sb_claim_create(struct sb_claim *c, const char *dir, const char *prefix, mode_t mode,
		    const char *what, struct sb_err *e);
/* Close the claim's file and its lock (the file stays; the caller renames or removes it). */
void sb_claim_release(struct sb_claim *c);

/* Leftovers in DIR, handed to reap by the claim's path; reap removes the claim and what it
 * stands for (PREFIXxxxxxx.SUFFIX names), the claim last. A leftover is: PREFIX and exactly
 * 6 characters, a regular file of this user that nobody holds locked; a PREFIXxxxxxx.SUFFIX
 * of this user whose claim is gone (reap may then be called once per such name); a
 * PREFIXnew-xxxxxx of this user older than an hour (a process killed between creating and
 * renaming it). Returns how many calls of reap. */
typedef void (*sb_claim_reap_fn)(const char *path, void *arg);
size_t sb_claim_sweep(const char *dir, const char *prefix, sb_claim_reap_fn reap, void *arg);

/* rename() that never replaces what is at `to` (renameat2 RENAME_NOREPLACE; a check before
 * the rename where the file system lacks it). -1 with errno. */
int sb_rename_noreplace(const char *from, const char *to);

#endif
