// SPDX-License-Identifier: GPL-2.0-or-later
/* socbox-sigdfl CMD [ARG...]: run CMD with SIGINT, SIGQUIT, SIGTERM, SIGHUP and SIGPIPE
 * at their default action. A script's background job starts with SIGINT and SIGQUIT
 * ignored (POSIX, without job control), and socbox keeps a signal ignored on entry, so a
 * test that sends SIGINT to a background command starts it through this. */
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static const int sigs[] = { SIGINT, SIGQUIT, SIGTERM, SIGHUP, SIGPIPE };

	if (argc < 2) {
		fputs("usage: socbox-sigdfl CMD [ARG...]\n", stderr);
		return 2;
	}
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		signal(sigs[i], SIG_DFL);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
