/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Progress of long work for a person at a terminal: one line on stderr, redrawn at most
 * SB_PROGRESS_HZ times a second, erased at the end. Bytes with rate and time left (copies,
 * bench runs), or iterations (stress, ping, cycles). Only when stderr is a terminal and the
 * command has neither -q nor -J (sb_progress_wanted()); otherwise every call is a test of one
 * pointer. Also the bars of the pictures in tables (histograms, throughput). */
#ifndef SOCBOX_PROGRESS_H
#define SOCBOX_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SB_PROGRESS_HZ 5

struct sb_ctx;

enum sb_progress_unit {
	SB_PROGRESS_BYTES, /* "1.2G of 4G (30%), 812M/s, 4 s left" */
	SB_PROGRESS_ITEMS, /* "12/1000 cycles" or "123456 requests, 41.2k/s" */
};

struct sb_progress {
	FILE *fp; /* NULL: off */
	const char *label;
	enum sb_progress_unit unit;
	const char *noun; /* SB_PROGRESS_ITEMS: "cycles", "requests" */
	uint64_t total;	  /* 0: unknown */
	double run_s;	  /* a run of this many seconds (time left from it), 0: none */
	uint64_t t0_ns, next_ns;
	int width;	/* terminal columns */
	size_t shown;	/* characters of the line now on the terminal */
	uint64_t draws; /* lines drawn (benchmarks) */
};

/* stderr is a terminal and the command has neither -q nor -J. */
bool sb_progress_wanted(const struct sb_ctx *c);
/* Start: on false leaves p off. fp is stderr for commands (benchmarks may give another). */
void sb_progress_start(struct sb_progress *p, bool on, FILE *fp, const char *label,
		       enum sb_progress_unit unit, const char *noun, uint64_t total);
void sb_progress_draw(struct sb_progress *p, uint64_t done);
/* The same at a given time of the coarse monotonic clock (tests draw at known times). */
void sb_progress_draw_at(struct sb_progress *p, uint64_t done, uint64_t now_ns);
/* done so far; redraws when the last drawing is 1/SB_PROGRESS_HZ s old. */
static inline void sb_progress_update(struct sb_progress *p, uint64_t done)
{
	if (p->fp)
		sb_progress_draw(p, done);
}
/* A line that stays (ping's line per echo, as ping(8)): the progress line is erased first. */
void sb_progress_line(struct sb_progress *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Erase the line; p is off afterwards. */
void sb_progress_end(struct sb_progress *p);

/* A bar of round(v / max * width) '#' (at least one for v > 0) into buf; its length. */
size_t sb_bar(char *buf, size_t len, double v, double max, int width);
/* "812M", "1.2G", "4.0K", "17" (binary units, as lsblk prints sizes) */
void sb_progress_size(char *buf, size_t len, double bytes);

#endif
