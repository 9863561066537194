/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one stop mechanism. A command that creates a kernel object (an endpoint, a buffer, a
 * binding, a VFIO/iommufd mapping) or runs until stopped calls sb_catch_stop_signals():
 * SIGINT, SIGTERM, SIGHUP and SIGPIPE then set sb_stop_signal (to the signal number)
 * instead of ending the process, so the command releases what it created and prints what it
 * has. No SA_RESTART: a blocked read, poll or sleep returns EINTR and the loop sees the
 * flag; waits in lib/ that see EINTR with the flag set return -EINTR. */
#ifndef SOCBOX_STOP_H
#define SOCBOX_STOP_H

#include <signal.h>
#include <stdbool.h>

extern volatile sig_atomic_t sb_stop_signal;
void sb_catch_stop_signals(void);

/* Sleep for seconds (negative: until stopped); true when a stop signal ended it early, or
 * had already arrived. Race-free: the signals are blocked between the check and the wait. */
bool sb_sleep(double seconds);

#endif
