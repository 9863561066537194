// SPDX-License-Identifier: GPL-2.0-or-later
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/klog.h>
#include <unistd.h>

#include "socbox/kmsg.h"
#include "socbox/stop.h"

#define SYSLOG_ACTION_READ_ALL 3
#define SYSLOG_ACTION_SIZE_BUFFER 10

/* "[   12.345678] " -> microseconds; returns the text after it or NULL. */
static char *parse_bracket_ts(char *p, uint64_t *us)
{
	char *end;
	unsigned long long sec, frac = 0;
	int digits = 0;

	if (*p != '[')
		return NULL;
	p++;
	while (*p == ' ')
		p++;
	if (!isdigit((unsigned char)*p))
		return NULL;
	sec = strtoull(p, &end, 10);
	if (*end == '.') {
		end++;
		while (isdigit((unsigned char)*end)) {
			if (digits < 6) {
				frac = frac * 10 + (unsigned)(*end - '0');
				digits++;
			}
			end++;
		}
		while (digits++ < 6)
			frac *= 10;
	}
	if (*end != ']')
		return NULL;
	*us = sec * 1000000ull + frac;
	end++;
	if (*end == ' ')
		end++;
	return end;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

size_t sb_kmsg_unescape(char *s)
{
	char *w = s;
	const char *r = s;

	while (*r) {
		int hi, lo;

		if (r[0] == '\\' && r[1] == 'x' && (hi = hexval(r[2])) >= 0 &&
		    (lo = hexval(r[3])) >= 0 && (hi || lo)) {
			*w++ = (char)(hi << 4 | lo);
			r += 4;
			continue;
		}
		*w++ = *r++;
	}
	*w = '\0';
	return (size_t)(w - s);
}

bool sb_kmsg_parse_line(char *line, struct sb_kmsg_line *out)
{
	char *p = line, *semi, *end;

	memset(out, 0, sizeof(*out));
	out->prio = -1;
	if (!*line || *line == ' ')
		return false;
	/* /dev/kmsg record: PRI,SEQ,USEC,FLAGS[,...];text */
	semi = strchr(line, ';');
	if (isdigit((unsigned char)*p) && semi) {
		unsigned long long f[3];
		int i;

		for (i = 0; i < 3; i++) {
			f[i] = strtoull(p, &end, 10);
			if (end == p || (*end != ',' && *end != ';'))
				break;
			p = end + 1;
			if (*end == ';')
				break;
		}
		if (i >= 2 && end < semi + 1) {
			out->prio = (int)(f[0] & 7);
			out->seq = f[1];
			out->has_seq = true;
			out->ts_us = f[2];
			out->has_ts = true;
			out->text = semi + 1;
			sb_kmsg_unescape(semi + 1);
			return true;
		}
		p = line;
	}
	if (*p == '<' && isdigit((unsigned char)p[1])) {
		long pri = strtol(p + 1, &end, 10);

		if (*end == '>') {
			out->prio = (int)(pri & 7);
			p = end + 1;
		}
	}
	end = parse_bracket_ts(p, &out->ts_us);
	if (end) {
		out->has_ts = true;
		p = end;
	}
	out->text = p;
	return *p != '\0';
}

static int push_line(struct sb_kmsg *k, size_t *cap, const struct sb_kmsg_line *l)
{
	if (k->n == *cap) {
		struct sb_kmsg_line *n;

		*cap = *cap ? *cap * 2 : 256;
		n = realloc(k->lines, *cap * sizeof(*n));
		if (!n)
			return -ENOMEM;
		k->lines = n;
	}
	k->lines[k->n++] = *l;
	return 0;
}

/* The next line of a record whose text holds newlines (a multi-line printk, unescaped):
 * cut the text at the first one and return the rest, NULL when there is none. */
static char *split_record(struct sb_kmsg_line *l)
{
	char *nl = strchr(l->text, '\n');

	if (!nl)
		return NULL;
	*nl = '\0';
	return nl[1] ? nl + 1 : NULL;
}

/* Records skipped between the last one and l (0 when l has no sequence number). */
static uint64_t gap(bool *have, uint64_t *next, const struct sb_kmsg_line *l)
{
	uint64_t lost = 0;

	if (!l->has_seq)
		return 0;
	if (*have && l->seq > *next)
		lost = l->seq - *next;
	*have = true;
	*next = l->seq + 1;
	return lost;
}

/* " DEVICE=VALUE", a dictionary line of the record before it: VALUE, else NULL. */
static const char *dict_device(const char *line)
{
	static const char key[] = " DEVICE=";

	return strncmp(line, key, sizeof(key) - 1) || !line[sizeof(key) - 1]
		       ? NULL
		       : line + sizeof(key) - 1;
}

const char *sb_kmsg_device_name(const struct sb_kmsg_line *l)
{
	const char *colon;

	if (!l->device || l->device[0] != '+')
		return NULL;
	colon = strchr(l->device, ':');
	return colon && colon[1] ? colon + 1 : NULL;
}

int sb_kmsg_parse(char *text, struct sb_kmsg *k)
{
	size_t cap = 0, rec = 0; /* rec: the first line of the last record */
	char *line = text;
	uint64_t next = 0;
	bool have = false;

	k->buf = text;
	k->lines = NULL;
	k->n = 0;
	k->lost = 0;
	while (line && *line) {
		char *nl = strchr(line, '\n');
		struct sb_kmsg_line l;

		if (nl)
			*nl = '\0';
		if (nl && nl > line && nl[-1] == '\r')
			nl[-1] = '\0';
		if (rec < k->n && dict_device(line)) {
			for (size_t i = rec; i < k->n; i++)
				k->lines[i].device = dict_device(line);
		} else if (sb_kmsg_parse_line(line, &l)) {
			char *more;

			rec = k->n;
			k->lost += gap(&have, &next, &l);
			do {
				more = split_record(&l);
				if (push_line(k, &cap, &l))
					return -ENOMEM;
				l.text = more;
			} while (more);
		}
		line = nl ? nl + 1 : NULL;
	}
	return 0;
}

/* /dev/kmsg opened without blocking and a buffer of size bytes for its records: the fd, or
 * -errno with nothing left open. */
static int open_devkmsg(char **buf, size_t size)
{
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (!(*buf = malloc(size))) {
		close(fd);
		return -ENOMEM;
	}
	return fd;
}

/* Drain /dev/kmsg without blocking: one record per read(). */
static int read_devkmsg(char **out, size_t *len)
{
	size_t cap = 1 << 16, used = 0;
	char *buf = NULL;
	int fd = open_devkmsg(&buf, cap);

	if (fd < 0)
		return fd;
	for (;;) {
		ssize_t n;

		if (cap - used < 8192 + 2) {
			char *nb;

			if (cap >= SB_READ_LOG_MAX)
				break;
			nb = realloc(buf, cap * 2);
			if (!nb)
				break;
			buf = nb;
			cap *= 2;
		}
		n = read(fd, buf + used, cap - used - 2);
		if (n < 0 && errno == EPIPE) /* overwritten records: go on with the next one */
			continue;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		used += (size_t)n;
		if (buf[used - 1] != '\n')
			buf[used++] = '\n';
	}
	close(fd);
	buf[used] = '\0';
	*out = buf;
	*len = used;
	return 0;
}

static int read_klogctl(char **out)
{
	int size = klogctl(SYSLOG_ACTION_SIZE_BUFFER, NULL, 0), n;
	char *buf;

	if (size <= 0)
		size = 1 << 20;
	buf = malloc((size_t)size + 1);
	if (!buf)
		return -ENOMEM;
	n = klogctl(SYSLOG_ACTION_READ_ALL, buf, size);
	if (n < 0) {
		int err = errno;
		free(buf);
		return -err;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}

int sb_kmsg_read_raw(const struct sb_root *r, char **out, size_t *len, const char **source,
		     struct sb_err *e)
{
	char *buf = NULL;
	int rc;

	*out = NULL;
	*len = 0;
	if (!sb_root_is_live(r)) {
		ssize_t n = sb_read_file(r, &buf, SB_READ_LOG_MAX, "/dev/kmsg");

		if (n < 0)
			return sb_err_set(e, (int)-n, "/dev/kmsg",
					  "read the kernel log of the sysroot",
					  "take the snapshot as root so it includes the kernel log");
		*source = "sysroot";
		*out = buf;
		*len = (size_t)n;
		return 0;
	}
	rc = read_devkmsg(&buf, len);
	*source = "/dev/kmsg";
	if (rc) {
		int first = -rc;

		rc = read_klogctl(&buf);
		*source = "klogctl";
		if (rc)
			return sb_err_set(e, first, "/dev/kmsg", "read the kernel log",
					  "run as root or set kernel.dmesg_restrict=0");
		*len = strlen(buf);
	}
	*out = buf;
	return 0;
}

int sb_kmsg_read(const struct sb_root *r, struct sb_kmsg *k, struct sb_err *e)
{
	char *buf;
	size_t len;
	int rc;

	memset(k, 0, sizeof(*k));
	rc = sb_kmsg_read_raw(r, &buf, &len, &k->source, e);
	if (rc)
		return rc;
	rc = sb_kmsg_parse(buf, k);
	if (rc) {
		sb_kmsg_free(k);
		return sb_err_set(e, -rc, "kernel log", "parse", NULL);
	}
	return 0;
}

void sb_kmsg_free(struct sb_kmsg *k)
{
	free(k->lines);
	free(k->buf);
	k->lines = NULL;
	k->buf = NULL;
	k->n = 0;
}

/* ---- the log a line at a time (sb_kmsg_each) ---- */

#define STREAM_BLOCK (1 << 16)

struct kstream {
	sb_kmsg_fn fn;
	void *arg;
	struct sb_kmsg_info *info;
	char *rec, *tmp;       /* the pending record's line and a line being parsed (swapped) */
	struct sb_kmsg_line l; /* the pending record (text into rec) */
	bool pending, have_dev, have_seq;
	char dev[256]; /* its DEVICE= value */
	uint64_t next;
	int rc; /* what fn returned to stop */
};

/* Hand the pending record's lines to fn: its DEVICE= line, if any, has been seen. */
static void stream_flush(struct kstream *s)
{
	struct sb_kmsg_line l = s->l;
	char *more;

	if (!s->pending)
		return;
	s->pending = false;
	l.device = s->have_dev ? s->dev : NULL;
	do {
		more = split_record(&l);
		s->info->lines++;
		if (l.has_ts && l.ts_us > s->info->last_ts_us)
			s->info->last_ts_us = l.ts_us;
		s->rc = s->fn(s->arg, &l);
		l.text = more;
	} while (more && !s->rc);
}

/* One line of the log text (len bytes, no newline), as sb_kmsg_parse() takes it. */
static void stream_line(struct kstream *s, const char *line, size_t len)
{
	struct sb_kmsg_line l;
	const char *d;
	char *t;

	if (s->rc)
		return;
	if (len > SB_KMSG_LINE_MAX)
		len = SB_KMSG_LINE_MAX;
	if (len && line[len - 1] == '\r')
		len--;
	memcpy(s->tmp, line, len);
	s->tmp[len] = '\0';
	if (s->pending && (d = dict_device(s->tmp))) {
		snprintf(s->dev, sizeof(s->dev), "%s", d);
		s->have_dev = true;
		return;
	}
	if (!sb_kmsg_parse_line(s->tmp, &l))
		return;
	stream_flush(s);
	s->info->lost += gap(&s->have_seq, &s->next, &l);
	t = s->rec;
	s->rec = s->tmp;
	s->tmp = t;
	s->l = l;
	s->pending = true;
	s->have_dev = false;
}

/* The lines of a text of len bytes; the length of what ended in a newline (the rest is
 * a line still being read). */
static size_t stream_lines(struct kstream *s, const char *buf, size_t len)
{
	size_t start = 0;
	const char *nl;

	while (!s->rc && start < len && (nl = memchr(buf + start, '\n', len - start))) {
		stream_line(s, buf + start, (size_t)(nl - buf - start));
		start = (size_t)(nl - buf) + 1;
	}
	return start;
}

/* A sysroot's /dev/kmsg file in blocks. Like sb_kmsg_parse() on the whole text, it ends at
 * a NUL byte. */
static int stream_file(const struct sb_root *r, struct kstream *s)
{
	size_t cap = SB_KMSG_LINE_MAX + STREAM_BLOCK, have = 0, total = 0;
	bool skip = false, end = false;
	off_t size;
	int fd = sb_open_text(r, &size, "/dev/kmsg"), rc = 0;
	char *buf;

	if (fd < 0)
		return fd;
	if (size > 0 && (uint64_t)size > SB_READ_LOG_MAX) {
		close(fd);
		return -EFBIG;
	}
	buf = malloc(cap);
	if (!buf) {
		close(fd);
		return -ENOMEM;
	}
	while (!end && !s->rc) {
		ssize_t n = read(fd, buf + have, cap - have);
		char *nul;
		size_t done;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			rc = -errno;
			break;
		}
		total += (size_t)n;
		if (total > SB_READ_LOG_MAX) {
			rc = -EFBIG;
			break;
		}
		if ((nul = memchr(buf + have, '\0', (size_t)n))) {
			n = nul - (buf + have);
			end = true;
		}
		end |= n == 0;
		if (skip) { /* the rest of a line longer than SB_KMSG_LINE_MAX */
			char *nl = memchr(buf + have, '\n', (size_t)n);

			if (!nl)
				continue;
			skip = false;
			memmove(buf + have, nl + 1, (size_t)(buf + have + n - nl - 1));
			n = buf + have + n - nl - 1;
		}
		have += (size_t)n;
		done = stream_lines(s, buf, have);
		if (end && done < have) {
			stream_line(s, buf + done, have - done);
			done = have;
		}
		if (!done && have == cap) { /* no newline in the whole buffer */
			stream_line(s, buf, have);
			skip = true;
			done = have;
		}
		memmove(buf, buf + done, have - done);
		have -= done;
	}
	free(buf);
	close(fd);
	return rc;
}

/* /dev/kmsg without blocking: a record (its line and its dictionary lines) per read(). */
static int stream_devkmsg(struct kstream *s)
{
	char *buf = NULL;
	int fd = open_devkmsg(&buf, 8192 + 1);
	size_t total = 0;

	if (fd < 0)
		return fd;
	while (!s->rc && total < SB_READ_LOG_MAX) {
		ssize_t n = read(fd, buf, 8192);
		size_t done;

		if (n < 0 && (errno == EPIPE || errno == EINTR)) /* overwritten: go on */
			continue;
		if (n <= 0)
			break;
		total += (size_t)n;
		done = stream_lines(s, buf, (size_t)n);
		if (done < (size_t)n)
			stream_line(s, buf + done, (size_t)n - done);
	}
	close(fd);
	free(buf);
	return 0;
}

int sb_kmsg_each(const struct sb_root *r, sb_kmsg_fn fn, void *arg, struct sb_kmsg_info *info,
		 struct sb_err *e)
{
	struct sb_kmsg_info none = { 0 };
	struct kstream s = { .fn = fn, .arg = arg, .info = info ? info : &none };
	int rc;

	memset(s.info, 0, sizeof(*s.info));
	s.rec = malloc(2 * (SB_KMSG_LINE_MAX + 1));
	if (!s.rec)
		return sb_err_set(e, ENOMEM, "kernel log", "read", NULL);
	s.tmp = s.rec + SB_KMSG_LINE_MAX + 1;
	if (!sb_root_is_live(r)) {
		s.info->source = "sysroot";
		rc = stream_file(r, &s);
		if (rc < 0) {
			free(s.rec < s.tmp ? s.rec : s.tmp);
			return sb_err_set(e, -rc, "/dev/kmsg", "read the kernel log of the sysroot",
					  "take the snapshot as root so it includes the kernel log");
		}
	} else {
		s.info->source = "/dev/kmsg";
		rc = stream_devkmsg(&s);
		if (rc) {
			int first = -rc;
			char *text;

			s.info->source = "klogctl";
			rc = read_klogctl(&text);
			if (rc) {
				free(s.rec < s.tmp ? s.rec : s.tmp);
				return sb_err_set(e, first, "/dev/kmsg", "read the kernel log",
						  "run as root or set kernel.dmesg_restrict=0");
			}
			rc = (int)stream_lines(&s, text, strlen(text));
			if ((size_t)rc < strlen(text))
				stream_line(&s, text + rc, strlen(text) - (size_t)rc);
			free(text);
		}
	}
	if (!s.rc)
		stream_flush(&s);
	free(s.rec < s.tmp ? s.rec : s.tmp);
	return s.rc;
}

int sb_kmsg_follow_open(struct sb_kmsg_follow *f, struct sb_err *e)
{
	memset(f, 0, sizeof(*f));
	f->fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (f->fd < 0)
		return sb_err_set(e, errno, "/dev/kmsg", "open",
				  "run as root or set kernel.dmesg_restrict=0");
	if (lseek(f->fd, 0, SEEK_END) < 0) {
		int err = errno;

		close(f->fd);
		f->fd = -1;
		return sb_err_set(e, err, "/dev/kmsg", "seek to the end", NULL);
	}
	return 0;
}

void sb_kmsg_follow_close(struct sb_kmsg_follow *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
}

int sb_kmsg_follow_next(struct sb_kmsg_follow *f, struct sb_kmsg_line *out, int timeout_ms)
{
	if (f->more) {
		*out = f->last;
		out->text = f->more;
		f->more = split_record(out);
		return 0;
	}
	for (;;) {
		struct pollfd p = { .fd = f->fd, .events = POLLIN };
		ssize_t n = read(f->fd, f->buf, sizeof(f->buf) - 1);
		int rc;

		if (n > 0) {
			char *nl;

			f->buf[n] = '\0';
			/* the record's first line; " KEY=value" dictionary lines follow it */
			nl = strchr(f->buf, '\n');
			if (nl)
				*nl = '\0';
			if (!sb_kmsg_parse_line(f->buf, out))
				continue;
			f->lost += gap(&f->have_seq, &f->next_seq, out);
			f->more = split_record(out);
			f->last = *out;
			return 0;
		}
		if (n < 0 && errno == EPIPE) /* overwritten: the next read says how many (gap) */
			continue;
		if (n < 0 && errno != EAGAIN)
			return -errno;
		rc = sb_poll(&p, 1, timeout_ms);
		if (rc == 0)
			return -ETIMEDOUT;
		if (rc < 0)
			return rc;
	}
}

const char *sb_kmsg_dev_msg(const char *text, const char *driver, char *dev, size_t len)
{
	size_t dl = strlen(driver);
	const char *colon;

	if (strncmp(text, driver, dl) || text[dl] != ' ')
		return NULL;
	text += dl + 1;
	colon = strstr(text, ": ");
	if (!colon || memchr(text, ' ', (size_t)(colon - text)))
		return NULL;
	snprintf(dev, len, "%.*s", (int)(colon - text), text);
	return colon + 2;
}
