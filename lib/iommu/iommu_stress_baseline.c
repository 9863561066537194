// SPDX-License-Identifier: GPL-2.0-or-later
/* A small strict JSON reader for the one document shape 'smmustat stress --json' writes
 * (see socbox/iommu_stress_baseline.h). Values the run does not need are parsed and skipped, so
 * the whole file must be valid JSON. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socbox/iommu_stress_baseline.h"
#include "socbox/sys.h"

#define HINT "give the --json output of an earlier 'smmustat stress'"

struct rd {
	const char *s;
	size_t len, pos;
	const char *name;
	struct sb_err *e;
};

static int fail(struct rd *r, const char *fmt, const char *arg)
{
	sb_err_set(r->e, EINVAL, r->name, "read baseline", HINT);
	if (r->pos >= r->len)
		sb_err_reason(r->e, "at byte %zu: file ends early (truncated?)", r->pos);
	else
		sb_err_reason(r->e, "at byte %zu: %s%s", r->pos, fmt, arg ? arg : "");
	sb_err_exit(r->e, SB_EXIT_USAGE);
	return -EINVAL;
}

static void skip_ws(struct rd *r)
{
	while (r->pos < r->len && strchr(" \t\r\n", r->s[r->pos]) && r->s[r->pos])
		r->pos++;
}

static bool peek(struct rd *r, char c)
{
	skip_ws(r);
	return r->pos < r->len && r->s[r->pos] == c;
}

static int expect(struct rd *r, char c)
{
	char what[4] = { '\'', c, '\'', '\0' };

	if (peek(r, c)) {
		r->pos++;
		return 0;
	}
	return fail(r, "expected ", what);
}

static int hexval(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

static int read_hex4(struct rd *r, unsigned *cp)
{
	*cp = 0;
	for (int i = 0; i < 4; i++) {
		int v = r->pos < r->len ? hexval(r->s[r->pos]) : -1;

		if (v < 0)
			return fail(r, "bad \\u escape", NULL);
		*cp = *cp << 4 | (unsigned)v;
		r->pos++;
	}
	return 0;
}

/* Append to out (truncating silently at cap, always terminated when cap > 0). */
static void put(char *out, size_t cap, size_t *n, unsigned char c)
{
	if (out && *n + 1 < cap)
		out[(*n)++] = (char)c;
}

