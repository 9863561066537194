// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsg throughput (rpmsg_tput.h). Each endpoint's thread blocks in write(2) and read(2) as
 * a plain loop would; the calling thread watches their progress. A thread blocked in the
 * kernel is woken by SIGURG, whose handler does nothing and is installed without SA_RESTART
 * for the run, so the call returns EINTR. The wake-up is repeated until the thread has
 * ended: a signal that comes between the thread's check of the abort flag and its next call
 * is lost, the next one is not. SIGURG is ignored by default, so a late one is harmless. */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "socbox/rpmsg.h"
#include "socbox/rpmsg_tput.h"
#include "socbox/stats.h"
#include "socbox/stop.h"

#define WAKE_SIGNAL SIGURG
#define WATCH_PERIOD_NS 20000000L

struct run {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int state; /* 0 wait, 1 go, -1 abort before the start */
	atomic_bool abort;
};

struct worker {
	pthread_t tid;
	bool started;
	const struct sb_rpmsg_tput *t;
	struct run *run;
	unsigned idx;
	unsigned char *out, *in;
	_Atomic uint64_t moved; /* messages sent plus echoes read: what the watcher sees */
	atomic_bool done;
	uint64_t start_ns, end_ns;
	uint64_t sent, echoed, corrupt;
	int err;			     /* positive errno of the call that failed, 0 */
	const char *op;			     /* "write" or "read" */
	uint64_t last_moved, last_change_ns; /* the watcher's */
};

static void on_wake(int sig)
{
	(void)sig;
}

static bool aborted(const struct worker *w)
{
	return atomic_load_explicit(&w->run->abort, memory_order_relaxed);
}

static void progress(struct worker *w, uint64_t sent, uint64_t echoed)
{
	atomic_store_explicit(&w->moved, sent + echoed, memory_order_relaxed);
}

static int send_one(struct worker *w, int fd, uint64_t seq)
{
	const struct sb_rpmsg_tput *t = w->t;
	ssize_t n;

	sb_rpmsg_ping_fill(w->out, t->size, t->cookie + w->idx, (uint32_t)seq);
	n = write(fd, w->out, t->size);
	if (n == (ssize_t)t->size)
		return 0;
	w->err = n < 0 ? errno : EIO;
	w->op = "write";
	return -1;
}

static int read_one(struct worker *w, int fd, uint64_t seq)
{
	const struct sb_rpmsg_tput *t = w->t;
	/* one byte more than sent: a longer echo is seen as corrupt, not cut to size */
	ssize_t n = read(fd, w->in, t->size + 1);

	if (n < 0) {
		w->err = errno;
		w->op = "read";
		return -1;
	}
	if (sb_rpmsg_ping_check(w->in, (size_t)n, t->size, t->cookie + w->idx, (uint32_t)seq) !=
	    SB_ECHO_OK)
		w->corrupt++;
	return 0;
}

static void run_one_way(struct worker *w, int fd)
{
	uint64_t sent = 0;

	while (sent < w->t->count && !aborted(w) && send_one(w, fd, sent) == 0)
		progress(w, ++sent, 0);
	w->sent = sent;
}

/* Keep window messages in flight: send until window are unanswered, read one echo. */
static void run_echoed(struct worker *w, int fd)
{
	const struct sb_rpmsg_tput *t = w->t;
	uint64_t sent = 0, echoed = 0;

	while (echoed < t->count && !aborted(w)) {
		while (sent < t->count && sent - echoed < t->window && send_one(w, fd, sent) == 0)
			sent++;
		if (w->err || aborted(w) || read_one(w, fd, echoed) < 0)
			break;
		progress(w, sent, ++echoed);
	}
	w->sent = sent;
	w->echoed = echoed;
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	int fd = w->t->fds[w->idx];

	pthread_mutex_lock(&w->run->lock);
	while (!w->run->state)
		pthread_cond_wait(&w->run->cond, &w->run->lock);
	pthread_mutex_unlock(&w->run->lock);
	if (w->run->state > 0) {
		w->start_ns = sb_now_ns();
		if (w->t->window)
			run_echoed(w, fd);
		else
			run_one_way(w, fd);
		w->end_ns = sb_now_ns();
	}
	atomic_store(&w->done, true);
	return NULL;
}

static void release(struct run *run, int state)
{
	pthread_mutex_lock(&run->lock);
	run->state = state;
	pthread_cond_broadcast(&run->cond);
	pthread_mutex_unlock(&run->lock);
}

/* Threads, started together. -errno when one could not be created (none runs then). */
static int start_workers(struct worker *w, size_t n, struct run *run, struct sb_err *e)
{
	sigset_t old;
	int err = 0;

	/* the workers inherit the block: stop signals go to the watching thread */
	sb_stop_signals_block(&old);
	for (size_t i = 0; i < n && !err; i++) {
		err = pthread_create(&w[i].tid, NULL, worker_main, &w[i]);
		w[i].started = !err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		release(run, -1);
		for (size_t i = 0; i < n; i++)
			if (w[i].started)
				pthread_join(w[i].tid, NULL);
		return sb_err_set(e, err, "throughput", "start a thread per endpoint", NULL);
	}
	release(run, 1);
	return 0;
}

/* Watch until every worker has ended. Returns 0, -EINTR (stop signal), -ECANCELED (a worker
 * failed) or -ETIMEDOUT with *stalled the endpoint that did not move. Once the run is to
 * end, the workers still running are woken every period until they have: sb_sleep() would
 * return at once after a stop signal. */
