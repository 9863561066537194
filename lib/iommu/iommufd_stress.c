// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-CPU map/unmap stress: one thread pinned to each CPU maps and unmaps its own buffer in
 * a loop for a fixed time (the user-space counterpart of the per-CPU kernel test drivers
 * used to compare command-queue modes), or the kernel's dma_map_benchmark. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "socbox/holder.h"
#include "socbox/iommufd.h"
#include "socbox/stats.h"
#include "socbox/stop.h"
#include "socbox/uapi/map_benchmark.h"

const char *sb_stress_pattern_name(enum sb_stress_pattern p)
{
	return p == SB_PATTERN_SEQUENTIAL ? "sequential"
	       : p == SB_PATTERN_RANDOM	  ? "random"
					  : "fixed";
}

struct worker {
	pthread_t tid;
	const struct sb_stress_opts *o;
	const struct sb_iommufd *f;
	unsigned cpu;
	atomic_uint *ready;
	atomic_bool *go;
	atomic_bool *stop;
	int wake; /* eventfd: an early failure ends the main thread's wait */
	uint64_t requests;
	atomic_ulong seen; /* requests, for the tick (the worker is its only writer) */
	struct sb_err err;
	int rc;
};

static void stop_all(struct worker *w)
{
	uint64_t one = 1;

	atomic_store(w->stop, true);
	if (write(w->wake, &one, sizeof(one)) < 0) {
		/* cannot fail for an eventfd below its maximum; the wait then runs to --duration */
	}
}

/* Report ready, then wait for the common start so all CPUs run for the same interval. */
static void wait_start(struct worker *w)
{
	atomic_fetch_add(w->ready, 1);
	while (!atomic_load(w->go))
		sched_yield();
}

static void *worker_run(void *arg)
{
	struct worker *w = arg;
	const struct sb_stress_opts *o = w->o;
	uint64_t window = o->pattern == SB_PATTERN_FIXED ? o->size : o->window;
	uint64_t slots = window / o->size, slot = 0, rnd = 0x9e3779b97f4a7c15ull ^ w->cpu;
	cpu_set_t set;
	char obj[32], *buf;
	int err;

	snprintf(obj, sizeof(obj), "CPU %u", w->cpu);
	CPU_ZERO(&set);
	CPU_SET(w->cpu, &set);
	/* An early failure stops the others and the timer: the run must not last --duration. */
	if ((err = pthread_setaffinity_np(pthread_self(), sizeof(set), &set))) {
		w->rc = sb_err_set(&w->err, err, obj, "pin the stress thread",
				   "is the CPU online and in the cpuset?");
		stop_all(w);
		wait_start(w);
		return NULL;
	}
	/* The buffer is allocated on the thread's CPU, so first-touch puts it on its node. */
	if (window > SIZE_MAX) { /* a 32-bit process: the length would wrap */
		w->rc = sb_err_set(&w->err, EFBIG, obj, "mmap the stress buffer",
				   "lower --window or --size");
		atomic_store(w->stop, true);
		wait_start(w);
		return NULL;
	}
	buf = mmap(NULL, window, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE,
		   -1, 0);
	if (buf == MAP_FAILED) {
		w->rc = sb_err_set(&w->err, errno, obj, "mmap the stress buffer",
				   "lower --window or --size");
		stop_all(w);
		wait_start(w);
		return NULL;
	}
	memset(buf, 0x5a, window);
	wait_start(w);
	while (!atomic_load_explicit(w->stop, memory_order_relaxed)) {
		uint64_t iova;

		if (o->pattern == SB_PATTERN_SEQUENTIAL) {
			slot = slot + 1 == slots ? 0 : slot + 1;
		} else if (o->pattern == SB_PATTERN_RANDOM) {
			rnd ^= rnd << 13;
			rnd ^= rnd >> 7;
			rnd ^= rnd << 17;
			slot = rnd % slots;
		}
		w->rc = sb_iommufd_map(w->f, buf + slot * o->size, o->size, &iova, &w->err);
		if (w->rc)
			break;
		w->rc = sb_iommufd_unmap(w->f, iova, o->size, &w->err);
		if (w->rc)
			break;
		w->requests++;
		atomic_store_explicit(&w->seen, (unsigned long)w->requests, memory_order_relaxed);
	}
	if (w->rc)
		stop_all(w);
	munmap(buf, window);
	return NULL;
}

