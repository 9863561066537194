/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one stop mechanism. A command that creates a kernel object (an endpoint, a buffer, a
 * binding, a VFIO/iommufd mapping) or runs until stopped calls sb_catch_stop_signals():
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE then set sb_stop_signal (to the signal number)
 * instead of ending the process, so the command releases what it created and prints what it
 * has. No SA_RESTART: a blocked read, poll or sleep returns EINTR and the loop sees the
 * flag; waits in lib/ that see EINTR with the flag set return -EINTR. A signal ignored
 * when the process started (nohup, a background job of a script) stays ignored.
 *
 * Every wait of a command goes through sb_poll() or sb_sleep(): they block the stop
 * signals between the check of the flag and the wait, so a signal cannot slip in between
 * and leave the command waiting (a plain "while (!flag) poll(...)" can). */
#ifndef SOCBOX_STOP_H
#define SOCBOX_STOP_H

#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

extern volatile sig_atomic_t sb_stop_signal;
void sb_catch_stop_signals(void);

/* poll(2) that a stop signal ends: the number of ready descriptors, 0 when timeout_ms
 * (negative: no limit) ran out, -EINTR when a stop signal arrived (before or during the
 * wait), or -errno. Other signals do not end it early. n may be 0. */
int sb_poll(struct pollfd *fds, nfds_t n, int timeout_ms);

/* The timeout for sb_poll() (or another wait in milliseconds) of a wait that must end by
 * deadline_ns, a sb_now_ns() time (0: no deadline): the milliseconds left, rounded up so the
 * wait does not end before the deadline, and at most max_ms (negative: no limit, so -1 without
 * a deadline); 0 once the deadline has passed. */
int sb_poll_timeout(uint64_t deadline_ns, int max_ms);

/* Sleep for seconds (negative: until stopped); true when a stop signal ended it early, or
 * had already arrived. */
bool sb_sleep(double seconds);

/* Block the stop signals in the calling thread, the old mask in *old; threads created
 * meanwhile inherit the block, so a stop signal goes to the thread that waits for it. */
void sb_stop_signals_block(sigset_t *old);

/* The exit status of a command that may have been stopped: rc, but 1 after SIGPIPE (the
 * reader of its output has gone, so what it had is lost). SIGINT, SIGTERM and SIGHUP end
 * a run early without making it a failure. */
static inline int sb_stop_status(int rc)
{
	return !rc && sb_stop_signal == SIGPIPE ? 1 : rc;
}

/* "SIGINT" for SIGINT, for messages and JSON; "a signal" for others. */
const char *sb_signal_name(int sig);

/* The one wording of a run that a stop signal cut short, for notes, verbose lines and error
 * reasons: "stopped by SIGINT", a space and what fmt makes ("after 3 message(s)"). Returns
 * buf (SB_ERR_LINE_MAX bytes hold any of them). */
const char *sb_stop_text(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
