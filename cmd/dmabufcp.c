// SPDX-License-Identifier: GPL-2.0-or-later
/* dmabufcp: files into and out of dma-bufs by every method, verified and benchmarked, and
 * who holds which buffer. This file: the command table and what the commands share. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dmabufcp.h"
#include "builtins.h"

double dmabufcp_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int dmabufcp_set_alloc(const struct sb_root *r, const struct sb_dmabuf_spec *spec, uint64_t total,
		       uint64_t chunk, const char *name, struct dmabufcp_set *set, char *note,
		       size_t note_len, struct sb_err *e)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	uint64_t limit = sb_dmabuf_kind_limit(r, spec); /* udmabuf's size_limit_mb */
	double t0;
	int rc;

	memset(set, 0, sizeof(*set));
	if (note_len)
		note[0] = '\0';
	if (spec->kind == SB_DMABUF_PIDFD)
		chunk = 0, limit = 0;
	if (limit && (chunk > limit || (chunk == 0 && total > limit)) && note_len)
		snprintf(note, note_len,
			 "buffers limited to %llu MiB each by udmabuf's size_limit_mb "
			 "(/sys/module/udmabuf/parameters/size_limit_mb)",
			 (unsigned long long)(limit >> 20));
	set->n = sb_copy_plan(total, chunk, limit, page, &set->chunks);
	if (set->n < 0) {
		rc = (int)set->n;
		set->n = 0;
		return sb_err_set(e, -rc, "chunk plan", "split the file",
				  "use a larger --chunk-size");
	}
	if (spec->kind == SB_DMABUF_PIDFD && set->n != 1) {
		dmabufcp_set_free(set);
		return sb_err_set(e, EINVAL, "PID:FD", "plan", NULL);
	}
	sb_dmabuf_raise_fd_limit((uint64_t)set->n * 2 + 32);
	set->bufs = calloc((size_t)set->n, sizeof(*set->bufs));
	if (!set->bufs) {
		dmabufcp_set_free(set);
		return sb_err_set(e, ENOMEM, "buffers", "allocate", NULL);
	}
	for (long i = 0; i < set->n; i++)
		sb_dmabuf_init(&set->bufs[i]);
	t0 = dmabufcp_now_ms();
	for (long i = 0; i < set->n; i++) {
		if (sb_stop_signal) {
			sb_err_set(e, EINTR, "allocation", "interrupted", NULL);
			sb_err_exit(e, SB_EXIT_FAIL);
			rc = -EINTR;
			goto fail;
		}
		rc = sb_dmabuf_alloc(spec, set->chunks[i].buf_size, &set->bufs[i], e);
		if (!rc && name)
			rc = sb_dmabuf_set_name(&set->bufs[i], name, e);
		if (!rc)
			rc = sb_dmabuf_map(&set->bufs[i], e);
		if (rc)
			goto fail;
	}
	set->alloc_ms = dmabufcp_now_ms() - t0;
	if (spec->kind == SB_DMABUF_PIDFD && set->bufs[0].size < total) {
		sb_err_set(e, EFBIG, "PID:FD", "fit the file into the buffer", NULL);
		sb_err_reason(e, "the file has %llu bytes, the buffer %llu",
			      (unsigned long long)total, (unsigned long long)set->bufs[0].size);
		sb_err_exit(e, SB_EXIT_FAIL);
		rc = -EFBIG;
		goto fail;
	}
	return 0;
fail:
	dmabufcp_set_free(set);
	return rc;
}

void dmabufcp_set_free(struct dmabufcp_set *set)
{
	for (long i = 0; set->bufs && i < set->n; i++)
		sb_dmabuf_free(&set->bufs[i]);
	free(set->bufs);
	free(set->chunks);
	memset(set, 0, sizeof(*set));
}

const struct sb_cmd dmabufcp_cmds[] = {
	{ "copy", dmabufcp_copy, "SRC [BUF] DST",
	  "a file into dma-bufs, out of one, or both (round trip)", SB_CMD_LIVE | SB_CMD_TESTS },
	{ "bench", dmabufcp_bench, "FILE",
	  "read FILE into dma-bufs by every method and buffer kind, timed", SB_CMD_LIVE },
	{ "heaps", dmabufcp_heaps, NULL, "dma-heaps and udmabuf: device, permissions, limits",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ "ls", dmabufcp_ls, NULL, "every dma-buf in the system and the processes holding it",
	  SB_CMD_VIEW | SB_CMD_COLLECTOR },
	{ NULL, NULL, NULL, NULL, 0 },
};

int dmabufcp_main(int argc, const char **argv)
{
	return sb_cli_dispatch(DMABUFCP, applet_summary(DMABUFCP), dmabufcp_cmds, "copy", argc,
			       argv);
}