/* Until the duration is over, a worker failed (wake) or a stop signal came; the tick between. */
static void wait_run(const struct sb_stress_opts *o, struct worker *w, unsigned started,
		     struct pollfd *wake, atomic_bool *stop, uint64_t t0)
{
	uint64_t deadline = t0 + (uint64_t)(o->duration_s * 1e9);

	if (!o->tick) {
		if (!atomic_load(stop))
			sb_poll(wake, 1,
				o->duration_s * 1000 < INT_MAX ? (int)(o->duration_s * 1000) : -1);
		return;
	}
	while (!atomic_load(stop)) {
		uint64_t sum = 0;
		int ms = sb_poll_timeout(deadline, SB_STRESS_TICK_MS);

		if (!ms || sb_poll(wake, 1, ms) != 0)
			break;
		for (unsigned i = 0; i < started; i++)
			sum += atomic_load_explicit(&w[i].seen, memory_order_relaxed);
		o->tick(o->tick_ctx, sum);
	}
}

static int run_iommufd(const struct sb_stress_opts *o, struct sb_stress_result *res,
		       struct sb_err *e)
{
	struct sb_iommufd f;
	atomic_uint ready = 0;
	atomic_bool stop = false, go = false;
	struct pollfd wake = { .events = POLLIN };
	struct worker *w;
	sigset_t mask;
	uint64_t t0;
	unsigned started = 0;
	int rc = sb_iommufd_open(&f, e);

	if (rc)
		return rc;
	wake.fd = eventfd(0, EFD_CLOEXEC);
	if (wake.fd < 0) {
		sb_iommufd_close(&f);
		return sb_err_set(e, errno, "stress", "eventfd", NULL);
	}
	if (o->devnode && (rc = sb_iommufd_attach(&f, o->root, o->devnode, e))) {
		sb_iommufd_close(&f);
		return rc;
	}
	if (o->no_huge && (rc = sb_iommufd_huge_pages(&f, false, e))) {
		sb_iommufd_close(&f);
		return rc;
	}
	res->path = o->devnode ? "iommufd+vfio" : "iommufd-ioas";
	w = calloc(o->ncpus, sizeof(*w));
	if (!w) {
		close(wake.fd);
		sb_iommufd_close(&f);
		return sb_err_set(e, ENOMEM, "stress", "start threads", NULL);
	}
	/* the workers block the stop signals, so one ends this thread's wait below */
	sb_stop_signals_block(&mask);
	for (unsigned i = 0; i < o->ncpus; i++) {
		w[i] = (struct worker){
			.o = o,
			.f = &f,
			.cpu = o->cpus[i],
			.ready = &ready,
			.go = &go,
			.stop = &stop,
			.wake = wake.fd
		};
		if (pthread_create(&w[i].tid, NULL, worker_run, &w[i]))
			break;
		started++;
	}
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (started < o->ncpus)
		atomic_store(&stop, true);
	while (atomic_load(&ready) < started)
		sched_yield();
	atomic_store(&go, true);
	t0 = sb_now_ns();
	wait_run(o, w, started, &wake, &stop, t0);
	atomic_store(&stop, true);
	for (unsigned i = 0; i < started; i++)
		pthread_join(w[i].tid, NULL);
	res->elapsed_s = (double)(sb_now_ns() - t0) / 1e9;
	rc = started < o->ncpus ? sb_err_set(e, EAGAIN, "stress", "start threads", NULL) : 0;
	for (unsigned i = 0; i < started && !rc; i++)
		if (w[i].rc) {
			*e = w[i].err;
			rc = w[i].rc;
		}
	for (unsigned i = 0; i < o->ncpus; i++) {
		res->requests[i] = w[i].requests;
		res->total += w[i].requests;
	}
	free(w);
	close(wake.fd);
	sb_iommufd_close(&f);
	return rc;
}

