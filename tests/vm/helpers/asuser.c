// SPDX-License-Identifier: GPL-2.0-or-later
/* Run a command as another user, without groups: what a user who is not root sees (the
 * guest's busybox has no su without a passwd file).
 *   socbox-asuser UID GID COMMAND [ARG...] */
#define _GNU_SOURCE
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: socbox-asuser UID GID COMMAND [ARG...]\n");
		return 2;
	}
	uid_t uid = (uid_t)strtoul(argv[1], NULL, 10);
	gid_t gid = (gid_t)strtoul(argv[2], NULL, 10);

	if (setgroups(0, NULL) || setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		perror("socbox-asuser");
		return 1;
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
