// SPDX-License-Identifier: GPL-2.0-or-later
/* rpmsgctl send and recv: one message per write/read. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socbox/escape.h"
#include "socbox/macro.h"
#include "rpmsgctl.h"

static int read_all(int fd, char **buf, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *b = malloc(cap);

	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t r;

		if (n == cap) {
			char *nb;

			if (cap >= SB_READ_INPUT_MAX) {
				free(b);
				return -EFBIG;
			}
			nb = realloc(b, cap * 2);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int err = errno;

			free(b);
			return -err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	*buf = b;
	*len = n;
	return 0;
}

int rpmsgctl_send(struct sb_ctx *c, int argc, const char **argv)
{
	static char *file;
	static int split;
	static struct sb_cli_value mtu =
		SB_CLI_NUMBER_VALUE(SB_CLI_TEXT(SB_RPMSG_VIRTIO_MTU), 1, INT_MAX);
	struct poptOption table[] = {
		{ "file", 'f', POPT_ARG_STRING, &file, 0, "send the contents of FILE ('-': stdin)",
		  "FILE" },
		{ "split", 's', POPT_ARG_NONE, &split, 0,
		  "split payloads over the MTU into several messages", NULL },
		{ "mtu", '\0', SB_POPT_ARG_VALUE, &mtu, 0, "largest payload per message, virtio's",
		  "BYTES" },
		EPT_POPT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	struct ept_session s;
	struct sb_err e;
	char *data = NULL;
	size_t len = 0, sent = 0, msgs = 0;
	int rc;

	file = NULL;
	split = 0;
	ept_opts_reset("socbox");
	rc = sb_cli_parse(c, table, "[TEXT]", argc, argv, NULL, 0);
	if (rc)
		return rc;
	if (c->nargs > 1)
		return sb_usage_error(c, "give the message as one argument (quote it)");
	if (c->nargs && file)
		return sb_usage_error(c, "give TEXT or --file, not both");
	sb_err_clear(&e);
	if (c->nargs) {
		data = strdup(c->args[0]);
		len = strlen(c->args[0]);
	} else {
		int fd = (!file || !strcmp(file, "-")) ? 0 : open(file, O_RDONLY | O_CLOEXEC);

		if (fd < 0) {
			sb_err_set(&e, errno, file, "open", NULL);
			return sb_report(RPMSGCTL, &e);
		}
		rc = read_all(fd, &data, &len);
		if (fd > 0)
			close(fd);
		if (rc < 0) {
			sb_err_set(&e, -rc, file ? file : "stdin", "read message",
				   rc == -EFBIG ? "at most 16 MiB" : NULL);
			return sb_report(RPMSGCTL, &e);
		}
	}
	if (!data) {
		sb_err_set(&e, ENOMEM, "message", "send", NULL);
		return sb_report(RPMSGCTL, &e);
	}
	/* checked before anything is sent, so a too-long message never goes out half */
	if (len > (size_t)mtu.value && !split) {
		sb_rpmsg_send(-1, data, len, (size_t)mtu.value, &e);
		free(data);
		return sb_report(RPMSGCTL, &e);
	}
	rc = ept_session_open(c, &s, O_CLOEXEC);
	if (rc) {
		free(data);
		return rc;
	}
	do {
		size_t chunk = len - sent > (size_t)mtu.value ? (size_t)mtu.value : len - sent;

		if (sb_stop_signal ||
		    sb_rpmsg_send(s.ept.fd, data + sent, chunk, (size_t)mtu.value, &e) < 0) {
			/* a stop signal leaves the message half sent: that is a failure */
			if (sb_stop_signal) {
				sb_err_set(&e, EINTR, "message", "send", NULL);
				char why[SB_ERR_LINE_MAX];

				sb_err_reason(&e, "%s",
					      sb_stop_text(why, sizeof(why),
							   "after %zu of %zu bytes", sent, len));
			}
			rc = sb_report(RPMSGCTL, &e);
			break;
		}
		sent += chunk;
		msgs++;
	} while (sent < len);
	sb_verbose(RPMSGCTL, "sent %zu bytes in %zu message(s)", sent, msgs);
	free(data);
	return sb_stop_status(ept_session_close(c, &s) ?: rc);
}

static void print_hex(const unsigned char *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		printf("%02x", b[i]);
	putchar('\n');
}

enum { M_LENGTH, M_HEX };
static const struct sb_col msg_cols[] = {
	[M_LENGTH] = { "LENGTH_BYTES", SB_T_U64, 0, SB_COL_RIGHT | SB_COL_BYTES, "message length",
		       0 },
	[M_HEX] = { "DATA_HEX", SB_T_STR, 0, SB_COL_WRAP, "message bytes in hex", 0 },
};

