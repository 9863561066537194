// SPDX-License-Identifier: GPL-2.0-or-later
/* devmemstat rx: a devmem TCP receive test. A udmabuf is bound to RX queues (bind-rx), one
 * TCP connection is accepted, its bytes are received into the buffer (MSG_SOCK_DEVMEM),
 * hashed in stream order and optionally saved, every fragment is given back, and the rate
 * is printed with the CPUs' time in kperf's layout. The flow must reach a bound queue:
 * steering it there (ntuple rules, RSS) is the NIC's business, as with ncdevmem. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "devmemstat.h"
#include "socbox/cpustat.h"
#include "socbox/devmem_rx.h"
#include "socbox/macro.h"
#include "socbox/stats.h"
#include "socbox/stop.h"

static char *rx_queues, *rx_listen, *rx_save;
static struct sb_cli_value rx_port = SB_CLI_NUMBER_VALUE("5201", 1, 65535);
static double rx_timeout, rx_hold;

enum {
	RX_ID,
	RX_IFNAME,
	RX_QUEUES,
	RX_BYTES,
	RX_DEVMEM,
	RX_LINEAR,
	RX_FRAGS,
	RX_USEC,
	RX_GBPS,
	RX_XXH3
};
static const struct sb_col rx_cols[] = {
	[RX_ID] = { "BINDING_ID", SB_T_U64, 0, SB_COL_RIGHT, "devmem binding id", 0 },
	[RX_IFNAME] = { "IFNAME", SB_T_STR, 0, 0, "interface name", 0 },
	[RX_QUEUES] = { "QUEUES", SB_T_U64V, 0, 0, "RX queues bound", 0 },
	[RX_BYTES] = { "BYTES", SB_T_U64, 0, SB_COL_RIGHT, "bytes received", 0 },
	[RX_DEVMEM] = { "DEVMEM_BYTES", SB_T_U64, 0, SB_COL_RIGHT,
			"of them in the dma-buf (SO_DEVMEM_DMABUF fragments)", 0 },
	[RX_LINEAR] = { "LINEAR_BYTES", SB_T_U64, 0, SB_COL_RIGHT,
			"of them copied to the user buffer (SO_DEVMEM_LINEAR)", 0 },
	[RX_FRAGS] = { "FRAGS", SB_T_U64, 0, SB_COL_RIGHT, "dma-buf fragments, all given back", 0 },
	[RX_USEC] = { "USEC", SB_T_U64, 0, SB_COL_RIGHT, "first to last byte, microseconds", 0 },
	[RX_GBPS] = { "GBPS", SB_T_DBL, 3, SB_COL_RIGHT, "receive rate, Gbit/s", 0 },
	[RX_XXH3] = { "XXH3", SB_T_STR, 0, 0, "XXH3-64 of the stream, hex", 0 },
};
_Static_assert(ARRAY_SIZE(rx_cols) == RX_XXH3 + 1, "a column for each constant");

/* A listening TCP socket on --listen (default: every address, IPv6 and IPv4) and --port. */
static int listen_on(const char *addr, int port, struct sb_err *e)
{
	struct sockaddr_in6 a6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons((uint16_t)port),
				   .sin6_addr = IN6ADDR_ANY_INIT };
	struct sockaddr_in a4 = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	const struct sockaddr *sa = (const struct sockaddr *)&a6;
	socklen_t len = sizeof(a6);
	int fd, one = 1, zero = 0;

	if (addr && inet_pton(AF_INET, addr, &a4.sin_addr) == 1) {
		sa = (const struct sockaddr *)&a4;
		len = sizeof(a4);
	} else if (addr && inet_pton(AF_INET6, addr, &a6.sin6_addr) != 1) {
		sb_err_set(e, EINVAL, addr, "--listen", NULL);
		sb_err_reason(e, "not an IPv4 or IPv6 address");
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	fd = socket(sa->sa_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return sb_err_set(e, errno, "TCP socket", "socket", NULL);
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (sa->sa_family == AF_INET6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero));
	if (bind(fd, sa, len) || listen(fd, 1)) {
		int err = errno;

		close(fd);
		sb_err_set(e, err, addr ? addr : "*", "listen", NULL);
		sb_err_reason(e, "port %d: %s", port, strerror(err));
		return -err;
	}
	return fd;
}

static int accept_one(int lfd, int timeout_ms, struct sb_err *e)
{
	struct pollfd p = { .fd = lfd, .events = POLLIN };
	int rc = sb_poll(&p, 1, timeout_ms), fd;

	if (rc == 0) {
		sb_err_set(e, ETIMEDOUT, "TCP socket", "accept", NULL);
		sb_err_reason(e, "no connection within --timeout");
		return -ETIMEDOUT;
	}
	if (rc < 0)
		return rc == -EINTR ? rc : sb_err_set(e, -rc, "TCP socket", "poll", NULL);
	fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return sb_err_set(e, errno, "TCP socket", "accept", NULL);
	return fd;
}

