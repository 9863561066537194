// SPDX-License-Identifier: GPL-2.0-or-later
/* The operands of socbox diff: a snapshot directory, a snapshot tarball (unpacked by tar(1),
 * the tool `socbox snapshot OUT.tar` packs with, into a private directory:
 * socbox/unpack.h), or "/". */
#include <errno.h>
#include <stdio.h>
#include <sys/stat.h>

#include "socbox/diff.h"
#include "socbox/unpack.h"

void sb_diff_operand_close(struct sb_diff_operand *op)
{
	sb_root_close(op->root);
	op->root = NULL;
	sb_unpack_remove(op->tmpdir);
}

int sb_diff_operand_open(struct sb_diff_operand *op, const char *path, struct sb_err *e)
{
	const char *root = path;
	struct stat st;
	int rc;

	*op = (struct sb_diff_operand){ 0 };
	if (stat(path, &st))
		return sb_err_set(e, errno, path, "open snapshot",
				  "a directory or .tar written by 'socbox snapshot'");
	if (S_ISREG(st.st_mode)) {
		rc = sb_unpack_tar(path, "socbox-diff", op->tmpdir, sizeof(op->tmpdir), e);
		if (rc)
			return rc;
		root = op->tmpdir;
	} else if (!S_ISDIR(st.st_mode)) {
		return sb_err_set(e, EINVAL, path, "open snapshot",
				  "a directory or .tar written by 'socbox snapshot'");
	}
	rc = sb_root_open(&op->root, root, e);
	if (!rc && !sb_root_is_live(op->root) && !sb_is_dir(op->root, "/sys") &&
	    !sb_is_dir(op->root, "/proc"))
		rc = sb_err_set(e, ENOENT, path, "open snapshot",
				"no sys/ or proc/ in it: not written by 'socbox snapshot'");
	if (rc)
		sb_diff_operand_close(op);
	return rc;
}
