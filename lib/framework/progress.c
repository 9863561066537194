// SPDX-License-Identifier: GPL-2.0-or-later
/* Progress on stderr for long work, and bars (socbox/progress.h). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "socbox/cli.h"
#include "socbox/progress.h"

#define BAR_WIDTH 20

bool sb_progress_wanted(const struct sb_ctx *c)
{
	return !sb_opt.quiet && c->out.mode != SB_OUT_JSON && isatty(STDERR_FILENO);
}

/* the coarse clock: a few ns, ticks of 1-4 ms, plenty for redraws 5 times a second */
static uint64_t coarse_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void sb_progress_start(struct sb_progress *p, bool on, FILE *fp, const char *label,
		       enum sb_progress_unit unit, const char *noun, uint64_t total)
{
	struct winsize ws;

	memset(p, 0, sizeof(*p));
	if (!on || !fp)
		return;
	p->fp = fp;
	p->label = label;
	p->unit = unit;
	p->noun = noun ? noun : "";
	p->total = total;
	p->width = 80;
	if (ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col >= 20)
		p->width = ws.ws_col;
	p->t0_ns = coarse_ns();
	/* work done within one period shows nothing: no line that flickers away */
	p->next_ns = p->t0_ns + 1000000000ull / SB_PROGRESS_HZ;
}

size_t sb_bar(char *buf, size_t len, double v, double max, int width)
{
	size_t n = 0;

	if (max > 0 && v > 0 && width > 0) {
		n = (size_t)(v / max * width + 0.5);
		if (n < 1)
			n = 1;
		if (n > (size_t)width)
			n = (size_t)width;
	}
	if (len && n >= len)
		n = len - 1;
	memset(buf, '#', n);
	if (len)
		buf[n] = '\0';
	return n;
}

void sb_progress_size(char *buf, size_t len, double bytes)
{
	static const char units[] = "KMGTPE";
	int u = -1;

	while (bytes >= 1024 && u < (int)sizeof(units) - 2) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%.0f", bytes);
	else
		snprintf(buf, len, bytes < 10 ? "%.1f%c" : "%.0f%c", bytes, units[u]);
}

static void rate(char *buf, size_t len, const struct sb_progress *p, double per_s)
{
	char v[16];

	if (p->unit == SB_PROGRESS_BYTES) {
		sb_progress_size(v, sizeof(v), per_s);
		snprintf(buf, len, "%s/s", v);
	} else if (per_s >= 1e6) {
		snprintf(buf, len, "%.1fM/s", per_s / 1e6);
	} else if (per_s >= 1e4) {
		snprintf(buf, len, "%.1fk/s", per_s / 1e3);
	} else {
		snprintf(buf, len, "%.1f/s", per_s);
	}
}

static void amount(char *buf, size_t len, const struct sb_progress *p, uint64_t done)
{
	char a[16], b[16];

	if (p->unit == SB_PROGRESS_ITEMS) {
		if (p->total)
			snprintf(buf, len, "%llu/%llu %s", (unsigned long long)done,
				 (unsigned long long)p->total, p->noun);
		else
			snprintf(buf, len, "%llu %s", (unsigned long long)done, p->noun);
		return;
	}
	sb_progress_size(a, sizeof(a), (double)done);
	sb_progress_size(b, sizeof(b), (double)p->total);
	if (p->total)
		snprintf(buf, len, "%s of %s", a, b);
	else
		snprintf(buf, len, "%s", a);
}

void sb_progress_draw(struct sb_progress *p, uint64_t done)
{
	sb_progress_draw_at(p, done, coarse_ns());
}

void sb_progress_draw_at(struct sb_progress *p, uint64_t done, uint64_t now)
{
	double el, left = -1;
	char line[256], what[64], r[24] = "", bar[BAR_WIDTH + 1] = "";
	int n;

	if (now < p->next_ns)
		return;
	p->next_ns = now + 1000000000ull / SB_PROGRESS_HZ;
	el = (double)(now - p->t0_ns) / 1e9;
	amount(what, sizeof(what), p, done);
	if (el > 0.1 && done)
		rate(r, sizeof(r), p, (double)done / el);
	if (p->total) {
		sb_bar(bar, sizeof(bar), (double)done, (double)p->total, BAR_WIDTH);
		if (done && done <= p->total && el > 0.1)
			left = el * (double)(p->total - done) / (double)done;
	} else if (p->run_s > 0) {
		sb_bar(bar, sizeof(bar), el, p->run_s, BAR_WIDTH);
		left = p->run_s > el ? p->run_s - el : 0;
	}
	n = snprintf(line, sizeof(line), "%s: %s", p->label, what);
	if (bar[0] || p->total || p->run_s > 0)
		n += snprintf(line + n, sizeof(line) - (size_t)n, " [%-*s]", BAR_WIDTH, bar);
	if (r[0] && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, " %s", r);
	if (left >= 0 && (size_t)n < sizeof(line))
		n += snprintf(line + n, sizeof(line) - (size_t)n, ", %.0f s left", left + 0.5);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (n > p->width - 1) /* never wrap: a wrapped line cannot be redrawn in place */
		n = p->width - 1;
	/* \r then the line, then erase what a longer previous line left behind */
	fprintf(p->fp, "\r%.*s\033[K", n, line);
	fflush(p->fp);
	p->shown = (size_t)n;
	p->draws++;
}

void sb_progress_line(struct sb_progress *p, const char *fmt, ...)
{
	char line[512];
	size_t n = 0;
	va_list ap;
	int k;

	if (!p->fp)
		return;
	if (p->shown)
		n = (size_t)snprintf(line, sizeof(line), "\r\033[K");
	va_start(ap, fmt);
	k = vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (k < 0)
		return;
	n += (size_t)k < sizeof(line) - n - 1 ? (size_t)k : sizeof(line) - n - 2;
	line[n++] = '\n';
	/* one write: stderr is unbuffered, and a ping line comes per round trip */
	fwrite(line, 1, n, p->fp);
	fflush(p->fp);
	p->shown = 0;
	p->next_ns = 0; /* the progress line comes back at the next update */
}

void sb_progress_end(struct sb_progress *p)
{
	if (p->fp && p->shown) {
		fputs("\r\033[K", p->fp);
		fflush(p->fp);
	}
	p->fp = NULL;
	p->shown = 0;
}