static int run_map_benchmark(const struct sb_stress_opts *o, struct sb_stress_result *res,
			     struct sb_err *e)
{
	static const char path[] = "/sys/kernel/debug/dma_map_benchmark";
	struct sb_map_benchmark b;
	struct sb_holder h;
	double per_pair_100ns;
	long page;
	int fd = open(path, O_RDWR | O_CLOEXEC), rc;

	if (fd < 0) {
		int err = errno;

		sb_err_set(e, err, path, "open",
			   err == ENOENT
				   ? "enable CONFIG_DMA_MAP_BENCHMARK, mount debugfs and bind a device to the "
				     "dma_map_benchmark driver (driver_override)"
			   : err == EACCES || err == EPERM ? "run as root"
							   : NULL);
		if (err == ENOENT)
			sb_err_exit(e, SB_EXIT_UNSUPPORTED);
		return -err;
	}
	/* The kernel keeps one set of parameters and results per device: a second run at the
	 * same time would overwrite the first's, and each would report the other's figures. */
	if (sb_holder_other(fd, &h) == 1) {
		close(fd);
		return sb_holder_err(e, &h, path, "start",
				     "runs on one device take turns: wait for that process or stop it");
	}
	memset(&b, 0, sizeof(b));
	b.threads = o->ncpus;
	b.seconds = o->duration_s < 1 ? 1 : (unsigned)(o->duration_s + 0.5);
	b.node = -1;
	b.dma_bits = 32;
	b.dma_dir = SB_DMA_MAP_BIDIRECTIONAL;
	page = sysconf(_SC_PAGESIZE);
	/* the kernel counts the granule in its PAGE_SIZE, not in 4K */
	b.granule = (unsigned)(o->size / (uint64_t)(page > 0 ? page : 4096));
	if (!b.granule)
		b.granule = 1;
	res->path = "dma_map_benchmark";
	rc = ioctl(fd, SB_DMA_MAP_BENCHMARK, &b);
	if (rc < 0) {
		int err = errno;

		close(fd);
		return sb_err_set(e, err, path, "DMA_MAP_BENCHMARK", NULL);
	}
	close(fd);
	res->elapsed_s = b.seconds;
	res->map_ns = (double)b.avg_map_100ns * 100;
	res->unmap_ns = (double)b.avg_unmap_100ns * 100;
	res->map_stddev_ns = (double)b.map_stddev * 100;
	res->unmap_stddev_ns = (double)b.unmap_stddev * 100;
	/* The kernel returns averages, not the loop count: estimate it per thread. */
	per_pair_100ns = (double)(b.avg_map_100ns + b.avg_unmap_100ns);
	res->estimated = true;
	for (unsigned i = 0; i < o->ncpus; i++) {
		res->requests[i] = per_pair_100ns > 0 ? (uint64_t)(b.seconds * 1e7 / per_pair_100ns)
						      : 0;
		res->total += res->requests[i];
	}
	return 0;
}

int sb_stress_run(const struct sb_stress_opts *o, struct sb_stress_result *res, struct sb_err *e)
{
	memset(res, 0, sizeof(*res));
	res->ncpus = o->ncpus;
	res->cpus = calloc(o->ncpus ? o->ncpus : 1, sizeof(*res->cpus));
	res->requests = calloc(o->ncpus ? o->ncpus : 1, sizeof(*res->requests));
	if (!res->cpus || !res->requests)
		return sb_err_set(e, ENOMEM, "stress", "start", NULL);
	memcpy(res->cpus, o->cpus, o->ncpus * sizeof(*o->cpus));
	if (o->method == SB_STRESS_MAP_BENCHMARK)
		return run_map_benchmark(o, res, e);
	return run_iommufd(o, res, e);
}

void sb_stress_result_free(struct sb_stress_result *res)
{
	free(res->cpus);
	free(res->requests);
	res->cpus = NULL;
	res->requests = NULL;
}
