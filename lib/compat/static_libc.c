// SPDX-License-Identifier: GPL-2.0-or-later
/* The static build (SOCBOX_STATIC) must not load anything from the board at run time, and a
 * static glibc would: NSS modules for getpwuid()/getgrgid() and gconv modules for iconv(),
 * dlopen()ed from the board's own glibc, of another version. So here:
 * - getpwuid()/getgrgid() read /etc/passwd and /etc/group only, as "files" in nsswitch;
 * - iconv_open() fails (EINVAL), so popt prints its help text as written (UTF-8, ASCII in
 *   practice) instead of converting it to the locale's charset.
 * - glibc's internal __fxprintf() (assert messages, /etc/host.conf warnings of the resolver
 *   set-up that pthread_create() links) prints with vfprintf() alone: socbox never makes a
 *   stream wide-oriented, so glibc would take that path too, and its wide printf stays out;
 * - the gettext functions return the message as written: socbox never calls setlocale(), so
 *   it runs in the "C" locale, where glibc's gettext returns every message untranslated
 *   (LANGUAGE is ignored there); only popt and glibc's strerror() ask.
 * The linker then leaves glibc's NSS, gconv and dlopen machinery out: about 190 KiB, and
 * most of its message catalogue code (catalogue loading, plural expressions, locale
 * aliases, charset conversion of translations) and its wide-character printf: about 44 KiB.
 * A glibc whose objects define one of these next to something else socbox needs fails the
 * link (a duplicate definition), never silently. */
#define _GNU_SOURCE
#include "socbox/config.h"

#if SOCBOX_STATIC
#include <errno.h>
#include <grp.h>
#include <iconv.h>
#include <libintl.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>

struct passwd *getpwuid(uid_t uid)
{
	FILE *f = fopen("/etc/passwd", "re");
	struct passwd *pw = NULL;

	if (!f)
		return NULL;
	while ((pw = fgetpwent(f)) && pw->pw_uid != uid)
		;
	fclose(f);
	return pw;
}

struct group *getgrgid(gid_t gid)
{
	FILE *f = fopen("/etc/group", "re");
	struct group *gr = NULL;

	if (!f)
		return NULL;
	while ((gr = fgetgrent(f)) && gr->gr_gid != gid)
		;
	fclose(f);
	return gr;
}

iconv_t iconv_open(const char *tocode, const char *fromcode)
{
	errno = EINVAL;
	return (iconv_t)-1;
}

size_t iconv(iconv_t cd, char **in, size_t *inleft, char **out, size_t *outleft)
{
	errno = EBADF;
	return (size_t)-1;
}

int iconv_close(iconv_t cd)
{
	errno = EBADF;
	return -1;
}

/* glibc's own: stderr when fp is NULL; the wide path only for a wide-oriented stream */
int __fxprintf(FILE *fp, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int __fxprintf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vfprintf(fp ? fp : stderr, fmt, ap);
	va_end(ap);
	return n;
}

/* glibc's own callers (strerror) use the internal name */
char *__dcgettext(const char *domain, const char *msgid, int category);

char *__dcgettext(const char *domain, const char *msgid, int category)
{
	return (char *)msgid;
}

char *dcgettext(const char *domain, const char *msgid, int category)
{
	return (char *)msgid;
}

/* what glibc answers before any textdomain() call */
char *textdomain(const char *domain)
{
	return (char *)"messages";
}

char *bindtextdomain(const char *domain, const char *dir)
{
	return NULL;
}

/* no codeset was ever bound: glibc's answer */
char *bind_textdomain_codeset(const char *domain, const char *codeset)
{
	return NULL;
}
#endif