/* kperf's lines: "Rx 98.092 Gbps (735764807680 bytes in 60006084 usec)", then the CPU that
 * did the most NET_RX softirq work (net) and the CPU this process ended on (app). */
static void print_kperf(const struct sb_devmem_rx *rx, const struct sb_cpustat *a,
			const struct sb_cpustat *b, int app_cpu)
{
	uint64_t usec = (rx->last_ns - rx->first_ns) / 1000;
	const struct sb_cpu_times *net = NULL;
	uint64_t most = 0;

	printf("Rx %7.3f Gbps (%llu bytes in %llu usec)\n",
	       usec ? (double)rx->bytes * 8 / (double)usec / 1e3 : 0, (unsigned long long)rx->bytes,
	       (unsigned long long)usec);
	for (size_t i = 0; i < b->ncpus; i++) {
		const struct sb_cpu_times *cb = &b->cpus[i], *ca = sb_cpustat_find(a, cb->cpu);
		uint64_t d = ca && cb->net_rx >= ca->net_rx ? cb->net_rx - ca->net_rx : 0;

		if (!net || d > most) {
			net = cb;
			most = d;
		}
	}
	for (int k = 0; k < 2; k++) {
		const struct sb_cpu_times *cb = k ? sb_cpustat_find(b, app_cpu) : net;
		const struct sb_cpu_times *ca = cb ? sb_cpustat_find(a, cb->cpu) : NULL;
		struct sb_cpu_pct p;

		if (!cb)
			continue;
		sb_cpu_pct(ca, cb, &p);
		printf("%s CPU %d: usr:%5.2f%% sys:%5.2f%% idle:%5.2f%% iow:%5.2f%% irq:%5.2f%% "
		       "sirq:%5.2f%%\n",
		       k ? "app" : "net", cb->cpu, p.usr, p.sys, p.idle, p.iow, p.irq, p.sirq);
	}
}

static void print_result(struct sb_ctx *c, const struct sb_devmem_rx *rx, uint32_t ifindex,
			 const unsigned *queues, unsigned nqueues)
{
	uint64_t usec = (rx->last_ns - rx->first_ns) / 1000;
	struct sb_out *o = sb_out_new(&c->out, stdout);
	struct sb_row *r = sb_table_row(
		sb_out_table(o, "receives", NULL, rx_cols, ARRAY_SIZE(rx_cols), true));
	char name[IF_NAMESIZE], hex[17];

	sb_row_u64(r, RX_ID, rx->binding_id);
	sb_row_str(r, RX_IFNAME, dm_known(dm_ifname(ifindex, name)));
	for (unsigned i = 0; i < nqueues; i++)
		sb_row_u64v_add(r, RX_QUEUES, queues[i]);
	sb_row_u64(r, RX_BYTES, rx->bytes);
	sb_row_u64(r, RX_DEVMEM, rx->devmem_bytes);
	sb_row_u64(r, RX_LINEAR, rx->linear_bytes);
	sb_row_u64(r, RX_FRAGS, rx->frags);
	sb_row_u64(r, RX_USEC, usec);
	sb_row_dbl(r, RX_GBPS, usec ? (double)rx->bytes * 8 / (double)usec / 1e3 : 0);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)rx->xxh3);
	sb_row_str(r, RX_XXH3, hex);
	if (rx->bytes && !rx->devmem_bytes)
		sb_out_problem(o, "nothing landed in the dma-buf: the flow did not reach a bound "
				  "queue");
	sb_out_print(o);
	sb_out_free(o);
}

/* --hold: unbind (the binding goes with the netlink socket) while the connection keeps the
 * fragments, for SEC seconds: 'devmemstat bindings' shows the binding's pools leaked. The
 * sender is told the stream is over (it need not wait); the fragments stay with the socket
 * until it is closed. */
static void hold_fragments(struct sb_ctx *c, struct sb_genl *g, int fd,
			   const struct sb_devmem_rx *rx)
{
	shutdown(fd, SHUT_WR);
	sb_genl_close(g);
	fprintf(stderr, "%s: unbound binding %u; holding %llu fragments for %g s\n", c->applet,
		rx->binding_id, (unsigned long long)rx->frags, rx_hold);
	sb_sleep(rx_hold);
}