static int watch(struct worker *w, size_t n, struct run *run, int stall_ms, size_t *stalled)
{
	uint64_t stall_ns = (uint64_t)stall_ms * 1000000u;
	int rc = 0;

	for (size_t i = 0; i < n; i++)
		w[i].last_change_ns = sb_now_ns();
	for (;;) {
		uint64_t now = sb_now_ns();
		bool all_done = true;

		for (size_t i = 0; i < n; i++) {
			uint64_t moved = atomic_load_explicit(&w[i].moved, memory_order_relaxed);

			if (atomic_load(&w[i].done)) {
				/* one endpoint failed: the others stop too */
				if (!rc && w[i].err)
					rc = -ECANCELED;
				continue;
			}
			all_done = false;
			if (moved != w[i].last_moved) {
				w[i].last_moved = moved;
				w[i].last_change_ns = now;
			} else if (!rc && now - w[i].last_change_ns > stall_ns) {
				rc = -ETIMEDOUT;
				*stalled = i;
			}
		}
		if (all_done)
			return rc;
		if (!rc && sb_stop_signal)
			rc = -EINTR;
		if (!rc) {
			sb_sleep(WATCH_PERIOD_NS / 1e9);
			continue;
		}
		atomic_store(&run->abort, true);
		for (size_t i = 0; i < n; i++)
			if (!atomic_load(&w[i].done))
				pthread_kill(w[i].tid, WAKE_SIGNAL);
		nanosleep(&(struct timespec){ .tv_nsec = WATCH_PERIOD_NS }, NULL);
	}
}

static void sum(const struct worker *w, size_t n, struct sb_rpmsg_tput_result *r)
{
	uint64_t first = UINT64_MAX, last = 0;

	memset(r, 0, sizeof(*r));
	for (size_t i = 0; i < n; i++) {
		r->sent += w[i].sent;
		r->echoed += w[i].echoed;
		r->corrupt += w[i].corrupt;
		if (w[i].start_ns && w[i].start_ns < first)
			first = w[i].start_ns;
		if (w[i].end_ns > last)
			last = w[i].end_ns;
	}
	r->elapsed_ns = last > first && first != UINT64_MAX ? last - first : 0;
}

static int run_error(const struct worker *w, size_t n, int rc, size_t stalled,
		     const struct sb_rpmsg_tput *t, struct sb_err *e)
{
	char obj[64];

	/* a failed call says more than the stall or stop that followed it */
	for (size_t i = 0; i < n; i++)
		if (w[i].err && !(w[i].err == EINTR && rc)) {
			snprintf(obj, sizeof(obj), "endpoint %zu", i);
			sb_err_set(e, w[i].err, obj, w[i].op, NULL);
			if (w[i].err == EPIPE)
				sb_err_hint(e, "the remote went away: rpmsgctl rproc status");
			return -w[i].err;
		}
	if (rc == -ETIMEDOUT) {
		snprintf(obj, sizeof(obj), "endpoint %zu", stalled);
		sb_err_set(e, ETIMEDOUT, obj, t->window ? "wait for echoes" : "send",
			   "is the remote's %s service on this address?",
			   t->window ? "echo" : "sink");
		sb_err_reason(e, "nothing moved for %d ms (%" PRIu64 " sent, %" PRIu64 " echoed)",
			      t->stall_ms, w[stalled].sent, w[stalled].echoed);
		return rc;
	}
	if (rc == -EINTR)
		return sb_err_set(e, EINTR, "throughput", "run", NULL);
	return 0;
}

int sb_rpmsg_tput_run(const struct sb_rpmsg_tput *t, struct sb_rpmsg_tput_result *r,
		      struct sb_err *e)
{
	struct sigaction wake = { .sa_handler = on_wake }, old_wake;
	struct run run = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };
	struct worker *w;
	size_t stalled = 0;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!t->nfds || !t->count || t->size < 1 || t->size > SB_RPMSG_VIRTIO_MTU ||
	    t->stall_ms < 1)
		return sb_err_set(e, EINVAL, "throughput", "check the run", NULL);
	w = calloc(t->nfds, sizeof(*w));
	if (!w)
		return sb_err_set(e, ENOMEM, "throughput", "allocate", NULL);
	for (size_t i = 0; i < t->nfds; i++) {
		w[i].t = t;
		w[i].run = &run;
		w[i].idx = (unsigned)i;
		w[i].out = malloc(t->size);
		w[i].in = malloc(t->size + 1);
		if (!w[i].out || !w[i].in) {
			rc = sb_err_set(e, ENOMEM, "throughput", "allocate", NULL);
			goto out;
		}
	}
	sigemptyset(&wake.sa_mask);
	sigaction(WAKE_SIGNAL, &wake, &old_wake);
	rc = start_workers(w, t->nfds, &run, e);
	if (!rc) {
		rc = watch(w, t->nfds, &run, t->stall_ms, &stalled);
		for (size_t i = 0; i < t->nfds; i++)
			pthread_join(w[i].tid, NULL);
		sum(w, t->nfds, r);
		rc = run_error(w, t->nfds, rc, stalled, t, e);
	}
	sigaction(WAKE_SIGNAL, &old_wake, NULL);
out:
	for (size_t i = 0; i < t->nfds; i++) {
		free(w[i].out);
		free(w[i].in);
	}
	free(w);
	return rc;
}