static void put_utf8(char *out, size_t cap, size_t *n, unsigned cp)
{
	if (cp < 0x80) {
		put(out, cap, n, (unsigned char)cp);
	} else if (cp < 0x800) {
		put(out, cap, n, (unsigned char)(0xc0 | cp >> 6));
		put(out, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		put(out, cap, n, (unsigned char)(0xe0 | cp >> 12));
		put(out, cap, n, (unsigned char)(0x80 | (cp >> 6 & 0x3f)));
		put(out, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
	} else {
		put(out, cap, n, (unsigned char)(0xf0 | cp >> 18));
		put(out, cap, n, (unsigned char)(0x80 | (cp >> 12 & 0x3f)));
		put(out, cap, n, (unsigned char)(0x80 | (cp >> 6 & 0x3f)));
		put(out, cap, n, (unsigned char)(0x80 | (cp & 0x3f)));
	}
}

/* A string value, decoded into out (NULL to skip). */
static int read_string(struct rd *r, char *out, size_t cap)
{
	size_t n = 0;
	int rc;

	if ((rc = expect(r, '"')))
		return rc;
	for (;;) {
		unsigned char c;

		if (r->pos >= r->len)
			return fail(r, "", NULL);
		c = (unsigned char)r->s[r->pos++];
		if (c == '"')
			break;
		if (c < 0x20)
			return fail(r, "control character in a string", NULL);
		if (c != '\\') {
			put(out, cap, &n, c);
			continue;
		}
		if (r->pos >= r->len)
			return fail(r, "", NULL);
		c = (unsigned char)r->s[r->pos++];
		switch (c) {
		case '"':
		case '\\':
		case '/':
			put(out, cap, &n, c);
			break;
		case 'b':
			put(out, cap, &n, '\b');
			break;
		case 'f':
			put(out, cap, &n, '\f');
			break;
		case 'n':
			put(out, cap, &n, '\n');
			break;
		case 'r':
			put(out, cap, &n, '\r');
			break;
		case 't':
			put(out, cap, &n, '\t');
			break;
		case 'u': {
			unsigned cp, lo;

			if ((rc = read_hex4(r, &cp)))
				return rc;
			if (cp >= 0xdc00 && cp < 0xe000)
				return fail(r, "lone low surrogate", NULL);
			if (cp >= 0xd800 && cp < 0xdc00) {
				if (r->pos + 1 >= r->len || r->s[r->pos] != '\\' ||
				    r->s[r->pos + 1] != 'u')
					return fail(r, "lone high surrogate", NULL);
				r->pos += 2;
				if ((rc = read_hex4(r, &lo)))
					return rc;
				if (lo < 0xdc00 || lo >= 0xe000)
					return fail(r, "bad surrogate pair", NULL);
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			}
			put_utf8(out, cap, &n, cp);
			break;
		}
		default:
			r->pos--;
			return fail(r, "bad escape in a string", NULL);
		}
	}
	if (out && cap)
		out[n] = '\0';
	return 0;
}

/* A number token: [-] int [frac] [exp], per RFC 8259. *integral says it had neither. */
static int read_number(struct rd *r, char *tok, size_t cap, bool *integral)
{
	size_t start, i;

	skip_ws(r);
	start = i = r->pos;
	*integral = true;
	if (i < r->len && r->s[i] == '-')
		i++;
	if (i < r->len && r->s[i] == '0') {
		i++;
	} else if (i < r->len && r->s[i] >= '1' && r->s[i] <= '9') {
		while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9')
			i++;
	} else {
		return fail(r, "expected a value", NULL);
	}
	if (i < r->len && r->s[i] == '.') {
		*integral = false;
		if (++i >= r->len || r->s[i] < '0' || r->s[i] > '9')
			return r->pos = i, fail(r, "bad number", NULL);
		while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9')
			i++;
	}
	if (i < r->len && (r->s[i] == 'e' || r->s[i] == 'E')) {
		*integral = false;
		if (++i < r->len && (r->s[i] == '+' || r->s[i] == '-'))
			i++;
		if (i >= r->len || r->s[i] < '0' || r->s[i] > '9')
			return r->pos = i, fail(r, "bad number", NULL);
		while (i < r->len && r->s[i] >= '0' && r->s[i] <= '9')
			i++;
	}
	if (i - start >= cap)
		return fail(r, "number too long", NULL);
	memcpy(tok, r->s + start, i - start);
	tok[i - start] = '\0';
	r->pos = i;
	return 0;
}

static int read_literal(struct rd *r, const char *lit)
{
	size_t n = strlen(lit);

	if (r->len - r->pos < n || memcmp(r->s + r->pos, lit, n))
		return fail(r, "expected a value", NULL);
	r->pos += n;
	return 0;
}

static int skip_value(struct rd *r, int depth);

static int skip_members(struct rd *r, int depth, char open, char close)
{
	int rc;

	if (depth > SB_PARSE_MAX_DEPTH)
		return fail(r, "nested too deeply", NULL);
	if ((rc = expect(r, open)))
		return rc;
	if (peek(r, close)) {
		r->pos++;
		return 0;
	}
	for (;;) {
		if (open == '{' && ((rc = read_string(r, NULL, 0)) || (rc = expect(r, ':'))))
			return rc;
		if ((rc = skip_value(r, depth + 1)))
			return rc;
		if (peek(r, close)) {
			r->pos++;
			return 0;
		}
		if ((rc = expect(r, ',')))
			return rc;
	}
}

static int skip_value(struct rd *r, int depth)
{
	char tok[64];
	bool integral;

	skip_ws(r);
	if (r->pos >= r->len)
		return fail(r, "", NULL);
	switch (r->s[r->pos]) {
	case '{':
		return skip_members(r, depth, '{', '}');
	case '[':
		return skip_members(r, depth, '[', ']');
	case '"':
		return read_string(r, NULL, 0);
	case 't':
		return read_literal(r, "true");
	case 'f':
		return read_literal(r, "false");
	case 'n':
		return read_literal(r, "null");
	default:
		return read_number(r, tok, sizeof(tok), &integral);
	}
}

static int read_u64(struct rd *r, const char *key, uint64_t *v)
{
	char tok[64], *end;
	bool integral;
	size_t at;
	int rc;

	skip_ws(r);
	at = r->pos;
	if ((rc = read_number(r, tok, sizeof(tok), &integral)))
		return rc;
	errno = 0;
	*v = strtoull(tok, &end, 10);
	if (!integral || tok[0] == '-' || errno || *end) {
		r->pos = at;
		return fail(r, "not a count: ", key);
	}
	return 0;
}

static int read_double(struct rd *r, const char *key, double *v)
{
	char tok[64];
	bool integral;
	size_t at;
	int rc;

	skip_ws(r);
	at = r->pos;
	if ((rc = read_number(r, tok, sizeof(tok), &integral)))
		return rc;
	*v = strtod(tok, NULL);
	if (!(*v > 0)) {
		r->pos = at;
		return fail(r, "not a positive number: ", key);
	}
	return 0;
}

/* One object of "runs": only "run" is kept (a fallback label); every value must parse. */
static int read_run(struct rd *r, char *label, size_t cap)
{
	char key[64];
	int rc;

	if (!peek(r, '{'))
		return fail(r, "expected an object in \"runs\"", NULL);
	r->pos++;
	if (peek(r, '}')) {
		r->pos++;
		return 0;
	}
	for (;;) {
		if ((rc = read_string(r, key, sizeof(key))) || (rc = expect(r, ':')))
			return rc;
		if (!strcmp(key, "run") && peek(r, '"'))
			rc = read_string(r, label, cap);
		else
			rc = skip_value(r, 3);
		if (rc)
			return rc;
		if (peek(r, '}')) {
			r->pos++;
			return 0;
		}
		if ((rc = expect(r, ',')))
			return rc;
	}
}

static int read_runs(struct rd *r, struct sb_stress_baseline *b, char *last_run, size_t cap)
{
	int rc;

	if (!peek(r, '['))
		return fail(r, "\"runs\" is not an array", NULL);
	r->pos++;
	b->nruns = 0;
	if (peek(r, ']')) {
		r->pos++;
		return 0;
	}
	for (;;) {
		last_run[0] = '\0';
		if ((rc = read_run(r, last_run, cap)))
			return rc;
		b->nruns++;
		if (peek(r, ']')) {
			r->pos++;
			return 0;
		}
		if ((rc = expect(r, ',')))
			return rc;
	}
}

enum { K_TOTAL = 1, K_AVG = 2, K_DURATION = 4, K_RUNS = 8, K_LABEL = 16 };

int sb_stress_baseline_parse(const char *text, size_t len, const char *name,
			     struct sb_stress_baseline *b, struct sb_err *e)
{
	struct rd r = { .s = text, .len = len, .name = name, .e = e };
	char key[64], last_run[64] = "";
	unsigned seen = 0;
	bool first = true;
	uint64_t u;
	int rc;

	memset(b, 0, sizeof(*b));
	if (!peek(&r, '{'))
		return fail(&r, "expected a JSON object", NULL);
	r.pos++;
	while (!peek(&r, '}')) {
		if (!first && (rc = expect(&r, ',')))
			return rc;
		first = false;
		if ((rc = read_string(&r, key, sizeof(key))) || (rc = expect(&r, ':')))
			return rc;
		if (!strcmp(key, "requests_total")) {
			rc = read_u64(&r, key, &b->total);
			seen |= K_TOTAL;
		} else if (!strcmp(key, "requests_per_cpu_avg")) {
			rc = read_u64(&r, key, &b->avg);
			seen |= K_AVG;
		} else if (!strcmp(key, "duration_s")) {
			rc = read_double(&r, key, &b->duration_s);
			seen |= K_DURATION;
		} else if (!strcmp(key, "cpus")) {
			if (!(rc = read_u64(&r, key, &u)))
				b->cpus = u > 0xffffffffu ? 0xffffffffu : (unsigned)u;
		} else if (!strcmp(key, "label") && peek(&r, '"')) {
			rc = read_string(&r, b->label, sizeof(b->label));
			seen |= K_LABEL;
		} else if (!strcmp(key, "path") && peek(&r, '"')) {
			rc = read_string(&r, b->path, sizeof(b->path));
		} else if (!strcmp(key, "runs")) {
			rc = read_runs(&r, b, last_run, sizeof(last_run));
			seen |= K_RUNS;
		} else {
			rc = skip_value(&r, 1);
		}
		if (rc)
			return rc;
	}
	r.pos++;
	skip_ws(&r);
	if (r.pos < r.len)
		return fail(&r, "text after the JSON object", NULL);
	if ((seen & (K_TOTAL | K_AVG | K_DURATION | K_RUNS)) !=
	    (K_TOTAL | K_AVG | K_DURATION | K_RUNS)) {
		sb_err_set(e, EINVAL, name, "read baseline", HINT);
		sb_err_reason(e, "not a stress run: %s missing",
			      !(seen & K_TOTAL)	     ? "requests_total"
			      : !(seen & K_AVG)	     ? "requests_per_cpu_avg"
			      : !(seen & K_DURATION) ? "duration_s"
						     : "the \"runs\" table");
		sb_err_exit(e, SB_EXIT_USAGE);
		return -EINVAL;
	}
	if (!(seen & K_LABEL))
		snprintf(b->label, sizeof(b->label), "%s", last_run);
	return 0;
}

int sb_stress_baseline_load(const char *file, struct sb_stress_baseline *b, struct sb_err *e)
{
	char *text = NULL;
	ssize_t len = sb_read_user_file(file, &text, SB_READ_INPUT_MAX);
	int rc;

	if (len < 0)
		return sb_err_set(e, (int)-len, file, "read baseline", HINT);
	/* a NUL byte inside is just an invalid character to the parser */
	rc = sb_stress_baseline_parse(text, (size_t)len, file, b, e);
	free(text);
	return rc;
}