static void json_row(struct sb_table *t, const unsigned char *b, size_t n)
{
	struct sb_row *row = sb_table_row(t);
	char *hexs = malloc(n * 2 + 1);

	sb_row_u64(row, M_LENGTH, n);
	if (!hexs)
		return;
	for (size_t i = 0; i < n; i++)
		snprintf(hexs + 2 * i, 3, "%02x", b[i]);
	hexs[2 * n] = '\0';
	sb_row_str(row, M_HEX, hexs);
	free(hexs);
}

int rpmsgctl_recv(struct sb_ctx *c, int argc, const char **argv)
{
	static int hex, timeout = -1, raw_bytes;
	struct poptOption table[] = {
		{ "timeout", 't', POPT_ARG_INT, &timeout, 0,
		  "give up after this long without a message (default: wait)", SB_CLI_DURATION },
		{ "hex", 'x', POPT_ARG_NONE, &hex, 0, "print each message as one line of hex",
		  NULL },
		{ "binary", 'b', POPT_ARG_NONE, &raw_bytes, 0,
		  "write the bytes only, no newline after a message", NULL },
		EPT_POPT,
		SB_POPT_LIVE,
		SB_POPT_OUTPUT,
		SB_POPT_COMMON,
		POPT_TABLEEND
	};
	unsigned char buf[65536];
	char why[SB_ERR_LINE_MAX];
	struct ept_session s;
	struct sb_table *t = NULL;
	struct sb_out *o = NULL;
	struct sb_err e;
	bool view;
	int rc, got = 0;

	hex = raw_bytes = 0;
	timeout = -1;
	ept_opts_reset("socbox");
	rc = sb_cli_parse(c, table, NULL, argc, argv, msg_cols, ARRAY_SIZE(msg_cols));
	if (rc)
		return rc;
	/* any output option turns the stream into the messages table, printed at the end */
	view = c->out.mode != SB_OUT_TABLE || c->out.columns || c->out.noheadings || sb_opt.format;
	if (hex && raw_bytes)
		return sb_usage_error(c, "--hex and --binary exclude each other");
	if ((hex || raw_bytes) && view)
		return sb_usage_error(
			c,
			"--%s prints the message bytes; -J, -r, -P, -o, -n and --format print the messages table",
			hex ? "hex" : "binary");
	if (timeout < -1)
		return sb_usage_error(c, "--timeout must not be negative");
	rc = ept_session_open(c, &s, O_CLOEXEC);
	if (rc)
		return rc;
	if (view) {
		o = sb_out_new(&c->out, stdout);
		t = sb_out_table(o, "messages", NULL, msg_cols, ARRAY_SIZE(msg_cols), true);
	}
	while (!sb_opt.count || got < sb_opt.count) {
		ssize_t n;

		sb_err_clear(&e);
		n = sb_rpmsg_recv(s.ept.fd, buf, sizeof(buf), timeout, &e);
		if (n == -EINTR && sb_stop_signal)
			break;
		if (n < 0) {
			/* a timeout after at least one message ends a bounded read quietly */
			if (n != -ETIMEDOUT || sb_opt.count || !got)
				rc = sb_report(RPMSGCTL, &e);
			break;
		}
		got++;
		sb_verbose(RPMSGCTL, "message %d: %zd bytes", got, n);
		if (t) {
			json_row(t, buf, (size_t)n);
			continue;
		}
		if (hex)
			print_hex(buf, (size_t)n);
		else {
			fwrite(buf, 1, (size_t)n, stdout);
			if (!raw_bytes && (n == 0 || buf[n - 1] != '\n'))
				putchar('\n');
		}
		if (fflush(stdout) == EOF) {
			/* EPIPE (with SIGPIPE): the reader has gone, nothing to say it to */
			if (errno != EPIPE)
				sb_eprintf(RPMSGCTL ": standard output: write: %s",
					   strerror(errno));
			rc = SB_EXIT_FAIL;
			break;
		}
	}
	if (sb_stop_signal) {
		sb_stop_text(why, sizeof(why), "after %d message(s)", got);
		sb_verbose(RPMSGCTL, "%s", why);
	}
	if (o) {
		if (sb_stop_signal)
			sb_out_note(o, "%s", why);
		sb_out_field_u64(o, "received", (uint64_t)got);
		if (sb_out_print(o) < 0 && !rc)
			rc = SB_EXIT_FAIL;
		sb_out_free(o);
	}
	return sb_stop_status(ept_session_close(c, &s) ?: rc);
}