/* Everything after the binding: listen, accept, receive, print. */
static int receive(struct sb_ctx *c, struct sb_genl *g, struct sb_devmem_rx *rx, uint32_t ifindex,
		   const unsigned *queues, unsigned nqueues)
{
	int timeout_ms = rx_timeout > 0 ? (int)(rx_timeout * 1000) : -1;
	struct sb_cpustat a = { 0 }, b = { 0 };
	int lfd, fd, rc;
	struct sb_err e;

	sb_err_clear(&e);
	lfd = listen_on(rx_listen, (int)rx_port.value, &e);
	if (lfd < 0)
		return sb_report(c->applet, &e);
	/* the readiness line a sender waits for */
	fprintf(stderr, "%s: listening on %s port %d, binding %u\n", c->applet,
		rx_listen ? rx_listen : "*", (int)rx_port.value, rx->binding_id);
	fd = accept_one(lfd, timeout_ms, &e);
	close(lfd);
	if (fd == -EINTR)
		return 1;
	if (fd < 0)
		return sb_report(c->applet, &e);
	sb_cpustat_read(c->root, &a, &e);
	rc = sb_devmem_rx_run(rx, fd, 0, timeout_ms, &e);
	sb_cpustat_read(c->root, &b, &(struct sb_err){ 0 });
	if (rx->keep && !sb_stop_signal)
		hold_fragments(c, g, fd, rx);
	close(fd);
	if (rc && rc != -EINTR)
		rc = sb_report(c->applet, &e);
	else
		rc = 0;
	if (c->out.mode == SB_OUT_TABLE && !c->out.columns)
		print_kperf(rx, &a, &b, sched_getcpu());
	print_result(c, rx, ifindex, queues, nqueues);
	sb_cpustat_free(&a);
	sb_cpustat_free(&b);
	return rc ? rc : (rx->bytes && !rx->devmem_bytes ? 1 : 0);
}

int dm_rx(struct sb_ctx *c, int argc, const char **argv)
{
	struct poptOption opts[] = {
		{ "queues", '\0', POPT_ARG_STRING, &rx_queues, 0, "RX queues to bind (e.g. 2-3)",
		  "LIST" },
		DM_POPT_SIZE,
		{ "listen", '\0', POPT_ARG_STRING, &rx_listen, 0,
		  "local address to listen on (default: all)", "ADDR" },
		{ "port", '\0', SB_POPT_ARG_VALUE, &rx_port, 0, "TCP port", "PORT" },
		{ "save", '\0', POPT_ARG_STRING, &rx_save, 0,
		  "write the received bytes to FILE too", "FILE" },
		{ "timeout", 't', POPT_ARG_DOUBLE, &rx_timeout, 0,
		  "give up after this long without a connection or data (default 10s)",
		  SB_CLI_DURATION },
		{ "hold", '\0', POPT_ARG_DOUBLE, &rx_hold, 0,
		  "keep the fragments, unbind at the end and hold them this long more (a leaked binding)",
		  SB_CLI_DURATION },
		DM_POPT_NS,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct sb_devmem_rx rx = { .dmabuf_fd = -1, .save_fd = -1 };
	unsigned *queues = NULL, nqueues = 0;
	struct sb_genl g = { 0 };
	uint64_t size;
	uint32_t ifindex;
	struct sb_err e;
	int rc;

	rx_queues = rx_listen = rx_save = NULL;
	rx_timeout = 10;
	rx_hold = 0;
	rc = sb_cli_parse(c, opts, NULL, argc, argv, rx_cols, ARRAY_SIZE(rx_cols));
	if (rc)
		return rc;
	rc = dm_binding_args(c, rx_queues, &queues, &nqueues, &size);
	if (rc)
		return rc;
	if (rx_timeout < 0 || rx_hold < 0) {
		rc = sb_usage_error(c, "--timeout and --hold must not be negative");
		goto out;
	}
	if ((rc = sb_cli_live(c)))
		goto out;
	rx.keep = rx_hold > 0;
	if (rx_save) {
		rx.save_fd = open(rx_save, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (rx.save_fd < 0) {
			sb_err_set(&e, errno, rx_save, "open", NULL);
			rc = sb_report(c->applet, &e);
			goto out;
		}
	}
	rc = dm_open(c, &g, &ifindex);
	if (rc)
		goto out;
	sb_err_clear(&e);
	rx.size = size;
	rx.dmabuf_fd = sb_nd_udmabuf_alloc(size, &e);
	if (rx.dmabuf_fd < 0) {
		rc = sb_report(c->applet, &e);
		goto out;
	}
	/* from here a signal ends the receive; the binding goes with the netlink socket */
	sb_catch_stop_signals();
	if (sb_nd_bind_rx(&g, ifindex, rx.dmabuf_fd, queues, nqueues, &rx.binding_id, &e)) {
		rc = sb_report(c->applet, &e);
		goto out;
	}
	rc = receive(c, &g, &rx, ifindex, queues, nqueues);
out:
	if (rx.save_fd >= 0)
		close(rx.save_fd);
	if (rx.dmabuf_fd >= 0)
		close(rx.dmabuf_fd);
	sb_genl_close(&g);
	free(queues);
	return rc;
}
