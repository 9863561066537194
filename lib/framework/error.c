// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "socbox/error.h"

const char *sb_strerror(int errnum)
{
	if (errnum < 0)
		errnum = -errnum;
	return errnum == SB_ENOTREG ? "not a regular file" : strerror(errnum);
}

void sb_err_clear(struct sb_err *e)
{
	if (e)
		memset(e, 0, sizeof(*e));
}

static void copy(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src ? src : "");
}

int sb_err_set(struct sb_err *e, int errnum, const char *object, const char *what,
	       const char *hint_fmt, ...)
{
	if (errnum < 0)
		errnum = -errnum;
	if (e) {
		sb_err_clear(e);
		e->errnum = errnum;
		copy(e->object, sizeof(e->object), object);
		copy(e->what, sizeof(e->what), what);
		if (hint_fmt) {
			va_list ap;
			va_start(ap, hint_fmt);
			vsnprintf(e->hint, sizeof(e->hint), hint_fmt, ap);
			va_end(ap);
		}
	}
	return errnum ? -errnum : -EIO;
}

void sb_err_reason(struct sb_err *e, const char *fmt, ...)
{
	va_list ap;
	if (!e)
		return;
	va_start(ap, fmt);
	vsnprintf(e->reason, sizeof(e->reason), fmt, ap);
	va_end(ap);
}

void sb_err_hint(struct sb_err *e, const char *fmt, ...)
{
	va_list ap;
	if (!e)
		return;
	va_start(ap, fmt);
	vsnprintf(e->hint, sizeof(e->hint), fmt, ap);
	va_end(ap);
}

void sb_err_exit(struct sb_err *e, enum sb_exit code)
{
	if (e)
		e->exit_code = code;
}

int sb_exit_from_errno(int errnum)
{
	switch (errnum < 0 ? -errnum : errnum) {
	case 0:
		return SB_EXIT_OK;
	case EPERM:
	case EACCES:
		return SB_EXIT_PERM;
	case ENOTTY:
	case EOPNOTSUPP:
	case ENOSYS:
	case ENODEV:
	case ENXIO:
	case EAFNOSUPPORT:
	case EPROTONOSUPPORT:
		return SB_EXIT_UNSUPPORTED;
	default:
		return SB_EXIT_FAIL;
	}
}

int sb_err_exit_code(const struct sb_err *e)
{
	if (!e)
		return SB_EXIT_FAIL;
	if (e->exit_code)
		return e->exit_code;
	if (!e->errnum)
		return SB_EXIT_FAIL;
	return sb_exit_from_errno(e->errnum);
}

void sb_err_format(const struct sb_err *e, char *buf, unsigned long len)
{
	const char *reason = e->reason[0] ? e->reason : e->errnum ? sb_strerror(e->errnum) : "";
	size_t off = 0;

	buf[0] = '\0';
#define PART(s) \
	do { \
		if ((s)[0] && off < len) \
			off += (size_t)snprintf(buf + off, len - off, "%s%s", off ? ": " : "", \
						(s)); \
	} while (0)
	PART(e->object);
	PART(e->what);
	PART(reason);
#undef PART
	if (e->hint[0] && off < len)
		snprintf(buf + off, len - off, "%s(%s)", off ? " " : "", e->hint);
	if (!buf[0])
		snprintf(buf, len, "unknown error");
}

unsigned sb_err_width(FILE *fp)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");
	char *end;
	long v;

	if (!isatty(fileno(fp)))
		return 0;
	if (env && *env) {
		v = strtol(env, &end, 10);
		if (!*end && v > 0 && v < 10000)
			return (unsigned)v;
	}
	if (ioctl(fileno(fp), TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0)
		return ws.ws_col;
	return 80;
}

/* display columns of s[0..n): UTF-8 continuation bytes take none */
static size_t columns(const char *s, size_t n)
{
	size_t w = 0;

	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xc0) != 0x80;
	return w;
}

#define WRAP_INDENT "  "

void sb_err_put_wrapped(FILE *fp, const char *line, unsigned width)
{
	size_t used = 0, indent = 0;
	const char *p = line;

	/* too narrow to wrap usefully: one line, as for a script */
	if (width < 20) {
		fprintf(fp, "%s\n", line);
		return;
	}
	while (*p) {
		size_t sp = strspn(p, " "), word = strcspn(p + sp, " ");
		size_t ww = columns(p + sp, word);

		/* break before a word that does not fit; a word wider than a line is never cut */
		if (used > indent && used + sp + ww > width) {
			fputs("\n" WRAP_INDENT, fp);
			used = indent = strlen(WRAP_INDENT);
			p += sp;
			sp = 0;
		}
		fprintf(fp, "%.*s", (int)(sp + word), p);
		used += sp + ww;
		p += sp + word;
	}
	fputc('\n', fp);
}
