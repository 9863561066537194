// SPDX-License-Identifier: GPL-2.0-or-later
/* /proc/net/dev: "  name: rx_bytes rx_packets errs drop fifo frame compressed multicast
 * tx_bytes tx_packets ..." after two header lines. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/netdev.h"

static int parse_line(const char *line, struct sb_if_counters *c)
{
	const char *colon = strchr(line, ':'), *nl = strchr(line, '\n');
	const char *p = line;
	uint64_t v[10];
	size_t len;

	if (!colon || (nl && colon > nl))
		return -EINVAL;
	while (*p == ' ')
		p++;
	len = (size_t)(colon - p);
	if (len == 0 || len >= sizeof(c->name))
		return -EINVAL;
	memset(c, 0, sizeof(*c));
	memcpy(c->name, p, len);
	p = colon + 1;
	for (int i = 0; i < 10; i++) {
		char *end;
		while (*p == ' ')
			p++;
		if (*p < '0' || *p > '9')
			return -EINVAL;
		errno = 0;
		v[i] = strtoull(p, &end, 10);
		if (errno)
			return -EINVAL;
		p = end;
	}
	c->rx_bytes = v[0];
	c->rx_packets = v[1];
	c->tx_bytes = v[8];
	c->tx_packets = v[9];
	return 0;
}

int sb_nd_parse_proc_net_dev(const char *text, struct sb_if_counters **out, size_t *n)
{
	struct sb_if_counters *v = NULL;
	size_t cap = 0;

	*out = NULL;
	*n = 0;
	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		struct sb_if_counters c;
		if (parse_line(p, &c))
			continue;
		if (*n == cap) {
			size_t ncap = cap ? cap * 2 : 8;
			struct sb_if_counters *nv = realloc(v, ncap * sizeof(*nv));
			if (!nv) {
				free(v);
				*n = 0;
				return -ENOMEM;
			}
			v = nv;
			cap = ncap;
		}
		v[(*n)++] = c;
	}
	*out = v;
	return 0;
}

int sb_nd_read_if_counters(const struct sb_root *root, struct sb_if_counters **out, size_t *n,
			   struct sb_err *e)
{
	char *buf = NULL;
	ssize_t len = sb_read_file(root, &buf, SB_READ_PROC_MAX, "/proc/net/dev");
	int rc;

	*out = NULL;
	*n = 0;
	if (len < 0)
		return sb_err_set(e, (int)-len, "/proc/net/dev", "read", NULL);
	rc = sb_nd_parse_proc_net_dev(buf, out, n);
	free(buf);
	return rc;
}

const struct sb_if_counters *sb_nd_find_if_counters(
	const struct sb_if_counters *v, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}
